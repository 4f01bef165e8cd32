#!/bin/sh
# The playground's browser test: builds the page (scripts/build-web.sh) and
# pfls, serves the page with `pfls web` on 127.0.0.1, exports it, and runs
# test/browser.mjs in headless Chromium (Debian's /usr/bin/chromium, or
# $CHROMIUM) through playwright-core. Ends with "web: N passed, N failed";
# exits non-zero on a failure.
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
server=""
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "web: $1" >&2
	echo "web: 0 passed, 1 failed"
	exit 1
}

chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || fail "no Chromium at $chromium (apt-get install chromium)"
scripts/build-web.sh >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&2; fail "scripts/build-web.sh failed"; }
tail -n 1 "$tmp/build.log"
# The issue's size target: the module at most 10 MB compressed.
size=$(wc -c <web/dist/pfls.wasm.gz)
[ "$size" -le 10485760 ] || fail "pfls.wasm is $size bytes gzip-compressed, over the 10 MB target"
go build -o "$tmp/pfls" ./cmd/pfls || fail "go build failed"
# The embedded page's own test, now that there is a page to embed.
go test -count=1 -run '^TestEmbeddedPage$' ./cmd/pfls >"$tmp/gotest.log" 2>&1 || { cat "$tmp/gotest.log" >&2; fail "TestEmbeddedPage failed on the built page"; }
"$tmp/pfls" web --export "$tmp/export" >/dev/null || fail "pfls web --export failed"

"$tmp/pfls" web >"$tmp/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 100); do
	url=$(sed -n 's|.*serving the playground at \(http://[^ ]*\)/ .*|\1|p' "$tmp/serve.log")
	[ -n "$url" ] && break
	kill -0 "$server" 2>/dev/null || break
	sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/serve.log" >&2; fail "pfls web did not print its URL"; }
case "$url" in http://127.0.0.1:*) ;; *) fail "pfls web serves on $url, not 127.0.0.1" ;; esac

CHROMIUM=$chromium timeout 300 node web/test/browser.mjs "$url" "$tmp/export"
