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
const W = () => LABELS[pageLang()];  // the page's words in its language now
const changed = () => W().changed(practice);
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
    throw new Error(W().noAnswer);
  }
  const body = await response.json().catch(() => ({error: `HTTP ${response.status}`}));
  if (!response.ok) {  // a rate limit is said in the page's language; the server's own words in English
    const error = new Error(response.status === 429 ? W().tooMany(body.error || "") : body.error || `HTTP ${response.status}`);
    error.status = response.status;
    error.body = body;
    throw error;
  }
  return body;
}

// -- the connection ----------------------------------------------------------------------------
function lost(message) {
  $("lost-text").textContent = message || W().lost(practice);
  $("lost").hidden = false;
  if (state.job) banner("error", `<span id="server-stopped">${esc(W().stopped)}</span>`);
  if (state.job && state.job.source) { state.job.source.close(); state.job.source = null; }
  busy(false);
}

async function retry() {
  $("lost-text").textContent = W().trying;
  let response;
  try {
    response = await fetch("/api/ping", {credentials: "same-origin"});
  } catch (e) {
    $("lost-text").textContent = W().still(practice);
    return;
  }
  if (!response.ok) {
    $("lost-text").textContent = response.status === 403 || response.status === 401
      ? W().sessionEnded(practice) : W().answers(response.status);
    return;
  }
  $("lost").hidden = true;
  const followed = state.job;
  if (followed) {
    try {
      follow(await call(`/api/jobs/${followed.job}`));
    } catch (e) {
      state.job = null;
      banner("error", esc(W().lostJob));
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

// The page's own words are LABELS (labels.js), in English and Chinese; the language is kept across pages.
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
  $("retry").textContent = words.retry;
  $("conflict-reload").textContent = words.reload;
  $("conflict-overwrite").textContent = words.overwrite;
  $("create-file").textContent = words.create(where);
  const keys = document.querySelector(".keys");
  if (keys) keys.textContent = words.keys;
  if ([LABELS.en.loading, LABELS.zh.loading].includes($("statement").textContent)) $("statement").textContent = words.loading;
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
  if (state.conflict) { $("saved").textContent = W().notSavedSee(changed()); return; }
  $("saved").textContent = W().editing;
  scheduleSave(800);
});

async function save(overwrite = false) {
  clearTimeout(saveTimer);
  while (state.saving) await state.saving.catch(() => {});  // one save at a time
  if (state.conflict && !overwrite) throw new Error(W().resolveFirst(changed()));
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
      $("saved").textContent = dirty() ? W().editing : W().saved(body.bytes);
    } catch (e) {
      if (e.status === 409) showConflict(e.body);
      else $("saved").textContent = W().notSaved(e.message);
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
  $("conflict-text").textContent = disk.version === "absent" ? W().deleted(where) : W().conflict(where, changed(), practice);
  $("conflict").hidden = false;
  $("saved").textContent = W().notSaved(changed());
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
  applyDisk(disk, W().reloaded(practice));
});
$("conflict-overwrite").addEventListener("click", () => save(true).catch(() => {}));

async function loadSource() {
  let body;
  try {
    body = await call(api("source"));
  } catch (e) {
    if (e.status !== 404) { $("saved").textContent = e.message; return; }
    if (file && file !== `${slug}.py`) {  // another name came with the URL: created only by the person's click
      $("saved").textContent = W().absent;
      $("create-file").hidden = false;
      return;
    }
    body = await call(api("source"), {method: "POST"});  // the problem's own code: its starter, by a POST
  }
  const fresh = body.created || (!practice && body.version === "absent");  // a class serves the starter until saved
  applyDisk(body, fresh ? W()[practice ? "newFile" : "starter"] : "");
  editor.clearHistory();
}

$("create-file").addEventListener("click", async () => {
  const body = await call(api("source"), {method: "POST"}).catch((e) => { $("saved").textContent = e.message; });
  if (!body) return;
  $("create-file").hidden = true;
  applyDisk(body, body.created ? W().newFile : "");
  editor.clearHistory();
});

