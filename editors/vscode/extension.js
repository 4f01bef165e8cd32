// The pfls extension for VS Code: starts `pfls serve` through
// vscode-languageclient for the Fortran languages it contributes, and adds
// the command "pfls: Estimate this loop". Plain JavaScript; esbuild bundles
// it with the client library into dist/extension.js (npm run build).
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

/** Where a new user learns to build and install the pfls binary. */
const INSTALL_URL = 'https://github.com/pfls/pfls#build-and-install';
/** The language ids this extension contributes, and those of other Fortran extensions. */
const LANGUAGES = ['fortran', 'fortran-fixed', 'FortranFreeForm', 'FortranFixedForm'];
/** The server's command behind "Estimate this loop": arguments [uri, 1-based line]. */
const ESTIMATE_COMMAND = 'pfls.estimateLoop';
const PROFILE_COMMAND = 'pfls.profile';

function isExecutable(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch (e) {
    return false;
  }
}

/**
 * findServer returns the pfls binary to run: the setting pfls.path when it
 * is not empty (a leading ~ is the home folder), else the binary inside a
 * platform-specific package (bin/ of the extension's folder, extDir),
 * else the first pfls on PATH. It returns {path} or {error} saying what is
 * missing.
 */
function findServer(configured, env, extDir) {
  env = env || process.env;
  if (configured) {
    let p = configured;
    if (p === '~' || p.startsWith('~/')) p = path.join(env.HOME || require('os').homedir(), p.slice(1));
    if (isExecutable(p)) return { path: p };
    return { error: `pfls.path is "${configured}", which is not an executable file.` };
  }
  const names = process.platform === 'win32' ? ['pfls.exe', 'pfls'] : ['pfls'];
  if (extDir) {
    for (const n of names) {
      const p = path.join(extDir, 'bin', n);
      if (isExecutable(p)) return { path: p };
    }
  }
  for (const dir of (env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      const p = path.join(dir, n);
      if (isExecutable(p)) return { path: p };
    }
  }
  return { error: 'pfls is not on your PATH and the setting pfls.path is empty.' };
}

/** estimateParams are the executeCommand parameters for the loop on a 0-based editor line. */
function estimateParams(uri, line) {
  return { command: ESTIMATE_COMMAND, arguments: [uri, line + 1] };
}

/** profileParams are the executeCommand parameters that profile the program of a document. */
function profileParams(uri) {
  return { command: PROFILE_COMMAND, arguments: [uri] };
}

let client;
let output;
let extensionDir;

/** missing tells the user that no pfls binary was found, with the way out. */
async function missing(message) {
  const install = 'Install instructions';
  const settings = 'Set pfls.path';
  const pick = await vscode.window.showErrorMessage(
    `pfls: cannot start the language server. ${message} Build it with "go build -o pfls ./cmd/pfls" and put it on your PATH, or set pfls.path (${INSTALL_URL}).`,
    install, settings);
  if (pick === install) await vscode.env.openExternal(vscode.Uri.parse(INSTALL_URL));
  if (pick === settings) await vscode.commands.executeCommand('workbench.action.openSettings', 'pfls.path');
}

async function start() {
  const found = findServer(vscode.workspace.getConfiguration('pfls').get('path', ''), process.env, extensionDir);
  if (found.error) {
    await missing(found.error);
    return;
  }
  const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
  const server = { command: found.path, args: ['serve'], transport: TransportKind.stdio };
  client = new LanguageClient('pfls', 'pfls', server, {
    documentSelector: LANGUAGES.map((language) => ({ language })),
    // Sends {pfls: {...}} on every change; the server also pulls the section.
    synchronize: { configurationSection: 'pfls' },
  });
  try {
    await client.start();
  } catch (e) {
    client = undefined;
    await missing(`Running ${found.path} serve failed: ${e && e.message ? e.message : e}.`);
  }
}

async function stop() {
  if (!client) return;
  const c = client;
  client = undefined;
  await c.stop();
}

/** estimateThisLoop asks the server for the estimate of the loop on the cursor's line. */
async function estimateThisLoop() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !LANGUAGES.includes(editor.document.languageId)) {
    vscode.window.showWarningMessage('pfls: open a Fortran file and put the cursor on a DO line.');
    return;
  }
  if (!client) {
    vscode.window.showErrorMessage('pfls: the language server is not running.');
    return;
  }
  const params = estimateParams(editor.document.uri.toString(), editor.selection.active.line);
  try {
    const text = await client.sendRequest('workspace/executeCommand', params);
    output = output || vscode.window.createOutputChannel('pfls estimates');
    output.appendLine(String(text));
    output.appendLine('');
    output.show(true);
  } catch (e) {
    vscode.window.showErrorMessage('pfls: ' + (e && e.message ? e.message : e));
  }
}

/**
 * profileThisProgram saves the document and asks the server to run `pfls profile` on
 * its file; the server reports progress, shows the outcome and refreshes the hints.
 */
async function profileThisProgram() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !LANGUAGES.includes(editor.document.languageId)) {
    vscode.window.showWarningMessage('pfls: open the Fortran file of the program to profile.');
    return;
  }
  if (!client) {
    vscode.window.showErrorMessage('pfls: the language server is not running.');
    return;
  }
  try {
    if (editor.document.isDirty && !(await editor.document.save())) return;
    await client.sendRequest('workspace/executeCommand', profileParams(editor.document.uri.toString()));
  } catch (e) {
    vscode.window.showErrorMessage('pfls: ' + (e && e.message ? e.message : e));
  }
}

async function activate(context) {
  extensionDir = context.extensionPath;
  context.subscriptions.push(
    vscode.commands.registerCommand('pfls.estimateThisLoop', estimateThisLoop),
    vscode.commands.registerCommand('pfls.profileThisProgram', profileThisProgram),
    vscode.commands.registerCommand('pfls.restartServer', async () => { await stop(); await start(); }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('pfls.path')) { await stop(); await start(); }
    }),
    { dispose: () => { stop(); } },
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate, findServer, estimateParams, profileParams, INSTALL_URL, LANGUAGES, ESTIMATE_COMMAND, PROFILE_COMMAND };
