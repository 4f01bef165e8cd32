#!/usr/bin/env bash
# Runs the Go benchmarks (go test -run '^$' -bench . -benchmem) of every
# package that has some, prints their output, then a table of each speed
# target (issue 17, and the targets the benchmarks' comments state)
# against the figure measured: the median over -count runs. Packages run
# one at a time (-p 1): go test otherwise runs two packages' benchmarks
# at once on two cores, and each slows the other.
#
# Usage: scripts/bench.sh [PKG...]    (default: every package with a benchmark)
# Environment: BENCHTIME (go test -benchtime, default 1s), COUNT (-count, default 1),
# PFLS_CORPUS (a Fortran tree such as LAPACK's source, for the corpus and
# workspace benchmarks; they skip without it).
# Exits non-zero only when the benchmarks fail to build or run, never
# because a figure misses its target: on a shared machine that is noise
# as often as a regression; read the table.
set -euo pipefail
cd "$(dirname "$0")/.."
benchtime=${BENCHTIME:-1s}
count=${COUNT:-1}
if [ $# -gt 0 ]; then
  pkgs=("$@")
else
  mapfile -t pkgs < <(grep -rl --include='*_test.go' --exclude-dir=node_modules '^func Benchmark' . |
    xargs -n1 dirname | sort -u)
fi
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
status=0
go test -p 1 -run '^$' -bench . -benchmem -benchtime "$benchtime" -count "$count" "${pkgs[@]}" 2>&1 | tee "$raw" || status=$?

# Targets: measure | package.Benchmark ("-" if none) | metric | at least/at most | value | unit shown.
# ns/op figures are shown in ms. cpu-ms/op and cpu-MB/s are the process's CPU
# time per operation (internal/gen.CPUTimer): on a shared machine they vary far
# less than the wall time.
targets='parse, dense 20k-line fixed form|parser.BenchmarkParseFixed|MB/s|>=|50|MB/s
parse, dense 20k-line free form|parser.BenchmarkParseFree|MB/s|>=|50|MB/s
parse, dense 20k-line fixed form, per CPU second|parser.BenchmarkParseFixed|cpu-MB/s|>=|50|MB/s
parse, dense 20k-line free form, per CPU second|parser.BenchmarkParseFree|cpu-MB/s|>=|50|MB/s
parse over LAPACK ($PFLS_CORPUS)|parser.BenchmarkParseCorpus|MB/s|>=|100|MB/s
parse over LAPACK ($PFLS_CORPUS), per CPU second|parser.BenchmarkParseCorpus|cpu-MB/s|>=|100|MB/s
workspace ($PFLS_CORPUS): last routine found|lsp.BenchmarkWorkspaceIndex|found-s|<=|2|s
workspace ($PFLS_CORPUS): resident after indexing|lsp.BenchmarkWorkspaceIndex|rss-MB|<=|150|MB
edit -> inlay hints, reparse + complexity hints|hints.BenchmarkEditToInlayHints|ns/op|<=|5|ms
edit -> inlay hints, server (fake producer)|lsp.BenchmarkEditToInlayHints|ns/op|<=|5|ms
open -> document symbols, 20k lines|lsp.BenchmarkOpenToSymbols|ns/op|<=|30|ms
open -> document symbols, 20k lines, CPU|lsp.BenchmarkOpenToSymbols|cpu-ms/op|<=|30|ms
open -> document symbols, server alone, CPU|lsp.BenchmarkOpenToSymbolsServer|cpu-ms/op|<=|30|ms
open 10 MB file -> document symbols|lsp.BenchmarkOpenBigFile|ns/op|<=|1000|ms
resident after opening 10 MB|lsp.BenchmarkOpenBigFile|rss-MB|<=|300|MB
edit -> diagnostics with capability, 20k lines, F77, CPU|hints.BenchmarkEditToDiagnostics/f77|cpu-ms/op|<=|100|ms
edit -> diagnostics with capability, 20k lines, Fortran D, CPU|hints.BenchmarkEditToDiagnostics/fortrand|cpu-ms/op|<=|100|ms
reparse after one character (bench doc)|parser.BenchmarkReparseOneChar|ns/op|<=|1|ms
complexity of 20k lines (bench doc)|complexity.BenchmarkComplexity20000|ns/op|<=|50|ms
complexity of 20k lines, CPU|complexity.BenchmarkComplexity20000|cpu-ms/op|<=|50|ms
resident after open, 20k lines (bench doc)|lsp.BenchmarkMemoryAfterOpen|rss-MB|<=|60|MB'

echo
echo "Benchmarks against their targets (benchtime $benchtime, count $count; median of the runs):"
printf '%s\n' "$targets" | awk -F'|' -v raw="$raw" '
BEGIN {
  while ((getline line < raw) > 0) {
    if (line ~ /^pkg: /) { n = split(line, p, "/"); pkg = p[n]; continue }
    if (line !~ /^Benchmark/) continue
    nf = split(line, f, /[ \t]+/)
    name = f[1]; sub(/-[0-9]+$/, "", name)
    key = pkg "." name
    for (i = 3; i < nf; i += 2) vals[key, f[i+1]] = vals[key, f[i+1]] " " f[i]
  }
  fmt = "%-48s %-38s %14s %12s  %s\n"
  printf fmt, "measure", "benchmark", "figure", "target", "status"
}
function median(s,    a, n, i, j, t) {
  n = split(s, a, " ")
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
  measure = $1; key = $2; metric = $3; op = $4; want = $5; unit = $6
  target = (op == ">=" ? ">= " : "<= ") want " " unit
  if (key == "-") { printf fmt, measure, "-", "-", target, "no benchmark"; next }
  if (!((key, metric) in vals)) { printf fmt, measure, key, "-", target, "not run"; next }
  v = median(vals[key, metric])
  if (metric == "ns/op") v = v / 1e6
  ok = (op == ">=") ? (v >= want) : (v <= want)
  printf fmt, measure, key, sprintf(v >= 100 ? "%.0f %s" : "%.3g %s", v, unit), target, (ok ? "meets" : "misses")
}'
exit $status
