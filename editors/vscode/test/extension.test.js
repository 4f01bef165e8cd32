// Tests of the VS Code extension without VS Code: the manifest, the
// TextMate grammars (tokenized with vscode-textmate and Oniguruma, as VS
// Code does), the settings against the server's schema, the search for the
// binary and the missing-binary message (with a stand-in for the vscode
// module), and the estimate command's parameters against a real
// `pfls serve` when PFLS names the binary, and "Profile this program"
// with it (gfortran too). Run: npm test (node --test).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

const ext = path.resolve(__dirname, '..');
const repo = path.resolve(ext, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));

// A stand-in for the vscode module: records what the extension shows.
const shown = { errors: [], opened: [], commands: {}, pick: undefined };
const vscodeMock = {
  window: {
    showErrorMessage: async (msg, ...items) => { shown.errors.push({ msg, items }); return shown.pick; },
    showWarningMessage: async () => undefined,
  },
  env: { openExternal: async (uri) => { shown.opened.push(String(uri)); return true; } },
  Uri: { parse: (s) => ({ toString: () => s }) },
  commands: {
    registerCommand: (id, fn) => { shown.commands[id] = fn; return { dispose() {} }; },
    executeCommand: async () => undefined,
  },
  workspace: {
    getConfiguration: () => ({ get: (key, def) => (key === 'path' ? shown.configuredPath || def : def) }),
    onDidChangeConfiguration: () => ({ dispose() {} }),
  },
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscodeMock };
const extension = require(path.join(ext, 'extension.js'));

test('languages and file extensions', () => {
  const langs = Object.fromEntries(pkg.contributes.languages.map((l) => [l.id, l.extensions]));
  assert.deepStrictEqual(langs, {
    fortran: ['.f90', '.f95', '.f03', '.f08', '.F90', '.hpf'],
    'fortran-fixed': ['.f', '.for', '.f77', '.ftn', '.fcm', '.F'],
  });
  for (const id of Object.keys(langs)) {
    assert.ok(pkg.activationEvents.includes('onLanguage:' + id), 'activation on ' + id);
    assert.ok(extension.LANGUAGES.includes(id), 'client document selector has ' + id);
    const g = pkg.contributes.grammars.find((x) => x.language === id);
    assert.ok(g, 'grammar for ' + id);
    const grammar = JSON.parse(fs.readFileSync(path.join(ext, g.path), 'utf8'));
    assert.strictEqual(grammar.scopeName, g.scopeName);
  }
  for (const l of pkg.contributes.languages) assert.ok(fs.existsSync(path.join(ext, l.configuration)));
  assert.strictEqual(pkg.main, './dist/extension.js');
  assert.strictEqual(pkg.scripts['vscode:prepublish'], 'npm run build');
  assert.ok(pkg.dependencies['vscode-languageclient']);
});

test('settings match the server schema (go run ./editors/vscode/gen -print)', (t) => {
  let out;
  try {
    out = cp.execFileSync('go', ['run', './editors/vscode/gen', '-print'], { cwd: repo, encoding: 'utf8' });
  } catch (e) {
    if (e.code === 'ENOENT') { t.skip('no go on PATH'); return; }
    throw e;
  }
  assert.deepStrictEqual(pkg.contributes.configuration, JSON.parse(out));
  const props = pkg.contributes.configuration.find((c) => c.id === 'pfls').properties;
  assert.deepStrictEqual(Object.keys(props).sort(), [
    'pfls.complexity.pips', 'pfls.estimate.machine', 'pfls.estimate.procs', 'pfls.estimate.values',
    'pfls.format.indent', 'pfls.format.keywordCase', 'pfls.inlayHints.enable', 'pfls.inlayHints.loops', 'pfls.inlayHints.maxLength', 'pfls.inlayHints.units', 'pfls.profile']);
  assert.strictEqual(props['pfls.estimate.procs'].default, 16);
  assert.strictEqual(props['pfls.format.indent'].default, 3);
});

test('commands in the manifest are the ones the extension registers', async () => {
  shown.errors = [];
  await extension.activate({ subscriptions: [] }).catch(() => {});
  const contributed = pkg.contributes.commands.map((c) => c.command).sort();
  assert.deepStrictEqual(Object.keys(shown.commands).sort(), contributed);
  assert.ok(pkg.contributes.commands.some((c) => c.title === 'Estimate this loop' && c.category === 'pfls'));
});

async function grammarRegistry() {
  const tm = require('vscode-textmate');
  const onig = require('vscode-oniguruma');
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const files = Object.fromEntries(pkg.contributes.grammars.map((g) => [g.scopeName, path.join(ext, g.path)]));
  return new tm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new onig.OnigScanner(p), createOnigString: (s) => new onig.OnigString(s) }),
    loadGrammar: async (scope) => (files[scope] ? tm.parseRawGrammar(fs.readFileSync(files[scope], 'utf8'), files[scope]) : null),
  });
}

