// The own-input editor: one field per argument of the problem, labelled with its name, its shape in
// the statement's size names and its kind. A matrix is one row per line ([0.1, -2, 3]); an array of
// three or more axes is blocks of rows, each after a header naming its leading indices (# [0], or
// # [0][1] for four axes); a scalar is one number. The page reads a field back or says which field
// and which line it cannot read; whether the sizes agree between arguments is the server's to judge
// (the same check as for a stored test), so the page never holds a second copy of the rules.
//
// One global, OwnInput: build(container, args, words), fill(container, input), read(container, words),
// relabel(container, words), mark(container, name, message), clear(container), markFromMessage(...).
// `words` are the page's labels in its language (LABELS in app.js): kind names and error phrases.
"use strict";

const OwnInput = (() => {
  const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
  const WHOLE = /^[-+]?\d+$/;
  const HEADER = /^#\s*[A-Za-z_]?\w*\s*((?:\[\s*\d+\s*\]\s*)+)$/;
  const MAX_ROWS_SHOWN = 12;  // a taller field scrolls

  class FieldError extends Error {
    constructor(name, line, text) {
      super(text);
      this.field = name;
      this.line = line;
    }
  }

  const fieldsOf = (container) => Array.from(container.querySelectorAll(".own-field"));
  const inputOf = (field) => field.querySelector(".own-value");

  // -- writing a value as text ----------------------------------------------------------------
  function row(values) { return "[" + values.map((v) => JSON.stringify(v)).join(", ") + "]"; }

  function format(value, rank) {
    if (rank === 0) return JSON.stringify(value);
    if (rank === 1) return row(value);
    if (rank === 2) return value.map(row).join("\n");
    const blocks = [];
    const walk = (node, index) => {
      if (index.length === rank - 2) {
        blocks.push(`# ${index.map((i) => `[${i}]`).join("")}\n` + node.map(row).join("\n"));
        return;
      }
      node.forEach((child, i) => walk(child, index.concat([i])));
    };
    walk(value, []);
    return blocks.join("\n\n");
  }

  // -- reading text back ----------------------------------------------------------------------
  // One row: [a, b, c] or a, b, c or a b c; a trailing comma (pasted from JSON) is allowed.
  function parseRow(line, whole, words, fail) {
    let text = line.trim().replace(/,$/, "").trim();
    const open = text.startsWith("["), close = text.endsWith("]");
    if (open !== close) fail(words.brackets);
    if (open) text = text.slice(1, -1).trim();
    if (text.includes("[") || text.includes("]")) fail(words.brackets);
    return text === "" ? [] : text.split(/\s*,\s*|\s+/).map((token) => {
      if (!NUMBER.test(token)) fail(words.notNumber(token));
      if (whole && !WHOLE.test(token)) fail(words.notWhole(token));
      return Number(token);
    });
  }

  // The value of one field's text; a FieldError names the line it cannot read.
  function parse(name, text, rank, whole, words) {
    let at = 1;  // the line (1-based) being read
    const fail = (what) => { throw new FieldError(name, at, what); };
    const filled = text.split("\n").map((l, i) => [i + 1, l]).filter(([, l]) => l.trim() !== "");
    if (rank <= 1) {
      if (filled.length > 1) { at = filled[1][0]; fail(rank === 0 ? words.oneNumber : words.oneLine); }
      if (filled.length) at = filled[0][0];
      if (rank === 1) return filled.length ? parseRow(filled[0][1], whole, words, fail) : [];
      const token = filled.length ? filled[0][1].trim() : "";
      if (!NUMBER.test(token)) fail(token ? words.notNumber(token) : words.oneNumber);
      if (whole && !WHOLE.test(token)) fail(words.notWhole(token));
      return Number(token);
    }
    const depth = rank - 2;  // the leading indices a header names
    const matrix = (lines) => {  // rows, every one as long as the first
      let first = null;
      return lines.map(([n, l]) => {
        at = n;
        if (l.trim().startsWith("#")) fail(depth ? words.header(depth) : words.noHeader);
        const r = parseRow(l, whole, words, fail);
        if (first && r.length !== first.length) fail(words.ragged(r.length, first.line, first.length));
        if (!first) first = {line: n, length: r.length};
        return r;
      });
    };
    if (!depth) return matrix(filled);
    // blocks of rows, each after its header: # [0][0], # [0][1], ..., # [1][0], ... in this order
    const out = [];
    let block = null;
    const blocks = [];
    for (const [n, l] of filled) {
      at = n;
      const header = HEADER.exec(l.trim());
      if (!header) {
        if (!block) fail(words.header(depth));
        block.lines.push([n, l]);
        continue;
      }
      const index = header[1].match(/\d+/g).map(Number);
      const next = block ? following(block.index) : [Array(depth).fill(0)];
      if (!next.some((c) => c.length === index.length && c.every((v, i) => v === index[i]))) {
        fail(words.order(next.map((c) => `# [${c.join("][")}]`)));
      }
      block = {index, lines: []};
      blocks.push(block);
    }
    for (const b of blocks) {
      let node = out;
      for (const i of b.index.slice(0, -1)) {
        if (node.length === i) node.push([]);
        node = node[i];
      }
      node.push(matrix(b.lines));
    }
    return out;
  }

  // The headers that may follow `index`: one of its indices one up, the ones after it back to 0.
  function following(index) {
    return index.map((_, k) => index.slice(0, k).concat([index[k] + 1], index.slice(k + 1).map(() => 0))).reverse();
  }

  // -- the fields -----------------------------------------------------------------------------
  function labelHtml(arg, words) {
    const esc = (t) => String(t).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const shape = arg.shape.length ? `[${arg.shape.map(esc).join(", ")}]` : "";
    return `<code class="own-name">${esc(arg.name)}</code> <span class="own-shape">${shape}</span> ` +
      `<span class="own-kind">${esc(words.kinds[arg.kind] || arg.kind)}</span>`;
  }

  function build(container, args, words) {
    container.innerHTML = "";
    container.ownArgs = args;
    for (const arg of args) {
      const rank = arg.shape.length;
      const field = document.createElement("div");
      field.className = `own-field own-rank-${Math.min(rank, 3)}`;
      field.dataset.arg = arg.name;
      field.dataset.rank = String(rank);
      field.dataset.kind = arg.kind;
      const label = document.createElement("label");
      label.className = "own-label";
      label.innerHTML = labelHtml(arg, words);
      const value = document.createElement(rank === 0 ? "input" : "textarea");
      value.className = "own-value";
      value.spellcheck = false;
      value.setAttribute("autocomplete", "off");
      value.id = `own-arg-${arg.name}`;  // never one of the page's own ids (own-input, own-error, ...)
      label.htmlFor = value.id;
      if (rank > 0) {
        value.wrap = "off";  // a row stays one line: long rows scroll sideways
        value.addEventListener("input", () => fit(value));
      }
      value.addEventListener("input", () => unmark(field));
      const error = document.createElement("div");
      error.className = "own-error";
      error.hidden = true;
      field.append(label, value, error);
      container.append(field);
    }
  }

  function fit(textarea) {
    textarea.rows = Math.max(1, Math.min(MAX_ROWS_SHOWN, textarea.value.split("\n").length));
  }

  function relabel(container, words) {
    for (const field of fieldsOf(container)) {
      const arg = (container.ownArgs || []).find((a) => a.name === field.dataset.arg);
      if (arg) field.querySelector(".own-label").innerHTML = labelHtml(arg, words);
    }
  }

  function fill(container, input) {
    clear(container);
    for (const field of fieldsOf(container)) {
      const value = inputOf(field);
      const given = input[field.dataset.arg];
      value.value = given === undefined ? "" : format(given, Number(field.dataset.rank));
      if (value.tagName === "TEXTAREA") fit(value);
    }
  }

  // The case's input {name: value}, or a FieldError (the field marked, its line named).
  function read(container, words) {
    clear(container);
    const input = {};
    for (const field of fieldsOf(container)) {
      const whole = field.dataset.kind === "int" || field.dataset.kind === "int_array";
      try {
        input[field.dataset.arg] = parse(field.dataset.arg, inputOf(field).value, Number(field.dataset.rank), whole,
                                         words);
      } catch (e) {
        if (e instanceof FieldError) mark(container, e.field, words.fieldLine(e.field, e.line, e.message), e.line);
        throw e;
      }
    }
    return input;
  }

  function mark(container, name, message, line) {
    const field = fieldsOf(container).find((f) => f.dataset.arg === name);
    if (!field) return false;
    field.classList.add("bad");
    const error = field.querySelector(".own-error");
    error.textContent = message;
    error.hidden = false;
    const value = inputOf(field);
    if (line && value.tagName === "TEXTAREA") {  // the cursor to the start of the line named
      const start = value.value.split("\n").slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
      value.setSelectionRange(start, start);
    }
    value.focus({preventScroll: true});
    field.scrollIntoView({block: "nearest"});
    return true;
  }

  // The server's refusal of the input names an argument first ("your input: W_K: shape (4, 3) but ..."):
  // that field is marked with the message.
  function markFromMessage(container, message) {
    const named = /^your input: ([A-Za-z_]\w*)[:[]/.exec(message);
    return named ? mark(container, named[1], message.replace(/^your input: /, "")) : false;
  }

  function unmark(field) {
    field.classList.remove("bad");
    field.querySelector(".own-error").hidden = true;
  }

  function clear(container) { fieldsOf(container).forEach(unmark); }

  function built(container) { return Boolean(container.ownArgs); }

  return {build, built, fill, read, relabel, mark, markFromMessage, clear, format, parse, FieldError};
})();
