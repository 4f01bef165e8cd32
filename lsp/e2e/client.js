// End-to-end test of `pfls serve` through vscode-languageserver-protocol,
// the library VS Code's client is built on: it opens the examples, waits
// for diagnostics, asks for hover, symbols and inlay hints, applies an
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
        publishDiagnostics: { versionSupport: true, tagSupport: { valueSet: [1, 2] } },
      },
      workspace: { configuration: true, inlayHint: { refreshSupport: true } },
    },
  });
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
  if (!Array.isArray(hints)) fail('inlay hints ' + JSON.stringify(hints));

  const def = await conn.sendRequest(lsp.DefinitionRequest.type, { textDocument: { uri }, position: { line: alignLine, character: 21 } });
  const declLine = lines.findIndex((l) => l.includes('DECOMPOSITION G'));
  if (!def.length || def[0].range.start.line !== declLine) fail('definition ' + JSON.stringify(def));

  // Edit: declare IMPLICIT NONE after the PROGRAM line; now undeclared
  // names are reported and the outline still holds.
  const progLine = lines.findIndex((l) => l.includes('PROGRAM REDBLK'));
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
  console.log('ok (node): diagnostics, hover, symbols, inlay hints, definition, edit');
  process.exit(0);
}
main().catch((e) => fail(e.stack || String(e)));
