// The problem page of both servers: statement with typeset math, the editor on the user's code
// (practice/<slug>.py, or a student's draft kept by the class's server), Run, Submit, Hint, Cancel,
// History and Editorial. Every judging happens on the server. What the page may do is the server's
// word, in #page's data: mode (practice, class, contest), hints, editorial, force, cancel, test-inputs.
//
// Never losing work: every save names the version of the code it was based on (If-Match); code
// changed since (another tab, a terminal) is a conflict the user resolves, never an overwrite. A
// tab that regains focus with no unsaved change picks up the code saved elsewhere. A reloaded page
// follows the judging that still runs; a server that goes away is said in a banner.
"use strict";

const page = document.getElementById("page");
const slug = page.dataset.slug;
const file = page.dataset.file || "";  // the practice file named in the URL; none in a class
const where = page.dataset.where;
const practice = page.dataset.mode === "practice";
const CHANGED = practice ? "changed on disk" : "saved in another tab";
const LIMITS = {TLE: Number(page.dataset.timeLimit), MLE: Number(page.dataset.memoryLimit)};
const csrf = document.querySelector('meta[name="csrf"]').content;
const $ = (id) => document.getElementById(id);
const api = (path) => `/api/problems/${slug}/${path}` +
  (file ? `${path.includes("?") ? "&" : "?"}file=${encodeURIComponent(file)}` : "");
const state = {
  base: null,       // the version (sha256) of the file the editor's text is based on
  savedText: null,  // the text of that version
  saving: null,     // the save in flight
  conflict: null,   // {version, source}: what is on disk when a save was refused
  job: null,        // the judging followed: its summary {job, kind, level, input} and its EventSource
};

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

async function call(path, options = {}) {
  const headers = Object.assign({"X-CSRF-Token": csrf}, options.headers || {});
  let response;
  try {
    response = await fetch(path, Object.assign({}, options, {headers, credentials: "same-origin"}));
  } catch (e) {  // no answer at all: the server is gone, or the network
    lost();
    throw new Error("no answer from the server");
  }
  const body = await response.json().catch(() => ({error: `HTTP ${response.status}`}));
  if (!response.ok) {
    const error = new Error(body.error || `HTTP ${response.status}`);
    error.status = response.status;
    error.body = body;
    throw error;
  }
  return body;
}

// -- the connection ----------------------------------------------------------------------------
function lost(message) {
  $("lost-text").textContent = message || "Lost the connection to the server: it stopped, or the network is down. " +
    `Your text stays in this tab; ${practice ? "start the server again (make serve)" : "when the class's server is back"}, then Retry.`;
  $("lost").hidden = false;
  if (state.job) banner("error", `<span id="server-stopped">${esc(LABELS[pageLang()].stopped)}</span>`);
  if (state.job && state.job.source) { state.job.source.close(); state.job.source = null; }
  busy(false);
}

async function retry() {
  $("lost-text").textContent = "trying again…";
  let response;
  try {
    response = await fetch("/api/ping", {credentials: "same-origin"});
  } catch (e) {
    $("lost-text").textContent = `Still no answer from the server. ${practice ? "Start it again (make serve), then " : ""}Retry.`;
    return;
  }
  if (!response.ok) {
    $("lost-text").textContent = response.status === 403 || response.status === 401
      ? (practice ? "The server answers, but this tab's session ended (it restarted, or has another token): open the URL it printed."
        : "The server answers, but this tab's session ended: sign in again (reload the page).")
      : `The server answers ${response.status}: Retry in a moment.`;
    return;
  }
  $("lost").hidden = true;
  const followed = state.job;
  if (followed) {
    try {
      follow(await call(`/api/jobs/${followed.job}`));
    } catch (e) {
      state.job = null;
      banner("error", "The judging was lost with the server (it restarted): run it again.");
    }
  }
  if (dirty() && !state.conflict) save().catch(() => {});
}
$("retry").addEventListener("click", retry);

// -- statement ---------------------------------------------------------------------------------
function typeset(root) {
  root.querySelectorAll(".math").forEach((el) => {
    try {
      katex.render(el.textContent, el, {displayMode: el.classList.contains("block"), throwOnError: false});
    } catch (e) { /* leave the TeX source as it is */ }
  });
}

