// The playground page: a CodeMirror editor whose hints, diagnostics,
// hovers and code actions come from pfls's analyses compiled to
// WebAssembly (web/wasm, globalThis.pfls). The page fetches its own files
// while it loads and sends no request after that.
import {EditorView, basicSetup} from "codemirror";
import {Compartment, StateEffect, StateField} from "@codemirror/state";
import {Decoration, WidgetType, hoverTooltip} from "@codemirror/view";
import {setDiagnostics} from "@codemirror/lint";
import examples from "pfls:examples"; // [{name, text}], the repository's examples/, bundled by build.mjs
import {fixedForm, freeForm} from "./fortran.js";

const $ = (id) => document.getElementById(id);
const times = (window.pflsTimes = {});
let pfls = null; // the analyses, once the WebAssembly module runs
let analysedDoc = null; // the document the last analysis saw
let analyses = 0;
let analyseTimer = 0; // the analysis after an edit
let capTimer = 0; // the capability diagnostics after the hints
let actionsTimer = 0; // the actions after a move of the cursor
// notice is a message that stays in the status line until the text
// changes (an unknown ?example=, the analyses stopped).
let notice = "";

// ---- the file name: an example's, or "main" with the dialect's extension

const exampleSelect = $("example");
const dialectSelect = $("dialect");
const procsInput = $("procs");
let baseName = "main";

function extOf(name) {
  const i = name.lastIndexOf(".");
  return i < 0 ? "" : name.slice(i).toLowerCase();
}

function fileName() {
  return baseName + dialectSelect.value;
}

function procs() {
  const n = Number.parseInt(procsInput.value, 10);
  return Number.isFinite(n) && n >= 1 ? n : 16;
}

function pickExample(param) {
  if (!param) return examples.find((e) => e.name.startsWith("sub2.")) || examples[0];
  const want = param.toLowerCase();
  return examples.find((e) => e.name.toLowerCase() === want || e.name.toLowerCase().replace(/\.[^.]*$/, "") === want);
}

// ---- positions: pfls speaks 0-based lines and UTF-16 columns, which is
// what a JavaScript string indexes by

function toOffset(doc, p) {
  if (p.line >= doc.lines) return doc.length;
  const line = doc.line(p.line + 1);
  return Math.min(line.from + p.col, line.to);
}

function toPos(doc, off) {
  const line = doc.lineAt(off);
  return {line: line.number - 1, col: off - line.from};
}

// ---- inlay hints: widgets at the end of each DO line and routine header

const setHints = StateEffect.define();

class HintWidget extends WidgetType {
  constructor(hint) {
    super();
    this.hint = hint;
  }
  eq(other) {
    return other.hint.label === this.hint.label && other.hint.tooltip === this.hint.tooltip && other.hint.kind === this.hint.kind;
  }
  toDOM(view) {
    const span = document.createElement("span");
    span.className = "cm-pfls-hint " + this.hint.kind;
    span.dataset.kind = this.hint.kind;
    span.textContent = this.hint.label;
    span.title = this.hint.tooltip + (this.hint.kind === "loop" ? "\n\n(click: estimate this loop)" : "");
    if (this.hint.kind === "loop") {
      span.addEventListener("click", () => {
        const line = view.state.doc.lineAt(view.posAtDOM(span));
        runEstimate(line.number);
      });
    }
    return span;
  }
  ignoreEvent() {
    return true;
  }
}

const hintField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setHints)) deco = e.value;
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// ---- hovers: a name's declaration, or the cost of the statement there

const hover = hoverTooltip((view, pos) => {
  if (!pfls || analysedDoc !== view.state.doc) return null;
  const p = toPos(view.state.doc, pos);
  const h = call("hover", p.line, p.col);
  if (!h || !h.markdown) return null;
  const from = h.range ? toOffset(view.state.doc, h.range.from) : pos;
  const to = h.range ? toOffset(view.state.doc, h.range.to) : pos;
  return {
    pos: from,
    end: to,
    above: true,
    create() {
      const dom = document.createElement("div");
      dom.className = "cm-pfls-hover";
      dom.append(...markdown(h.markdown));
      return {dom};
    },
  };
});

