package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/lsp"
	"github.com/pfls/pfls/parser"
)

// The server's settings, hover and code actions through the real serve
// wiring (serveOptions and lsp.Server), answers read in full.

// pinClient speaks JSON-RPC to a server built from serveOptions, with
// settings given as initializationOptions, and returns results.
type pinClient struct {
	t       *testing.T
	w       io.Writer
	wmu     sync.Mutex
	mu      sync.Mutex
	next    int
	pending map[int]chan pinReply
}

type pinReply struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func newPinClient(t *testing.T, settings any) *pinClient {
	t.Helper()
	return newPinClientAt(t, settings, nil)
}

// newPinClientAt is newPinClient with a workspace root (a file URI, or
// nil for none).
func newPinClientAt(t *testing.T, settings any, root any) *pinClient {
	t.Helper()
	sc, cc := net.Pipe()
	srv := lsp.NewServer(serveOptions(io.Discard))
	exited := make(chan int, 1)
	go func() { exited <- srv.Serve(context.Background(), sc, sc, sc) }()
	c := &pinClient{t: t, w: cc, pending: map[int]chan pinReply{}}
	go c.read(bufio.NewReader(cc))
	t.Cleanup(func() {
		c.call("shutdown", nil)
		c.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			t.Error("server did not exit")
		}
		cc.Close()
	})
	init := map[string]any{"processId": nil, "rootUri": root, "capabilities": map[string]any{}}
	if settings != nil {
		init["initializationOptions"] = settings
	}
	c.call("initialize", init)
	c.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	return c
}

func (c *pinClient) read(r *bufio.Reader) {
	readFrames(r, func(body []byte) {
		var m pinReply
		if json.Unmarshal(body, &m) != nil || m.ID == nil {
			return
		}
		if m.Method != "" {
			c.send(map[string]any{"jsonrpc": "2.0", "id": *m.ID, "result": nil})
			return
		}
		c.mu.Lock()
		ch := c.pending[*m.ID]
		delete(c.pending, *m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	})
}

func (c *pinClient) send(msg any) {
	body, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// call sends a request and decodes its result into out (if not nil);
// an error answer fails the test.
func (c *pinClient) call(method string, params any, out ...any) {
	c.t.Helper()
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan pinReply, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case m := <-ch:
		if m.Error != nil {
			c.t.Fatalf("%s: %s", method, m.Error.Message)
		}
		for _, o := range out {
			if err := json.Unmarshal(m.Result, o); err != nil {
				c.t.Fatalf("%s: %v in %s", method, err, m.Result)
			}
		}
	case <-time.After(60 * time.Second):
		c.t.Fatalf("%s: no answer", method)
	}
}

func (c *pinClient) open(uri, text string) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "fortran", "version": 1, "text": text}}})
}

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type pinHint struct {
	Position position `json:"position"`
	Label    string   `json:"label"`
}

func (c *pinClient) hints(uri string, lines int) []pinHint {
	var out []pinHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": lspRange{Start: position{0, 0}, End: position{lines, 0}}}, &out)
	return out
}

