// The problem page: statement with typeset math, the editor on practice/<slug>.py, Run, Submit,
// Hint, Cancel, History and Editorial. Every judging happens on the server (python -m judge).
"use strict";

const page = document.getElementById("page");
const slug = page.dataset.slug;
const file = page.dataset.file;
const csrf = document.querySelector('meta[name="csrf"]').content;
const api = (path) => `/api/problems/${slug}/${path}${path.includes("?") ? "&" : "?"}file=${encodeURIComponent(file)}`;
const $ = (id) => document.getElementById(id);
let current = null;   // the judging being followed: {id, source}
let hintLevel = 1;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

async function call(path, options = {}) {
  const headers = Object.assign({"X-CSRF-Token": csrf}, options.headers || {});
  const response = await fetch(path, Object.assign({}, options, {headers, credentials: "same-origin"}));
  const body = await response.json().catch(() => ({error: `HTTP ${response.status}`}));
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

// -- statement ---------------------------------------------------------------------------------
function typeset(root) {
  root.querySelectorAll(".math").forEach((el) => {
    try {
      katex.render(el.textContent, el, {displayMode: el.classList.contains("block"), throwOnError: false});
    } catch (e) { /* leave the TeX source as it is */ }
  });
}

async function showStatement(lang) {
  const target = $("statement");
  try {
    const body = await call(`/api/problems/${slug}/statement?lang=${lang}`);
    target.innerHTML = body.html;
    typeset(target);
  } catch (e) {
    target.textContent = e.message;
  }
  document.querySelectorAll("button.lang").forEach((b) => b.classList.toggle("active", b.dataset.lang === lang));
}
document.querySelectorAll("button.lang").forEach((b) => b.addEventListener("click", () => showStatement(b.dataset.lang)));

// -- editor ------------------------------------------------------------------------------------
const editor = CodeMirror.fromTextArea($("source"), {
  mode: "python", lineNumbers: true, indentUnit: 4, tabSize: 4, matchBrackets: true,
  extraKeys: {Tab: (cm) => cm.replaceSelection("    ")},
});
window.judgeEditor = editor;  // for tests and the browser console
let saveTimer = null;
editor.on("change", () => {
  $("saved").textContent = "editing…";
  clearTimeout(saveTimer);
  saveTimer = setTimeout(save, 800);
});

async function save() {
  clearTimeout(saveTimer);
  try {
    const body = await call(api("source"), {method: "PUT", body: editor.getValue(),
                                             headers: {"Content-Type": "text/plain; charset=utf-8"}});
    $("saved").textContent = `saved (${body.bytes} bytes)`;
  } catch (e) {
    $("saved").textContent = `not saved: ${e.message}`;
    throw e;
  }
}

async function loadSource() {
  const body = await call(api("source"));
  editor.setValue(body.source);
  clearTimeout(saveTimer);
  $("saved").textContent = "";
}

// -- own input ---------------------------------------------------------------------------------
$("use-own").addEventListener("change", async () => {
  const box = $("own-input");
  box.hidden = !$("use-own").checked;
  if (!box.hidden && !box.value.trim()) {
    const sample = await call(`/api/problems/${slug}/sample`);
    box.value = JSON.stringify({input: sample.input}, null, 1);
  }
});

// -- judgings ----------------------------------------------------------------------------------
function busy(on) {
  ["run", "submit", "hint"].forEach((id) => { $(id).disabled = on; });
  $("cancel").disabled = !on;
}

function verdictBadge(verdict) {
  return `<span class="verdict v-${esc(verdict)}">${esc(verdict)}</span>`;
}

function follow(job, onTest, onDone) {
  current = {id: job, source: new EventSource(`/api/jobs/${job}/events`)};
  busy(true);
  const stop = () => { current.source.close(); current = null; busy(false); };
  current.source.addEventListener("test", (e) => onTest(JSON.parse(e.data)));
  current.source.addEventListener("done", (e) => { stop(); onDone(JSON.parse(e.data)); });
  current.source.addEventListener("error", (e) => {
    if (!e.data) return;  // a dropped connection: the browser reconnects by itself
    stop();
    $("result").insertAdjacentHTML("beforeend", `<p class="error">${esc(JSON.parse(e.data).message)}</p>`);
  });
  current.source.addEventListener("cancelled", () => {
    stop();
    $("result").insertAdjacentHTML("beforeend", `<p class="muted" id="cancelled">cancelled: nothing is left running</p>`);
  });
}

function testRow(t) {
  const time = t.time_ms == null ? "-" : `${Math.round(t.time_ms)} ms`;
  const memory = t.memory_mb == null ? "-" : `${t.memory_mb.toFixed(1)} MiB`;
  return `<tr><td>${t.index}/${t.total}</td><td>${esc(t.name)}</td><td>${verdictBadge(t.verdict)}</td>` +
         `<td>${time}</td><td>${memory}</td><td class="msg">${esc(t.message || "")}</td></tr>`;
}

async function submit(hint) {
  showPane("result");
  try { await save(); } catch (e) { return; }
  $("result").innerHTML = `<p class="muted" id="progress">${hint ? "judging for a hint" : "judging"}… verdicts appear as tests finish</p>` +
    `<table class="tests"><thead><tr><th>#</th><th>test</th><th>verdict</th><th>time</th><th>memory</th><th>message</th></tr></thead><tbody id="rows"></tbody></table>`;
  const path = hint ? api(`hint?level=${hintLevel}`) : api("submit");
  let body;
  try { body = await call(path, {method: "POST"}); } catch (e) { $("result").innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  follow(body.job, (t) => $("rows").insertAdjacentHTML("beforeend", testRow(t)), (done) => {
    const r = done.report;
    const summary = `<p id="verdict" class="summary">${verdictBadge(r.verdict)} ${r.passed}/${r.total} tests passed</p>`;
    $("progress").remove();
    $("result").insertAdjacentHTML("afterbegin", summary);
    $("result").insertAdjacentHTML("beforeend", `<pre class="report">${esc(r.text || r.message || "")}</pre>`);
    if (hint && hintLevel < 2) { hintLevel = 2; $("hint").textContent = "Hint (level 2)"; }
  });
}

function grid(rows, reference) {
  if (!Array.isArray(rows)) return `<p class="muted">(no output)</p>`;
  const asRows = Array.isArray(rows[0]) ? rows : [rows];
  const refRows = reference && (Array.isArray(reference[0]) ? reference : [reference]);
  const cells = asRows.slice(0, 16).map((row, i) => "<tr>" + row.slice(0, 12).map((v, j) => {
    const ref = refRows && refRows[i] ? refRows[i][j] : undefined;
    const off = ref !== undefined && Math.abs(v - ref) > Math.max(1e-6, 1e-6 * Math.abs(ref));
    return `<td class="${off ? "off" : ""}">${esc(Number(v).toPrecision(6))}</td>`;
  }).join("") + "</tr>").join("");
  return `<table class="grid">${cells}</table>`;
}

async function run() {
  showPane("result");
  try { await save(); } catch (e) { return; }
  let payload = "";
  if ($("use-own").checked) {
    try { payload = JSON.stringify(JSON.parse($("own-input").value)); }
    catch (e) { $("result").innerHTML = `<p class="error">your input is not JSON: ${esc(e.message)}</p>`; return; }
  }
  $("result").innerHTML = `<p class="muted">running on ${payload ? "your input" : "the sample"}…</p>`;
  let body;
  try { body = await call(api("run"), {method: "POST", body: payload, headers: {"Content-Type": "application/json"}}); }
  catch (e) { $("result").innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  follow(body.job, () => {}, (done) => {
    const r = done.report;
    $("result").innerHTML = `<p id="verdict" class="summary">${verdictBadge(r.verdict)} on ${esc(r.input)}</p>` +
      (r.message ? `<p class="msg">${esc(r.message)}</p>` : "") +
      `<div class="side"><div><h4>yours</h4>${grid(r.output, r.expected)}</div>` +
      `<div><h4>reference</h4>${grid(r.expected)}</div></div>`;
  });
}

$("run").addEventListener("click", run);
$("submit").addEventListener("click", () => submit(false));
$("hint").addEventListener("click", () => submit(true));
$("cancel").addEventListener("click", async () => {
  if (current) await call(`/api/jobs/${current.id}/cancel`, {method: "POST"}).catch(() => {});
});

// -- history and editorial ---------------------------------------------------------------------
function showPane(name) {
  document.querySelectorAll(".pane").forEach((p) => { p.hidden = p.id !== name; });
  document.querySelectorAll("button.rtab").forEach((b) => b.classList.toggle("active", b.dataset.pane === name));
}

async function showHistory() {
  const rows = await call(`/api/problems/${slug}/history`);
  $("history").innerHTML = rows.length ? `<table class="tests"><thead><tr><th>time (UTC)</th><th>kind</th><th>verdict</th><th>passed</th><th>first failing</th><th>slowest</th><th>file</th></tr></thead><tbody>` +
    rows.slice().reverse().map((r) => `<tr><td>${esc(r.time)}</td><td>${esc(r.kind)}</td><td>${verdictBadge(r.verdict)}</td><td>${r.passed}/${r.total}</td>` +
      `<td>${esc(r.first_failing || "-")}</td><td>${r.slowest_ms == null ? "-" : Math.round(r.slowest_ms) + " ms"}</td><td>${esc(r.path)}</td></tr>`).join("") +
    "</tbody></table>" : `<p class="muted">no judgings of ${esc(slug)} yet</p>`;
}

async function showEditorial(force) {
  const body = await call(`/api/problems/${slug}/editorial${force ? "?force=1" : ""}`);
  $("editorial").innerHTML = `<pre class="report">${esc(body.text)}</pre>` +
    (body.open ? "" : `<button id="force">show it anyway</button>`);
  if (!body.open) $("force").addEventListener("click", () => showEditorial(true));
}

document.querySelectorAll("button.rtab").forEach((b) => b.addEventListener("click", () => {
  showPane(b.dataset.pane);
  if (b.dataset.pane === "history") showHistory();
  if (b.dataset.pane === "editorial") showEditorial(false);
}));

showStatement("en");
loadSource();