// The page's own labels in the language chosen, which is kept across pages (localStorage).
const LABELS = {
  en: {run: "Run", submit: "Submit", hint: "Hint", cancel: "Cancel", own: "my own input", result: "Result",
       history: "History", editorial: "Editorial", stopped: "server stopped: this judging ended with it",
       reset: "Reset to sample", use: "use this test as input", starter: "the starter", newFile: "a new starter file",
       editing: "editing…", saved: (bytes) => `saved (${bytes} bytes)`,
       limits: (l) => `${l.ms} ms CPU per test · ${l.mib} MiB · tolerance abs ${l.abs} or rel ${l.rel}`,
       titles: {AC: "Accepted", WA: "Wrong Answer", TLE: "Time Limit Exceeded", MLE: "Memory Limit Exceeded",
                OLE: "Output Limit Exceeded", RE: "Runtime Error", CE: "Compilation Error", JE: "Judge Error"},
       onTest: (name) => ` on test ${name}`, on: (own) => ` on ${own ? "your input" : "the sample"}`,
       passed: (n, total) => `${n}/${total} tests passed`, slowest: (ms) => ` · slowest ${ms} ms`,
       running: (own) => `running on ${own ? "your input" : "the sample"}`,
       note: (hints) => `Run tries your code on the sample (or your own input); Submit judges every test` +
         `${hints ? "; Hint explains a wrong answer" : ""}.`,
       hidden: "a hidden test: a contest shows its verdict and number only",
       ownNote: "one row per line; # [i] starts block i of a 3-D array; the sizes are checked on Run",
       kinds: {float_array: "float array", int_array: "integer array", float: "real number", int: "integer"},
       fieldLine: (name, line, what) => `${name}, line ${line}: ${what}`,
       notNumber: (t) => `“${t}” is not a number`, notWhole: (t) => `“${t}” is not a whole number`,
       brackets: "a row is [a, b, c] on one line", oneNumber: "one number", oneLine: "a vector is one line [a, b, c]",
       ragged: (n, line, m) => `${n} numbers, but line ${line} has ${m}`, noHeader: "a matrix has no # headers",
       header: (depth) => `a block of rows starts with its header # ${"[0]".repeat(depth)}`,
       order: (next) => `the header here is ${next.join(" or ")}`},
  zh: {run: "运行", submit: "提交", hint: "提示", cancel: "取消", own: "自定义输入", result: "结果",
       history: "历史", editorial: "题解", stopped: "服务器已停止：这次评测随之结束",
       reset: "恢复样例", use: "用此测试作为输入", starter: "初始代码", newFile: "新建的初始代码文件",
       editing: "编辑中…", saved: (bytes) => `已保存（${bytes} 字节）`,
       limits: (l) => `每个测试 CPU ${l.ms} ms · ${l.mib} MiB · 容差：绝对 ${l.abs} 或相对 ${l.rel}`,
       titles: {AC: "通过", WA: "答案错误", TLE: "超出时间限制", MLE: "超出内存限制", OLE: "输出超出限制",
                RE: "运行错误", CE: "编译错误", JE: "评测错误"},
       onTest: (name) => ` 测试点 ${name}`, on: (own) => ` ${own ? "自定义输入" : "样例"}`,
       passed: (n, total) => `通过 ${n}/${total} 个测试点`, slowest: (ms) => ` · 最慢 ${ms} ms`,
       running: (own) => `正在${own ? "用自定义输入" : "在样例上"}运行`,
       note: (hints) => `运行：在样例（或自定义输入）上试运行你的代码；提交：评测全部测试` +
         `${hints ? "；提示：解释答案错在哪里" : ""}。`,
       hidden: "隐藏测试点：比赛中只显示结果和编号",
       ownNote: "矩阵每行占一行；# [i] 开始三维数组的第 i 块；运行时检查各维大小",
       kinds: {float_array: "浮点数组", int_array: "整数数组", float: "实数", int: "整数"},
       fieldLine: (name, line, what) => `${name} 第 ${line} 行：${what}`,
       notNumber: (t) => `“${t}” 不是数字`, notWhole: (t) => `“${t}” 不是整数`,
       brackets: "一行写作 [a, b, c]", oneNumber: "应为一个数", oneLine: "向量只占一行 [a, b, c]",
       ragged: (n, line, m) => `有 ${n} 个数，但第 ${line} 行有 ${m} 个`, noHeader: "矩阵没有 # 标题行",
       header: (depth) => `每块行以标题行 # ${"[0]".repeat(depth)} 开始`,
       order: (next) => `此处的标题行应为 ${next.join(" 或 ")}`},
};
function pageLang() { return LABELS[document.documentElement.lang] ? document.documentElement.lang : "en"; }
function applyLabels(lang) {
  const words = LABELS[lang] || LABELS.en;
  for (const id of ["run", "submit", "hint", "cancel"]) $(id).textContent = words[id];
  $("own-label").textContent = words.own;
  $("own-reset").textContent = words.reset;
  $("own-note").textContent = words.ownNote;
  OwnInput.relabel($("own-fields"), words);
  document.querySelectorAll("button.use-input").forEach((b) => { b.textContent = words.use; });
  document.querySelectorAll("button.rtab").forEach((b) => { b.textContent = words[b.dataset.pane]; });
  $("limits").textContent = words.limits($("limits").dataset);
  if ($("result-note")) $("result-note").textContent = words.note(page.dataset.hints !== "0");
  for (const key of ["starter", "newFile"]) {  // the file's note, where it is still the first one
    if ([LABELS.en[key], LABELS.zh[key]].includes($("saved").textContent)) $("saved").textContent = words[key];
  }
  document.documentElement.lang = lang;
}