// markdown renders the little Markdown the hovers use (paragraphs, fenced
// blocks, `code`, **bold**) as DOM nodes; text is never parsed as HTML.
function markdown(text) {
  const out = [];
  const blocks = text.split(/\n```[^\n]*\n|^```[^\n]*\n|\n```\s*(?:\n|$)/);
  blocks.forEach((block, i) => {
    if (i % 2 === 1) {
      const pre = document.createElement("pre");
      pre.textContent = block;
      out.push(pre);
      return;
    }
    for (const para of block.split(/\n{2,}/)) {
      if (!para.trim()) continue;
      if (/^( {4}|\t)/.test(para)) {
        const pre = document.createElement("pre");
        pre.textContent = para.replace(/^( {4}|\t)/gm, "");
        out.push(pre);
        continue;
      }
      const p = document.createElement("p");
      for (const part of para.split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
        if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
          const c = document.createElement("code");
          c.textContent = part.slice(1, -1);
          p.append(c);
        } else if (part.startsWith("**") && part.endsWith("**") && part.length > 3) {
          const b = document.createElement("strong");
          b.textContent = part.slice(2, -2);
          p.append(b);
        } else {
          p.append(part);
        }
      }
      out.push(p);
    }
  });
  return out;
}

// ---- the editor

const language = new Compartment();
const formFor = (ext) => (ext === ".f90" || ext === ".hpf" ? freeForm : fixedForm);

const view = new EditorView({
  parent: $("editor"),
  extensions: [
    basicSetup,
    language.of(fixedForm),
    hintField,
    hover,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) {
        if (pfls && u.transactions.some((tr) => tr.isUserEvent("input") || tr.isUserEvent("delete"))) notice = "";
        clearTimeout(analyseTimer);
        analyseTimer = setTimeout(analyse, 250);
      }
      if (u.docChanged || u.selectionSet) {
        clearTimeout(actionsTimer);
        actionsTimer = setTimeout(showActions, 150);
      }
    }),
  ],
});

// call runs one of the analyses and decodes its JSON. Should the Go
// program have stopped (a fatal error, not a panic, which the analyses
// report themselves), the page says so and offers nothing more.
function call(name, ...args) {
  try {
    return JSON.parse(pfls[name](...args));
  } catch (e) {
    pfls = null;
    document.body.dataset.state = "failed";
    notice = `the analyses stopped (${e.message}); reload the page`;
    setStatus("", true);
    return {error: notice};
  }
}

function setStatus(text, error) {
  $("status").textContent = notice || text;
  $("status").classList.toggle("error", !!(error || notice));
}

// ---- analysis: hints, diagnostics and the problems list

// analyse runs the analyses of the current text in two steps: the hints
// and the syntax diagnostics first (they show at once), then, in the next
// task, the capability diagnostics, which estimate every loop.
function analyse() {
  clearTimeout(analyseTimer);
  clearTimeout(capTimer);
  if (!pfls) return;
  const doc = view.state.doc;
  const t0 = performance.now();
  const r = call("analyse", fileName(), doc.toString(), procs());
  analysedDoc = doc;
  const widgets = (r.hints || []).map((h) =>
    Decoration.widget({widget: new HintWidget(h), side: 1}).range(toOffset(doc, h.at)),
  );
  view.dispatch({effects: setHints.of(Decoration.set(widgets, true))});
  showDiagnostics(doc, r.diagnostics || []);
  if (times.firstHints === undefined && widgets.length > 0) times.firstHints = performance.now();
  const failed = [r.error];
  capTimer = setTimeout(() => {
    if (analysedDoc !== doc) return;
    const c = call("capabilities");
    failed.push(c.error);
    const all = (r.diagnostics || []).concat(c.diagnostics || []);
    showDiagnostics(doc, all);
    analyses++;
    document.body.dataset.analyses = String(analyses);
    const ms = performance.now() - t0;
    const error = failed.filter(Boolean).join("\n");
    if (error) setStatus("analysis failed: " + error.split("\n")[0], true);
    else setStatus(`${fileName()}: ${widgets.length} hints, ${all.length} diagnostics (${ms.toFixed(0)} ms)`);
    showActions();
  }, 0);
}

function showDiagnostics(doc, ds) {
  const diags = ds.map((d) => ({
    from: toOffset(doc, d.from),
    to: Math.max(toOffset(doc, d.from), toOffset(doc, d.to)),
    severity: d.severity,
    source: "pfls",
    message: d.code ? `${d.message} [${d.code}]` : d.message,
    actions: (d.fixes || []).map((f) => ({name: f.title, apply: () => runAction(f)})),
  }));
  view.dispatch(setDiagnostics(view.state, diags));
  showProblems(ds);
}

function showProblems(ds) {
  const list = $("problems");
  list.replaceChildren();
  if (ds.length === 0) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "none";
    list.append(li);
  }
  for (const d of ds) {
    const li = document.createElement("li");
    li.className = "pfls-diag " + d.severity;
    li.dataset.code = d.code || "";
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${d.from.line + 1}:${d.from.col + 1}`;
    where.addEventListener("click", () => {
      const off = toOffset(view.state.doc, d.from);
      view.dispatch({selection: {anchor: off}, scrollIntoView: true});
      view.focus();
    });
    const code = document.createElement("span");
    code.className = "code";
    code.textContent = d.code ? ` [${d.code}]` : "";
    li.append(where, ` ${d.severity}: ${d.message}`, code);
    for (const f of d.fixes || []) li.append(actionButton(f));
    list.append(li);
  }
}

// ---- code actions on the cursor's line

