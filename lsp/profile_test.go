package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
)

const profiledProgram = "program p\n  integer :: i, k\n  real :: a(100)\n  do k = 1, 10\n     do i = 1, 100\n        a(i) = i\n     end do\n  end do\nend program p\n"

func writeProfile(t *testing.T, path, src string, count, entries int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	data := fmt.Sprintf(`{"ranks":2,"lines":[{"path":%q,"line":4,"count":%d,"time":0.002,"calls":0,"bytes":0,"entries":%d}],"arrays":[],"timeline":[]}`, src, count, entries)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestProfileHoverServed: the hover of a DO line shows the newest
// .pfls/*/profile.json next to the document; the setting pfls.profile
// names another one, which then applies.
func TestProfileHoverServed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	writeProfile(t, filepath.Join(dir, ".pfls", "profile-1", "profile.json"), src, 20, 2)
	c := newClient(t, Options{StatementHover: func(_ context.Context, f *parser.File, off int, _ hints.InlayOptions) string {
		return "statement hover"
	}})
	c.initialize(fullCapabilities)
	uri := protocol.DocumentURI("file://" + filepath.ToSlash(src))
	c.open(uri, profiledProgram)
	hover := func() string {
		var h *protocol.Hover
		c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 3, Character: 3}), &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	if h := hover(); !strings.Contains(h, "statement hover") || !strings.Contains(h, "**Measured** (pfls profile, 2 ranks)") ||
		!strings.Contains(h, "trip count 10 (measured: 20 iterations in 2 executions)") {
		t.Fatalf("hover:\n%s", h)
	}
	other := filepath.Join(dir, "elsewhere.json")
	writeProfile(t, other, src, 30, 2)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"profile": other}}})
	deadline := time.Now().Add(5 * time.Second)
	for {
		h := hover()
		if strings.Contains(h, "trip count 15 (measured: 30 iterations in 2 executions)") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pfls.profile not applied:\n%s", h)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// message is a notification or request the server sent to a recording
// client.
type message struct {
	method string
	params json.RawMessage
}

// newRecordingClient is newClient whose client also passes every message
// the server sends it to msgs.
func newRecordingClient(t *testing.T, opts Options) (*client, chan message) {
	msgs := make(chan message, 1000)
	sc, cc := net.Pipe()
	c := &client{t: t, srv: NewServer(opts), exit: make(chan int, 1), diags: make(chan protocol.PublishDiagnosticsParams, 1000)}
	go func() { c.exit <- c.srv.serve(context.Background(), sc, sc, sc) }()
	c.st = newStream(cc, cc, cc, func(string, ...any) {})
	c.conn = jsonrpc2.NewConn(c.st)
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() != "textDocument/publishDiagnostics" {
			msgs <- message{req.Method(), req.Params()}
		}
		return c.handle(ctx, reply, req)
	})
	t.Cleanup(func() { c.conn.Close(); sc.Close() })
	return c, msgs
}

// waitMessage returns the first message of method, failing after 10 s; the
// messages of other methods before it are passed to seen.
func waitMessage(t *testing.T, msgs chan message, method string, seen func(message)) message {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m := <-msgs:
			if m.method == method {
				return m
			}
			if seen != nil {
				seen(m)
			}
		case <-timeout:
			t.Fatalf("no %s", method)
		}
	}
}

// loopHint is a fake inlay producer: a loop hint "N" at the end of each
// DO line.
func loopHint(_ context.Context, f *parser.File, start, end int, _ hints.InlayOptions) []hints.InlayHint {
	var out []hints.InlayHint
	for line := 0; line < f.Lines.LineCount(); line++ {
		text := strings.TrimSpace(string(f.Src[f.Lines.LineStart(line):f.Lines.LineEnd(line)]))
		if off := f.Lines.LineEnd(line); strings.HasPrefix(text, "do ") && off >= start && off < end {
			out = append(out, hints.InlayHint{Offset: off, Label: "N", Tooltip: "Cost of this loop", Kind: "loop"})
		}
	}
	return out
}

func inlayAt(c *client, uri protocol.DocumentURI, line uint32) (InlayHint, bool) {
	var hs []InlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": protocol.Range{End: protocol.Position{Line: 100}}}, &hs)
	for _, h := range hs {
		if h.Position.Line == line {
			return h, true
		}
	}
	return InlayHint{}, false
}

