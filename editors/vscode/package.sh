#!/bin/sh
# Packages the VS Code extension as pfls-VERSION.vsix in this folder, with
# its runtime dependency (vscode-languageclient) bundled from node_modules.
# Works offline once `npm ci` has run here; checks first that the settings
# in package.json are the server's (go run ./editors/vscode/gen -check).
# Usage: editors/vscode/package.sh [OUT.vsix]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund
if command -v go >/dev/null 2>&1; then
  (cd ../.. && go run ./editors/vscode/gen -check)
fi
version=$(node -p 'require("./package.json").version')
out=${1:-"$here/pfls-$version.vsix"}
# The files must include the client library and nothing of the tests.
files=$(npx --no-install vsce ls)
for f in extension.js syntaxes/fortran-fixed.tmLanguage.json syntaxes/fortran-free.tmLanguage.json \
  language-configuration.json node_modules/vscode-languageclient/lib/node/main.js; do
  echo "$files" | grep -qx "$f" || { echo "package.sh: $f is not in the package" >&2; exit 1; }
done
if echo "$files" | grep -qE '^(test|gen)/|^node_modules/(@vscode|vscode-textmate|vscode-oniguruma)/'; then
  echo "package.sh: test or build files in the package" >&2; exit 1
fi
npx --no-install vsce package --skip-license --out "$out"
echo "packaged $out ($(wc -c <"$out") bytes)"