async function showStatement(lang) {
  const target = $("statement");
  localStorage.setItem("judge-lang", lang);
  // the class's pages read the choice from their cookie (classroom/language.py): carried to them too
  if (!practice) document.cookie = `judge-lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
  applyLabels(lang);
  try {
    const body = await call(`/api/problems/${slug}/statement?lang=${lang}`);
    target.innerHTML = body.html;
    target.lang = lang;
    typeset(target);
  } catch (e) {
    target.textContent = e.message;
  }
  document.querySelectorAll("button.lang").forEach((b) => b.classList.toggle("active", b.dataset.lang === lang));
}
// A class's page is rendered by its server in its language (header, links, notes): once the
// code is saved it is asked for again in the new one; a page judging switches in place.
async function chooseLang(lang) {
  if (!practice && page.dataset.lang && lang !== page.dataset.lang && !state.job) {
    await save().catch(() => {});
    if (!dirty() && !state.conflict) { location.replace(`${location.pathname}?lang=${lang}`); return; }
  }
  showStatement(lang);
}
document.querySelectorAll("button.lang").forEach((b) => b.addEventListener("click", () => chooseLang(b.dataset.lang)));

// -- editor and saving -------------------------------------------------------------------------
const editor = CodeMirror.fromTextArea($("source"), {
  mode: "python", lineNumbers: true, indentUnit: 4, tabSize: 4, matchBrackets: true, lineWrapping: true,
  extraKeys: {
    Tab: (cm) => cm.replaceSelection("    "),
    "Ctrl-Enter": () => shortcut(run), "Cmd-Enter": () => shortcut(run),
    "Shift-Ctrl-Enter": () => shortcut(() => submit("submit")), "Shift-Cmd-Enter": () => shortcut(() => submit("submit")),
  },
});
window.judgeEditor = editor;  // for tests and the browser console
let saveTimer = null;

function dirty() { return state.savedText !== null && editor.getValue() !== state.savedText; }

function scheduleSave(ms) {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => save().catch(() => {}), ms);
}

editor.on("change", () => {
  if (!dirty()) return;
  if (state.conflict) { $("saved").textContent = `not saved: ${CHANGED} (see above)`; return; }
  $("saved").textContent = LABELS[pageLang()].editing;
  scheduleSave(800);
});

async function save(overwrite = false) {
  clearTimeout(saveTimer);
  while (state.saving) await state.saving.catch(() => {});  // one save at a time
  if (state.conflict && !overwrite) throw new Error(`the code was ${CHANGED}: reload it or overwrite it first`);
  const text = editor.getValue();
  if (!overwrite && text === state.savedText) return;
  const based = overwrite ? state.conflict.version : state.base;
  state.saving = (async () => {
    try {
      const body = await call(api("source"), {method: "PUT", body: text,
        headers: {"Content-Type": "text/plain; charset=utf-8", "If-Match": `"${based}"`}});
      state.base = body.version;
      state.savedText = text;
      hideConflict();
      $("saved").textContent = dirty() ? LABELS[pageLang()].editing : LABELS[pageLang()].saved(body.bytes);
    } catch (e) {
      if (e.status === 409) showConflict(e.body);
      else $("saved").textContent = `not saved: ${e.message}`;
      throw e;
    }
  })();
  try { await state.saving; } finally { state.saving = null; }
}

function applyDisk(body, note) {
  const cursor = editor.getCursor();
  const scroll = editor.getScrollInfo();
  state.base = body.version;
  state.savedText = body.source;
  if (editor.getValue() !== body.source) {
    editor.setValue(body.source);
    editor.setCursor(cursor);
    editor.scrollTo(scroll.left, scroll.top);
  }
  $("saved").textContent = note || "";
}

function showConflict(disk) {
  clearTimeout(saveTimer);
  state.conflict = {version: disk.version, source: disk.source};
  $("conflict-text").textContent = disk.version === "absent"
    ? `${where} was deleted on disk since this tab loaded it.`
    : `${where} ${CHANGED} since this tab loaded it (${practice ? "another tab, or an editor" : "this code is not saved"}): ` +
      "reload it, or overwrite it with this tab's text.";
  $("conflict").hidden = false;
  $("saved").textContent = `not saved: ${CHANGED}`;
}

function hideConflict() {
  state.conflict = null;
  $("conflict").hidden = true;
}

$("conflict-reload").addEventListener("click", async () => {
  let disk = state.conflict;
  if (!disk || disk.source === null) disk = await call(api("source"), {method: "POST"}).catch(() => null);
  if (!disk) return;
  hideConflict();
  applyDisk(disk, practice ? "reloaded from disk" : "reloaded");
});
$("conflict-overwrite").addEventListener("click", () => save(true).catch(() => {}));

async function loadSource() {
  let body;
  try {
    body = await call(api("source"));
  } catch (e) {
    if (e.status !== 404) { $("saved").textContent = e.message; return; }
    if (file && file !== `${slug}.py`) {  // another name came with the URL: created only by the person's click
      $("saved").textContent = "does not exist yet";
      $("create-file").hidden = false;
      return;
    }
    body = await call(api("source"), {method: "POST"});  // the problem's own code: its starter, by a POST
  }
  const fresh = body.created || (!practice && body.version === "absent");  // a class serves the starter until saved
  applyDisk(body, fresh ? LABELS[pageLang()][practice ? "newFile" : "starter"] : "");
  editor.clearHistory();
}

$("create-file").addEventListener("click", async () => {
  const body = await call(api("source"), {method: "POST"}).catch((e) => { $("saved").textContent = e.message; });
  if (!body) return;
  $("create-file").hidden = true;
  applyDisk(body, body.created ? LABELS[pageLang()].newFile : "");
  editor.clearHistory();
});

// A tab that comes back picks up a change made elsewhere, when it has none of its own.
async function pickUp() {
  if (state.conflict || state.saving || state.savedText === null) return;
  let body;
  try { body = await call(api("source")); } catch (e) { return; }
  if (body.version === state.base || state.saving) return;
  if (dirty()) showConflict(body);
  else applyDisk(body, `reloaded: ${CHANGED}`);
}
window.addEventListener("focus", pickUp);
document.addEventListener("visibilitychange", () => { if (!document.hidden) pickUp(); });

// Before a judging: the text on screen is the file judged.
async function ready() {
  if (dirty() || state.conflict) { await save(); return; }
  await pickUp();
  if (state.conflict) throw new Error(`the code was ${CHANGED}`);
}

// -- own input: a field per argument (own_input.js), filled from the sample or a test ------------
async function ownInput(test) {
  const body = await call(`/api/problems/${slug}/sample${test ? `?test=${encodeURIComponent(test)}` : ""}`);
  if (!OwnInput.built($("own-fields"))) OwnInput.build($("own-fields"), body.args, LABELS[pageLang()]);
  OwnInput.fill($("own-fields"), body.input);
}

$("use-own").addEventListener("change", async () => {
  const box = $("own-input");
  box.hidden = !$("use-own").checked;
  if (!box.hidden && !OwnInput.built($("own-fields"))) await ownInput(null).catch((e) => banner("error", esc(e.message)));
});
$("own-reset").addEventListener("click", () => ownInput(null).catch((e) => banner("error", esc(e.message))));

async function useTestAsInput(name) {
  await ownInput(name);
  $("use-own").checked = true;
  $("own-input").hidden = false;
  $("own-input").scrollIntoView({block: "nearest"});
}

// -- judgings ----------------------------------------------------------------------------------
function busy(on) {
  ["run", "submit", "hint"].forEach((id) => { $(id).disabled = on; });
  $("cancel").disabled = !on;
}

function shortcut(action) {
  if (!$("run").disabled) action();
}

document.addEventListener("keydown", (e) => {  // outside the editor (which has its own keys)
  if (e.defaultPrevented || e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
  e.preventDefault();
  shortcut(e.shiftKey ? () => submit("submit") : run);
});

function badge(verdict) {
  return `<span class="verdict v-${esc(verdict)}">${esc(verdict)}</span>`;
}

function banner(kind, html) {
  let box = $("banner");
  if (!box) {
    $("result").insertAdjacentHTML("afterbegin", `<div id="banner"></div>`);
    box = $("banner");
  }
  box.className = `banner ${kind}`;
  box.innerHTML = html;
}

function ms(v) { return v == null || typeof v !== "number" ? "-" : `${Math.round(v)} ms`; }

// A TLE's time or an MLE's memory over the limit, with the decimals that keep it over (1000.4, not 1000).
function overLimit(v, limit) {
  for (let digits = 0; digits < 4; digits++) if (Number(v.toFixed(digits)) > limit) return v.toFixed(digits);
  return `>${limit}`;
}
function mib(v) { return v == null || typeof v !== "number" ? "-" : `${v.toFixed(1)} MiB`; }
function num(v) { return typeof v === "number" ? String(v) : esc(String(v)); }

function sizes(s) {
  return Object.entries(s || {}).map(([k, v]) => `${esc(k)} = ${esc(v)}`).join(", ");
}

function mismatch(m) {
  if (!m) return "";
  if (m.got_shape) {
    return `<table class="mismatch"><tr><th>expected shape</th><td>(${m.expected_shape.join(", ")})</td></tr>` +
           `<tr><th>your shape</th><td>(${m.got_shape.join(", ")})</td></tr></table>`;
  }
  return `<table class="mismatch"><tr><th>first mismatch</th><td>${esc(m.position)}</td></tr>` +
    `<tr><th>expected</th><td class="num">${num(m.expected)}</td></tr>` +
    `<tr><th>got</th><td class="num off">${num(m.got)}</td></tr>` +
    (m.error !== undefined ? `<tr><th>error</th><td class="num">${num(m.error)} &gt; allowed ${num(m.allowed)}</td></tr>` : "") +
    `<tr><th>differing</th><td>${m.differ} of ${m.elements} elements</td></tr></table>`;
}

function consolePanel(t, extraTraceback) {
  if (t && !("output" in t) && !t.traceback && !extraTraceback) return "";  // a stored judging keeps no output
  const output = t && t.output ? t.output : "";
  const traceback = (t && t.traceback) || extraTraceback || "";
  const size = t && t.output_size > output.length ? ` (${t.output_size} bytes in all, shortened)` : "";
  return `<div class="console"><h5>stdout / stderr${size}</h5>` +
    `<pre class="stdout">${output ? esc(output) : '<span class="muted">(nothing printed)</span>'}</pre>` +
    (traceback ? `<h5>traceback (your code only)</h5><pre class="traceback">${esc(traceback)}</pre>` : "") + "</div>";
}

function testDetail(t) {
  return `<div class="test-detail">` +
    (t.message && !(t.mismatch && !t.mismatch.got_shape) ? `<p class="msg">${esc(t.message)}</p>` : "") +  // the table says it
    (t.step !== undefined ? `<p>step t = ${t.step}: the steps before it were right</p>` : "") +
    (t.judged_again ? `<p class="note">judged again, the machine being busy: ${t.judged_again.map(esc).join("; ")}</p>` : "") +
    mismatch(t.mismatch) +
    (t.note ? `<p class="note">${esc(t.note)}</p>` : "") +
    (t.sizes && Object.keys(t.sizes).length ? `<p class="sizes">input: ${sizes(t.sizes)}</p>` : "") +
    (t.hidden ? `<p class="note">${esc(LABELS[pageLang()].hidden)}</p>` : "") +
    (t.verdict !== "AC" && !t.hidden && /^[0-9]{3}-/.test(t.name) ?
      useButton(t.name) : "") +
    consolePanel(t) + "</div>";
}

function useButton(name) {
  return `<button class="use-input" data-test="${esc(name)}">${esc(LABELS[pageLang()].use)}</button>`;
}

function figure(t, verdict, v, plain, unit) {
  return t.verdict === verdict && typeof v === "number" && v > LIMITS[verdict] ? `${overLimit(v, LIMITS[verdict])} ${unit}`
    : plain(v);
}

function testRow(t, index, total) {
  const failing = t.verdict !== "AC";
  const printed = t.output ? `<span class="printed" title="printed ${t.output_size} bytes">stdout</span>` : "";
  return `<tr class="test-row${failing ? " failing" : ""}" data-index="${index}" tabindex="0">` +
    `<td>${index}/${total}</td><td>${esc(t.name)}</td><td>${badge(t.verdict)}</td><td>${figure(t, "TLE", t.time_ms, ms, "ms")}</td>` +
    `<td>${figure(t, "MLE", t.memory_mb, mib, "MiB")}</td><td>${printed}<span class="open">${failing ? "▾" : "▸"}</span></td></tr>` +
    `<tr class="detail" data-index="${index}"${failing ? "" : " hidden"}><td colspan="6">${testDetail(t)}</td></tr>`;
}

function testsTable() {
  return `<table class="tests" id="tests"><thead><tr><th>#</th><th>test</th><th>verdict</th><th>time</th>` +
         `<th>memory</th><th></th></tr></thead><tbody id="rows"></tbody></table>`;
}

