#!/usr/bin/env bash
# Mutation testing with gremlins
# (go install github.com/go-gremlins/gremlins/cmd/gremlins@latest): for
# each package, the mutants its own tests cover, how many they kill
# (efficacy = killed / (killed + lived)) and how many they cover
# (mutator coverage = (killed + lived) / all mutants), then a table
# against the targets of issue 21: efficacy >= 90%, coverage >= 80%.
# Which tool when: this script re-runs a package's whole test suite for
# every mutant, which fits a few files (FILES) or a change (DIFF);
# scripts/mutants.py measures the same mutants of a whole package with
# only the tests that cover each one (lsp: 86 minutes instead of 2.5
# to 5), and is the one to use for a package's figures.
#
# Usage: scripts/mutation.sh [PKG...]   (default: complexity partition hints lsp)
#        DIFF=origin/main scripts/mutation.sh   (the lines a change touches)
# Environment: WORKERS (gremlins --workers, default 1), COEFFICIENT
# (--timeout-coefficient, default 10: a mutant's test run may take that
# many times the coverage run; gremlins's 3 is too short on a loaded
# machine, where the first run of each worker, which compiles the
# module, times out, leaves its compilers running and the next ones time
# out too), LIMIT (a time limit per package for timeout(1), default
# 20m), STRICT=1 to exit non-zero
# when a package misses a target (otherwise only a run that fails does),
# FILES (space-separated source file names, e.g. "label.go hover.go":
# mutate only those files of each package, the others are excluded with
# gremlins -E; a full run of hints is about 1,100 covered mutants at
# 10-20 s each on a loaded 2-core machine, so a subset is what fits in
# an hour), LOGDIR (keep each package's gremlins log there, with the
# status of every mutant, instead of a temporary directory).
# Measured on this project's 2-core machine under load, WORKERS=1: hints
# with FILES="label.go hover.go diagnostics.go capability.go", 132
# mutants, 26-30 min; all of hints, about 1,150 covered mutants at 15-20
# s each, 5-6 hours.
# DIFF (a git ref, e.g. origin/main): mutate only the lines changed
# since it, over the whole module, in one run reported as "changed"
# (gremlins --diff finds nothing when given a package path, so the
# packages are ignored then): the form that fits a CI step, since a
# change touches a few dozen mutants where a package has hundreds. Its
# coverage run is the whole module's test suite (390 s here under load),
# which must pass: one failing or flaky test anywhere stops the run
# (measured: TestProfileMPI's real-MPI check failed under load). Then
# each mutant costs its package's test run (partition 6 s, lsp 20 s).
# Measured the same way: partition with FILES="trips.go dist.go", 240
# covered mutants, 25 min (6.3 s each); lsp with FILES="position.go
# inlay.go actions.go settings.go", 64 mutants, 24 min (22 s each: the
# package's tests take 8 s); a whole package of partition (1,460
# mutants) or lsp (760) is 2.5 to 5 hours. machine (143 covered mutants,
# 2 s each) takes 4-5 min and capability (330, 3 s each, but a mutant
# that makes BestBlock loop for ever waits out its 3.5 min time limit)
# about 18 min.
# No --test-cpu: gremlins 0.6.0 passes it to go test as the one argument
# "-cpu N", which go test rejects, and counts every mutant killed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"
# -count=1: gremlins sets each mutant's time limit from its coverage
# run, and a cached "go test" result makes that run take under a second,
# so every mutant would time out instead of being killed or living.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1"
command -v gremlins >/dev/null 2>&1 || {
  echo "gremlins is not installed: go install github.com/go-gremlins/gremlins/cmd/gremlins@latest" >&2
  exit 2
}
workers=${WORKERS:-1}
coefficient=${COEFFICIENT:-10}
limit=${LIMIT:-20m}
if [ $# -gt 0 ]; then pkgs=("$@"); else pkgs=(complexity partition hints lsp); fi
if [ -n "${DIFF:-}" ]; then pkgs=(changed); fi
if [ -n "${LOGDIR:-}" ]; then
  logs=$LOGDIR
  mkdir -p "$logs"
else
  logs=$(mktemp -d)
  trap 'rm -rf "$logs"' EXIT
fi
status=0
for p in "${pkgs[@]}"; do
  p=${p#./}
  excl=()
  if [ -n "${FILES:-}" ]; then
    for f in "$p"/*.go; do
      b=${f##*/}
      case $b in *_test.go) continue ;; esac
      case " $FILES " in *" $b "*) ;; *) excl+=(-E "(^|/)$b\$") ;; esac
    done
  fi
  target=./$p
  diff=()
  if [ -n "${DIFF:-}" ]; then
    target=.
    diff=(--diff "$DIFF")
  else
    # gremlins descends into the package's subdirectories (machine/train,
    # machine/train/trainer): their files, whose paths gremlins gives
    # relative to the package with a "/", are other packages, left out.
    excl+=(-E '/')
  fi
  echo "=== gremlins $target (workers $workers, limit $limit${FILES:+, files: $FILES}${DIFF:+, lines changed since $DIFF})"
  t0=$SECONDS
  rc=0
  timeout -k 30s "$limit" gremlins unleash --workers "$workers" --timeout-coefficient "$coefficient" ${diff[@]+"${diff[@]}"} ${excl[@]+"${excl[@]}"} "$target" 2>&1 | tee "$logs/${p//\//_}.log" || rc=$?
  echo "--- ./$p: $((SECONDS - t0)) s, exit $rc"
  [ "$rc" -eq 0 ] || status=1
done

echo
echo "Mutation testing against the targets (efficacy >= 90%, mutator coverage >= 80%):"
printf '%-14s %8s %8s %12s %10s %10s  %s\n' package killed lived "not covered" efficacy coverage status
missed=0
for p in "${pkgs[@]}"; do
  p=${p#./}
  log=$logs/${p//\//_}.log
  # gremlins ends with "Killed: K, Lived: L, Not covered: N",
  # "Test efficacy: E%" and "Mutator coverage: C%".
  k=$(sed -n 's/.*Killed: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  l=$(sed -n 's/.*Lived: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  n=$(sed -n 's/.*Not covered: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  e=$(sed -n 's/.*Test efficacy: *\([0-9.]*\)%.*/\1/p' "$log" | tail -n 1)
  c=$(sed -n 's/.*Mutator coverage: *\([0-9.]*\)%.*/\1/p' "$log" | tail -n 1)
  if [ -z "$e" ] || [ -z "$c" ]; then
    printf '%-14s %8s %8s %12s %10s %10s  %s\n' "$p" - - - - - "no result (time limit or failure)"
    missed=1
    continue
  fi
  st=meets
  if awk -v e="$e" -v c="$c" 'BEGIN { exit !(e < 90 || c < 80) }'; then st=misses; missed=1; fi
  printf '%-14s %8s %8s %12s %9s%% %9s%%  %s\n' "$p" "${k:--}" "${l:--}" "${n:--}" "$e" "$c" "$st"
done
if [ "${STRICT:-0}" = 1 ] && [ "$missed" = 1 ]; then status=1; fi
exit $status
