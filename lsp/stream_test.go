package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// rawClient talks to a server over a pipe with raw bytes, to send
// malformed frames, and reads its answers with a stream.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	msgs chan jsonrpc2.Message
	bad  chan string // malformed messages the client's stream saw (the server's error answers have id null)
}

func newRawClient(t *testing.T) *rawClient {
	sc, cc := net.Pipe()
	srv := NewServer(Options{})
	go srv.serve(context.Background(), sc, sc, sc)
	rc := &rawClient{t: t, conn: cc, msgs: make(chan jsonrpc2.Message, 100), bad: make(chan string, 100)}
	st := newStream(cc, io.Discard, nil, func(f string, a ...any) { rc.bad <- fmt.Sprintf(f, a...) })
	go func() {
		for {
			m, _, err := st.Read(context.Background())
			if err != nil {
				close(rc.msgs)
				return
			}
			rc.msgs <- m
		}
	}()
	t.Cleanup(func() { cc.Close(); sc.Close() })
	return rc
}

func (rc *rawClient) send(s string) {
	rc.t.Helper()
	rc.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(rc.conn, s); err != nil {
		rc.t.Fatalf("write: %v", err)
	}
}

// waitReply waits for the answer to request id, skipping error answers
// to malformed frames (id null); it reports how many of those it saw.
func (rc *rawClient) waitReply(id int) (rejected int) {
	rc.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m := <-rc.bad:
			if strings.Contains(m, `"id":null`) {
				rejected++
			}
		case m, ok := <-rc.msgs:
			if !ok {
				rc.t.Fatalf("connection closed before the answer to %d", id)
			}
			if r, ok := m.(*jsonrpc2.Response); ok {
				if r.ID() == jsonrpc2.NewNumberID(int32(id)) {
					// Malformed messages before it were logged before it arrived.
					for len(rc.bad) > 0 {
						if strings.Contains(<-rc.bad, `"id":null`) {
							rejected++
						}
					}
					return rejected
				}
			}
		case <-timeout:
			rc.t.Fatalf("no answer to request %d: the reader did not recover", id)
		}
	}
}

