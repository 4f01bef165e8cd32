package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
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