// scopesOf tokenizes lines and returns, for each line, [text, innermost scope] pairs.
function scopesOf(grammar, lines) {
  const tm = require('vscode-textmate');
  let state = tm.INITIAL;
  return lines.map((line) => {
    const r = grammar.tokenizeLine(line, state);
    state = r.ruleStack;
    return r.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]]);
  });
}

const has = (toks, text, scope) => toks.some(([x, s]) => x.trim().toUpperCase() === text.toUpperCase() && s.startsWith(scope));

test('fixed-form grammar: comments in column 1, sentinels, Fortran D', async () => {
  const g = await (await grammarRegistry()).loadGrammar('source.fortran.fixed.pfls');
  const [comment, star, call, hpf, hpfStar, omp, cmf, decomp, align, dist, doLine, str] = scopesOf(g, [
    'C     red points',
    '* another comment',
    '      CALL FOO(1.5E3, N)',
    'CHPF$ ALIGN A(I) WITH T(I)',
    '*HPF$ DISTRIBUTE T(BLOCK)',
    'C$OMP PARALLEL DO PRIVATE(I)',
    'CMF$ LAYOUT A(:NEWS)',
    '      DECOMPOSITION G(0:N+1,0:N+1)',
    '      ALIGN VAL WITH G',
    '      DISTRIBUTE G(BLOCK,BLOCK)',
    '      DO 100 KC = 1, NCYCLE',
    "      PRINT *, 'it''s'  ! done",
  ]);
  assert.deepStrictEqual(comment, [['C     red points', 'comment.line.fixed.fortran.pfls']]);
  assert.deepStrictEqual(star, [['* another comment', 'comment.line.fixed.fortran.pfls']]);
  assert.ok(has(call, 'CALL', 'keyword.control'), JSON.stringify(call));
  assert.ok(has(call, '1.5E3', 'constant.numeric'), JSON.stringify(call));
  assert.ok(!call.some(([, s]) => s.startsWith('comment')), JSON.stringify(call));
  assert.ok(has(hpf, 'CHPF$', 'keyword.control.directive.sentinel.hpf'), JSON.stringify(hpf));
  assert.ok(has(hpf, 'ALIGN', 'keyword.other.directive') && has(hpf, 'WITH', 'keyword.other.directive'), JSON.stringify(hpf));
  assert.ok(has(hpfStar, '*HPF$', 'keyword.control.directive.sentinel.hpf') && has(hpfStar, 'BLOCK', 'keyword.other.directive'), JSON.stringify(hpfStar));
  assert.ok(has(omp, 'C$OMP', 'keyword.control.directive.sentinel.omp') && has(omp, 'PRIVATE', 'keyword.other.directive'), JSON.stringify(omp));
  assert.ok(has(cmf, 'CMF$', 'keyword.control.directive.sentinel.cmf') && has(cmf, 'LAYOUT', 'keyword.other.directive'), JSON.stringify(cmf));
  assert.ok(has(decomp, 'DECOMPOSITION', 'keyword.other.fortran-d'), JSON.stringify(decomp));
  assert.ok(has(align, 'ALIGN', 'keyword.other.fortran-d') && has(align, 'WITH', 'keyword.other.fortran-d'), JSON.stringify(align));
  assert.ok(has(dist, 'DISTRIBUTE', 'keyword.other.fortran-d'), JSON.stringify(dist));
  assert.ok(has(doLine, 'DO', 'keyword.control') && has(doLine, '100', 'constant.numeric'), JSON.stringify(doLine));
  assert.ok(has(str, "'it''s'", 'string.quoted.single') && has(str, '! done', 'comment.line.exclamation'), JSON.stringify(str));
});

test('free-form grammar: sentinels after blanks, C in column 1 is code', async () => {
  const g = await (await grammarRegistry()).loadGrammar('source.fortran.free.pfls');
  const [hpf, omp, cmf, code, bang, notDirective] = scopesOf(g, [
    '  !HPF$ DISTRIBUTE (BLOCK, *) :: A',
    '!$OMP END PARALLEL DO',
    '!CMF$ LAYOUT B(:SERIAL, :NEWS)',
    'CALL SOLVE(A, .TRUE.)',
    '  x = 1 ! a comment',
    '!HPF$X not a directive',
  ]);
  assert.ok(has(hpf, '!HPF$', 'keyword.control.directive.sentinel.hpf') && has(hpf, 'DISTRIBUTE', 'keyword.other.directive'), JSON.stringify(hpf));
  assert.ok(has(omp, '!$OMP', 'keyword.control.directive.sentinel.omp') && has(omp, 'PARALLEL', 'keyword.other.directive'), JSON.stringify(omp));
  assert.ok(has(cmf, '!CMF$', 'keyword.control.directive.sentinel.cmf'), JSON.stringify(cmf));
  assert.ok(has(code, 'CALL', 'keyword.control') && has(code, '.TRUE.', 'constant.language'), JSON.stringify(code));
  assert.ok(has(bang, '! a comment', 'comment.line.exclamation'), JSON.stringify(bang));
  assert.deepStrictEqual(notDirective.map(([, s]) => s), ['comment.line.exclamation.fortran.pfls']);
});

