package lsp

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/internal/gen"
	"go.lsp.dev/protocol"
)

// BenchmarkOpenToSymbols opens the generated 20,000-line file and asks
// for its document symbols (target: at most 50 ms).
func BenchmarkOpenToSymbols(b *testing.B) {
	src := string(gen.Fixed(200))
	c := newClient(b, Options{})
	c.initialize(fullCapabilities)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		uri := protocol.DocumentURI("file:///bench/gen" + strconv.Itoa(i%2) + ".f")
		c.open(uri, src)
		var syms []protocol.DocumentSymbol
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
		if len(syms) != 200 {
			b.Fatalf("%d symbols", len(syms))
		}
	}
}

// BenchmarkEditToInlayHints changes one character inside a routine of the
// open 20,000-line file and asks for the inlay hints of 100 lines around
// it (target: at most 10 ms). The producer here is the test's fake one,
// so this measures sync, reparse and transport, not the complexity engine.
func BenchmarkEditToInlayHints(b *testing.B) {
	src := string(gen.Fixed(200))
	c := newClient(b, Options{Inlay: fakeHints})
	c.initialize(fullCapabilities)
	const uri = "file:///bench/gen.f"
	c.open(uri, src)
	// The "2" of "I = 2, N - 1" in routine 100's first loop.
	line := 100*100 + 6
	edit := protocol.Range{Start: protocol.Position{Line: uint32(line), Character: 22}, End: protocol.Position{Line: uint32(line), Character: 23}}
	params := map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": protocol.Range{Start: protocol.Position{Line: uint32(line - 50)}, End: protocol.Position{Line: uint32(line + 50)}}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.change(uri, i+2, &edit, strconv.Itoa(2+i%2))
		var hs []InlayHint
		c.call("textDocument/inlayHint", params, &hs)
		if len(hs) != 18 {
			b.Fatalf("%d hints", len(hs))
		}
	}
}

// BenchmarkMemoryAfterOpen reports the heap in use and the resident set
// of the process after opening the 20,000-line file (target: at most
// 60 MB resident).
func BenchmarkMemoryAfterOpen(b *testing.B) {
	src := string(gen.Fixed(200))
	for i := 0; i < b.N; i++ {
		c := newClient(b, Options{})
		c.initialize(fullCapabilities)
		c.open("file:///bench/gen.f", src)
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///bench/gen.f"}}, nil)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MB")
		if rss := residentMB(); rss > 0 {
			b.ReportMetric(rss, "rss-MB")
		}
	}
}

// residentMB reads VmRSS from /proc (Linux); 0 elsewhere.
func residentMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, _ := strconv.Atoi(strings.Fields(l)[1])
			return float64(kb) / 1024
		}
	}
	return 0
}
