#!/bin/sh
# Runs the end-to-end tests of `pfls serve` with real clients: Node with
# vscode-languageserver-protocol (needs `npm ci` here first) and headless
# Neovim; with a second argument, node or nvim, that client only.
# Installs nothing. Usage: lsp/e2e/run.sh PATH-TO-PFLS [node|nvim]
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: $0 PATH-TO-PFLS [node|nvim]" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
pfls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$here/../../examples" && pwd)
only=${2:-}
case "$only" in ""|node|nvim) ;; *) echo "usage: $0 PATH-TO-PFLS [node|nvim]" >&2; exit 2 ;; esac
status=0
if [ "$only" != nvim ]; then
  node "$here/client.js" "$pfls" || status=1
fi
if [ "$only" != node ]; then
  PFLS="$pfls" EXAMPLES="$examples" timeout 60 nvim --headless -u NONE -i NONE -n \
    -c "luafile $here/nvim.lua" || status=1
fi
exit $status