test('findServer: pfls.path, then PATH', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pfls-ext-'));
  const bin = path.join(dir, 'pfls');
  fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'notexec'), '', { mode: 0o644 });
  assert.deepStrictEqual(extension.findServer('', { PATH: ['/nonexistent', dir].join(path.delimiter) }), { path: bin });
  assert.deepStrictEqual(extension.findServer(bin, { PATH: '' }), { path: bin });
  assert.match(extension.findServer(path.join(dir, 'notexec'), { PATH: dir }).error, /pfls\.path is ".*notexec", which is not an executable file/);
  assert.match(extension.findServer('', { PATH: '/nonexistent' }).error, /not on your PATH/);
  // A platform package's own binary comes before PATH, after pfls.path.
  const extDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pfls-ext-'));
  fs.mkdirSync(path.join(extDir, 'bin'));
  const inside = path.join(extDir, 'bin', 'pfls');
  fs.writeFileSync(inside, '#!/bin/sh\n', { mode: 0o755 });
  assert.deepStrictEqual(extension.findServer('', { PATH: dir }, extDir), { path: inside });
  assert.deepStrictEqual(extension.findServer(bin, { PATH: '' }, extDir), { path: bin });
});

test('the esbuild bundle is self-contained and exports the extension', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'pfls-bundle-'));
  const file = path.join(out, 'extension.js');
  cp.execFileSync(path.join(ext, 'node_modules', '.bin', 'esbuild'), ['extension.js', '--bundle', '--platform=node', '--format=cjs',
    '--external:vscode', '--target=node18', '--outfile=' + file, '--log-level=warning'], { cwd: ext });
  const text = fs.readFileSync(file, 'utf8');
  // Only vscode and Node's own modules stay outside the bundle.
  const required = new Set([...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
  const builtin = new Set(Module.builtinModules);
  const outside = [...required].filter((r) => r !== 'vscode' && !builtin.has(r) && !builtin.has(r.replace(/^node:/, '')));
  assert.deepStrictEqual(outside, []);
  const bundled = require(file);
  assert.strictEqual(typeof bundled.activate, 'function');
  assert.deepStrictEqual(bundled.LANGUAGES, extension.LANGUAGES);
});

test('missing binary: an error with the install link, which opens', async () => {
  const saved = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    shown.errors = []; shown.opened = []; shown.pick = 'Install instructions';
    await extension.activate({ subscriptions: [] });
  } finally {
    process.env.PATH = saved;
    shown.pick = undefined;
  }
  assert.strictEqual(shown.errors.length, 1);
  assert.match(shown.errors[0].msg, /cannot start the language server.*not on your PATH/);
  assert.ok(shown.errors[0].msg.includes(extension.INSTALL_URL));
  assert.deepStrictEqual(shown.opened, [extension.INSTALL_URL]);
  assert.ok(extension.INSTALL_URL.endsWith('#build-and-install'));
  assert.ok(/^## Build and install$/m.test(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')), 'README has the install section');
});

test('Estimate this loop: the parameters pfls serve expects', { skip: !process.env.PFLS && 'set PFLS to a pfls binary' }, async () => {
  const rpc = require('vscode-jsonrpc/node');
  const child = cp.spawn(process.env.PFLS, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const messages = [];
  conn.onNotification('window/showMessage', (p) => messages.push(p.message));
  conn.onNotification(() => {});
  conn.onRequest(() => null);
  conn.listen();
  try {
    const file = path.join(repo, 'examples', 'redblack.f');
    const uri = 'file://' + file;
    const text = fs.readFileSync(file, 'utf8');
    await conn.sendRequest('initialize', { processId: process.pid, rootUri: 'file://' + path.dirname(file), capabilities: {} });
    conn.sendNotification('initialized', {});
    conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'fortran-fixed', version: 1, text } });
    const line = text.split('\n').findIndex((l) => l.includes('DO 100 KC'));
    const report = await conn.sendRequest('workspace/executeCommand', extension.estimateParams(uri, line));
    assert.match(report, new RegExp('^Loop at line ' + (line + 1) + ' on 16 processors'));
    await assert.rejects(conn.sendRequest('workspace/executeCommand', extension.estimateParams(uri, 0)), /no DO loop starts on this line/);
    await conn.sendRequest('shutdown');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    conn.sendNotification('exit');
    assert.strictEqual(await exited, 0, 'pfls exits with 0 after shutdown and exit');
  } finally {
    conn.dispose();
    if (child.exitCode === null) child.kill();
  }
});

