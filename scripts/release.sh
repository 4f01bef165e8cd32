#!/bin/sh
# Builds a release into OUT-DIR: the pfls binary for linux, darwin and
# windows × amd64 and arm64 (go build, CGO off, -trimpath, the version
# stamped into `pfls version` and the server's initialize reply), and a
# platform-specific VS Code package with each binary inside
# (editors/vscode/package.sh --target all), then SHA-256 sums of them all.
# VERSION defaults to `git describe --tags --always --dirty`.
# Usage: scripts/release.sh OUT-DIR [VERSION]
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: $0 OUT-DIR [VERSION]" >&2; exit 2; fi
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
version=${2:-$(git -C "$repo" describe --tags --always --dirty 2>/dev/null || echo dev)}
cd "$repo"
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
  goos=${target%/*} goarch=${target#*/}
  exe=pfls-$version-$goos-$goarch
  [ "$goos" = windows ] && exe=$exe.exe
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$out/$exe" ./cmd/pfls
  echo "built $exe ($(wc -c <"$out/$exe") bytes)"
done
PFLS_VERSION=$version editors/vscode/package.sh --target all "$out"
(cd "$out" && sha256sum pfls-* >SHA256SUMS)
echo "release $version in $out: $(ls "$out" | grep '^pfls-' | grep -vc '\.vsix$') binaries, $(ls "$out" | grep -c '\.vsix$') packages"
