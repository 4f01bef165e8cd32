#!/bin/sh
# Builds the playground page of `pfls web` into web/dist, which the web
# package embeds: npm ci and esbuild for the page (web/build.mjs), the
# analyses compiled to WebAssembly (web/wasm, stored gzip-compressed) and
# Go's wasm_exec.js of the same toolchain. Then `go build ./cmd/pfls`
# gives a binary with the page inside. Needs Go, Node.js and npm.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
for tool in go node npm gzip; do
	command -v "$tool" >/dev/null 2>&1 || { echo "build-web: $tool is needed" >&2; exit 2; }
done

# Start from an empty dist/ (its README.md is the committed placeholder).
find web/dist -mindepth 1 ! -name README.md -exec rm -rf {} +

cd web
npm ci --no-audit --no-fund --loglevel=error
node build.mjs
cd "$root"

GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -o web/dist/pfls.wasm ./web/wasm
raw=$(wc -c <web/dist/pfls.wasm)
gzip -9 -n web/dist/pfls.wasm
goroot=$(go env GOROOT)
for f in "$goroot/lib/wasm/wasm_exec.js" "$goroot/misc/wasm/wasm_exec.js"; do
	if [ -f "$f" ]; then
		cp "$f" web/dist/wasm_exec.js
		break
	fi
done
[ -f web/dist/wasm_exec.js ] || { echo "build-web: no wasm_exec.js under $goroot" >&2; exit 2; }
echo "build-web: pfls.wasm $raw bytes, $(wc -c <web/dist/pfls.wasm.gz) gzip-compressed; now go build ./cmd/pfls"
