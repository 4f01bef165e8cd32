package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pfls/pfls/internal/gen"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// BenchmarkWorkspaceIndex indexes the corpus under $PFLS_CORPUS (LAPACK:
// target 2 s and 150 MB) and reports found-s, the time from initialize
// until workspace/symbol finds the first routine of the last file the
// index reads, indexed-s, the time until the index is complete, and the server's heap and the process's resident set once
// indexing is over (rss-MB: run it alone, -benchtime 1x). Skipped without
// the variable. peak-rss-MB is the process's largest resident set so
// far. The -cpu-s figures are the process's CPU time over the
// same spans (both cores count): on a shared machine they vary less.
func BenchmarkWorkspaceIndex(b *testing.B) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		b.Skip("PFLS_CORPUS unset")
	}
	files := fortranFiles([]string{root})
	if len(files) == 0 {
		b.Fatalf("no Fortran file under %s", root)
	}
	last := files[len(files)-1]
	name := firstRoutine(b, last)
	for i := 0; i < b.N; i++ {
		start, cpu := time.Now(), gen.CPUTime()
		c := newClient(b, Options{})
		var res map[string]any
		c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(root), "capabilities": map[string]any{}}, &res)
		c.notify("initialized", map[string]any{})
		found, foundCPU := 0.0, 0.0
		for found == 0 {
			var syms []protocol.SymbolInformation
			c.call("workspace/symbol", map[string]any{"query": name}, &syms)
			for _, s := range syms {
				if s.Name == name && s.Location.URI == pathToURI(last) {
					found, foundCPU = time.Since(start).Seconds(), (gen.CPUTime() - cpu).Seconds()
				}
			}
			if found == 0 {
				time.Sleep(20 * time.Millisecond)
			}
		}
		<-c.srv.index.done
		b.ReportMetric(found, "found-s")
		b.ReportMetric(foundCPU, "found-cpu-s")
		b.ReportMetric(time.Since(start).Seconds(), "indexed-s")
		b.ReportMetric((gen.CPUTime() - cpu).Seconds(), "indexed-cpu-s")
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MB")
		if rss := gen.ResidentMB(); rss > 0 {
			b.ReportMetric(rss, "rss-MB")
			b.ReportMetric(gen.PeakResidentMB(), "peak-rss-MB")
		}
		b.ReportMetric(float64(len(files)), "files")
		runtime.KeepAlive(c)
	}
}

// firstRoutine is the name of the first named unit of the file at path.
func firstRoutine(b *testing.B, path string) string {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, u := range parser.Parse(path, src, &parser.Config{}).Units {
		if u.Name != "" {
			return u.Name
		}
	}
	b.Fatalf("%s: no named unit", path)
	return ""
}

// BenchmarkWorkspaceRequests asks, with LAPACK's dgesv.f open and the
// rest of $PFLS_CORPUS indexed, for what crosses files: the definition
// of DGETRF and the hover of DGETRS (one closed file each), the signature
// of DGETRF, the references of XERBLA (named by some 1,900 closed files,
// parsed again 64 at a time), those of the local INFO (no closed file)
// and the callers of DGEMM (open; about 120 files name it). peak-heap-MB
// is the largest heap sampled after an answer, garbage included; rss-MB
// the resident set after the last answer. Skipped
// without the variable or dgesv.f.
func BenchmarkWorkspaceRequests(b *testing.B) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		b.Skip("PFLS_CORPUS unset")
	}
	path := filepath.Join(root, "SRC", "dgesv.f")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip("no SRC/dgesv.f under PFLS_CORPUS")
	}
	c := newClient(b, Options{})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(root), "capabilities": fullCapabilities}, &res)
	c.notify("initialized", map[string]any{})
	<-c.srv.index.done
	uri := pathToURI(path)
	text := string(src)
	c.open(uri, text)
	var dgemm []protocol.CallHierarchyItem
	gemm := filepath.Join(root, "BLAS", "SRC", "dgemm.f")
	if gsrc, err := os.ReadFile(gemm); err == nil {
		c.open(pathToURI(gemm), string(gsrc))
		c.call("textDocument/prepareCallHierarchy", textPos(pathToURI(gemm), posOf(b, string(gsrc), "\n      SUBROUTINE DGEMM", 18)), &dgemm)
	}
	peak := 0.0
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, float64(m.HeapAlloc)/(1<<20))
	}
	for _, bench := range []struct {
		name   string
		method string
		params any
		want   func(raw json.RawMessage) bool
	}{
		{"definition", "textDocument/definition", textPos(uri, posOf(b, text, "CALL DGETRF", 6)), answerHas("dgetrf.f")},
		{"hover", "textDocument/hover", textPos(uri, posOf(b, text, "CALL DGETRS", 6)), answerHas("DGETRS(")},
		{"signature", "textDocument/signatureHelp", textPos(uri, posOf(b, text, "CALL DGETRF( N", 13)), answerHas("DGETRF(")},
		{"references", "textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(b, text, "CALL XERBLA", 6),
			"context": map[string]any{"includeDeclaration": true}}, answerHas("xerbla.f")},
		{"references-local", "textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(b, text, "CALL DGETRF( N, N, A, LDA, IPIV, INFO", 35),
			"context": map[string]any{"includeDeclaration": true}}, answerHas("dgesv.f")},
		{"incoming", "callHierarchy/incomingCalls", map[string]any{"item": firstItem(dgemm)}, answerHas("SRC/dgetrf.f")},
	} {
		b.Run(bench.name, func(b *testing.B) {
			if bench.name == "incoming" && len(dgemm) == 0 {
				b.Skip("no BLAS/SRC/dgemm.f")
			}
			peak = 0
			cpu := gen.StartCPU(b)
			for i := 0; i < b.N; i++ {
				var raw json.RawMessage
				c.call(bench.method, bench.params, &raw)
				if !bench.want(raw) {
					b.Fatalf("%s: %.300s", bench.name, raw)
				}
				sample()
			}
			cpu.Stop()
			b.ReportMetric(peak, "peak-heap-MB")
			if rss := gen.ResidentMB(); rss > 0 {
				b.ReportMetric(rss, "rss-MB")
			}
		})
	}
}

// answerHas checks that an answer holds s.
func answerHas(s string) func(json.RawMessage) bool {
	return func(raw json.RawMessage) bool { return strings.Contains(string(raw), s) }
}

func firstItem(items []protocol.CallHierarchyItem) any {
	if len(items) == 0 {
		return nil
	}
	return items[0]
}
