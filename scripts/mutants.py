#!/usr/bin/env python3
"""Fast mutation testing of one Go package at a time, with per-test selection.

scripts/mutation.sh runs gremlins, which re-runs a package's whole test
suite for every mutant: for lsp (8 s of tests, about 790 covered mutants)
that is 2.5 to 5 hours on this project's 2-core machine. This runner
measures the same thing faster:

1. The mutants are the ones gremlins finds (`gremlins unleash --dry-run`):
   ARITHMETIC_BASE, CONDITIONALS_BOUNDARY, CONDITIONALS_NEGATION,
   INCREMENT_DECREMENT and INVERT_NEGATIVES, each a position in a file.
2. Every top-level test, fuzz seed and example of the package (from
   `-test.list`) runs once alone in a coverage-instrumented test binary
   with -test.coverprofile: which source blocks it executes and how long
   it takes. A mutant is covered by the tests whose blocks contain its
   position; one that no test covers is "not covered" (gremlins takes
   the same decision from the whole suite's coverage).
3. Each mutant is a copy of its file under a temporary directory with the
   one token replaced, handed to `go test -c -overlay` (the worktree is
   never edited), built once, and run with only the covering tests and
   -test.failfast, fastest first, in runs of 1, 2, 4, 8... tests until
   one fails (most mutants die in the first, fast run; a lived one pays
   a few more starts of the binary). A non-zero exit is
   "killed"; a run past its time limit (TIMEOUT_FACTOR times the
   covering tests' measured time plus 10 s) is "timed out" and counts as
   killed, as gremlins does; a mutant that does not compile (a "+" on
   strings) is "not viable" and is left out of the figures.

It prints the table of scripts/mutation.sh: killed, lived, not covered,
timed out, efficacy = (killed + timed out) / (killed + timed out + lived)
and mutator coverage = (killed + timed out + lived) / (those + not
covered), against the targets of issue 21 (efficacy >= 90%, coverage
>= 80%).

Usage: scripts/mutants.py [-o LIVED] [-l LOG] [-f FILES] [-r LIVED] [-s N [-seed S]] PKG...
  -o LIVED   write the lived mutants there (one a line: position,
             mutator, replacement, source line), appended per package
  -f FILES   comma-separated file names: mutate only those files
  -l LOG     write every mutant's status there
  -r LIVED   run only the mutants of an earlier -o list: after tests
             are added, the mutants killed before stay killed, so this
             re-measures the lived ones in minutes (the other counts of
             the table are then those of the earlier run, to be added)
  -s N       a sample: N of each package's mutants drawn at random
             (covered or not, so both figures are estimates of the
             whole package's), with seed S (-seed, default 1); CI draws
             a sample seeded by the commit, since a whole package takes
             hours
Environment: TIMEOUT_FACTOR (default 10), STRICT=1 to exit 1 when a
package misses a target. Needs go and gremlins on PATH (~/go/bin is
added).

Everything runs on one core: go test -p 1, GOMAXPROCS=1 for the compiler
and the test binaries, one mutant at a time.

Measured on the 2-core machine shared with other jobs (load 4 to 6):
lsp, 861 mutants (788 covered, 74 tests), the coverage map in 30 s,
then 6.5 s a mutant run (5.5 s killed, 8.1 s lived; a build is 2.5 to 4
s of it): 9.2 mutants a minute, the whole package in 86 minutes (37 CPU
minutes), where gremlins took 22 s a mutant (2.7 a minute, 2.5 to 5
hours) on the same package and machine (scripts/mutation.sh's notes).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# The replacements gremlins makes, by mutator, longest token first.
REPLACE = {
    "ARITHMETIC_BASE": {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"},
    "CONDITIONALS_BOUNDARY": {">=": ">", "<=": "<", ">": ">=", "<": "<="},
    "CONDITIONALS_NEGATION": {"==": "!=", "!=": "==", ">=": "<", "<=": ">", ">": "<=", "<": ">="},
    "INCREMENT_DECREMENT": {"++": "--", "--": "++"},
    "INVERT_NEGATIVES": {"-": "+"},
}

ENV = dict(os.environ)
ENV["PATH"] = ENV.get("PATH", "") + ":/usr/local/go/bin:" + os.path.expanduser("~/go/bin")
ENV["GOMAXPROCS"] = "1"
ENV["GOFLAGS"] = (ENV.get("GOFLAGS", "") + " -count=1").strip()


def run(cmd, cwd, timeout=None):
    """Runs cmd, returning (exit code or None on time-out, seconds, output)."""
    t0 = time.time()
    try:
        r = subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, timeout=timeout)
        return r.returncode, time.time() - t0, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        return None, time.time() - t0, (e.stdout or b"") + (e.stderr or b"")


def enumerate_mutants(pkg, files, only):
    """The mutants gremlins finds in pkg's own files: (kind, file, line, col).

    With only (a set of (where, kind) from an earlier lived list), just those.
    """
    code, _, out = run(["gremlins", "unleash", "--dry-run", "-E", "/", "./" + pkg], ROOT)
    if code != 0:
        sys.exit("gremlins --dry-run failed:\n" + out.decode(errors="replace"))
    muts = []
    for m in re.finditer(r"(?:RUNNABLE|NOT COVERED) (\w+) at ([^\s:/]+\.go):(\d+):(\d+)", out.decode()):
        kind, f, ln, col = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        if only is not None and (f"{pkg}/{f}:{ln}:{col}", kind) not in only:
            continue
        if kind in REPLACE and (not files or f in files):
            muts.append((kind, f, ln, col))
    return muts


def coverage_map(pkg, tmp):
    """For each test of pkg: its measured seconds and the blocks it runs.

    Returns (tests, blocks): tests maps a test name to its duration;
    blocks is a list of (file, (sl, sc), (el, ec), set of test names).
    """
    pdir = os.path.join(ROOT, pkg)
    binary = os.path.join(tmp, "cover.test")
    code, _, out = run(["go", "test", "-p", "1", "-c", "-cover", "-covermode=set", "-o", binary, "./" + pkg], ROOT)
    if code != 0:
        sys.exit("building the coverage test binary failed:\n" + out.decode(errors="replace"))
    code, _, out = run([binary, "-test.list", "."], pdir)
    if code != 0:
        sys.exit("listing the tests failed:\n" + out.decode(errors="replace"))
    names = [n for n in out.decode().split() if re.match(r"^(Test|Fuzz|Example)", n)]
    tests = {}
    blocks = {}
    prof = os.path.join(tmp, "cover.out")
    for n in names:
        code, secs, out = run([binary, "-test.run", "^" + n + "$", "-test.coverprofile", prof], pdir, timeout=600)
        if code != 0:
            print(f"  {n} fails alone (exit {code}): left out", file=sys.stderr)
            continue
        tests[n] = secs
        for line in open(prof):
            m = re.match(r"^(.*)/([^/]+\.go):(\d+)\.(\d+),(\d+)\.(\d+) \d+ (\d+)$", line.strip())
            if not m or m.group(7) == "0":
                continue
            key = (m.group(2), (int(m.group(3)), int(m.group(4))), (int(m.group(5)), int(m.group(6))))
            blocks.setdefault(key, set()).add(n)
    return tests, [(f, s, e, ts) for (f, s, e), ts in blocks.items()]


def covering(blocks, f, ln, col):
    ts = set()
    for bf, s, e, names in blocks:
        if bf == f and s <= (ln, col) <= e:
            ts |= names
    return ts


def groups(ts):
    """ts (fastest first) in runs of 1, 2, 4, 8... tests: a mutant is
    mostly killed by one of the first, fast tests, and one that lives
    pays a few more starts of the binary, not a run per test."""
    i, n = 0, 1
    while i < len(ts):
        yield ts[i:i + n]
        i, n = i + n, 2 * n


def mutate(src, ln, col, kind):
    """src with the token at ln:col replaced, or None if there is none."""
    lines = src.split(b"\n")
    line = lines[ln - 1]
    i = col - 1
    for tok, rep in REPLACE[kind].items():
        if line[i:i + len(tok)] == tok.encode():
            lines[ln - 1] = line[:i] + rep.encode() + line[i + len(tok):]
            return b"\n".join(lines), tok + "->" + rep, line.decode().strip()
    return None


def run_package(pkg, files, only, lived_out, log, sample=0, seed=1):
    factor = float(os.environ.get("TIMEOUT_FACTOR", "10"))
    pdir = os.path.join(ROOT, pkg)
    tmp = tempfile.mkdtemp(prefix="mutants-")
    counts = {"killed": 0, "lived": 0, "not covered": 0, "timed out": 0, "not viable": 0}
    try:
        t0 = time.time()
        muts = enumerate_mutants(pkg, files, only)
        total = len(muts)
        if sample and sample < total:
            muts = sorted(random.Random(f"{seed}/{pkg}").sample(muts, sample))
        tests, blocks = coverage_map(pkg, tmp)
        drawn = f" (a sample of {len(muts)}, seed {seed})" if len(muts) < total else ""
        print(f"=== {pkg}: {total} mutants{drawn}, {len(tests)} tests, coverage map in {time.time() - t0:.0f} s", flush=True)
        t1 = time.time()
        ran = 0
        sources = {}
        for kind, f, ln, col in muts:
            path = os.path.join(pdir, f)
            if f not in sources:
                sources[f] = open(path, "rb").read()
            m = mutate(sources[f], ln, col, kind)
            if m is None:
                print(f"  no {kind} token at {f}:{ln}:{col}", file=sys.stderr)
                continue
            text, change, srcline = m
            tm = time.time()
            where = f"{pkg}/{f}:{ln}:{col}"
            ts = sorted(covering(blocks, f, ln, col), key=lambda n: tests[n])
            if not ts:
                status = "not covered"
            else:
                ran += 1
                mdir = os.path.join(tmp, "m")
                os.makedirs(mdir, exist_ok=True)
                with open(os.path.join(mdir, f), "wb") as w:
                    w.write(text)
                ov = os.path.join(mdir, "overlay.json")
                with open(ov, "w") as w:
                    json.dump({"Replace": {path: os.path.join(mdir, f)}}, w)
                binary = os.path.join(mdir, "m.test")
                code, _, _ = run(["go", "test", "-p", "1", "-c", "-overlay", ov, "-o", binary, "./" + pkg], ROOT)
                if code != 0:
                    status = "not viable"
                else:
                    status = "lived"
                    for group in groups(ts):
                        limit = factor * sum(tests[n] for n in group) + 10
                        pat = "^(" + "|".join(group) + ")$"
                        code, _, _ = run([binary, "-test.failfast", "-test.run", pat], pdir, timeout=limit)
                        if code is None:
                            status = "timed out"
                            break
                        if code != 0:
                            status = "killed"
                            break
            counts[status] += 1
            row = f"{status.upper():12} {where} {kind} {change} {time.time() - tm:.1f}s | {srcline}"
            if log:
                log.write(row + "\n")
                log.flush()
            if status == "lived":
                print("  " + row, flush=True)
                if lived_out:
                    lived_out.write(f"{where} {kind} {change} | {srcline}\n")
                    lived_out.flush()
        secs = time.time() - t1
        rate = ran / secs * 60 if secs > 0 else 0
        print(f"--- {pkg}: {ran} mutants run in {secs:.0f} s ({rate:.1f} a minute)", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return counts


def main():
    ap = argparse.ArgumentParser(description="Fast mutation testing with per-test selection.")
    ap.add_argument("-o", dest="lived", help="file for the lived mutants")
    ap.add_argument("-l", dest="log", help="file for every mutant's status")
    ap.add_argument("-f", dest="files", default="", help="comma-separated file names to mutate")
    ap.add_argument("-r", dest="rerun", help="run only the mutants of this lived list (from -o)")
    ap.add_argument("-s", dest="sample", type=int, default=0, help="run a random sample of this many mutants per package")
    ap.add_argument("-seed", dest="seed", default="1", help="the sample's seed")
    ap.add_argument("pkgs", nargs="+")
    a = ap.parse_args()
    files = set(x for x in a.files.split(",") if x)
    lived = open(a.lived, "w") if a.lived else None
    log = open(a.log, "w") if a.log else None
    only = None
    if a.rerun:
        only = set(tuple(line.split()[:2]) for line in open(a.rerun) if line.strip())
    results = [(p.strip("./"), run_package(p.strip("./"), files, only, lived, log, a.sample, a.seed)) for p in a.pkgs]
    print()
    print("Mutation testing against the targets (efficacy >= 90%, mutator coverage >= 80%):")
    print(f"{'package':14} {'killed':>8} {'lived':>8} {'not covered':>12} {'timed out':>10} {'efficacy':>10} {'coverage':>10}  status")
    missed = False
    for p, c in results:
        k, l, n, t = c["killed"], c["lived"], c["not covered"], c["timed out"]
        eff = 100 * (k + t) / (k + t + l) if k + t + l else 0
        cov = 100 * (k + t + l) / (k + t + l + n) if k + t + l + n else 0
        st = "meets" if eff >= 90 and cov >= 80 else "misses"
        missed |= st == "misses"
        print(f"{p:14} {k:8} {l:8} {n:12} {t:10} {eff:9.2f}% {cov:9.2f}%  {st}"
              + (f"  ({c['not viable']} not viable)" if c["not viable"] else ""))
    if os.environ.get("STRICT") == "1" and missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
