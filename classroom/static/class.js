// The problem page: typeset the statement's math (KaTeX), and CodeMirror on the code box
// (it writes back into the textarea when the form is sent, so the page works without it too).
document.querySelectorAll(".statement .math").forEach((el) => {
  try {
    katex.render(el.textContent, el, {displayMode: el.classList.contains("block"), throwOnError: false});
  } catch (e) { /* the formula stays as text */ }
});
const code = document.getElementById("code");
if (code && window.CodeMirror) {
  CodeMirror.fromTextArea(code, {mode: "python", lineNumbers: true, indentUnit: 4});
}