// TestServePinInlaySettings: the inlay-hint settings reach the producer:
// enable, loops, units and maxLength each change the answer.
func TestServePinInlaySettings(t *testing.T) {
	text := readExample(t, "redblack.f")
	lines := strings.Count(text, "\n") + 1
	const uri = "file:///pin/redblack.f"
	// The lines of the DO statements (0-based) and of the PROGRAM.
	doLines, unitLine := map[int]bool{}, -1
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "DO ") {
			doLines[i] = true
		}
		if strings.HasPrefix(strings.TrimSpace(l), "PROGRAM") {
			unitLine = i
		}
	}
	kinds := func(hs []pinHint) (loops, units int) {
		for _, h := range hs {
			switch {
			case doLines[h.Position.Line]:
				loops++
			case h.Position.Line == unitLine:
				units++
			default:
				t.Errorf("hint %q on line %d, neither a DO nor the PROGRAM", h.Label, h.Position.Line)
			}
		}
		return
	}
	def := newPinClient(t, nil)
	def.open(uri, text)
	hs := def.hints(uri, lines)
	if l, _ := kinds(hs); l != len(doLines) {
		t.Errorf("default settings: %d loop hints (%v), want one per DO: %d", l, hs, len(doLines))
	}
	if len(hs) == 0 {
		t.Fatal("default settings: no hints")
	}
	long := 0
	for _, h := range hs {
		long = max(long, len([]rune(h.Label)))
	}
	const maxLength = 5
	if long <= maxLength {
		t.Fatalf("default labels at most %d characters long: the maxLength setting would check nothing", long)
	}

	for _, c := range []struct {
		name     string
		settings map[string]any
		check    func(hs []pinHint) string
	}{
		{"enable false", map[string]any{"enable": false}, func(hs []pinHint) string {
			if len(hs) != 0 {
				return fmt.Sprintf("%d hints, want none", len(hs))
			}
			return ""
		}},
		{"loops false", map[string]any{"loops": false, "units": true}, func(hs []pinHint) string {
			if l, u := kinds(hs); l != 0 || u != 1 {
				return fmt.Sprintf("%d loop and %d unit hints, want 0 and 1", l, u)
			}
			return ""
		}},
		{"units false", map[string]any{"loops": true, "units": false}, func(hs []pinHint) string {
			if l, u := kinds(hs); l != len(doLines) || u != 0 {
				return fmt.Sprintf("%d loop and %d unit hints, want %d and 0", l, u, len(doLines))
			}
			return ""
		}},
		{"maxLength", map[string]any{"maxLength": maxLength}, func(hs []pinHint) string {
			if len(hs) == 0 {
				return "no hints"
			}
			for _, h := range hs {
				if n := len([]rune(h.Label)); n > maxLength {
					return fmt.Sprintf("label %q of %d characters, want at most %d (the longest without the setting: %d)", h.Label, n, maxLength, long)
				}
			}
			return ""
		}},
	} {
		c2 := newPinClient(t, map[string]any{"pfls": map[string]any{"inlayHints": c.settings}})
		c2.open(uri, text)
		if msg := c.check(c2.hints(uri, lines)); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
	}
}

// TestServePinHoverLastEstimate: after "Estimate this loop", the hover on
// the loop's line ends with that estimate.
func TestServePinHoverLastEstimate(t *testing.T) {
	text := readExample(t, "dgefa.f")
	const uri = "file:///pin/dgefa.f"
	c := newPinClient(t, nil)
	c.open(uri, text)
	var est string
	c.call("workspace/executeCommand", map[string]any{"command": hints.EstimateCommand, "arguments": []any{uri, 12}}, &est)
	if !strings.Contains(est, "broadcast of A") {
		t.Fatalf("estimate %q", est)
	}
	var hover struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": position{11, 9}}, &hover)
	if !strings.HasSuffix(strings.TrimSpace(hover.Contents.Value), strings.TrimSpace(est)) || !strings.Contains(hover.Contents.Value, "Last estimate") {
		t.Errorf("hover\n%s\nwant it to end with the last estimate\n%s", hover.Contents.Value, est)
	}
}

type pinAction struct {
	Title   string `json:"title"`
	Kind    string `json:"kind"`
	Command *struct {
		Command string `json:"command"`
	} `json:"command"`
	Edit *struct {
		Changes map[string][]struct {
			NewText string `json:"newText"`
		} `json:"changes"`
	} `json:"edit"`
}

func (c *pinClient) actions(uri string, line int) []pinAction {
	var out []pinAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   lspRange{Start: position{line, 0}, End: position{line, 0}},
		"context": map[string]any{"diagnostics": []any{}}}, &out)
	return out
}

// TestServePinQuickFix: the missing ALIGN of example.fcm comes with its
// quick fix through the server.
func TestServePinQuickFix(t *testing.T) {
	text := readExample(t, "example.fcm")
	f := parser.Parse("example.fcm", []byte(text), nil)
	ds := hints.CapabilityDiagnostics(f, hints.EstimateSettings{Procs: 16}.Options(nil), nil)
	if len(ds) != 1 {
		t.Fatalf("diagnostics %+v", ds)
	}
	line := f.Lines.Line(ds[0].Start)
	const uri = "file:///pin/example.fcm"
	c := newPinClient(t, nil)
	c.open(uri, text)
	var fixes []string
	for _, a := range c.actions(uri, line) {
		if a.Kind == "quickfix" && a.Edit != nil {
			for _, es := range a.Edit.Changes {
				for _, e := range es {
					fixes = append(fixes, e.NewText)
				}
			}
		}
	}
	if len(fixes) != 1 || fixes[0] != "CMF$ ALIGN B(I,J) WITH A(I,J)\n" {
		t.Errorf("quick fixes on line %d: %q, want the ALIGN", line+1, fixes)
	}
}

