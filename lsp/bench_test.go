package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/pfls/pfls/internal/gen"
	"go.lsp.dev/protocol"
)

// The benchmarks report cpu-ms/op (the process's CPU time per operation,
// every goroutine included) beside the wall time: on a machine shared
// with other work the CPU time varies far less.

// BenchmarkOpenToSymbols opens the generated 20,000-line file and asks
// for its document symbols through the test's jsonrpc2 client (target:
// at most 30 ms). The figures include the client's own encoding of the
// 700 KB didOpen and its decoding of the answer; see
// BenchmarkOpenToSymbolsServer for the server alone.
func BenchmarkOpenToSymbols(b *testing.B) {
	src := string(gen.Fixed(200))
	c := newClient(b, Options{DiagnosticDelay: 150 * time.Millisecond})
	c.initialize(fullCapabilities)
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		uri := protocol.DocumentURI("file:///bench/gen" + strconv.Itoa(i%2) + ".f")
		c.open(uri, src)
		var syms []protocol.DocumentSymbol
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
		if len(syms) != 200 {
			b.Fatalf("%d symbols", len(syms))
		}
	}
	cpu.Stop()
}

// BenchmarkOpenToSymbolsServer is BenchmarkOpenToSymbols with a client
// that costs next to nothing: it writes frames encoded beforehand and
// reads the answer's bytes without decoding them, so the figures are the
// server's (framing, JSON, parse, symbols, the answer's encoding, and the
// diagnostics the opens schedule, 150 ms after each).
func BenchmarkOpenToSymbolsServer(b *testing.B) {
	src := string(gen.Fixed(200))
	c := newBenchClient(b, Options{DiagnosticDelay: 150 * time.Millisecond})
	var opens, symbols [2][]byte
	for k := range opens {
		uri := "file:///bench/gen" + strconv.Itoa(k) + ".f"
		opens[k] = rawMessage(b, nil, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "fortran", "version": 1, "text": src}})
		symbols[k] = rawMessage(b, 2, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	// Check the answer once, outside the measured loop.
	c.send(opens[0])
	var res struct {
		Result []protocol.DocumentSymbol `json:"result"`
	}
	if err := json.Unmarshal(c.roundTrip(symbols[0]), &res); err != nil || len(res.Result) != 200 {
		b.Fatalf("%d symbols (%v)", len(res.Result), err)
	}
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		c.send(opens[i%2])
		if n := len(c.roundTrip(symbols[i%2])); n < 10000 {
			b.Fatalf("answer of %d bytes", n)
		}
	}
	cpu.Stop()
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
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		c.change(uri, i+2, &edit, strconv.Itoa(2+i%2))
		var hs []InlayHint
		c.call("textDocument/inlayHint", params, &hs)
		if len(hs) != 18 {
			b.Fatalf("%d hints", len(hs))
		}
	}
	cpu.Stop()
}

// BenchmarkMemoryAfterOpen reports the heap in use and the resident set
// of the process after opening the 20,000-line file (target: at most
// 60 MB resident), with one server alive: each iteration's server is shut
// down after its measure, and what the benchmarks run before this one
// left is given back to the system first.
func BenchmarkMemoryAfterOpen(b *testing.B) {
	src := string(gen.Fixed(200))
	runtime.GC()
	debug.FreeOSMemory()
	for i := 0; i < b.N; i++ {
		c := newClient(b, Options{})
		c.initialize(fullCapabilities)
		c.open("file:///bench/gen.f", src)
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///bench/gen.f"}}, nil)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MB")
		if rss := gen.ResidentMB(); rss > 0 {
			b.ReportMetric(rss, "rss-MB")
		}
		c.shutdownExit()
		c.srv = nil // the client lives until the benchmark's clean-up; its server need not
	}
}

// benchClient drives a server in-process over net.Pipe with frames
// encoded beforehand; it reads every message the server sends, keeps
// only the bytes of answers, and drops notifications unread.
type benchClient struct {
	t       testing.TB
	w       net.Conn
	replies chan []byte
}

func newBenchClient(t testing.TB, opts Options) *benchClient {
	sc, cc := net.Pipe()
	srv := NewServer(opts)
	go srv.serve(context.Background(), sc, sc, sc)
	c := &benchClient{t: t, w: cc, replies: make(chan []byte, 1)}
	go c.read(bufio.NewReaderSize(cc, 64<<10))
	t.Cleanup(func() { cc.Close(); sc.Close() })
	init := map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{
		"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}}
	c.roundTrip(rawMessage(t, 1, "initialize", init))
	c.send(rawMessage(t, nil, "initialized", map[string]any{}))
	return c
}

// rawMessage encodes and frames one message: a request when id is not
// nil, a notification otherwise.
func rawMessage(t testing.TB, id any, method string, params any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id != nil {
		m["id"] = id
	}
	body, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return frame(body)
}

func (c *benchClient) read(r *bufio.Reader) {
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			if line == "\r\n" {
				break
			}
			if v, ok := bytes.CutPrefix([]byte(line), []byte("Content-Length: ")); ok {
				n, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		if !bytes.Contains(body[:min(len(body), 100)], []byte(`"method"`)) {
			c.replies <- body
		}
	}
}

func (c *benchClient) send(msg []byte) {
	if _, err := c.w.Write(msg); err != nil {
		c.t.Fatal(err)
	}
}

// roundTrip sends a request and returns the bytes of its answer. The
// limit only catches a server that never answers: BenchmarkOpenBigFile's
// round trip (767 ms of CPU) took 4.1 s of wall time at a load average of
// 26 on the 2-core machine, so 10 s would fail the benchmark report
// under a little more load.
func (c *benchClient) roundTrip(msg []byte) []byte {
	c.send(msg)
	select {
	case body := <-c.replies:
		return body
	case <-time.After(2 * time.Minute):
		c.t.Fatal(fmt.Errorf("no answer"))
	}
	return nil
}

// BenchmarkOpenBigFile opens a generated fixed-form file of about 10 MB
// (2,800 routines, 280,000 lines) and asks for its document symbols
// (target: at most 1 s, with at most 300 MB resident). The client is the
// raw one of BenchmarkOpenToSymbolsServer. heap-MB and rss-MB are the
// heap in use and the resident set after the last answer and a
// collection, without the test's copies of the text (the runtime keeps
// up to about twice the live heap resident); peak-rss-MB is the
// process's high-water mark, which includes them (the source, the
// encoded message, about 25 MB).
func BenchmarkOpenBigFile(b *testing.B) {
	const routines = 2800
	src := string(gen.Fixed(routines))
	c := newBenchClient(b, Options{DiagnosticDelay: 150 * time.Millisecond})
	const uri = "file:///bench/big.f"
	open := rawMessage(b, nil, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "fortran", "version": 1, "text": src}})
	symbols := rawMessage(b, 2, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	src = ""
	b.SetBytes(int64(len(open)))
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	var answer []byte
	for i := 0; i < b.N; i++ {
		c.send(open)
		answer = c.roundTrip(symbols)
	}
	cpu.Stop()
	var res struct {
		Result []protocol.DocumentSymbol `json:"result"`
	}
	if err := json.Unmarshal(answer, &res); err != nil || len(res.Result) != routines {
		b.Fatalf("%d symbols (%v)", len(res.Result), err)
	}
	// The figures below are the server's: drop the test's own copies.
	open, answer, res.Result = nil, nil, nil
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MB")
	b.ReportMetric(gen.ResidentMB(), "rss-MB")
	b.ReportMetric(gen.PeakResidentMB(), "peak-rss-MB")
}