function actionButton(a) {
  const b = document.createElement("button");
  b.className = "action" + (a.preferred ? " preferred" : "");
  b.dataset.kind = a.kind;
  b.textContent = a.title;
  if (a.detail) b.title = a.detail;
  b.addEventListener("click", () => runAction(a));
  return b;
}

function showActions() {
  clearTimeout(actionsTimer);
  const doc = view.state.doc;
  const line = doc.lineAt(view.state.selection.main.head).number - 1;
  $("action-line").textContent = String(line + 1);
  const list = $("actions");
  if (!pfls || analysedDoc !== doc) return; // the analysis that follows the edit shows them
  const r = call("actions", line, line);
  list.replaceChildren();
  for (const a of r.actions || []) {
    const li = document.createElement("li");
    li.append(actionButton(a));
    list.append(li);
  }
  if (list.children.length === 0) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = r.error ? "failed: " + r.error.split("\n")[0] : "none here (a DO line has the loop's)";
    list.append(li);
  }
}

function runAction(a) {
  if (a.command === "pfls.estimateLoop") {
    runEstimate(a.line);
    return;
  }
  const doc = view.state.doc;
  if (analysedDoc !== doc) {
    // The edits speak of the text analysed, which has changed since.
    analyse();
    setStatus("the text changed: choose the action again", true);
    return;
  }
  const changes = (a.edits || []).map((e) => ({from: toOffset(doc, e.from), to: toOffset(doc, e.to), insert: e.text}));
  view.dispatch({changes, userEvent: "pfls.action"});
  analyse();
}

// ---- "Estimate this loop" and its plot

function runEstimate(line) {
  if (!pfls) return;
  if (analysedDoc !== view.state.doc) analyse();
  const box = $("estimate");
  box.replaceChildren();
  setStatus(`estimating the loop at line ${line}…`);
  // Let the status paint before the estimator runs.
  setTimeout(() => {
    const t0 = performance.now();
    const r = call("estimate", line);
    box.replaceChildren();
    box.dataset.line = String(line);
    if (r.error) {
      const p = document.createElement("p");
      p.className = "error";
      p.textContent = r.error;
      box.append(p);
      setStatus("the estimate failed", true);
      return;
    }
    if (r.svg) {
      const img = document.createElement("img");
      img.alt = `estimated time of the loop at line ${line} against the data size`;
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(r.svg);
      box.append(img);
    }
    const pre = document.createElement("pre");
    pre.textContent = r.text;
    box.append(pre);
    setStatus(`estimated the loop at line ${line} (${(performance.now() - t0).toFixed(0)} ms)`);
    (box.previousElementSibling || box).scrollIntoView({block: "start"}); // the "Estimate" heading
  }, 0);
}

// ---- examples and settings

function load(example) {
  baseName = example ? example.name.replace(/\.[^.]*$/, "") : "main";
  if (example) {
    const ext = extOf(example.name);
    dialectSelect.value = [...dialectSelect.options].some((o) => o.value === ext) ? ext : ".f";
  }
  view.dispatch({
    changes: {from: 0, to: view.state.doc.length, insert: example ? example.text : ""},
    effects: [language.reconfigure(formFor(dialectSelect.value)), setHints.of(Decoration.none)],
  });
  analyse();
}

for (const e of examples) {
  const o = document.createElement("option");
  o.value = e.name;
  o.textContent = e.name;
  exampleSelect.append(o);
}

exampleSelect.addEventListener("change", () => {
  notice = "";
  const e = examples.find((x) => x.name === exampleSelect.value);
  history.replaceState(null, "", "?example=" + encodeURIComponent(e.name.replace(/\.[^.]*$/, "")));
  load(e);
});
dialectSelect.addEventListener("change", () => {
  view.dispatch({effects: language.reconfigure(formFor(dialectSelect.value))});
  analyse();
});
procsInput.addEventListener("change", analyse);

const asked = new URLSearchParams(location.search).get("example");
const first = pickExample(asked);
if (first) exampleSelect.value = first.name;
load(first || null);

// ---- the analyses: Go's WebAssembly module

async function start() {
  const go = new Go(); // wasm_exec.js
  const ready = new Promise((resolve) => (window.pflsReady = resolve));
  const resp = await fetch("pfls.wasm");
  if (!resp.ok) throw new Error(`pfls.wasm: ${resp.status} ${resp.statusText}`);
  let instance;
  try {
    ({instance} = await WebAssembly.instantiateStreaming(resp.clone(), go.importObject));
  } catch (e) {
    // A static host that does not send application/wasm.
    ({instance} = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject));
  }
  go.run(instance);
  await ready;
  pfls = globalThis.pfls;
  times.ready = performance.now();
  document.body.dataset.state = "ready";
  if (asked && !first) notice = `no example named “${asked}”; the examples are ${examples.map((e) => e.name).join(", ")}`;
  analyse();
}

start().catch((e) => {
  document.body.dataset.state = "failed";
  setStatus("could not start the analyses: " + e.message, true);
});
