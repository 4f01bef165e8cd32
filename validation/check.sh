#!/usr/bin/env bash
# check.sh -- build the validation kernels and check that every layout at
# every processor count computes the same result.
#
# Usage: validation/check.sh [BUILD_DIR]
#   BUILD_DIR  where the programs are built (kept); default a temporary
#              folder, removed at the end.
# Environment: MPIF90 (default mpif90), MPIRUN (default mpirun),
#   N (32), NCYCLE (3), REPS (2), PROCS ("1 2 4").
# Exit status 0 when every kernel agrees with itself across layouts and
# processor counts (relative checksum difference below 1e-5), 1 otherwise.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kernels=$here/kernels
mpif90=${MPIF90:-mpif90}
mpirun=${MPIRUN:-mpirun}
n=${N:-32}
ncycle=${NCYCLE:-3}
reps=${REPS:-2}
procs=${PROCS:-1 2 4}

if [[ $# -ge 1 ]]; then
    out=$1
    mkdir -p "$out"
else
    out=$(mktemp -d "${TMPDIR:-/tmp}/pfls-validation.XXXXXX")
    trap 'rm -rf "$out"' EXIT
fi
out=$(cd "$out" && pwd)

# Open MPI refuses to run as root without these; P=4 may exceed the cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "building into $out"
for k in redblack jacobi erlebacher dgefa; do
    # -J keeps the .mod files out of the current directory.
    "$mpif90" -O2 -J "$out" -o "$out/$k" "$kernels/charge.f90" "$kernels/kit.f90" "$kernels/$k.f90"
done

failed=0

# run KERNEL P ARGS...: run one program, print its result line, set $result.
run() {
    local kernel=$1 p=$2
    shift 2
    local status=0
    result=$("$mpirun" --oversubscribe -np "$p" "$out/$kernel" "$@" 2>"$out/stderr") || status=$?
    if [[ $status -ne 0 ]]; then
        echo "FAIL $kernel P=$p $*: exit status $status" >&2
        cat "$out/stderr" >&2
        failed=1
        result=
        return
    fi
    echo "  P=$p $*: ${result#result }"
}

# checksum of a result line
checksum() { sed -n 's/.* checksum=\([^ ]*\).*/\1/p' <<<"$1"; }

# same A B: relative difference below 1e-5
same() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        d = a - b; if (d < 0) d = -d
        m = a < 0 ? -a : a; if ((b < 0 ? -b : b) > m) m = (b < 0 ? -b : b)
        exit !(d <= 1e-5 * m)
    }'
}

# check KERNEL "LAYOUT [BLOCK]"...: every layout at every P against the first run
check() {
    local kernel=$1 ref= refrun= layout p c
    local -a args
    shift
    echo "$kernel (N=$n NCYCLE=$ncycle REPS=$reps)"
    for layout in "$@"; do
        read -ra args <<<"$layout"   # the layout, then an optional BLOCK
        for p in $procs; do
            run "$kernel" "$p" "${args[0]}" "$n" "$ncycle" "$reps" "${args[@]:1}"
            [[ -n $result ]] || continue
            c=$(checksum "$result")
            if [[ -z $c ]]; then
                echo "FAIL $kernel P=$p $layout: no checksum in output" >&2
                failed=1
            elif [[ -z $ref ]]; then
                ref=$c refrun="P=$p $layout"
            elif ! same "$c" "$ref"; then
                echo "FAIL $kernel P=$p $layout: checksum $c differs from $ref ($refrun)" >&2
                failed=1
            fi
        done
    done
}

check redblack column row block column-express row-express block-express
check jacobi column row block
# redblack and jacobi cut the template 0:N+1 as Fortran D's BLOCK does: any
# N, and at N=5 on 4 processes (blocks of 2 of 0:6) the last holds no points.
n_saved=$n
n=5 check redblack column row block column-express block-express
n=5 check jacobi column row block
n=$n_saved
check erlebacher block "block 3" noblock
check dgefa block cyclic

# A bad argument must end the run with status 2.
echo "argument errors"
status=0
"$mpirun" --oversubscribe -np 4 "$out/erlebacher" block 30 1 1 >/dev/null 2>&1 || status=$?
if [[ $status -ne 2 ]]; then
    echo "FAIL erlebacher with N=30 at P=4: exit status $status, want 2" >&2
    failed=1
else
    echo "  erlebacher block N=30 at P=4: exit status 2"
fi
status=0
"$mpirun" --oversubscribe -np 4 "$out/redblack" column 0 1 1 >/dev/null 2>&1 || status=$?
if [[ $status -ne 2 ]]; then
    echo "FAIL redblack with N=0 at P=4 (column): exit status $status, want 2" >&2
    failed=1
else
    echo "  redblack column N=0 at P=4: exit status 2"
fi

if [[ $failed -ne 0 ]]; then
    echo "check.sh: FAILED" >&2
    exit 1
fi
echo "check.sh: all layouts agree"