$("result").addEventListener("click", (e) => {
  const use = e.target.closest("button.use-input");
  if (use) { useTestAsInput(use.dataset.test).catch((err) => banner("error", esc(err.message))); return; }
  const row = e.target.closest("tr.test-row");
  if (!row) return;
  const detail = row.nextElementSibling;
  detail.hidden = !detail.hidden;
  row.querySelector(".open").textContent = detail.hidden ? "▸" : "▾";
});

const STATES = {queued: "queued: waiting for a judge", judging: "judging"};
function describe(summary) {
  if (summary.kind === "run") return LABELS[pageLang()].running(!!summary.input);
  if (summary.kind === "hint") return `judging for a hint (level ${summary.level || 1})`;
  return STATES[summary.state] || "judging";
}

// The result's banner scrolled into the work pane's view: below the editor (and an open own
// input) it is out of sight, and a Run or Submit would seem to do nothing.
function inView() {
  if ($("banner")) $("banner").scrollIntoView({block: "nearest"});
}

function skeleton(summary, note) {
  $("result").innerHTML = `<div id="banner" class="banner pending">${esc(describe(summary))}…` +
    `${note ? ` <span class="muted">${esc(note)}</span>` : ""}</div>` +
    (summary.kind === "run" ? `<div id="run-out"></div>`
      : `<div id="hintbox"></div><div id="report-extra"></div><div id="run-out"></div>${testsTable()}`);
}

