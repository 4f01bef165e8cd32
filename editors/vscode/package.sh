#!/bin/sh
# Packages the VS Code extension. The JavaScript is bundled by esbuild into
# dist/extension.js (vsce runs `npm run build`, the vscode:prepublish
# script), so the package holds no node_modules and vsce has nothing to
# warn about. Without --target: one .vsix that runs the pfls on PATH (or
# pfls.path). With --target T (a VS Code target: linux-x64, linux-arm64,
# darwin-x64, darwin-arm64, win32-x64, win32-arm64) the pfls binary is
# cross-built for T with its version stamped (the extension's, or
# $PFLS_VERSION; go build, CGO off) into
# bin/ and packed into a platform-specific .vsix; --target all makes the
# six. Works offline once `npm ci` has run here; checks first that the
# settings in package.json are the server's (go run ./editors/vscode/gen
# -check).
# Usage: editors/vscode/package.sh [--target T|all] [OUT-DIR | OUT.vsix]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
target=""
if [ "${1:-}" = "--target" ]; then
  [ $# -ge 2 ] || { echo "usage: $0 [--target T|all] [OUT-DIR | OUT.vsix]" >&2; exit 2; }
  target=$2
  shift 2
fi
# The output: a folder, or (for one package) a file name ending in .vsix.
outfile=""
case "${1:-}" in
  *.vsix) outfile=$(mkdir -p "$(dirname "$1")" && cd "$(dirname "$1")" && pwd)/$(basename "$1"); outdir=$(dirname "$outfile") ;;
  *) outdir=$(mkdir -p "${1:-$here}" && cd "${1:-$here}" && pwd) ;;
esac
[ -z "$outfile" ] || [ "$target" != all ] || { echo "package.sh: --target all takes a folder, not $1" >&2; exit 2; }
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund
if command -v go >/dev/null 2>&1; then
  (cd "$repo" && go run ./editors/vscode/gen -check)
fi
version=$(node -p 'require("./package.json").version')
all="linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64"

# check_files fails unless the package holds the bundle, the grammars and
# (for a platform package) the binary, and nothing else of note.
check_files() {
  files=$(npx --no-install vsce ls --no-dependencies)
  for f in dist/extension.js syntaxes/fortran-fixed.tmLanguage.json syntaxes/fortran-free.tmLanguage.json \
    language-configuration.json $1; do
    echo "$files" | grep -qx "$f" || { echo "package.sh: $f is not in the package" >&2; exit 1; }
  done
  if echo "$files" | grep -qE '^(test|gen|node_modules)/|^extension\.js$'; then
    echo "package.sh: sources, tests or node_modules in the package:" >&2
    echo "$files" | grep -E '^(test|gen|node_modules)/|^extension\.js$' | head >&2
    exit 1
  fi
}

# pack T: package for target T ("" for the universal package).
pack() {
  rm -rf bin
  npm run --silent build -- --log-level=warning
  if [ -z "$1" ]; then
    out=${outfile:-"$outdir/pfls-$version.vsix"}
    check_files ""
    npx --no-install vsce package --no-dependencies --skip-license --out "$out" 2>&1 | tee vsce.log
  else
    case "$1" in
      linux-x64) goos=linux goarch=amd64 ;; linux-arm64) goos=linux goarch=arm64 ;;
      darwin-x64) goos=darwin goarch=amd64 ;; darwin-arm64) goos=darwin goarch=arm64 ;;
      win32-x64) goos=windows goarch=amd64 ;; win32-arm64) goos=windows goarch=arm64 ;;
      *) echo "package.sh: unknown target $1 (want one of: $all)" >&2; exit 2 ;;
    esac
    exe=pfls
    [ "$goos" = windows ] && exe=pfls.exe
    mkdir -p bin
    (cd "$repo" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath \
      -ldflags "-s -w -X main.version=${PFLS_VERSION:-$version}" -o "$here/bin/$exe" ./cmd/pfls)
    out=${outfile:-"$outdir/pfls-$1-$version.vsix"}
    check_files "bin/$exe"
    npx --no-install vsce package --no-dependencies --skip-license --target "$1" --out "$out" 2>&1 | tee vsce.log
    rm -rf bin
  fi
  if grep -qi "warning" vsce.log; then
    echo "package.sh: vsce warned (see above)" >&2
    rm -f vsce.log
    exit 1
  fi
  rm -f vsce.log
  echo "packaged $out ($(wc -c <"$out") bytes)"
}

case "$target" in
  "") pack "" ;;
  all) for t in $all; do pack "$t"; done ;;
  *) pack "$target" ;;
esac
