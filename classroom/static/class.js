// The problem page: typeset the statement's math (KaTeX), and CodeMirror on the code box
// (it writes back into the textarea when the form is sent, so the page works without it too).
document.querySelectorAll(".statement .math").forEach((el) => {
  try {
    katex.render(el.textContent, el, {displayMode: el.classList.contains("block"), throwOnError: false});
  } catch (e) { /* the formula stays as text */ }
});
const code = document.getElementById("code");
if (code && window.CodeMirror) {
  const editor = CodeMirror.fromTextArea(code, {mode: "python", lineNumbers: true, indentUnit: 4, lineWrapping: true});
  window.classEditor = editor;
  autosave(editor, code.dataset.slug);
  runButton(editor, code.dataset.slug);
}

// Run: the code on the sample or on the student's own input, judged now and shown here (per-test
// results and the console: what the run printed and its traceback); nothing is stored.
function runButton(editor, slug) {
  const buttons = ["run", "run-hint", "run-bug"].map((id) => document.getElementById(id)).filter(Boolean);
  const hintText = document.getElementById("run-hint-text");
  const csrf = document.querySelector("input[name=csrf]").value;
  const box = document.getElementById("run-result");
  const verdict = document.getElementById("run-verdict");
  const message = document.getElementById("run-message");
  const rows = document.querySelector("#run-tests tbody");
  const consoleBox = document.getElementById("run-console");
  buttons.forEach((button) => button.addEventListener("click", async () => {
    const level = Number(button.dataset.level || 0);
    hintText.hidden = true;
    const own = document.getElementById("own-input").value.trim();
    let input = null;
    box.hidden = false;
    rows.replaceChildren();
    consoleBox.textContent = "";
    if (own) {
      try {
        input = JSON.parse(own);
        if (input && input.input && typeof input.input === "object") input = input.input;
      } catch (e) {
        verdict.textContent = "";
        message.textContent = `your input is not JSON: ${e.message}`;
        return;
      }
    }
    buttons.forEach((b) => { b.disabled = true; });
    verdict.textContent = "";
    message.textContent = "running...";
    try {
      const answer = await fetch(`/api/problems/${slug}/run`, {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        body: JSON.stringify({code: editor.getValue(), input: input, hint: level})});
      const data = await answer.json();
      if (!answer.ok) {
        message.textContent = data.error;
      } else {
        verdict.textContent = data.verdict;
        verdict.className = `verdict ${data.verdict}`;
        message.textContent = `on ${data.input}` + (data.message ? `: ${data.message}` : "");
        const printed = [];
        for (const t of data.tests) {
          const row = document.createElement("tr");
          for (const cell of [t.name, t.verdict, t.time_ms === null ? "" : `${t.time_ms.toFixed(0)} ms`, t.message]) {
            const td = document.createElement("td");
            td.textContent = cell;
            row.appendChild(td);
          }
          rows.appendChild(row);
          if (t.output) printed.push(t.output);
          if (t.traceback) printed.push(t.traceback);
        }
        if (data.traceback) printed.push(data.traceback);
        consoleBox.textContent = printed.join("\n") || "(nothing printed)";
        if (data.hint) {
          hintText.textContent = `Hint: ${data.hint.text}`;
          hintText.hidden = false;
        }
      }
    } catch (e) {
      message.textContent = "the server cannot be reached";
    }
    buttons.forEach((b) => { b.disabled = false; });
  }));
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
    left.textContent = s ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`
      : (left.dataset.over || "over");
    if (s) setTimeout(tick, 1000);
  };
  tick();
}