function follow(summary, note) {
  if (state.job && state.job.source) state.job.source.close();
  const source = new EventSource(`/api/jobs/${summary.job}/events`);
  state.job = Object.assign({}, summary, {source});
  busy(true);
  showPane("result");
  skeleton(summary, note);
  inView();
  let count = 0;
  const end = () => { source.close(); state.job = null; busy(false); };
  source.addEventListener("test", (e) => {
    const t = JSON.parse(e.data);
    count += 1;
    $("rows").insertAdjacentHTML("beforeend", testRow(t, t.index, t.total));
    banner("pending", `${esc(describe(summary))}… ${t.index}/${t.total} tests judged` +
           `${note ? ` <span class="muted">${esc(note)}</span>` : ""}`);
  });
  source.addEventListener("state", (e) => {  // a class's submission: queued, then judging
    const now = JSON.parse(e.data).state;
    banner("pending", `${esc(STATES[now] || now)}…${note ? ` <span class="muted">${esc(note)}</span>` : ""}`);
  });
  source.addEventListener("done", (e) => {
    end();
    const report = JSON.parse(e.data).report;
    if ("test" in report) showRun(report); else showReport(summary, report);  // a Run's, or a judging's
    inView();
  });
  source.addEventListener("error", (e) => {
    if (e.data) {  // the judging's own error: the judge said why
      end();
      const message = JSON.parse(e.data).message;
      banner("error", esc(message));
      if (summary.input) OwnInput.markFromMessage($("own-fields"), message);  // the argument it names
      return;
    }
    broken(summary, source);  // the connection: see whether the server is there
  });
  source.addEventListener("cancelled", () => {
    end();
    banner("cancelled", `<span id="cancelled">cancelled: nothing is left running</span>`);
  });
  source.addEventListener("closing", () => {
    source.close();
    lost("The server is shutting down: every judging was stopped. Start it again (make serve), then Retry.");
  });
}

