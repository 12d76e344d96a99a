// The problem page: typeset the statement's math (KaTeX), and CodeMirror on the code box
// (it writes back into the textarea when the form is sent, so the page works without it too).
document.querySelectorAll(".statement .math").forEach((el) => {
  try {
    katex.render(el.textContent, el, {displayMode: el.classList.contains("block"), throwOnError: false});
  } catch (e) { /* the formula stays as text */ }
});
const code = document.getElementById("code");
if (code && window.CodeMirror) {
  const editor = CodeMirror.fromTextArea(code, {mode: "python", lineNumbers: true, indentUnit: 4});
  window.classEditor = editor;
  autosave(editor, code.dataset.slug);
}

// The student's code is kept on the server as they type (their draft of this problem), each save
// naming the version it was based on: another tab's newer save is a conflict said on the page,
// never overwritten.
function autosave(editor, slug) {
  const version = document.getElementById("version");
  const status = document.getElementById("saved");
  const csrf = document.querySelector("input[name=csrf]").value;
  let timer = null, saving = false, again = false, conflict = false;
  const say = (text) => { status.textContent = text; };
  async function save() {
    if (conflict) return;
    if (saving) { again = true; return; }
    saving = true;
    const text = editor.getValue();
    try {
      const answer = await fetch(`/api/problems/${slug}/draft`, {method: "PUT", body: text,
        headers: {"If-Match": `"${version.value}"`, "X-CSRF-Token": csrf, "Content-Type": "text/plain"}});
      const data = await answer.json();
      if (answer.ok) {
        version.value = data.version;
        say("saved");
      } else if (answer.status === 409) {
        conflict = true;
        say("saved in another tab since: reload the page to get that code (this text is not saved)");
      } else {
        say(`not saved: ${data.error}`);
      }
    } catch (e) {
      say("not saved: the server cannot be reached");
    }
    saving = false;
    if (again) { again = false; save(); }
  }
  editor.on("change", () => {
    say("editing");
    clearTimeout(timer);
    timer = setTimeout(save, 800);
  });
}

// A form that changes much (Rejudge all) asks first.
document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});

// A contest's time left, counted down on the page (the server gave it when the page was made).
const left = document.getElementById("time-left");
if (left) {
  const ends = Date.now() + Number(left.dataset.seconds) * 1000;
  const tick = () => {
    const s = Math.max(0, Math.round((ends - Date.now()) / 1000));
    const two = (n) => String(n).padStart(2, "0");
    left.textContent = s ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : "over";
    if (s) setTimeout(tick, 1000);
  };
  tick();
}