// A tab that comes back picks up a change made elsewhere, when it has none of its own.
async function pickUp() {
  if (state.conflict || state.saving || state.savedText === null) return;
  let body;
  try { body = await call(api("source")); } catch (e) { return; }
  if (body.version === state.base || state.saving) return;
  if (dirty()) showConflict(body);
  else applyDisk(body, W().reloadedAs(changed()));
}
window.addEventListener("focus", pickUp);
document.addEventListener("visibilitychange", () => { if (!document.hidden) pickUp(); });

// Before a judging: the text on screen is the file judged.
async function ready() {
  if (dirty() || state.conflict) { await save(); return; }
  await pickUp();
  if (state.conflict) throw new Error(W().codeWas(changed()));
}

// -- own input: a field per argument (own_input.js), filled from the sample or a test ------------
async function ownInput(test) {
  const body = await call(`/api/problems/${slug}/sample${test ? `?test=${encodeURIComponent(test)}` : ""}`);
  if (!OwnInput.built($("own-fields"))) OwnInput.build($("own-fields"), body.args, W());
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
  const w = W();
  if (m.got_shape) {
    return `<table class="mismatch"><tr><th>${w.expectedShape}</th><td>(${m.expected_shape.join(", ")})</td></tr>` +
           `<tr><th>${w.yourShape}</th><td>(${m.got_shape.join(", ")})</td></tr></table>`;
  }
  return `<table class="mismatch"><tr><th>${w.firstMismatch}</th><td>${esc(w.position(m.position))}</td></tr>` +
    `<tr><th>${w.expected}</th><td class="num">${num(m.expected)}</td></tr>` +
    `<tr><th>${w.got}</th><td class="num off">${num(m.got)}</td></tr>` +
    (m.error !== undefined ? `<tr><th>${w.error}</th><td class="num">${num(m.error)} &gt; ${w.allowed} ${num(m.allowed)}</td></tr>` : "") +
    `<tr><th>${w.differing}</th><td>${esc(w.ofElements(m.differ, m.elements))}</td></tr></table>`;
}

function consolePanel(t, extraTraceback) {
  if (t && !("output" in t) && !t.traceback && !extraTraceback) return "";  // a stored judging keeps no output
  const output = t && t.output ? t.output : "";
  const traceback = (t && t.traceback) || extraTraceback || "";
  const w = W();
  const size = t && t.output_size > output.length ? esc(w.shortened(t.output_size)) : "";
  return `<div class="console"><h5>${w.console}${size}</h5>` +
    `<pre class="stdout">${output ? esc(output) : `<span class="muted">${w.nothing}</span>`}</pre>` +
    (traceback ? `<h5>${w.traceback}</h5><pre class="traceback">${esc(traceback)}</pre>` : "") + "</div>";
}

function testDetail(t) {
  return `<div class="test-detail">` +
    (t.message && !(t.mismatch && !t.mismatch.got_shape) ? `<p class="msg">${esc(t.message)}</p>` : "") +  // the table says it
    (t.step !== undefined ? `<p>${esc(W().stepRight(t.step))}</p>` : "") +
    (t.judged_again ? `<p class="note">${esc(W().judgedAgain(t.judged_again.join("; ")))}</p>` : "") +
    mismatch(t.mismatch) +
    (t.note ? `<p class="note case-note">${esc(t.note)}</p>` : "") +  // the package's words, in English
    (t.sizes && Object.keys(t.sizes).length ? `<p class="sizes">${W().inputSizes(sizes(t.sizes))}</p>` : "") +
    (t.hidden ? `<p class="note">${esc(W().hidden)}</p>` : "") +
    (t.verdict !== "AC" && !t.hidden && /^[0-9]{3}-/.test(t.name) ?
      useButton(t.name) : "") +
    consolePanel(t) + "</div>";
}

function useButton(name) {
  return `<button class="use-input" data-test="${esc(name)}">${esc(W().use)}</button>`;
}

function figure(t, verdict, v, plain, unit) {
  return t.verdict === verdict && typeof v === "number" && v > LIMITS[verdict] ? `${overLimit(v, LIMITS[verdict])} ${unit}`
    : plain(v);
}

