package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

func TestLifecycle(t *testing.T) {
	c := newClient(t, Options{})
	err := c.callErr("textDocument/hover", textPos("file:///x.f", protocol.Position{}), nil)
	if rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Fatalf("hover before initialize: got %v, want ServerNotInitialized", err)
	}
	var res struct {
		Capabilities struct {
			TextDocumentSync struct {
				OpenClose bool `json:"openClose"`
				Change    int  `json:"change"`
			} `json:"textDocumentSync"`
			InlayHintProvider *struct {
				ResolveProvider bool `json:"resolveProvider"`
			} `json:"inlayHintProvider"`
			HoverProvider bool `json:"hoverProvider"`
		} `json:"capabilities"`
		ServerInfo struct{ Name string } `json:"serverInfo"`
	}
	raw := c.initialize(fullCapabilities)
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	caps := res.Capabilities
	if !caps.TextDocumentSync.OpenClose || caps.TextDocumentSync.Change != 2 || !caps.HoverProvider ||
		caps.InlayHintProvider == nil || !caps.InlayHintProvider.ResolveProvider || res.ServerInfo.Name != "pfls" {
		t.Fatalf("initialize result: %s", raw)
	}
	c.call("shutdown", nil, nil)
	err = c.callErr("textDocument/hover", textPos("file:///x.f", protocol.Position{}), nil)
	if rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("hover after shutdown: got %v, want InvalidRequest", err)
	}
	c.notify("exit", nil)
	if code := c.waitExit(); code != 0 {
		t.Fatalf("exit after shutdown: code %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(map[string]any{})
	c.notify("exit", nil)
	if code := c.waitExit(); code != 1 {
		t.Fatalf("exit without shutdown: code %d, want 1", code)
	}
}

func TestStreamEndWithoutExit(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(map[string]any{})
	c.conn.Close()
	if code := c.waitExit(); code != 1 {
		t.Fatalf("closed stream: code %d, want 1", code)
	}
}

func dump(f *parser.File) string {
	var b bytes.Buffer
	parser.Dump(&b, f)
	return b.String()
}

// TestIncrementalSync applies ranged changes with UTF-16 columns (an
// accented letter and a character outside the BMP), a multi-line change
// and a full replacement, and requires the text and tree to equal a fresh
// parse of the expected text.
func TestIncrementalSync(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	const uri = "file:///src/sync.f"
	text := "C     café 😀 grid\n      PROGRAM P\n      X = 1\n      END\n"
	c.open(uri, text)
	steps := []struct {
		rg   *protocol.Range
		text string
		want string
	}{
		// "😀" is two UTF-16 units: column 13 is after it.
		{&protocol.Range{Start: protocol.Position{Line: 0, Character: 13}, End: protocol.Position{Line: 0, Character: 13}}, "!",
			"C     café 😀! grid\n      PROGRAM P\n      X = 1\n      END\n"},
		{&protocol.Range{Start: protocol.Position{Line: 2, Character: 10}, End: protocol.Position{Line: 2, Character: 11}}, "2",
			"C     café 😀! grid\n      PROGRAM P\n      X = 2\n      END\n"},
		{&protocol.Range{Start: protocol.Position{Line: 2, Character: 11}, End: protocol.Position{Line: 3, Character: 0}}, "\n      Y = X\n",
			"C     café 😀! grid\n      PROGRAM P\n      X = 2\n      Y = X\n      END\n"},
		// past the end of a line and of the text: clamped
		{&protocol.Range{Start: protocol.Position{Line: 40, Character: 3}, End: protocol.Position{Line: 41, Character: 0}}, "C end\n",
			"C     café 😀! grid\n      PROGRAM P\n      X = 2\n      Y = X\n      END\nC end\n"},
		{nil, "      END\n", "      END\n"},
	}
	for i, st := range steps {
		c.change(uri, i+2, st.rg, st.text)
		// A request after the notification sees its result.
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
		snap := c.srv.store.get(uri)
		if got := string(snap.File.Src); got != st.want {
			t.Fatalf("step %d: text\n%q\nwant\n%q", i, got, st.want)
		}
		if snap.Version != int32(i+2) {
			t.Fatalf("step %d: version %d", i, snap.Version)
		}
		if got, want := dump(snap.File), dump(parser.Parse(snap.File.Name, []byte(st.want), nil)); got != want {
			t.Fatalf("step %d: incremental tree differs from a fresh parse", i)
		}
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
	if c.srv.store.get(uri) != nil {
		t.Fatal("document still open after didClose")
	}
}

func TestDiagnostics(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	const uri = "file:///src/d.f90"
	c.open(uri, "program p\n  implicit none\n  x = 1\nend program p\n")
	d := c.waitDiags(uri, 1)
	if len(d.Diagnostics) != 1 {
		t.Fatalf("diagnostics: %+v", d.Diagnostics)
	}
	dg := d.Diagnostics[0]
	if dg.Source != "pfls" || dg.Code != "undeclared" || dg.Severity != protocol.DiagnosticSeverityError ||
		dg.Range.Start != (protocol.Position{Line: 2, Character: 2}) || dg.Range.End != (protocol.Position{Line: 2, Character: 3}) {
		t.Fatalf("diagnostic: %+v", dg)
	}
	// A burst of edits: diagnostics arrive for the last version, fewer
	// times than there were edits.
	for v := 2; v <= 30; v++ {
		c.change(uri, v, &protocol.Range{Start: protocol.Position{Line: 2, Character: 6}, End: protocol.Position{Line: 2, Character: 7}}, string(rune('0'+v%10)))
	}
	c.change(uri, 31, &protocol.Range{Start: protocol.Position{Line: 1, Character: 0}, End: protocol.Position{Line: 2, Character: 0}}, "")
	d = c.waitDiags(uri, 31)
	if len(d.Diagnostics) != 0 {
		t.Fatalf("after removing IMPLICIT NONE: %+v", d.Diagnostics)
	}
	if n := len(c.diags); n > 5 {
		t.Fatalf("%d extra publications queued after a burst of 30 edits", n)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	select {
	case p := <-c.diags:
		if p.URI != uri || len(p.Diagnostics) != 0 {
			t.Fatalf("on close: %+v", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no empty diagnostics on close")
	}
}

// TestDiagnosticsKeepPace edits faster than the debounce delay (100 ms)
// for much longer than its cap (400 ms): diagnostics must still be
// published meanwhile. A publication of a version older than the last can
// only have been sent while the typing went on (the server drops one
// whose document changed), so those are counted, whenever they arrive,
// rather than those that arrived inside a window of wall time. Each one
// lands only if it is computed before the next edit, which a loaded
// machine delays: with 600 ms of typing and a 160 ms cap, 1 landed once in
// 30 runs under -race on a loaded 2-core machine. With 3 s of typing (7
// caps) 4 to 7 of 2.4 s landed there; without the cap 0 to 3 did (only
// where the load left gaps longer than the delay between edits) and 0 on
// a quiet machine.
func TestDiagnosticsKeepPace(t *testing.T) {
	c := newClient(t, Options{DiagnosticDelay: 100 * time.Millisecond})
	c.initialize(fullCapabilities)
	const uri = "file:///src/pace.f"
	c.open(uri, "      X = 1\n      END\n")
	c.waitDiags(uri, 1)
	v := 1
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		v++
		c.change(uri, v, &protocol.Range{Start: protocol.Position{Line: 0, Character: 10}, End: protocol.Position{Line: 0, Character: 11}}, strconv.Itoa(v%10))
		time.Sleep(10 * time.Millisecond)
	}
	got := 0
	timeout := time.After(10 * time.Second)
	for last := false; !last; {
		select {
		case p := <-c.diags:
			last = p.Version == uint32(v)
			if p.Version >= 2 && p.Version < uint32(v) {
				got++
			}
		case <-timeout:
			t.Fatalf("no diagnostics for the last version %d", v)
		}
	}
	t.Logf("%d publications during 3 s of continuous typing (%d edits)", got, v-1)
	if got < 2 {
		t.Fatalf("only %d publications during 3 s of continuous typing (%d edits)", got, v-1)
	}
}

func TestRobustness(t *testing.T) {
	panicky := func(_ context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
		panic("boom")
	}
	c := newClient(t, Options{Inlay: panicky})
	c.initialize(fullCapabilities)
	uri, text := example(t, "redblack.f")
	c.open(uri, text)

	// Unknown request: MethodNotFound; unknown notification: ignored.
	if err := c.callErr("pfls/nothing", map[string]any{}, nil); rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown method: %v", err)
	}
	c.notify("$/unknownNotification", map[string]any{})
	// Parameters of the wrong shape: InvalidParams.
	if err := c.callErr("textDocument/hover", []int{1, 2}, nil); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Fatalf("bad params: %v", err)
	}
	// A panic in a producer becomes an internal error.
	err := c.callErr("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": protocol.Range{End: protocol.Position{Line: 100}}}, nil)
	if rpcCode(err) != jsonrpc2.InternalError || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panicking producer: %v", err)
	}
	// Malformed frames and bodies are answered and skipped.
	c.st.writeRaw([]byte("{not json"))
	c.st.wmu.Lock()
	c.st.queue = append(c.st.queue, outgoing{data: []byte("Content-Type: x\r\n\r\n")})
	c.st.wmu.Unlock()
	c.st.writeRaw([]byte(`{"jsonrpc":"2.0","method":42}`))
	// Out-of-range positions, unknown and non-file URIs.
	var h *protocol.Hover
	c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 9999, Character: 9999}), &h)
	c.call("textDocument/hover", textPos("file:///not/open.f", protocol.Position{}), &h)
	if h != nil {
		t.Fatalf("hover on a closed document: %+v", h)
	}
	c.open("untitled:Untitled-1", "      REAL Q\n      Q = 1\n      END\n")
	c.call("textDocument/hover", textPos("untitled:Untitled-1", protocol.Position{Line: 1, Character: 6}), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "REAL Q") {
		t.Fatalf("hover in an untitled document: %+v", h)
	}
	// Invalid UTF-8 (sent as JSON, which carries it as U+FFFD) and NULs.
	c.open("file:///src/bad.f", "      X\xff\xfe = 1\x00\n      END\n")
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///src/bad.f"}}, &syms)
	// After all that the server still answers correctly.
	c.call("textDocument/hover", textPos(uri, posOf(t, text, "ALIGN VAL", 6)), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "REAL VAL(0:N+1,0:N+1)") {
		t.Fatalf("hover after malformed input: %+v", h)
	}
	c.mu.Lock()
	logs := strings.Join(c.logs, "\n")
	c.mu.Unlock()
	for _, want := range []string{"-32700", "-32600"} {
		if !strings.Contains(logs, want) {
			t.Errorf("no %s error answered to malformed input; client saw:\n%s", want, logs)
		}
	}
	if code := c.shutdownExit(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// TestSlowRequestDoesNotBlock holds an inlay hint request in its producer
// (which never looks at its context) and requires a hover and the
// document symbols to be answered meanwhile, then cancels the held
// request: it answers RequestCancelled at once, before the producer ends.
func TestSlowRequestDoesNotBlock(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	slow := func(_ context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
		close(entered)
		<-release
		return []hints.InlayHint{{Offset: start, Label: "x"}}
	}
	c := newClient(t, Options{Inlay: slow})
	defer close(release)
	c.initialize(fullCapabilities)
	uri, text := example(t, "redblack.f")
	c.open(uri, text)
	errc := make(chan error, 1)
	go func() {
		errc <- c.callErr("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": protocol.Range{End: protocol.Position{Line: 40}}}, nil)
	}()
	<-entered
	start := time.Now()
	var h *protocol.Hover
	c.call("textDocument/hover", textPos(uri, posOf(t, text, "ALIGN VAL", 6)), &h)
	if h == nil {
		t.Fatal("no hover while a slow request runs")
	}
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	if len(syms) == 0 {
		t.Fatal("no document symbols while a slow request runs")
	}
	t.Logf("hover and symbols answered in %v while an analysis runs", time.Since(start))
	// Cancel the slow request (the client's first call has id 2: initialize was 1).
	c.notify("$/cancelRequest", map[string]any{"id": 2})
	select {
	case err := <-errc:
		if rpcCode(err) != requestCancelled {
			t.Fatalf("cancelled request: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled request is still waiting for its analysis")
	}
}

// TestCancelStopsAnalysis: an analysis that checks its context stops
// when the client cancels its request, and the next one runs.
func TestCancelStopsAnalysis(t *testing.T) {
	entered, stopped := make(chan struct{}, 1), make(chan struct{}, 1)
	slow := func(ctx context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
		entered <- struct{}{}
		for ctx.Err() == nil {
			time.Sleep(time.Millisecond) // a long analysis polling its context
		}
		stopped <- struct{}{}
		return nil
	}
	c := newClient(t, Options{Inlay: slow})
	c.initialize(fullCapabilities)
	uri, text := example(t, "redblack.f")
	c.open(uri, text)
	for round := 0; round < 2; round++ {
		errc := make(chan error, 1)
		go func() {
			errc <- c.callErr("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
				"range": protocol.Range{End: protocol.Position{Line: 40}}}, nil)
		}()
		<-entered
		c.notify("$/cancelRequest", map[string]any{"id": 2 + round}) // initialize was 1
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			t.Fatalf("round %d: the analysis did not stop after cancellation", round)
		}
		if err := <-errc; rpcCode(err) != requestCancelled {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// TestCancelledAnalysesLeftRunning: analyses that ignore their context
// are left running after a cancellation at most maxLeftRunning at a time;
// past that a cancelled request answers when its analysis ends.
func TestCancelledAnalysesLeftRunning(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 10)
	slow := func(_ context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
		entered <- struct{}{}
		<-release
		return nil
	}
	c := newClient(t, Options{Inlay: slow})
	c.initialize(fullCapabilities)
	uri, text := example(t, "redblack.f")
	c.open(uri, text)
	const n = maxLeftRunning + 2
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			errs <- c.callErr("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
				"range": protocol.Range{End: protocol.Position{Line: 40}}}, nil)
		}()
		<-entered
	}
	for id := 2; id < 2+n; id++ { // initialize was 1
		c.notify("$/cancelRequest", map[string]any{"id": id})
	}
	for i := 0; i < maxLeftRunning; i++ {
		select {
		case err := <-errs:
			if rpcCode(err) != requestCancelled {
				t.Fatalf("cancelled request: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a cancelled request did not answer")
		}
	}
	select {
	case err := <-errs:
		t.Fatalf("more than %d analyses left running (answer %v)", maxLeftRunning, err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	for i := maxLeftRunning; i < n; i++ {
		if err := <-errs; rpcCode(err) != requestCancelled {
			t.Fatalf("cancelled request: %v", err)
		}
	}
	// Once the analyses end, none counts as left running.
	deadline := time.Now().Add(5 * time.Second)
	for c.srv.leftRunning.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := c.srv.leftRunning.Load(); got != 0 {
		t.Fatalf("%d analyses still counted as left running after they ended", got)
	}
}

// TestSlowDiagnosticsDoNotPileUp types faster than a slow diagnostics
// producer that ignores its context: one publication per document runs
// at a time (plus the few left running after a cancellation), and the
// last version's diagnostics are published in the end.
func TestSlowDiagnosticsDoNotPileUp(t *testing.T) {
	var running, most atomic.Int32
	slow := func(_ context.Context, f *parser.File, est hints.EstimateSettings) []hints.Diagnostic {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(150 * time.Millisecond)
		running.Add(-1)
		return nil
	}
	c := newClient(t, Options{ExtraDiagnostics: slow, DiagnosticDelay: 10 * time.Millisecond})
	var last atomic.Uint32
	go func() {
		for p := range c.diags {
			last.Store(p.Version)
		}
	}()
	c.initialize(fullCapabilities)
	const uri = "file:///src/slow.f"
	c.open(uri, "      X = 1\n      END\n")
	v := 2
	for ; v < 60; v++ {
		c.change(uri, v, &protocol.Range{Start: protocol.Position{Line: 0, Character: 10}, End: protocol.Position{Line: 0, Character: 11}}, strconv.Itoa(v%10))
		time.Sleep(10 * time.Millisecond)
	}
	// The last version's publication follows the slow one under way (up
	// to 150 ms, then the delay, then 150 ms): wait for it rather than
	// for a fixed second, which a loaded machine can overrun.
	for deadline := time.Now().Add(10 * time.Second); last.Load() != uint32(v-1) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if m := most.Load(); m > 1+maxLeftRunning {
		t.Fatalf("%d diagnostics analyses ran at once for one document", m)
	}
	t.Logf("at most %d diagnostics analyses at once", most.Load())
	if got := last.Load(); got != uint32(v-1) {
		t.Fatalf("last diagnostics published for version %d, want %d", got, v-1)
	}
}