let brokenTries = 0;
async function broken(summary, source) {
  source.close();
  if (!state.job || state.job.source !== source) return;
  let response = null;
  try { response = await fetch(`/api/jobs/${summary.job}`, {credentials: "same-origin"}); } catch (e) { /* gone */ }
  if (!response) { lost(); return; }
  if (response.ok && brokenTries < 3) {  // a hiccup: follow it again (its events come again from the first)
    brokenTries += 1;
    follow(summary);
    return;
  }
  state.job = null;
  busy(false);
  banner("error", "The judging was lost (the server restarted): run it again.");
}

function verdictLine(r) {
  const words = LABELS[pageLang()];
  const title = words.titles[r.verdict] || r.verdict;
  const where = r.first_failure ? esc(words.onTest(r.first_failure)) : "";
  const slowest = Math.max(0, ...r.tests.map((t) => (typeof t.time_ms === "number" ? t.time_ms : 0)));
  return `${badge(r.verdict)} <span class="title">${esc(title)}</span>${where}<span class="figures">` +
    `${esc(words.passed(r.passed, r.total))}${r.tests.length ? esc(words.slowest(Math.round(slowest))) : ""}</span>`;
}

function showReport(summary, r) {
  banner(`done v-banner-${esc(r.verdict)}`, `<span id="verdict">${verdictLine(r)}</span>`);
  const extra = [];
  if (r.speed) {
    extra.push(`<p class="speed">Your slowest test, ${esc(r.speed.test)}, took ${ms(r.speed.yours_ms)} of CPU time; ` +
               `the reference takes ${ms(r.speed.reference_ms)} there (${r.speed.ratio}x).</p>`);
  }
  if (!r.tests.length && (r.message || r.traceback)) {  // a compilation error: no test ran
    extra.push(`<p class="msg">${esc(r.message || "")}</p>` + consolePanel(null, r.traceback));
  }
  $("report-extra").innerHTML = extra.join("");
  $("rows").innerHTML = r.tests.map((t, i) => testRow(t, i + 1, r.total)).join("");
  if (r.hint) $("hintbox").outerHTML = hintBox(r.hint);
  const more = $("hint-more");
  if (more) more.addEventListener("click", () => submit("hint", 2));
}

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function hintBox(h) {
  let body;
  if (h.kind === "step") {
    body = (h.nonfinite ? `<p>${esc(capital(h.nonfinite.text))}.</p>` : "") +
      `<p>${h.nonfinite ? "Your finite values are those of a bundled mistake: your" : "Your"} output goes wrong at ` +
      `<b>${esc(h.step)}</b>.</p>` + (h.level >= 2 && h.bugs
      ? `<p class="bug">The bug: ${h.bugs.map(esc).join("; or ")}</p>`
      : `<button id="hint-more">Show the bug (level 2)</button>`);
  } else if (h.kind === "own") {
    body = "<p>No bundled mistake gives your output on this test: the bug is one of your own. Compare your output " +
           "with the reference's: “use this test as input” on the failing test, then Run.</p>";
  } else {
    body = `<p>${esc(capital(h.text || "no hint"))}.</p>`;
  }
  return `<div id="hintbox" class="hintbox hint-${esc(h.kind || "none")}"><h4>Hint (level ${h.level})</h4>${body}</div>`;
}

// An output as rows of numbers: a number is one cell, a vector one row, a matrix its rows, and
// an array of 3 or more axes (or a tuple of arrays) the rows of its innermost matrices in order.
function rowsOf(value) {
  if (!Array.isArray(value)) return [[value]];
  if (!value.some(Array.isArray)) return [value];
  return value.flatMap((part) => (Array.isArray(part) && part.some(Array.isArray) ? rowsOf(part)
    : [Array.isArray(part) ? part : [part]]));
}

function grid(rows, reference) {
  if (rows === undefined || rows === null) return `<p class="muted">(no output)</p>`;
  const asRows = rowsOf(rows);
  const refRows = reference === undefined || reference === null ? null : rowsOf(reference);
  const cells = asRows.slice(0, 16).map((row, i) => "<tr>" + row.slice(0, 12).map((v, j) => {
    const ref = refRows && refRows[i] ? refRows[i][j] : undefined;
    const off = ref !== undefined && Math.abs(v - ref) > Math.max(1e-6, 1e-6 * Math.abs(ref));
    return `<td class="${off ? "off" : ""}">${esc(Number(v).toPrecision(6))}</td>`;
  }).join("") + "</tr>").join("");
  return `<div class="scroll"><table class="grid">${cells}</table></div>`;
}

