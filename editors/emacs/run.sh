#!/bin/sh
# Runs the batch Emacs test of pfls.el (Eglot) against a pfls binary.
# Needs Emacs 29, or Emacs 28 with elpa-eglot. Installs nothing.
# Usage: editors/emacs/run.sh PATH-TO-PFLS
set -eu
if [ $# -ne 1 ]; then echo "usage: $0 PATH-TO-PFLS" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
pfls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$here/../.." && pwd)
# --batch skips the user's init file but loads the site start-up, which
# puts Debian's elpa-eglot on the load path.
PFLS="$pfls" PFLS_REPO="$repo" timeout 90 emacs --batch -l "$here/test.el"
