package lsp

import (
	"os"
	"runtime"
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
// the variable. The -cpu-s figures are the process's CPU time over the
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