func frameOf(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func hoverRequest(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{}}`, id)
}

// TestStreamResynchronises sends each kind of bad frame followed by a
// good request, in one write and in two: the good request is answered
// and the bad frame rejected.
func TestStreamResynchronises(t *testing.T) {
	bad := map[string]string{
		"Content-Length too small":  "Content-Length: 5\r\n\r\n" + `{"jsonrpc":"2.0","id":99,"method":"shutdown"}`,
		"Content-Length too large":  "Content-Length: 500\r\n\r\n" + `{"jsonrpc":"2.0","method":"x"}`,
		"garbage without line end":  "hello, garbage",
		"garbage lines":             "junk\r\nmore junk\r\n\r\n",
		"header line too long":      "X-Long: " + strings.Repeat("a", 100<<10) + "\r\n\r\n",
		"long line, then a header":  strings.Repeat("z", 3*maxHeaderLine),
		"Content-Length over limit": fmt.Sprintf("Content-Length: %d\r\n\r\n{}", maxMessage+1),
		"Content-Length not number": "Content-Length: abc\r\n\r\n",
		"body not JSON":             frameOf("{not json"),
	}
	for name, prefix := range bad {
		for _, split := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/split=%v", name, split), func(t *testing.T) {
				rc := newRawClient(t)
				if split {
					rc.send(prefix)
					time.Sleep(5 * time.Millisecond)
					rc.send(frameOf(hoverRequest(7)))
				} else {
					rc.send(prefix + frameOf(hoverRequest(7)))
				}
				if rejected := rc.waitReply(7); rejected == 0 {
					t.Errorf("the bad frame was not answered with an error")
				}
				// And the connection goes on.
				rc.send(frameOf(hoverRequest(8)))
				rc.waitReply(8)
			})
		}
	}
}

// blockedWriter is a client that stops reading: writes block until
// released.
type blockedWriter struct {
	release chan struct{}
	w       io.Writer
}

func (b *blockedWriter) Write(p []byte) (int, error) {
	<-b.release
	return b.w.Write(p)
}

// TestOutgoingQueueBounded fills the queue of a client that does not
// read with replies, diagnostics of two documents, progress and other
// notifications: the queue stays bounded, every reply arrives in order,
// and the last diagnostics of each document arrive, coalesced.
func TestOutgoingQueueBounded(t *testing.T) {
	pr, pw := io.Pipe()
	bw := &blockedWriter{release: make(chan struct{}), w: pw}
	var logs []string
	st := newStream(strings.NewReader(""), bw, nil, func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) })
	st.limit = 1 << 20
	ctx := context.Background()
	big := strings.Repeat("x", 4<<10)
	replies := 0
	const rounds = 1000
	for i := 0; i < rounds; i++ {
		n, _ := jsonrpc2.NewNotification("$/progress", map[string]any{"token": "t", "value": map[string]any{"kind": "report", "message": big}})
		st.Write(ctx, n)
		n, _ = jsonrpc2.NewNotification("window/logMessage", map[string]any{"type": 4, "message": big})
		st.Write(ctx, n)
		for _, uri := range []string{"file:///a.f", "file:///b.f"} {
			n, _ = jsonrpc2.NewNotification("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{
				URI: protocol.DocumentURI(uri), Version: uint32(i + 1), Diagnostics: []protocol.Diagnostic{{Message: big}}})
			st.Write(ctx, n)
		}
		if i%10 == 0 {
			r, _ := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(int32(replies)), big, nil)
			st.Write(ctx, r)
			replies++
		}
	}
	st.wmu.Lock()
	queued, n := st.queued, len(st.queue)
	st.wmu.Unlock()
	if queued > st.limit+(16<<10) {
		t.Fatalf("%d bytes of notifications queued (limit %d)", queued, st.limit)
	}
	t.Logf("queue: %d messages, %d bytes of notifications, after %d notifications and %d replies", n, queued, rounds*4, replies)
	end, _ := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(-1), "end", nil)
	st.Write(ctx, end)

	close(bw.release)
	rd := newStream(pr, io.Discard, nil, func(string, ...any) {})
	next := 0
	last := map[string]uint32{}
	diags := 0
	for {
		m, _, err := rd.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch m := m.(type) {
		case *jsonrpc2.Response:
			if m.ID() == jsonrpc2.NewNumberID(-1) {
				goto done
			}
			if m.ID() != jsonrpc2.NewNumberID(int32(next)) {
				t.Fatalf("reply %v, want %d: replies lost or out of order", m.ID(), next)
			}
			next++
		case *jsonrpc2.Notification:
			if m.Method() == "textDocument/publishDiagnostics" {
				var p protocol.PublishDiagnosticsParams
				json.Unmarshal(m.Params(), &p)
				if p.Version <= last[string(p.URI)] {
					t.Fatalf("diagnostics of %s version %d after version %d", p.URI, p.Version, last[string(p.URI)])
				}
				last[string(p.URI)] = p.Version
				diags++
			}
		}
	}
done:
	if next != replies {
		t.Fatalf("%d replies of %d arrived", next, replies)
	}
	if last["file:///a.f"] != rounds || last["file:///b.f"] != rounds {
		t.Fatalf("last diagnostics: %v, want version %d of each", last, rounds)
	}
	if len(logs) == 0 || !strings.Contains(logs[0], "dropping") {
		t.Errorf("drops not logged: %q", logs)
	}
	if diags > 4 {
		t.Errorf("%d diagnostics publications arrived: not coalesced", diags)
	}
}

// TestEncodeResultMatchesJSONRPC: a successful answer written without the
// second encoder pass has the bytes jsonrpc2 itself writes (framed), for numeric
// and string ids and for results with HTML characters, line separators,
// non-ASCII and nesting.
func TestEncodeResultMatchesJSONRPC(t *testing.T) {
	results := []any{
		nil,
		[]int{},
		"a <b> & c \u2028 \u2029 é \x01",
		map[string]any{"name": "SUB<1>", "children": []any{map[string]any{"x": 1.5e300, "y": math.Copysign(0, -1)}}},
		[]protocol.DocumentSymbol{{Name: "S&P", Kind: protocol.SymbolKindFunction}},
	}
	ids := []jsonrpc2.ID{jsonrpc2.NewNumberID(0), jsonrpc2.NewNumberID(1 << 30), jsonrpc2.NewStringID("a\"<id>")}
	for _, id := range ids {
		for _, res := range results {
			r, err := jsonrpc2.NewResponse(id, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := r.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got, err := encodeResult(r)
			if err != nil {
				t.Fatal(err)
			}
			if want = frame(want); !bytes.Equal(got, want) {
				t.Errorf("id %v, result %v:\n got %s\nwant %s", id, res, got, want)
			}
		}
	}
}

// TestFreeMemoryAgain: asked for while it runs, freeMemory forces one
// more collection after the one under way (the garbage of a big answer
// written during the collection that followed the open), and then stops.
func TestFreeMemoryAgain(t *testing.T) {
	idle := func() (bool, int) {
		freeing.Lock()
		defer freeing.Unlock()
		return !freeing.running && !freeing.again, freeing.runs
	}
	deadline := time.Now().Add(time.Minute)
	wait := func() int {
		for {
			if ok, runs := idle(); ok {
				return runs
			}
			if time.Now().After(deadline) {
				t.Fatal("freeMemory never stops")
			}
			time.Sleep(time.Millisecond)
		}
	}
	before := wait()
	freeMemory()
	freeMemory()
	if runs := wait(); runs-before < 2 { // other tests may ask too
		t.Errorf("%d collections, want at least 2", runs-before)
	}
}

// syncLog collects a stream's log lines from several goroutines.
type syncLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *syncLog) logf(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

// count is how many lines contain sub.
func (l *syncLog) count(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// errorAnswer is one error answer of the stream, as a client decodes it.
type errorAnswer struct {
	ID    json.RawMessage `json:"id"`
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestStreamErrorAnswers reads, for each kind of bad input followed by a
// good request, what a client gets: the good request is the message Read
// returns, with the count of every byte read up to its end (jsonrpc2's
// Stream contract), and the bad input is answered with one error of the
// right code, message and id (null unless the bad message had a usable
// id); a successful answer logs nothing about answering.
func TestStreamErrorAnswers(t *testing.T) {
	good := frameOf(hoverRequest(7))
	// A notification of 70 kB: read in two chunks of the 64 KiB buffer,
	// the second of which must stop at the body's end.
	bigBody := `{"jsonrpc":"2.0","method":"x","params":{"s":"` + strings.Repeat("a", 70000) + `"}}`
	for _, tc := range []struct {
		name, input string
		code        int
		id, msg     string // id of the answer, part of its message
	}{
		{"no Content-Length", "X-Foo: bar\r\n\r\n" + good, int(jsonrpc2.ParseError), "null", "missing Content-Length"},
		{"Content-Length not a number", "Content-Length: abc\r\n\r\n" + good, int(jsonrpc2.ParseError), "null", `invalid Content-Length "abc"`},
		{"method not a string", frameOf(`{"jsonrpc":"2.0","id":5,"method":7}`) + good, int(jsonrpc2.InvalidRequest), "5", "invalid request"},
		{"string id", frameOf(`{"jsonrpc":"2.0","id":"q","method":[]}`) + good, int(jsonrpc2.InvalidRequest), `"q"`, "invalid request"},
		{"object id", frameOf(`{"jsonrpc":"2.0","id":{},"method":7}`) + good, int(jsonrpc2.InvalidRequest), "null", "invalid request"},
		{"Content-Length too large", "Content-Length: 500\r\n\r\n" + `{"jsonrpc":"2.0","method":"x"}` + good, int(jsonrpc2.ParseError), "null", "wrong Content-Length"},
		// The body begins with its line end: the next header is in
		// the first bytes read, and the body waits for no more.
		{"body a line end", "Content-Length: 500\r\n\r\n\n" + good, int(jsonrpc2.ParseError), "null", "wrong Content-Length"},
		{"after a large message", frameOf(bigBody) + frameOf(`{"jsonrpc":"2.0","id":5,"method":7}`) + good, int(jsonrpc2.InvalidRequest), "5", "invalid request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out lockedBuffer
			var log syncLog
			st := newStream(strings.NewReader(tc.input), &out, nil, log.logf)
			ctx := context.Background()
			total := int64(0)
			if strings.HasPrefix(tc.input, frameOf(bigBody)) {
				m, n, err := st.Read(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if nt, ok := m.(*jsonrpc2.Notification); !ok || len(nt.Params()) != len(bigBody)-len(`{"jsonrpc":"2.0","method":"x","params":}`) {
					t.Fatalf("the large message was not read whole: %T", m)
				}
				total += n
			}
			m, n, err := st.Read(ctx)
			if err != nil {
				t.Fatalf("Read: %v (log %s)", err, log.String())
			}
			total += n
			if c, ok := m.(*jsonrpc2.Call); !ok || c.ID() != jsonrpc2.NewNumberID(7) {
				t.Fatalf("Read gave %#v, want the request 7", m)
			}
			if total != int64(len(tc.input)) {
				t.Errorf("Read counted %d bytes, the input up to the request's end is %d", total, len(tc.input))
			}
			st.drain()
			rd := bufio.NewReader(strings.NewReader(out.String()))
			var answers []errorAnswer
			for {
				var length int
				if _, err := fmt.Fscanf(rd, "Content-Length: %d\r\n\r\n", &length); err != nil {
					break
				}
				body := make([]byte, length)
				io.ReadFull(rd, body)
				var a errorAnswer
				if err := json.Unmarshal(body, &a); err != nil {
					t.Fatalf("answer %q: %v", body, err)
				}
				answers = append(answers, a)
			}
			if len(answers) != 1 {
				t.Fatalf("%d answers, want 1: %s", len(answers), out.String())
			}
			a := answers[0]
			if a.Error.Code != tc.code || string(a.ID) != tc.id || !strings.Contains(a.Error.Message, tc.msg) {
				t.Errorf("answer id %s, code %d, %q; want id %s, code %d, %q", a.ID, a.Error.Code, a.Error.Message, tc.id, tc.code, tc.msg)
			}
			if log.count("answering") != 0 {
				t.Errorf("a successful answer was logged as failed: %s", log.String())
			}
		})
	}
}

// stepWriter is a client that reads one message at a time: each Write
// reports its bytes on entered and waits for a token on release.
type stepWriter struct {
	entered chan string
	release chan struct{}
}

func (w *stepWriter) Write(p []byte) (int, error) {
	w.entered <- string(p)
	<-w.release
	return len(p), nil
}

// next is the next message written, or "" after 5 s.
func (w *stepWriter) next() string {
	select {
	case s := <-w.entered:
		return s
	case <-time.After(5 * time.Second):
		return ""
	}
}

// notification is a framed notification as the stream queues it.
func notification(t *testing.T, method string, params any) (*jsonrpc2.Notification, int) {
	t.Helper()
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		t.Fatal(err)
	}
	data, err := n.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return n, len(frame(data))
}

// TestOutgoingQueueLimits: for a client that has stopped reading (the
// first answer is being written), notifications of X bytes with a limit
// of X: a second notification still fits (the queue is not past the
// limit), a third and fourth are dropped, logged once; diagnostics
// replace nothing while the queue is not past the limit; $/progress is
// kept while the queue is not past a sixteenth of the limit. When the
// client reads again, everything kept arrives in order and the drops are
// reported once, with their count, when the queue is empty.
func TestOutgoingQueueLimits(t *testing.T) {
	ctx := context.Background()
	msg := func(i int) map[string]any { return map[string]any{"type": 4, "message": fmt.Sprintf("m%d", i)} }
	_, x := notification(t, "window/logMessage", msg(1))

	t.Run("other notifications", func(t *testing.T) {
		w := &stepWriter{entered: make(chan string, 10), release: make(chan struct{})}
		var log syncLog
		st := newStream(strings.NewReader(""), w, nil, log.logf)
		st.limit = x
		r, _ := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(1), "first", nil)
		st.Write(ctx, r)
		if got := w.next(); !strings.Contains(got, `"first"`) {
			t.Fatalf("first write %q", got)
		}
		for i := 1; i <= 4; i++ {
			n, _ := notification(t, "window/logMessage", msg(i))
			st.Write(ctx, n)
			// The first drop (of m3) is logged, not the next ones.
			if want := min(max(i-2, 0), 1); log.count("dropping notifications") != want {
				t.Errorf("after m%d, %d logs of drops, want %d: %s", i, log.count("dropping notifications"), want, log.String())
			}
		}
		w.release <- struct{}{} // the answer is written; m1 is taken
		if got := w.next(); !strings.Contains(got, `"m1"`) {
			t.Fatalf("second write %q, want m1", got)
		}
		if got := log.count("reads again"); got != 0 {
			t.Errorf("m2 still waits, yet the client was said to read again: %s", log.String())
		}
		w.release <- struct{}{}
		if got := w.next(); !strings.Contains(got, `"m2"`) {
			t.Fatalf("third write %q, want m2", got)
		}
		w.release <- struct{}{}
		st.drain()
		select {
		case got := <-w.entered:
			t.Errorf("a dropped notification was written: %q", got)
		default:
		}
		if got := log.count("the client reads again: 2 notifications were dropped"); got != 1 {
			t.Errorf("the end of the drops is not reported once with their count: %s", log.String())
		}
	})

	t.Run("diagnostics and progress", func(t *testing.T) {
		w := &stepWriter{entered: make(chan string, 10), release: make(chan struct{}, 10)}
		var log syncLog
		st := newStream(strings.NewReader(""), w, nil, log.logf)
		st.limit = x
		r, _ := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(1), "first", nil)
		st.Write(ctx, r)
		w.next()
		n, _ := notification(t, "window/logMessage", msg(1))
		st.Write(ctx, n)
		d, _ := notification(t, "textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: "file:///a.f", Diagnostics: []protocol.Diagnostic{}})
		st.Write(ctx, d)
		// The queue (m1 and the diagnostics) is past a sixteenth of the
		// limit: progress is dropped.
		p, _ := notification(t, "$/progress", map[string]any{"token": "t", "value": map[string]any{"kind": "report", "message": "p1"}})
		st.Write(ctx, p)
		for i := 0; i < 3; i++ {
			w.release <- struct{}{}
		}
		st.drain()
		var got []string
		for len(w.entered) > 0 {
			s := <-w.entered
			switch {
			case strings.Contains(s, `"m1"`):
				got = append(got, "m1")
			case strings.Contains(s, "publishDiagnostics"):
				got = append(got, "diagnostics")
			case strings.Contains(s, "p1"):
				got = append(got, "p1")
			}
		}
		if strings.Join(got, " ") != "m1 diagnostics" {
			t.Errorf("written after the answer: %v, want m1 and the diagnostics", got)
		}

		// A sixteenth of the limit queued exactly: progress still goes.
		w = &stepWriter{entered: make(chan string, 10), release: make(chan struct{}, 10)}
		st = newStream(strings.NewReader(""), w, nil, log.logf)
		st.limit = 16 * x
		st.Write(ctx, r)
		w.next()
		st.Write(ctx, n)
		st.Write(ctx, p)
		for i := 0; i < 3; i++ {
			w.release <- struct{}{}
		}
		st.drain()
		if len(w.entered) != 2 || !strings.Contains(<-w.entered, `"m1"`) || !strings.Contains(<-w.entered, "p1") {
			t.Errorf("with a sixteenth of the limit queued, the progress was dropped")
		}
	})

	t.Run("nothing dropped", func(t *testing.T) {
		var out lockedBuffer
		var log syncLog
		st := newStream(strings.NewReader(""), &out, nil, log.logf)
		n, _ := notification(t, "window/logMessage", msg(1))
		st.Write(ctx, n)
		st.drain()
		if log.String() != "" {
			t.Errorf("a notification written at once logged %q", log.String())
		}
	})
}

// TestBigDocumentsGiveMemoryBack: opening a document of bigDocument
// bytes, replacing a document's whole text by one, and writing a message
// of that size each give memory back to the system once (freeMemory,
// which runs a collection), and the same one byte smaller do not (a
// collection per keystroke would cost each of them the time of a
// collection). A "not given back" check is tried three times, so that a
// collection asked for by something else meanwhile cannot fail it.
func TestBigDocumentsGiveMemoryBack(t *testing.T) {
	deadline := time.Now().Add(time.Minute)
	// idle waits until no collection runs and returns how many ran.
	idle := func() int {
		for {
			freeing.Lock()
			busy, runs := freeing.running || freeing.again, freeing.runs
			freeing.Unlock()
			if !busy {
				return runs
			}
			if time.Now().After(deadline) {
				t.Fatal("freeMemory never stops")
			}
			time.Sleep(time.Millisecond)
		}
	}
	// gives reports whether f asked for a collection.
	gives := func(f func()) bool {
		before := idle()
		f()
		return idle() != before
	}
	givesNot := func(f func()) bool {
		for try := 0; try < 3; try++ {
			if !gives(f) {
				return true
			}
		}
		return false
	}
	s := newStore()
	s.maxSize = 1 // kept as text: no parse
	const uri = "file:///src/big.f90"
	big := bytes.Repeat([]byte("!"), bigDocument)
	if !givesNot(func() { s.openSrc(uri, 1, big[1:]) }) {
		t.Errorf("opening %d bytes gave memory back", bigDocument-1)
	}
	if !gives(func() { s.openSrc(uri, 1, big) }) {
		t.Errorf("opening %d bytes did not give memory back", bigDocument)
	}
	if !givesNot(func() { s.change(uri, 2, []contentChange{{Text: string(big[1:])}}) }) {
		t.Errorf("a change to %d bytes gave memory back", bigDocument-1)
	}
	if !gives(func() { s.change(uri, 3, []contentChange{{Text: string(big)}}) }) {
		t.Errorf("a change to %d bytes did not give memory back", bigDocument)
	}

	st := newStream(strings.NewReader(""), io.Discard, nil, func(string, ...any) {})
	header := len(appendHeader(nil, bigDocument))
	write := func(body []byte) func() {
		return func() {
			st.writeRaw(body)
			st.drain()
		}
	}
	if !givesNot(write(big[:bigDocument-header-1])) {
		t.Errorf("writing a message of %d bytes gave memory back", bigDocument-1)
	}
	if !gives(write(big[:bigDocument-header])) {
		t.Errorf("writing a message of %d bytes did not give memory back", bigDocument)
	}
}
