#!/bin/sh
# Runs the end-to-end tests of `pfls serve` with real clients: Node with
# vscode-languageserver-protocol (needs `npm ci` here first) and headless
# Neovim. Installs nothing. Usage: lsp/e2e/run.sh PATH-TO-PFLS
set -eu
if [ $# -ne 1 ]; then echo "usage: $0 PATH-TO-PFLS" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
pfls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$here/../../examples" && pwd)
status=0
node "$here/client.js" "$pfls" || status=1
PFLS="$pfls" EXAMPLES="$examples" timeout 60 nvim --headless -u NONE -i NONE -n \
  -c "luafile $here/nvim.lua" || status=1
exit $status