function showRun(r) {
  const words = LABELS[pageLang()];
  ["tests", "hintbox"].forEach((id) => { if ($(id)) $(id).remove(); });  // a class's hint is a Run's
  banner(`done v-banner-${esc(r.verdict)}`, `<span id="verdict">${badge(r.verdict)} <span class="title">` +
         `${esc(words.titles[r.verdict] || r.verdict)}</span>${esc(words.on(r.input !== "sample"))}</span>`);
  const t = r.test;
  const outputs = `<div class="side"><div><h4>yours</h4>${grid(r.output, r.expected)}</div>` +
    `<div><h4>reference</h4>${grid(r.expected)}</div></div>`;
  const printed = consolePanel(t, r.traceback);
  const compared = r.verdict === "AC" || r.verdict === "WA";  // the outputs first; else what went wrong first
  const use = r.input === "sample" && r.verdict !== "AC" && t && /^[0-9]{3}-/.test(t.name) ? useButton(t.name) : "";
  $("run-out").innerHTML = (r.hint ? hintBox(r.hint) : "") + (r.message ? `<p class="msg">${esc(r.message)}</p>` : "") +
    (t && t.mismatch ? mismatch(t.mismatch) : "") + use + (compared ? outputs + printed : printed + outputs);
  const more = $("hint-more");
  if (more) more.addEventListener("click", () => submit("hint", 2));
}

async function submit(kind, level = 1) {
  if ($("submit").disabled) return;
  showPane("result");
  try { await ready(); } catch (e) { banner("error", esc(`not judged: ${e.message}`)); return; }
  const path = kind === "hint" ? api(`hint?level=${level}`) : api("submit");
  const payload = kind === "hint" ? ownPayload() : "";
  if (payload === null) return;
  try {
    follow(await call(path, {method: "POST", body: payload, headers: {"Content-Type": "application/json"}}));
  } catch (e) {
    banner("error", esc(e.message));
  }
}

async function run() {
  if ($("run").disabled) return;
  showPane("result");
  try { await ready(); } catch (e) { banner("error", esc(`not run: ${e.message}`)); return; }
  const payload = ownPayload();
  if (payload === null) return;
  try {
    follow(await call(api("run"), {method: "POST", body: payload, headers: {"Content-Type": "application/json"}}));
  } catch (e) {
    banner("error", esc(e.message));
  }
}

// The own input's JSON when it is chosen, "" for the sample, null (and the field's error said) when it does not read.
function ownPayload() {
  if (!$("use-own").checked) return "";
  try {
    return JSON.stringify({input: OwnInput.read($("own-fields"), LABELS[pageLang()])});
  } catch (e) {
    if (!(e instanceof OwnInput.FieldError)) throw e;
    banner("error", `<span id="own-error">${esc(LABELS[pageLang()].fieldLine(e.field, e.line, e.message))}</span>`);
    return null;
  }
}

$("run").addEventListener("click", run);
$("submit").addEventListener("click", () => submit("submit"));
$("hint").addEventListener("click", () => submit("hint", 1));
$("cancel").addEventListener("click", async () => {
  if (state.job) await call(`/api/jobs/${state.job.job}/cancel`, {method: "POST"}).catch(() => {});
});

// -- history and editorial ---------------------------------------------------------------------
function showPane(name) {
  document.querySelectorAll(".pane").forEach((p) => { p.hidden = p.id !== name; });
  document.querySelectorAll("button.rtab").forEach((b) => b.classList.toggle("active", b.dataset.pane === name));
}

