#!/usr/bin/env python3
"""Times two language servers on the same generated 20,000-line fixed-form
file, in the same run: open -> document symbols, and a one-character edit
-> document symbols, median of several rounds, plus resident memory.

Usage: compare.py NAME=COMMAND... e.g.
  lsp/e2e/compare.py "pfls=/tmp/pfls serve" "fortls=fortls"
Not run by CI (fortls is not a dependency); the figures go in notes.
"""
import json, os, statistics, subprocess, sys, tempfile, time

def generate(n=200):
    out = []
    for r in range(n):
        out.append("C     routine %d of the generated benchmark file" % r)
        out.append("      SUBROUTINE SUB%d(A, B, N, M)" % r)
        out.append("      INTEGER N, M, I, J, K")
        out.append("      REAL A(N,M), B(N,M), S, T")
        out.append("      COMMON /BLK%d/ S, T" % (r % 7))
        for l in range(9):
            lbl = 100 + l * 10
            out.append("      DO %d J = 1, M" % lbl)
            out.append("         DO %d I = 2, N - 1" % lbl)
            out.append("            A(I,J) = 0.25 * (B(I-1,J) + B(I+1,J)")
            out.append("     &               + B(I,MAX(J-1,1)) + B(I,MIN(J+1,M)))")
            out.append("            IF (A(I,J) .GT. S) THEN")
            out.append("               S = A(I,J)")
            out.append("            ELSE")
            out.append("               T = T + A(I,J) * 2.0E0 - 1.5")
            out.append("            END IF")
            out.append("  %d    CONTINUE" % lbl)
        out.append("      RETURN")
        out.append("      END")
    return "\n".join(out) + "\n"

class Server:
    def __init__(self, cmd, root):
        self.p = subprocess.Popen("exec " + cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, cwd=root)
        self.id = 0

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("server exited")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        self.id += 1
        rid = self.id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid and "method" not in m:
                return m
            if "method" in m and "id" in m:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def rss_mb(self):
        try:
            with open("/proc/%d/status" % self.p.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

def measure(name, cmd, text, rounds=5):
    root = tempfile.mkdtemp()
    path = os.path.join(root, "gen.f")
    with open(path, "w") as f:
        f.write(text)
    uri = "file://" + path
    opens, edits, hints, rss = [], [], [], 0
    for r in range(rounds):
        s = Server(cmd, root)
        # An empty workspace folder, so that neither server has parsed the
        # file before it is opened.
        empty = tempfile.mkdtemp()
        s.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + empty, "capabilities": {}})
        s.notify("initialized", {})
        t0 = time.perf_counter()
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "fortran", "version": 1, "text": text}})
        syms = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}).get("result") or []
        opens.append(time.perf_counter() - t0)
        if len(syms) < 200:
            print("%s: only %d symbols after open" % (name, len(syms)))
        rss = max(rss, s.rss_mb())
        # A one-character edit inside routine 100, then symbols again.
        line = text.count("\n", 0, text.index("SUBROUTINE SUB100(")) + 8
        t0 = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                 "contentChanges": [{"range": {"start": {"line": line, "character": 20}, "end": {"line": line, "character": 21}}, "text": "7"}]})
        s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        edits.append(time.perf_counter() - t0)
        # Another edit, then inlay hints for the 100 lines around it, after
        # a first hints request as an editor makes when the file opens.
        s.request("textDocument/inlayHint", {"textDocument": {"uri": uri},
                  "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100, "character": 0}}})
        t0 = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                 "contentChanges": [{"range": {"start": {"line": line, "character": 20}, "end": {"line": line, "character": 21}}, "text": "8"}]})
        h = s.request("textDocument/inlayHint", {"textDocument": {"uri": uri},
                      "range": {"start": {"line": line - 50, "character": 0}, "end": {"line": line + 50, "character": 0}}})
        if "result" in h:
            hints.append(time.perf_counter() - t0)
        s.request("shutdown", None)
        s.notify("exit", None)
        s.p.wait(timeout=10)
    hint = "%7.1f ms" % (1000 * statistics.median(hints)) if hints else "    n/a   "
    print("%-8s open->symbols %7.1f ms   edit->symbols %7.1f ms   edit->hints(100 lines) %s   RSS %5.1f MB   (median of %d)" %
          (name, 1000 * statistics.median(opens), 1000 * statistics.median(edits), hint, rss, rounds))

if __name__ == "__main__":
    text = generate()
    print("file: %d lines, %d bytes" % (text.count("\n"), len(text)))
    for arg in sys.argv[1:]:
        name, cmd = arg.split("=", 1)
        measure(name, cmd, text)
