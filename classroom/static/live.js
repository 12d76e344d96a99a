// A submission still queued or judging, followed in place: the submission page and the
// submissions list ask /api/submissions/<id> until it is done and update its status, then its
// verdict and per-test rows (built as classroom/templates/_tests.html builds them). Without
// JavaScript the pages reload themselves instead (<noscript> refresh).
"use strict";

const POLL_MS = 1000, POLL_MAX_MS = 4000;  // asked every second, slowing to every 4 s while it waits

// figure(): a CPU time or memory never rounded onto its limit (classroom/app.py's figure, over()).
function figure(value, verdict, limitVerdict, limit) {
  if (value === null || value === undefined) return "";
  const digits = limitVerdict === "TLE" ? 0 : 1, unit = limitVerdict === "TLE" ? "ms" : "MiB";
  limit = Number(limit);
  if (verdict !== limitVerdict || !limit || value <= limit) return `${value.toFixed(digits)} ${unit}`;
  for (let d = digits; d < 4; d++) {
    const shown = value.toFixed(d);
    if (Number(shown) > limit) return `${shown} ${unit}`;
  }
  return `>${limit} ${unit}`;
}

function element(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

async function follow(id, onChange) {
  let wait = POLL_MS, last = null;
  for (;;) {
    await new Promise((done) => setTimeout(done, wait));
    let data;
    try {
      const answer = await fetch(`/api/submissions/${id}`, {headers: {"Accept": "application/json"}});
      if (!answer.ok) return;  // signed out, or gone: the page stays as it was
      data = await answer.json();
    } catch (e) {
      wait = Math.min(wait * 2, POLL_MAX_MS);
      continue;
    }
    if (data.status !== last) { onChange(data); last = data.status; }
    if (data.status === "done") return;
    wait = Math.min(wait + 500, POLL_MAX_MS);
  }
}

function testRows(data, labels, timeLimit, memoryLimit) {
  const rows = [];
  for (const t of data.tests) {
    const message = t.hidden ? element("span", {class: "muted"}, labels.hidden) : (t.message || "");
    rows.push(element("tr", {class: "test"}, element("td", {}, t.name),
      element("td", {class: `verdict ${t.verdict}`}, t.verdict),
      element("td", {class: "num"}, figure(t.time_ms, t.verdict, "TLE", timeLimit)),
      element("td", {class: "num"}, figure(t.memory_mb, t.verdict, "MLE", memoryLimit)),
      element("td", {}, message)));
    if (t.output || t.traceback) {
      const box = element("div", {class: "console"});
      if (t.output) {
        const cut = t.output_size > t.output.length ? " " + labels.shortened.replace("{size}", t.output_size) : "";
        box.append(element("h5", {}, labels.printed + cut), element("pre", {class: "stdout"}, t.output));
      }
      if (t.traceback) box.append(element("h5", {}, labels.traceback), element("pre", {class: "traceback"}, t.traceback));
      rows.push(element("tr", {class: "printed"}, element("td", {colspan: "5"}, box)));
    }
  }
  return rows;
}

const page = document.getElementById("submission");
if (page && page.dataset.status !== "done") {
  const labels = JSON.parse(page.dataset.labels);
  follow(page.dataset.id, (data) => {
    document.getElementById("status").textContent = labels[data.status] || data.status;
    if (data.status !== "done") return;
    const verdict = document.getElementById("verdict");
    verdict.textContent = data.verdict || "";
    verdict.className = `verdict ${data.verdict || ""}`;
    document.getElementById("verdict-part").hidden = !data.verdict;
    document.getElementById("tries").textContent = data.attempts > 1 ? labels.tries.replace("{n}", data.attempts) : "";
    const message = document.getElementById("message");
    message.textContent = data.hidden_failure
      ? labels.hidden_failure.replace("{verdict}", data.verdict).replace("{n}", data.hidden_failure)
      : (data.message || "");
    message.hidden = !data.message;
    const table = document.getElementById("tests");
    table.querySelector("tbody").replaceChildren(
      ...testRows(data, labels, page.dataset.timeLimit, page.dataset.memoryLimit));
    table.hidden = !data.tests.length;
    const note = document.getElementById("live-note");
    if (note) note.remove();
  });
}

// The list asks the listing API (no code in it) for the rows still waiting, all in one request.
const list = document.getElementById("submissions");
if (list && list.querySelector("tr[data-live]")) {
  const labels = JSON.parse(list.dataset.labels);
  (async () => {
    let wait = POLL_MS;
    for (;;) {
      const waiting = [...list.querySelectorAll("tr[data-live]")];
      if (!waiting.length) return;
      await new Promise((done) => setTimeout(done, wait));
      wait = Math.min(wait + 500, POLL_MAX_MS);
      const newest = Math.max(...waiting.map((row) => Number(row.dataset.live)));
      let rows;
      try {
        const answer = await fetch(`/api/submissions?before=${newest + 1}`, {headers: {"Accept": "application/json"}});
        if (!answer.ok) return;
        rows = await answer.json();
      } catch (e) {
        continue;
      }
      const found = new Map(rows.map((r) => [String(r.id), r]));
      for (const row of waiting) {
        const data = found.get(row.dataset.live);
        if (!data) continue;
        row.querySelector(".status").textContent = labels[data.status] || data.status;
        if (data.status !== "done") continue;
        const verdict = row.querySelector(".verdict");
        verdict.textContent = data.verdict || "";
        verdict.className = `verdict ${data.verdict || ""}`;
        row.querySelector(".cpu").textContent = figure(data.cpu_ms, data.verdict, "TLE", row.dataset.timeLimit);
        row.querySelector(".memory").textContent = figure(data.memory_mb, data.verdict, "MLE", row.dataset.memoryLimit);
        row.removeAttribute("data-live");
      }
    }
  })();
}