function when(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return iso;
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function readOnly(target, text) {
  return CodeMirror(target, {value: text, mode: "python", readOnly: true, lineNumbers: true, viewportMargin: Infinity});
}

async function showHistory() {
  const rows = await call(`/api/problems/${slug}/history`);
  if (!rows.length) { $("history").innerHTML = `<p class="muted">no judgings of ${esc(slug)} yet</p>`; return; }
  $("history").innerHTML = `<table class="tests history"><thead><tr><th>when</th><th>kind</th><th>verdict</th>` +
    `<th>passed</th><th>slowest</th><th></th></tr></thead><tbody>` +
    rows.slice().reverse().map((r) => `<tr class="judging" data-id="${r.id}" tabindex="0" title="${esc(r.time)} UTC">` +
      `<td class="nowrap">${esc(when(r.time))}</td><td>${esc(r.kind)}${r.full === false && r.kind === "submit" ? " (some tests)" : ""}</td>` +
      `<td>${badge(r.verdict)}</td><td>${r.passed == null ? "-" : `${r.passed}/${r.total}`}</td><td class="nowrap">${ms(r.slowest_ms)}</td>` +
      `<td><span class="link">code</span></td></tr>`).join("") +
    `</tbody></table><div id="judging"></div>`;
  $("history").querySelectorAll("tr.judging").forEach((tr) => tr.addEventListener("click", () => showJudging(tr.dataset.id)));
}

async function showJudging(id) {
  const body = await call(api(`history/${id}`));
  const j = body.judging;
  const target = $("judging");
  if (body.source === null) {
    target.innerHTML = `<p class="muted">The code of this judging was not kept (an older history).</p>`;
    return;
  }
  target.innerHTML = `<h4>${badge(j.verdict)} ${esc(j.kind)} of ${esc(when(j.time))}: ` +
    `${j.passed == null ? "" : `${j.passed}/${j.total} tests passed, `}` +
    `slowest ${ms(j.slowest_ms)}</h4><div class="tabs"><button class="jtab active" data-view="code">its code</button>` +
    `<button class="jtab" data-view="diff">diff against ${practice ? "the current file" : "your code now"}</button></div>` +
    `<div id="judging-code" class="code"></div><pre id="judging-diff" class="diff" hidden></pre>`;
  readOnly($("judging-code"), body.source);
  $("judging-diff").innerHTML = body.same ? `<span class="muted">the same as ${practice ? "the file" : "your code"} now</span>` : (body.diff || []).map((line) => {
    const kind = line.startsWith("@@") ? "hunk" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "ctx";
    return `<span class="${kind}">${esc(line)}</span>`;
  }).join("\n");
  target.querySelectorAll("button.jtab").forEach((b) => b.addEventListener("click", () => {
    target.querySelectorAll("button.jtab").forEach((x) => x.classList.toggle("active", x === b));
    $("judging-code").hidden = b.dataset.view !== "code";
    $("judging-diff").hidden = b.dataset.view !== "diff";
  }));
}

async function showEditorial(force) {
  const body = await call(`/api/problems/${slug}/editorial${force ? "?force=1" : ""}`);
  const target = $("editorial");
  const lang = pageLang();
  const words = lang === "zh"
    ? {anyway: "仍然查看", idea: "思路", time: "时间", memory: "内存", routes: (n) => `${n} 种通过的解法，各走一条路。`}
    : {anyway: "show it anyway", idea: "The idea", time: "time", memory: "memory", routes: null};
  if (!showEditorial.watching) {  // the page's language changes in place: lay the open editorial out again
    showEditorial.watching = new MutationObserver(() => {
      const pane = $("editorial");
      if (!pane.hidden && pane.dataset.lang && pane.dataset.lang !== pageLang()) showEditorial(pane.dataset.force === "1");
    });
    showEditorial.watching.observe(document.documentElement, {attributes: true, attributeFilter: ["lang"]});
  }
  target.dataset.lang = lang;
  target.dataset.force = force ? "1" : "";
  if (!body.open) {
    target.innerHTML = `<p>${esc(body.message)}</p>` + (page.dataset.force === "1" ? `<button id="force">${words.anyway}</button>` : "");
    if ($("force")) $("force").addEventListener("click", () => showEditorial(true));
    return;
  }
  // The package's prose, its $...$ typeset as the statement's math is.
  const prose = (text) => esc(text).replace(/\$([^$]+)\$/g, '<span class="math">$1</span>');
  const idea = body.idea && body.idea[lang];
  const approach = (s) => s.prose && s.prose[lang]
    ? `<p class="approach">${prose(s.prose[lang])}</p>` +
      `<p class="complexity">${words.time} ${esc(s.time)} · ${words.memory} ${esc(s.memory)}</p>`
    : `<p>${esc(s.description)}</p>`;
  target.innerHTML = `<p>${esc(idea && words.routes ? words.routes(body.solutions.length) : body.message)}</p>` +
    (idea ? `<section class="idea"><h4>${words.idea}</h4><p>${prose(idea)}</p></section>` : "") +
    body.solutions.map((s, i) => `<section class="solution"><h4>${esc(s.name)}</h4>${approach(s)}` +
      `<div class="code" id="solution-${i}"></div></section>`).join("");
  typeset(target);
  body.solutions.forEach((s, i) => readOnly($(`solution-${i}`), s.source));
}

document.querySelectorAll("button.rtab").forEach((b) => b.addEventListener("click", () => {
  showPane(b.dataset.pane);
  if (b.dataset.pane === "history") showHistory();
  if (b.dataset.pane === "editorial") showEditorial(false);
}));

// -- layout: a draggable divider, kept across visits -------------------------------------------
function split(percent) {
  const value = Math.min(80, Math.max(20, percent));
  page.style.setProperty("--split", `${value}%`);
  return value;
}
const kept = Number(localStorage.getItem("judge-split"));
if (kept) split(kept);
$("divider").addEventListener("pointerdown", (e) => {
  const divider = $("divider");
  divider.setPointerCapture(e.pointerId);
  page.classList.add("dragging");
  const move = (m) => {
    const box = page.getBoundingClientRect();
    localStorage.setItem("judge-split", split(((m.clientX - box.left) / box.width) * 100));
  };
  const up = () => {
    divider.removeEventListener("pointermove", move);
    divider.removeEventListener("pointerup", up);
    page.classList.remove("dragging");
    editor.refresh();
  };
  divider.addEventListener("pointermove", move);
  divider.addEventListener("pointerup", up);
});
$("divider").addEventListener("keydown", (e) => {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  const now = parseFloat(getComputedStyle(page).getPropertyValue("--split")) || 50;
  localStorage.setItem("judge-split", split(now + (e.key === "ArrowLeft" ? -2 : 2)));
  editor.refresh();
});

// -- start -------------------------------------------------------------------------------------
async function start() {
  const kept = page.dataset.lang || localStorage.getItem("judge-lang");  // the class's server says its pages' language
  showStatement(kept && document.querySelector(`button.lang[data-lang="${kept}"]`) ? kept : "en");
  await loadSource();
  try {  // a judging of this file still running (the page was reloaded): follow it again
    const active = await call(api("active"));
    if (active.job) follow(active, "(it was running when this page loaded)");
  } catch (e) { /* nothing to follow */ }
}
start();
