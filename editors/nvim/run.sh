#!/bin/sh
# Runs the headless Neovim end-to-end test of the shipped set-up
# (lua/pfls.lua) against a pfls binary. Installs nothing.
# Usage: editors/nvim/run.sh PATH-TO-PFLS
set -eu
if [ $# -ne 1 ]; then echo "usage: $0 PATH-TO-PFLS" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
pfls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$here/../.." && pwd)
PFLS="$pfls" PFLS_REPO="$repo" timeout 90 nvim --headless -u NONE -i NONE -n \
  -c "luafile $here/test.lua"
