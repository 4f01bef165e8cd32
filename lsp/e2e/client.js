// End-to-end test of `pfls serve` through vscode-languageserver-protocol,
// the library VS Code's client is built on: it opens the examples, waits
// for diagnostics, asks for hover, symbols, inlay hints, highlights,
// folding ranges, semantic tokens and the call hierarchy, applies an
// edit and checks that the answers change. Usage: node client.js PFLS.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');
const lsp = require('vscode-languageserver-protocol');

const pfls = process.argv[2];
if (!pfls) { console.error('usage: node client.js PATH-TO-PFLS'); process.exit(2); }
const examples = path.resolve(__dirname, '..', '..', 'examples');
const progLineOf = (lines) => lines.findIndex((l) => l.includes('PROGRAM REDBLK'));
const fail = (msg) => { console.error('FAIL (node): ' + msg); process.exit(1); };
setTimeout(() => fail('timed out'), 30000).unref();

async function main() {
  const child = cp.spawn(pfls, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const diags = new Map();
  const waiters = [];
  conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
    diags.set(p.uri + '@' + p.version, p.diagnostics);
    waiters.forEach((w) => w());
  });
  conn.onRequest(lsp.ConfigurationRequest.type, (p) => p.items.map(() => null));
  conn.onRequest(lsp.InlayHintRefreshRequest.type, () => null);
  conn.listen();
  const waitDiags = (uri, version) => new Promise((resolve) => {
    const check = () => { const d = diags.get(uri + '@' + version); if (d) resolve(d); };
    waiters.push(check); check();
  });

  const init = await conn.sendRequest(lsp.InitializeRequest.type, {
    processId: process.pid, rootUri: 'file://' + examples, workspaceFolders: null,
    capabilities: {
      textDocument: {
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        hover: { contentFormat: ['markdown'] },
        inlayHint: { resolveSupport: { properties: ['tooltip'] } },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } }, dataSupport: true, resolveSupport: { properties: ['edit'] } },
        publishDiagnostics: { versionSupport: true, tagSupport: { valueSet: [1, 2] } },
      },
      workspace: { configuration: true, inlayHint: { refreshSupport: true } },
    },
  });
  const c0 = init.capabilities;
  if (!c0.documentHighlightProvider || !c0.foldingRangeProvider || !c0.semanticTokensProvider || !c0.semanticTokensProvider.full.delta || !c0.callHierarchyProvider) fail('new capabilities ' + JSON.stringify(c0));
  if (!init.capabilities.inlayHintProvider || init.capabilities.textDocumentSync.change !== 2) fail('capabilities ' + JSON.stringify(init.capabilities));
  conn.sendNotification(lsp.InitializedNotification.type, {});

  const file = path.join(examples, 'redblack.f');
  const uri = 'file://' + file;
  const text = fs.readFileSync(file, 'utf8');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'fortran', version: 1, text } });
  const d1 = await waitDiags(uri, 1);
  // No errors; the compiler-capability notes of seed 000 on the sweeps.
  if (d1.some((d) => d.severity === 1)) fail('redblack.f has errors: ' + JSON.stringify(d1));
  if (!d1.some((d) => d.code === 'loop-distribution' && d.source === 'pfls')) fail('no loop-distribution note: ' + JSON.stringify(d1));

  const lines = text.split('\n');
  const alignLine = lines.findIndex((l) => l.includes('ALIGN VAL WITH G'));
  const hover = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: { line: alignLine, character: 12 } });
  if (!hover || !hover.contents.value.includes('REAL VAL(0:N+1,0:N+1)') || !hover.contents.value.includes('G(BLOCK,BLOCK)')) fail('hover ' + JSON.stringify(hover));

  const syms = await conn.sendRequest(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
  if (syms.length !== 1 || syms[0].name !== 'REDBLK' || syms[0].children[0].name !== 'DO 100 KC') fail('symbols ' + JSON.stringify(syms));

  const hints = await conn.sendRequest(lsp.InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } } });
  // Hints with the costs that `pfls complexity` prints: the program's
  // summary on its header and the DO 100 loop's on its first line.
  const hintOn = (hs, line) => hs.filter((h) => h.position.line === line).map((h) => h.label);
  if (!Array.isArray(hints) || hints.length === 0) fail('no inlay hints ' + JSON.stringify(hints));
  const do100 = lines.findIndex((l) => l.includes('DO 100 KC'));
  if (JSON.stringify(hintOn(hints, do100)) !== JSON.stringify(['944 M'])) fail('inlay hint on DO 100: ' + JSON.stringify(hints));
  if (JSON.stringify(hintOn(hints, lines.findIndex((l) => l.includes('PROGRAM REDBLK')))) !== JSON.stringify(['944 M'])) fail('inlay hint on PROGRAM REDBLK: ' + JSON.stringify(hints));
  if (!hints.every((h) => h.position.character === lines[h.position.line].replace(/\r$/, '').length)) fail('inlay hints not at line ends: ' + JSON.stringify(hints));

  // SUB2 of the PIPS report: the routine's polynomial on its header.
  const subFile = path.join(examples, 'sub2.f');
  const subUri = 'file://' + subFile;
  const subLines = fs.readFileSync(subFile, 'utf8').split('\n');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: subUri, languageId: 'fortran', version: 1, text: subLines.join('\n') } });
  await waitDiags(subUri, 1);
  const subHints = await conn.sendRequest(lsp.InlayHintRequest.type, { textDocument: { uri: subUri }, range: { start: { line: 0, character: 0 }, end: { line: subLines.length, character: 0 } } });
  const header = subLines.findIndex((l) => l.includes('SUBROUTINE SUB2'));
  if (JSON.stringify(hintOn(subHints, header)) !== JSON.stringify(['1/2·M³ + 75/4·M² + 1… for M ≥ 10, M even'])) fail('inlay hint on SUBROUTINE SUB2: ' + JSON.stringify(subHints));
  const do30 = subLines.findIndex((l) => l.includes('DO 30 K'));
  if (JSON.stringify(hintOn(subHints, do30)) !== JSON.stringify(['-6·I - 6·J + 6·M + 70 for M + 10 ≥ I + J'])) fail('inlay hint on DO 30: ' + JSON.stringify(subHints));

  const def = await conn.sendRequest(lsp.DefinitionRequest.type, { textDocument: { uri }, position: { line: alignLine, character: 21 } });
  const declLine = lines.findIndex((l) => l.includes('DECOMPOSITION G'));
  if (!def.length || def[0].range.start.line !== declLine) fail('definition ' + JSON.stringify(def));

  // Document highlight of VAL: every VAL of the code lines, by binding;
  // the assignment targets are writes (kind 3).
  const valCount = lines.filter((l) => !/^[Cc*]/.test(l)).reduce((n, l) => n + (l.match(/\bVAL\b/g) || []).length, 0);
  const hl = await conn.sendRequest(lsp.DocumentHighlightRequest.type, { textDocument: { uri }, position: { line: alignLine, character: 12 } });
  const firstWrite = lines.findIndex((l) => /^ +VAL\(I,J\) =/.test(l));
  if (!Array.isArray(hl) || hl.length !== valCount || !hl.some((h) => h.range.start.line === firstWrite && h.kind === 3) || !hl.some((h) => h.range.start.line === alignLine && h.kind === 2)) fail('documentHighlight ' + JSON.stringify(hl));

  // Folding: the header comment, the program up to its END, DO 100.
  const folds = await conn.sendRequest(lsp.FoldingRangeRequest.type, { textDocument: { uri } });
  const endLine = lines.findIndex((l) => /^ +END *$/.test(l));
  const hasFold = (a, b, kind) => folds.some((f) => f.startLine === a && f.endLine === b && f.kind === kind);
  if (!hasFold(0, 3, 'comment') || !hasFold(progLineOf(lines), endLine - 1, undefined) || !hasFold(do100, lines.findIndex((l) => l.includes('100 CONTINUE')) - 1, undefined)) fail('foldingRange ' + JSON.stringify(folds));

  // Semantic tokens: the Fortran D statements are directive keywords,
  // VAL and G carry the distributed modifier, comments are comments.
  const legend = init.capabilities.semanticTokensProvider.legend;
  const sem = await conn.sendRequest(lsp.SemanticTokensRequest.type, { textDocument: { uri } });
  const toks = [];
  for (let i = 0, line = 0, col = 0; i < sem.data.length; i += 5) {
    if (sem.data[i] > 0) { line += sem.data[i]; col = sem.data[i + 1]; } else { col += sem.data[i + 1]; }
    const mods = legend.tokenModifiers.filter((m, b) => sem.data[i + 4] & (1 << b));
    toks.push({ line, col, len: sem.data[i + 2], type: legend.tokenTypes[sem.data[i + 3]], mods, text: lines[line].substr(col, sem.data[i + 2]) });
  }
  const tok = (text, line) => toks.find((t) => t.text === text && t.line === line);
  const decompLine = lines.findIndex((l) => l.includes('DECOMPOSITION G'));
  const isTok = (t, type, mod) => t && t.type === type && (!mod || t.mods.includes(mod));
  if (!isTok(tok('DECOMPOSITION', decompLine), 'keyword', 'directive') || !isTok(tok('ALIGN', alignLine), 'keyword', 'directive') ||
      !isTok(tok('VAL', alignLine), 'variable', 'distributed') || !isTok(tok('G', decompLine), 'type', 'distributed') ||
      !toks.some((t) => t.line === 0 && t.type === 'comment') || !isTok(tok('0.25', lines.findIndex((l) => l.includes('A = 0.25'))), 'number')) fail('semanticTokens ' + JSON.stringify(toks.slice(0, 60)));
  const semDelta = await conn.sendRequest(lsp.SemanticTokensDeltaRequest.type, { textDocument: { uri }, previousResultId: sem.resultId });
  if (!semDelta.edits || semDelta.edits.length !== 0) fail('semanticTokens delta without a change ' + JSON.stringify(semDelta));

  // Call hierarchy: a document that calls SUB2 is among its callers, and
  // its outgoing calls lead to SUB2 in examples/sub2.f.
  const callerUri = 'file://' + path.join(examples, 'caller-e2e.f');
  const callerText = '      PROGRAM DRIVE\n      CALL SUB2(10)\n      END\n';
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: callerUri, languageId: 'fortran', version: 1, text: callerText } });
  await waitDiags(callerUri, 1);
  const items = await conn.sendRequest(lsp.CallHierarchyPrepareRequest.type, { textDocument: { uri: subUri }, position: { line: header, character: subLines[header].indexOf('SUB2') + 1 } });
  if (!items || items.length !== 1 || items[0].name !== 'SUB2' || items[0].uri !== subUri) fail('prepareCallHierarchy ' + JSON.stringify(items));
  const incoming = await conn.sendRequest(lsp.CallHierarchyIncomingCallsRequest.type, { item: items[0] });
  if (!incoming.some((c) => c.from.name === 'DRIVE' && c.from.uri === callerUri && c.fromRanges[0].start.line === 1 && c.fromRanges[0].start.character === 11)) fail('incomingCalls ' + JSON.stringify(incoming));
  const outgoing = await conn.sendRequest(lsp.CallHierarchyOutgoingCallsRequest.type, { item: incoming.find((c) => c.from.name === 'DRIVE').from });
  if (outgoing.length !== 1 || outgoing[0].to.name !== 'SUB2' || outgoing[0].to.uri !== subUri) fail('outgoingCalls ' + JSON.stringify(outgoing));

  // Code actions as VS Code asks for them: the distributions come without
  // their edit, which codeAction/resolve computes.
  if (!c0.codeActionProvider || c0.codeActionProvider.resolveProvider !== true) fail('codeActionProvider ' + JSON.stringify(c0.codeActionProvider));
  const acts = await conn.sendRequest(lsp.CodeActionRequest.type, { textDocument: { uri }, range: { start: { line: do100, character: 0 }, end: { line: do100, character: 0 } }, context: { diagnostics: [] } });
  const dist = (acts || []).find((a) => a.kind === 'refactor.rewrite');
  if (!dist || dist.edit || !dist.data) fail('code actions before resolve ' + JSON.stringify(acts));
  const resolved = await conn.sendRequest(lsp.CodeActionResolveRequest.type, dist);
  const distEdits = resolved && resolved.edit && resolved.edit.changes && resolved.edit.changes[uri];
  // The edit rewrites only the distribution's words in place: applied to
  // the text (single-line edits, last first), the directive reads as the
  // title says.
  if (!distEdits || !distEdits.length) fail('codeAction/resolve ' + JSON.stringify(resolved));
  const edited = text.split('\n');
  for (const e of [...distEdits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character)) {
    if (e.range.start.line !== e.range.end.line) fail('codeAction/resolve: a multi-line edit ' + JSON.stringify(e));
    const l = edited[e.range.start.line];
    edited[e.range.start.line] = l.slice(0, e.range.start.character) + e.newText + l.slice(e.range.end.character);
  }
  const want = /^Distribute (\w+)\(([^)]*)\)/.exec(dist.title);
  if (!want || !edited.some((l) => /DISTRIBUTE/i.test(l) && l.replace(/\s/g, '').toUpperCase().includes(want[1].toUpperCase() + '(' + want[2].toUpperCase() + ')'))) {
    fail('codeAction/resolve: no DISTRIBUTE ' + (want ? want[0] : dist.title) + ' after the edit ' + JSON.stringify(distEdits));
  }

  // Intrinsics and MPI: hover and signature help in a free-form program
  // that uses mpi (an unsaved document, so nothing is written to disk).
  const mpiUri = 'file://' + path.join(examples, 'mpi-e2e.f90');
  const mpiText = 'program ring\n  use mpi\n  integer :: rank, ierr\n  real :: a(10)\n' +
    '  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)\n  print *, sum(a)\n  print *, sum(a, mask=a > 0, \n' +
    '  call MPI_Send(a, 10, MPI_REAL, \nend program\n';
  const mpiLines = mpiText.split('\n');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: mpiUri, languageId: 'fortran', version: 1, text: mpiText } });
  await waitDiags(mpiUri, 1);
  const hoverAt = (line, word) => conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri: mpiUri }, position: { line, character: mpiLines[line].indexOf(word) + 1 } });
  const hWorld = await hoverAt(4, 'MPI_COMM_WORLD');
  if (!hWorld || !hWorld.contents.value.includes('MPI_COMM_WORLD: INTEGER (MPI_Comm handle), parameter')) fail('hover of MPI_COMM_WORLD ' + JSON.stringify(hWorld));
  const hSum = await hoverAt(5, 'sum');
  if (!hSum || !hSum.contents.value.includes('SUM(ARRAY, DIM, [MASK])') || !hSum.contents.value.includes('transformational function')) fail('hover of SUM ' + JSON.stringify(hSum));
  const sigAt = (line) => conn.sendRequest(lsp.SignatureHelpRequest.type, { textDocument: { uri: mpiUri }, position: { line, character: mpiLines[line].length } });
  const paramOf = (sh) => { const sig = sh.signatures[sh.activeSignature]; const l = sig.parameters[sh.activeParameter].label; return sig.label.slice(l[0], l[1]); };
  const sSum = await sigAt(6);
  if (!sSum || sSum.signatures.length !== 2 || paramOf(sSum) !== 'DIM') fail('signatureHelp of SUM after MASK= ' + JSON.stringify(sSum));
  const sSend = await sigAt(7);
  if (!sSend || paramOf(sSend) !== 'DEST' || !sSend.signatures[0].parameters[2].documentation.value.includes('MPI_Datatype')) fail('signatureHelp of MPI_SEND ' + JSON.stringify(sSend));
  if (!c0.signatureHelpProvider || !c0.signatureHelpProvider.triggerCharacters.includes('(') || !c0.signatureHelpProvider.triggerCharacters.includes(',')) fail('signatureHelpProvider ' + JSON.stringify(c0.signatureHelpProvider));

  // Module not found: a USE of a module nowhere in the workspace is a
  // warning once the index is complete; use mpi (above) is not.
  const modUri = 'file://' + path.join(examples, 'mod-e2e.f90');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: modUri, languageId: 'fortran', version: 1, text: 'program m\n  use nowhere_e2e\n  use iso_c_binding\nend program m\n' } });
  const modDiag = await new Promise((resolve) => {
    const check = () => { const d = (diags.get(modUri + '@1') || []).filter((x) => x.code === 'module-not-found'); if (d.length) resolve(d); };
    waiters.push(check); check();
  });
  if (modDiag.length !== 1 || modDiag[0].severity !== 2 || modDiag[0].range.start.line !== 1 || !modDiag[0].message.includes('nowhere_e2e')) fail('module-not-found ' + JSON.stringify(modDiag));
  if ((diags.get(mpiUri + '@1') || []).some((x) => x.code === 'module-not-found')) fail('use mpi reported as not found');

  // Formatting: a free-form document indented by construct, 3 spaces by
  // default whatever the editor's tab size; the range form only in range.
  if (!c0.documentFormattingProvider || !c0.documentRangeFormattingProvider) fail('formatting capabilities ' + JSON.stringify(c0));
  const fmtUri = 'file://' + path.join(examples, 'fmt-e2e.f90');
  const fmtText = 'program f\nif (x > 0) then  \ny = 1\nend if\nend program f\n';
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: fmtUri, languageId: 'fortran', version: 1, text: fmtText } });
  await waitDiags(fmtUri, 1);
  const applyEdits = (text, edits) => {
    const ls = text.split('\n');
    for (const e of [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character)) {
      if (e.range.start.line !== e.range.end.line) fail('multi-line edit ' + JSON.stringify(e));
      const l = ls[e.range.start.line];
      ls[e.range.start.line] = l.slice(0, e.range.start.character) + e.newText + l.slice(e.range.end.character);
    }
    return ls.join('\n');
  };
  const fmtEdits = await conn.sendRequest(lsp.DocumentFormattingRequest.type, { textDocument: { uri: fmtUri }, options: { tabSize: 4, insertSpaces: true } });
  const formatted = applyEdits(fmtText, fmtEdits);
  if (formatted !== 'program f\n   if (x > 0) then\n      y = 1\n   end if\nend program f\n') fail('formatting ' + JSON.stringify(formatted));
  const rangeEdits = await conn.sendRequest(lsp.DocumentRangeFormattingRequest.type, { textDocument: { uri: fmtUri }, range: { start: { line: 2, character: 0 }, end: { line: 2, character: 5 } }, options: { tabSize: 4, insertSpaces: true } });
  if (rangeEdits.length !== 1 || rangeEdits[0].range.start.line !== 2 || rangeEdits[0].newText !== '      y = 1') fail('rangeFormatting ' + JSON.stringify(rangeEdits));

  // Edit: declare IMPLICIT NONE after the PROGRAM line; now undeclared
  // names are reported and the outline still holds.
  const progLine = progLineOf(lines);
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: progLine + 1, character: 0 }, end: { line: progLine + 1, character: 0 } }, text: '      IMPLICIT NONE\n' }],
  });
  const d2 = await waitDiags(uri, 2);
  if (!d2.some((d) => d.code === 'undeclared' && d.source === 'pfls')) fail('no undeclared diagnostics after the edit: ' + JSON.stringify(d2));
  const hover2 = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: { line: alignLine + 1, character: 12 } });
  if (!hover2 || !hover2.contents.value.includes('REAL VAL')) fail('hover after edit ' + JSON.stringify(hover2));

  await conn.sendRequest(lsp.ShutdownRequest.type);
  conn.sendNotification(lsp.ExitNotification.type);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) fail('exit code ' + code);
  console.log('ok (node): diagnostics, hover, symbols, inlay hints, definition, highlight, folding, semantic tokens, call hierarchy, code action resolve, intrinsic and MPI hover, signature help, module-not-found, formatting, edit');
  process.exit(0);
}
main().catch((e) => fail(e.stack || String(e)));