function testRow(t, index, total) {
  const failing = t.verdict !== "AC";
  const printed = t.output ? `<span class="printed" title="${esc(W().printedBytes(t.output_size))}">${esc(W().stdout)}</span>` : "";
  return `<tr class="test-row${failing ? " failing" : ""}" data-index="${index}" tabindex="0">` +
    `<td>${index}/${total}</td><td>${esc(t.name)}</td><td>${badge(t.verdict)}</td><td>${figure(t, "TLE", t.time_ms, ms, "ms")}</td>` +
    `<td>${figure(t, "MLE", t.memory_mb, mib, "MiB")}</td><td>${printed}<span class="open">${failing ? "▾" : "▸"}</span></td></tr>` +
    `<tr class="detail" data-index="${index}"${failing ? "" : " hidden"}><td colspan="6">${testDetail(t)}</td></tr>`;
}

function testsTable() {
  return `<table class="tests" id="tests"><thead><tr>${W().columns.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead>` +
         `<tbody id="rows"></tbody></table>`;
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

function describe(summary) {
  if (summary.kind === "run") return W().running(!!summary.input);
  if (summary.kind === "hint") return W().forHint(summary.level || 1);
  return W().states[summary.state] || W().states.judging;
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
    banner("pending", `${esc(describe(summary))}… ${esc(W().judged(t.index, t.total))}` +
           `${note ? ` <span class="muted">${esc(note)}</span>` : ""}`);
  });
  source.addEventListener("state", (e) => {  // a class's submission: queued, then judging
    const now = JSON.parse(e.data).state;
    banner("pending", `${esc(W().states[now] || now)}…${note ? ` <span class="muted">${esc(note)}</span>` : ""}`);
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
    banner("cancelled", `<span id="cancelled">${esc(W().cancelled)}</span>`);
  });
  source.addEventListener("closing", () => {
    source.close();
    lost(W().closing);
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
  banner("error", esc(W().lostRestart));
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
    extra.push(`<p class="speed">${esc(W().speed(r.speed.test, ms(r.speed.yours_ms), ms(r.speed.reference_ms), r.speed.ratio))}</p>`);
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
  const w = W();
  const stop = pageLang() === "zh" ? "。" : ".";
  let body;
  if (h.kind === "step") {
    body = (h.nonfinite ? `<p>${esc(capital(h.nonfinite.text))}${stop}</p>` : "") +
      `<p>${w.goesWrong(!!h.nonfinite, esc(h.step))}</p>` + (h.level >= 2 && h.bugs
      ? `<p class="bug">${esc(w.theBug(h.bugs))}</p>`
      : `<button id="hint-more">${esc(w.showBug)}</button>`);
  } else if (h.kind === "own") {
    body = `<p>${esc(w.ownBug)}</p>`;
  } else {
    body = `<p>${esc(capital(h.text || w.noHint))}${stop}</p>`;
  }
  return `<div id="hintbox" class="hintbox hint-${esc(h.kind || "none")}"><h4>${esc(w.hintTitle(h.level))}</h4>${body}</div>`;
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
  if (rows === undefined || rows === null) return `<p class="muted">${esc(W().noOutput)}</p>`;
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
  const outputs = `<div class="side"><div><h4>${esc(words.yours)}</h4>${grid(r.output, r.expected)}</div>` +
    `<div><h4>${esc(words.reference)}</h4>${grid(r.expected)}</div></div>`;
  const printed = consolePanel(t, r.traceback);
  const compared = r.verdict === "AC" || r.verdict === "WA";  // the outputs first; else what went wrong first
  const use = r.input === "sample" && r.verdict !== "AC" && t && /^[0-9]{3}-/.test(t.name) ? useButton(t.name) : "";
  const said = r.message && !(t && t.mismatch && !t.mismatch.got_shape);  // else the mismatch table says it, in the page's words
  $("run-out").innerHTML = (r.hint ? hintBox(r.hint) : "") + (said ? `<p class="msg">${esc(r.message)}</p>` : "") +
    (t && t.mismatch ? mismatch(t.mismatch) : "") + use + (compared ? outputs + printed : printed + outputs);
  const more = $("hint-more");
  if (more) more.addEventListener("click", () => submit("hint", 2));
}

async function submit(kind, level = 1) {
  if ($("submit").disabled) return;
  showPane("result");
  try { await ready(); } catch (e) { banner("error", esc(W().notJudged(e.message))); return; }
  const path = kind === "hint" ? api(`hint?level=${level}&lang=${pageLang()}`) : api(`submit?lang=${pageLang()}`);
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
  try { await ready(); } catch (e) { banner("error", esc(W().notRun(e.message))); return; }
  const payload = ownPayload();
  if (payload === null) return;
  try {
    follow(await call(api(`run?lang=${pageLang()}`), {method: "POST", body: payload, headers: {"Content-Type": "application/json"}}));
  } catch (e) {
    banner("error", esc(e.message));
  }
}

// The own input's JSON when it is chosen, "" for the sample, null (and the field's error said) when it does not read.
function ownPayload() {
  if (!$("use-own").checked) return "";
  try {
    return JSON.stringify({input: OwnInput.read($("own-fields"), W())});
  } catch (e) {
    if (!(e instanceof OwnInput.FieldError)) throw e;
    banner("error", `<span id="own-error">${esc(W().fieldLine(e.field, e.line, e.message))}</span>`);
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
  const w = W();
  if (!rows.length) { $("history").innerHTML = `<p class="muted">${esc(w.noJudgings(slug))}</p>`; return; }
  $("history").innerHTML = `<table class="tests history"><thead><tr>` +
    `${w.historyColumns.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>` +
    rows.slice().reverse().map((r) => `<tr class="judging" data-id="${r.id}" tabindex="0" title="${esc(r.time)} UTC">` +
      `<td class="nowrap">${esc(when(r.time))}</td><td>${esc(w.kindNames[r.kind] || r.kind)}${r.full === false && r.kind === "submit" ? esc(w.someTests) : ""}</td>` +
      `<td>${badge(r.verdict)}</td><td>${r.passed == null ? "-" : `${r.passed}/${r.total}`}</td><td class="nowrap">${ms(r.slowest_ms)}</td>` +
      `<td><span class="link">${esc(w.code)}</span></td></tr>`).join("") +
    `</tbody></table><div id="judging"></div>`;
  $("history").querySelectorAll("tr.judging").forEach((tr) => tr.addEventListener("click", () => showJudging(tr.dataset.id)));
}

async function showJudging(id) {
  const body = await call(api(`history/${id}`));
  const j = body.judging;
  const target = $("judging");
  const w = W();
  if (body.source === null) {
    target.innerHTML = `<p class="muted">${esc(w.notKept)}</p>`;
    return;
  }
  target.innerHTML = `<h4>${badge(j.verdict)} ${esc(w.judgingOf(w.kindNames[j.kind] || j.kind, when(j.time)))}` +
    `${j.passed == null ? "" : `${esc(w.passed(j.passed, j.total))} · `}` +
    `${esc(w.slowestMs(ms(j.slowest_ms)))}</h4><div class="tabs"><button class="jtab active" data-view="code">${esc(w.itsCode)}</button>` +
    `<button class="jtab" data-view="diff">${esc(w.diffAgainst(practice))}</button></div>` +
    `<div id="judging-code" class="code"></div><pre id="judging-diff" class="diff" hidden></pre>`;
  readOnly($("judging-code"), body.source);
  $("judging-diff").innerHTML = body.same ? `<span class="muted">${esc(w.same(practice))}</span>` : (body.diff || []).map((line) => {
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
  const body = await call(`/api/problems/${slug}/editorial?lang=${pageLang()}${force ? "&force=1" : ""}`);
  const target = $("editorial");
  const lang = pageLang();
  const words = LABELS[lang];
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
    if (active.job) follow(active, W().resumed);
  } catch (e) { /* nothing to follow */ }
}
start();