// TestServePinActionsProcs: the distributions the code actions offer are
// estimated on pfls.estimate.procs processors.
func TestServePinActionsProcs(t *testing.T) {
	text := readExample(t, "redblack.f")
	const uri = "file:///pin/redblack.f"
	f := parser.Parse("redblack.f", []byte(text), nil)
	line := 12 // DO 100 KC (0-based)
	off := f.Lines.LineStart(line)
	titles := func(as []pinAction) []string {
		var out []string
		for _, a := range as {
			if a.Kind == "refactor.rewrite" {
				out = append(out, a.Title)
			}
		}
		return out
	}
	want := func(procs int) []string {
		var out []string
		for _, a := range hints.LoopActions(f, off, hints.EstimateSettings{Procs: procs}.Options(nil)) {
			if a.Kind == "refactor.rewrite" {
				out = append(out, a.Title)
			}
		}
		return out
	}
	w4, w16 := want(4), want(16)
	if len(w4) == 0 || strings.Join(w4, "\n") == strings.Join(w16, "\n") {
		t.Fatalf("the producer's rewrites on 4 and on 16 processors: %q, %q; want different ones", w4, w16)
	}
	for _, procs := range []int{4, 16} {
		c := newPinClient(t, map[string]any{"pfls": map[string]any{"estimate": map[string]any{"procs": procs}}})
		c.open(uri, text)
		got := titles(c.actions(uri, line))
		if w := want(procs); strings.Join(got, "\n") != strings.Join(w, "\n") {
			t.Errorf("procs %d: rewrites\n%s\nwant\n%s", procs, strings.Join(got, "\n"), strings.Join(w, "\n"))
		}
	}
}

// TestServePinEstimateOtherFile: the estimate of a loop that calls a
// module's subroutines follows them into the module's file, open or
// closed in the workspace: mpi-jacobi-sub.f90 split in two reports
// EXCHANGE's two exchanges, naming kernels.f90. With the program's file
// alone, and no workspace, they are missing.
func TestServePinEstimateOtherFile(t *testing.T) {
	src, err := os.ReadFile("../../hints/testdata/programs/mpi-jacobi-sub.f90")
	if err != nil {
		t.Fatal(err)
	}
	k := strings.Index(string(src), "program jacobi_mpi_sub")
	modText, mainText := string(src[:k]), string(src[k:])
	line := strings.Count(mainText[:strings.Index(mainText, "do it = 1, maxit")], "\n") + 1
	estimate := func(c *pinClient, uri string) string {
		var est string
		c.call("workspace/executeCommand", map[string]any{"command": hints.EstimateCommand, "arguments": []any{uri, line}}, &est)
		return est
	}
	const want = "inside EXCHANGE (kernels.f90) called at line"

	c := newPinClient(t, nil)
	c.open("file:///pin/main.f90", mainText)
	if est := estimate(c, "file:///pin/main.f90"); strings.Contains(est, "MPI_SENDRECV") {
		t.Errorf("the program's file alone: %q reports EXCHANGE's messages", est)
	}
	c.open("file:///pin/kernels.f90", modText)
	if est := estimate(c, "file:///pin/main.f90"); strings.Count(est, want) != 2 {
		t.Errorf("with the module open: %q, want EXCHANGE's two exchanges", est)
	}

	// The module's file closed, in the workspace's folder.
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/kernels.f90", []byte(modText), 0o644); err != nil {
		t.Fatal(err)
	}
	root := "file://" + filepath.ToSlash(dir)
	d := newPinClientAt(t, nil, root)
	d.open(root+"/main.f90", mainText)
	var est string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		// The workspace is indexed in the background after initialized.
		if est = estimate(d, root+"/main.f90"); strings.Count(est, want) == 2 {
			break
		}
	}
	if strings.Count(est, want) != 2 {
		t.Errorf("with the module closed in the workspace: %q, want EXCHANGE's two exchanges", est)
	}
}