// TestProfileStale: measured numbers (and Options.MeasuredHover's part)
// show in the hint and the hover while
// the profile is newer than the file and the document is the file's
// text; once the file is saved after the profile, or the document has
// changes not saved, the hint keeps its polynomial alone and the tooltip
// and the hover say why no measurement is shown.
func TestProfileStale(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	if err := os.WriteFile(src, []byte(profiledProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, ".pfls", "profile-1", "profile.json")
	writeProfile(t, prof, src, 20, 2)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(src, old, old); err != nil {
		t.Fatal(err)
	}
	// The analyses get the profile (for its branch counts) while it
	// applies, and not once it is stale.
	var inlayProfiled atomic.Bool
	inlay := func(ctx context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
		inlayProfiled.Store(o.Profile != nil)
		return loopHint(ctx, f, start, end, o)
	}
	c := newClient(t, Options{Inlay: inlay, StatementHover: func(_ context.Context, _ *parser.File, _ int, o hints.InlayOptions) string {
		if o.Profile != nil {
			return "statement hover with the profile's counts"
		}
		return "statement hover"
	},
		MeasuredHover: func(_ context.Context, _ *parser.File, _ int, p *hints.MeasuredProfile) string {
			return fmt.Sprintf("measured cost of %d ranks", p.Ranks)
		}})
	c.initialize(map[string]any{}) // tooltips in the hints
	uri := protocol.DocumentURI("file://" + filepath.ToSlash(src))
	c.open(uri, profiledProgram)
	hover := func() string {
		var h *protocol.Hover
		c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 3, Character: 3}), &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	h, ok := inlayAt(c, uri, 3)
	if !ok || h.Label != "N · measured 1 ms" || h.Tooltip == nil || !strings.Contains(h.Tooltip.Value, "trip count 10 (measured: 20 iterations in 2 executions)") {
		t.Fatalf("fresh profile: %+v %v", h, h.Tooltip)
	}
	if h, ok := inlayAt(c, uri, 4); !ok || h.Label != "N" || strings.Contains(h.Tooltip.Value, "Measured") {
		t.Errorf("a line the profile does not know: %+v %v", h, h.Tooltip)
	}
	if hv := hover(); !strings.Contains(hv, "trip count 10") || !strings.Contains(hv, "measured cost of 2 ranks") || !strings.Contains(hv, "with the profile's counts") {
		t.Errorf("fresh hover:\n%s", hv)
	}
	if !inlayProfiled.Load() {
		t.Error("the inlay hints were computed without the profile")
	}

	// Saved after the profile.
	if err := os.Chtimes(src, time.Now().Add(time.Hour), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	h, _ = inlayAt(c, uri, 3)
	if h.Label != "N" || !strings.Contains(h.Tooltip.Value, "profile older than the file") || strings.Contains(h.Tooltip.Value, "trip count") {
		t.Errorf("stale profile: %+v %v", h, h.Tooltip)
	}
	if hv := hover(); !strings.Contains(hv, "profile older than the file") || strings.Contains(hv, "trip count") || strings.Contains(hv, "measured cost") || !strings.Contains(hv, "statement hover") || strings.Contains(hv, "profile's counts") {
		t.Errorf("stale hover:\n%s", hv)
	}
	if inlayProfiled.Load() {
		t.Error("the inlay hints were computed with a stale profile")
	}

	// Back to older than the profile, but edited in the editor.
	if err := os.Chtimes(src, old, old); err != nil {
		t.Fatal(err)
	}
	if h, _ := inlayAt(c, uri, 3); h.Label != "N · measured 1 ms" {
		t.Fatalf("fresh again: %+v", h)
	}
	c.change(uri, 2, &protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, "! note\n")
	h, _ = inlayAt(c, uri, 4)
	if h.Label != "N" || !strings.Contains(h.Tooltip.Value, "changes not saved") {
		t.Errorf("edited document: %+v %v", h, h.Tooltip)
	}
}

// TestProfileCommand: pfls.profile is advertised; it answers at once and
// runs the profiler in the background with $/progress (begin, the
// runner's lines, end), then shows the outcome naming the file and asks
// for an inlay hint refresh, after which the hints carry the new
// measurements. A failure comes back as an error message with the file
// and the reason; a second run on a file being profiled is refused; a
// run stops on window/workDoneProgress/cancel and at the time limit.
func TestProfileCommand(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	if err := os.WriteFile(src, []byte(profiledProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(src, old, old); err != nil {
		t.Fatal(err)
	}
	type run struct {
		path string
		fail error
		wait bool // until cancelled
	}
	runs := make(chan run, 10)
	release := make(chan struct{})
	runner := func(ctx context.Context, path string, report func(string)) (string, error) {
		r := <-runs
		r.path = path
		report("running 2 ranks")
		switch {
		case r.wait:
			<-ctx.Done()
			return "", ctx.Err()
		case r.fail != nil:
			return "", r.fail
		}
		<-release
		writeProfile(t, filepath.Join(filepath.Dir(path), ".pfls", "profile-2", "profile.json"), path, 40, 2)
		return "2 rank(s), overhead +5.0%; wrote .pfls/profile-2", nil
	}
	var log lockedBuffer
	c, msgs := newRecordingClient(t, Options{Inlay: loopHint, Profile: runner, Log: &log})
	caps := map[string]any{"window": map[string]any{"workDoneProgress": true}, "workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}}
	var init struct {
		Capabilities struct {
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(c.initialize(caps), &init); err != nil || !slices.Contains(init.Capabilities.ExecuteCommandProvider.Commands, "pfls.profile") {
		t.Fatalf("commands: %+v %v", init.Capabilities.ExecuteCommandProvider, err)
	}
	uri := protocol.DocumentURI("file://" + filepath.ToSlash(src))
	c.open(uri, profiledProgram)
	if h, _ := inlayAt(c, uri, 3); h.Label != "N" {
		t.Fatalf("before any profile: %+v", h)
	}
	execute := func() (string, error) {
		var res string
		err := c.callErr("workspace/executeCommand", map[string]any{"command": "pfls.profile", "arguments": []any{uri}}, &res)
		return res, err
	}

	runs <- run{}
	if res, err := execute(); err != nil || !strings.Contains(res, src) {
		t.Fatalf("answer %q, %v", res, err)
	}
	if _, err := execute(); err == nil || !strings.Contains(err.Error(), "being profiled already") {
		t.Errorf("second run while the first goes on: %v", err)
	}
	close(release)
	var progress []string
	msg := waitMessage(t, msgs, "window/showMessage", func(m message) {
		if m.method == "$/progress" {
			progress = append(progress, string(m.params))
		}
	})
	var sm protocol.ShowMessageParams
	json.Unmarshal(msg.params, &sm)
	if sm.Type != protocol.MessageTypeInfo || !strings.Contains(sm.Message, src) || !strings.Contains(sm.Message, "wrote .pfls/profile-2") {
		t.Errorf("message %+v", sm)
	}
	if len(progress) != 3 || !strings.Contains(progress[0], `"begin"`) || !strings.Contains(progress[0], "profiling p.f90") ||
		!strings.Contains(progress[1], "running 2 ranks") || !strings.Contains(progress[2], `"end"`) {
		t.Errorf("progress:\n%s", strings.Join(progress, "\n"))
	}
	waitMessage(t, msgs, "workspace/inlayHint/refresh", nil)
	if h, _ := inlayAt(c, uri, 3); h.Label != "N · measured 1 ms" || !strings.Contains(h.Tooltip.Value, "trip count 20") {
		t.Errorf("after the profile: %+v %v", h, h.Tooltip)
	}
	// The client accepted the refresh: nothing to log (checked below,
	// once the server has long gone past it).

	runs <- run{fail: errors.New("mpirun: not found")}
	if _, err := execute(); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(waitMessage(t, msgs, "window/showMessage", nil).params, &sm)
	if sm.Type != protocol.MessageTypeError || sm.Message != "pfls profile "+src+": mpirun: not found" {
		t.Errorf("failure: %+v", sm)
	}

	runs <- run{wait: true}
	if _, err := execute(); err != nil {
		t.Fatal(err)
	}
	var token json.RawMessage
	waitMessage(t, msgs, "$/progress", func(m message) {})
	profileRuns.Lock()
	for tok := range profileRuns.byToken {
		token, _ = json.Marshal(tok)
	}
	profileRuns.Unlock()
	c.notify("window/workDoneProgress/cancel", map[string]any{"token": token})
	json.Unmarshal(waitMessage(t, msgs, "window/showMessage", nil).params, &sm)
	if sm.Type != protocol.MessageTypeError || sm.Message != "pfls profile "+src+": cancelled" {
		t.Errorf("cancelled: %+v", sm)
	}

	defer func(d time.Duration) { profileTimeout = d }(profileTimeout)
	profileTimeout = 50 * time.Millisecond
	runs <- run{wait: true}
	if _, err := execute(); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(waitMessage(t, msgs, "window/showMessage", nil).params, &sm)
	if sm.Type != protocol.MessageTypeError || sm.Message != "pfls profile "+src+": stopped after the time limit of 50ms" {
		t.Errorf("time limit: %+v", sm)
	}

	if err := c.callErr("workspace/executeCommand", map[string]any{"command": "pfls.profile", "arguments": []any{"file:///nonexistent/q.f90"}}, nil); err == nil || !strings.Contains(err.Error(), "/nonexistent/q.f90") {
		t.Errorf("missing file: %v", err)
	}
	if l := log.String(); strings.Contains(l, "refresh") {
		t.Errorf("the accepted refresh of the inlay hints is logged: %q", l)
	}
}

// TestProfileHoverMachine: the "predicted" beside a measured loop time is
// the estimate on the machine model pfls.estimate.machine names (loaded
// through Options.EstimateOptions, as for the other estimates), not on
// the model inside pfls.
func TestProfileHoverMachine(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	writeProfile(t, filepath.Join(dir, ".pfls", "profile-1", "profile.json"), src, 20, 2)
	// A model 100 times slower than the built-in one (lsp does not
	// import machine: the model comes through hints).
	builtinOpts := hints.EstimateSettings{Procs: 16}.Options(nil)
	slow := *builtinOpts.Machine
	slow.Ops = map[string]float64{}
	for k, v := range builtinOpts.Machine.Ops {
		slow.Ops[k] = 100 * v
	}
	slowOpts := hints.EstimateSettings{Procs: 16}.Options(&slow)
	var log lockedBuffer
	c := newClient(t, Options{
		Log:            &log,
		StatementHover: func(context.Context, *parser.File, int, hints.InlayOptions) string { return "statement hover" },
		EstimateOptions: func(st hints.EstimateSettings) (hints.EstimateOptions, error) {
			if st.Machine != "slow.json" {
				return st.Options(nil), fmt.Errorf("no model %q", st.Machine)
			}
			return st.Options(&slow), nil
		}})
	c.initialize(fullCapabilities)
	uri := protocol.DocumentURI("file://" + filepath.ToSlash(src))
	c.open(uri, profiledProgram)
	predictedRE := regexp.MustCompile(`predicted ([0-9.]+ [a-zµ]+)`)
	hover := func() string {
		var h *protocol.Hover
		c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 3, Character: 3}), &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	f := parser.Parse(src, []byte(profiledProgram), nil)
	prof, err := hints.ParseProfile([]byte(fmt.Sprintf(`{"ranks":2,"lines":[{"path":%q,"line":4,"count":20,"time":0.002,"entries":2}]}`, src)))
	if err != nil {
		t.Fatal(err)
	}
	want := func(o hints.EstimateOptions) string {
		p := predictedRE.FindStringSubmatch(hints.ProfileHover(f, f.Lines.LineStart(3)+3, prof, o))
		if p == nil {
			t.Fatal("no prediction")
		}
		return p[1]
	}
	builtin, slowed := want(builtinOpts), want(slowOpts)
	if builtin == slowed {
		t.Fatalf("the slow model predicts %s too", slowed)
	}
	if p := predictedRE.FindStringSubmatch(hover()); p == nil || p[1] != builtin {
		t.Fatalf("without pfls.estimate.machine: %v, want %s", p, builtin)
	}
	if l := log.String(); !strings.Contains(l, `no model ""`) {
		t.Errorf("the model that cannot be read is not logged: %q", l)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"estimate": map[string]any{"machine": "slow.json"}}}})
	deadline := time.Now().Add(5 * time.Second)
	for {
		p := predictedRE.FindStringSubmatch(hover())
		if p != nil && p[1] == slowed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pfls.estimate.machine not used: %v, want %s", p, slowed)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if l := log.String(); strings.Contains(l, "<nil>") {
		t.Errorf("the model read is logged as a failure: %q", l)
	}
}

// TestProfileNameHoverServed: the hover of a program unit's name in its
// header gives the unit's measured time per call and calls.
func TestProfileNameHoverServed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	prof := filepath.Join(dir, ".pfls", "profile-1", "profile.json")
	if err := os.MkdirAll(filepath.Dir(prof), 0o755); err != nil {
		t.Fatal(err)
	}
	data := fmt.Sprintf(`{"ranks":2,"lines":[{"path":%q,"line":1,"count":2,"time":0.008}]}`, src)
	if err := os.WriteFile(prof, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	uri := protocol.DocumentURI("file://" + filepath.ToSlash(src))
	c.open(uri, profiledProgram)
	var h *protocol.Hover
	c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 0, Character: 8}), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "PROGRAM P") || !strings.Contains(h.Contents.Value, "measured 4 ms per call · 2 calls") {
		t.Fatalf("hover of the program's name: %+v", h)
	}
	c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 3, Character: 6}), &h)
	if h != nil && strings.Contains(h.Contents.Value, "measured") {
		t.Errorf("hover of k: %s", h.Contents.Value)
	}
}