test('inlay hints from a real pfls: the costs on their lines', { skip: !process.env.PFLS && 'set PFLS to a pfls binary' }, async () => {
  const rpc = require('vscode-jsonrpc/node');
  const child = cp.spawn(process.env.PFLS, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  conn.onNotification(() => {});
  conn.onRequest(() => null);
  conn.listen();
  try {
    await conn.sendRequest('initialize', { processId: process.pid, rootUri: 'file://' + path.join(repo, 'examples'), capabilities: {} });
    conn.sendNotification('initialized', {});
    // labelsOn opens an example and returns its hints' labels by line text.
    const labelsOn = async (name) => {
      const file = path.join(repo, 'examples', name);
      const uri = 'file://' + file;
      const text = fs.readFileSync(file, 'utf8');
      const lines = text.split('\n');
      conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'fortran-fixed', version: 1, text } });
      const hints = await conn.sendRequest('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } } });
      assert.ok(Array.isArray(hints) && hints.length > 0, 'hints on ' + name + ': ' + JSON.stringify(hints));
      for (const h of hints) assert.strictEqual(h.position.character, lines[h.position.line].length, 'hint at a line end: ' + JSON.stringify(h));
      return (needle) => hints.filter((h) => lines[h.position.line].includes(needle)).map((h) => h.label);
    };
    const sub2 = await labelsOn('sub2.f');
    assert.deepStrictEqual(sub2('SUBROUTINE SUB2'), ['1/2·M³ + 75/4·M² + 1… for M ≥ 10, M even']);
    assert.deepStrictEqual(sub2('DO 30 K'), ['-6·I - 6·J + 6·M + 70 for M + 10 ≥ I + J']);
    const redblack = await labelsOn('redblack.f');
    assert.deepStrictEqual(redblack('PROGRAM REDBLK'), ['944 M']);
    assert.deepStrictEqual(redblack('DO 100 KC'), ['944 M']);
    await conn.sendRequest('shutdown');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    conn.sendNotification('exit');
    assert.strictEqual(await exited, 0);
  } finally {
    conn.dispose();
    if (child.exitCode === null) child.kill();
  }
});

test('Profile this program with a real pfls: the outcome, then measured times in the hints', { skip: (!process.env.PFLS && 'set PFLS to a pfls binary') || (cp.spawnSync('gfortran', ['--version']).error && 'needs gfortran') }, async () => {
  const rpc = require('vscode-jsonrpc/node');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pfls-profile-'));
  const child = cp.spawn(process.env.PFLS, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const shownMessage = new Promise((resolve) => conn.onNotification('window/showMessage', resolve));
  const refreshed = new Promise((resolve) => conn.onRequest('workspace/inlayHint/refresh', () => { resolve(); return null; }));
  conn.onNotification(() => {});
  conn.onRequest(() => null);
  conn.listen();
  try {
    const file = path.join(dir, 'p.f90');
    const text = 'program p\n  integer :: i, k\n  real :: s\n  s = 0\n  do k = 1, 200\n     do i = 1, 1000\n        s = s + i * 0.5\n     end do\n  end do\n  print *, s\nend program p\n';
    fs.writeFileSync(file, text);
    const past = new Date(Date.now() - 3600 * 1000);
    fs.utimesSync(file, past, past);
    const uri = 'file://' + file;
    await conn.sendRequest('initialize', { processId: process.pid, rootUri: 'file://' + dir, capabilities: { workspace: { inlayHint: { refreshSupport: true } } } });
    conn.sendNotification('initialized', {});
    conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'fortran', version: 1, text } });
    const started = await conn.sendRequest('workspace/executeCommand', extension.profileParams(uri));
    assert.match(started, /^profiling /);
    const msg = await shownMessage;
    assert.strictEqual(msg.type, 3, 'an information: ' + msg.message);
    assert.ok(msg.message.startsWith('pfls profile ' + file + ': ') && msg.message.includes('wrote '), msg.message);
    await refreshed;
    const hints = await conn.sendRequest('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
    const outer = hints.find((h) => h.position.line === 4);
    assert.ok(outer && / · measured [0-9.]+ [mµn]?s$/.test(outer.label), JSON.stringify(hints));
    await conn.sendRequest('shutdown');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    conn.sendNotification('exit');
    assert.strictEqual(await exited, 0);
  } finally {
    conn.dispose();
    if (child.exitCode === null) child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
