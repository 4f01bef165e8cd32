package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// Limits of the framing.
const (
	// maxMessage is the largest message body accepted (bytes): a
	// document of 100 MB sent as JSON fits, so that even a file far over
	// MaxDocumentSize stays open (as text). A longer body is skipped.
	maxMessage = 128 << 20
	// maxHeaderLine is the longest header line kept (bytes); the rest of
	// a longer line is read and dropped.
	maxHeaderLine = 4 << 10
	// maxQueue is how many bytes of notifications may wait for a client
	// that does not read: past it notifications other than diagnostics
	// are dropped, and $/progress is dropped past maxQueue/16. Replies
	// and requests are never dropped, and a document's diagnostics
	// waiting to be sent are always replaced by newer ones.
	maxQueue = 16 << 20
)

// contentLength finds a Content-Length header line in raw bytes; a valid
// JSON body never holds one (CR and LF cannot appear in a JSON string),
// so finding one inside a body means the frame before it was bad and the
// next message starts there.
var contentLength = regexp.MustCompile(`(?i)content-length:[ \t]*[0-9]+[ \t]*\r?\n`)

// stream frames JSON-RPC messages with Content-Length headers, as
// jsonrpc2.NewStream does, but never gives up on a malformed message: a
// bad header or a body that is not a JSON-RPC message is answered with a
// parse or invalid-request error (id null) and skipped, because
// jsonrpc2.Conn closes the connection on any read error. After a frame
// with a wrong Content-Length or garbage between frames, reading
// resynchronises at the next Content-Length header. Only I/O errors end
// the stream.
type stream struct {
	in     *bufio.Reader
	back   []byte      // bytes read too far, to be read again before in
	cut    *cutMessage // the last message read, when its texts were cut out (takeCut)
	out    io.Writer
	closer io.Closer
	logf   func(format string, args ...any)

	wmu     sync.Mutex // guards the fields below
	idle    *sync.Cond // signalled when the writer goroutine stops
	queue   []outgoing // messages waiting to be written
	queued  int        // bytes of notifications in queue
	writing bool       // a writer goroutine is running
	closed  bool
	werr    error
	dropped int // notifications dropped for a client that does not read
	limit   int // maxQueue; tests lower it
}

// outgoing is one framed message waiting to be written; key is the URI
// of a publishDiagnostics notification ("" for every other message).
type outgoing struct {
	data   []byte
	notify bool
	key    string
}

func newStream(r io.Reader, w io.Writer, c io.Closer, logf func(string, ...any)) *stream {
	s := &stream{in: bufio.NewReaderSize(r, 64<<10), out: w, closer: c, logf: logf, limit: maxQueue}
	s.idle = sync.NewCond(&s.wmu)
	return s
}

// Read implements jsonrpc2.Stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		data, n, err := s.readFrame()
		total += n
		if err != nil {
			return nil, total, err
		}
		if data == nil {
			continue
		}
		if len(data) >= cutMessageSize {
			if c, ok := decodeCutMessage(data); ok {
				s.cut = c
				return c.msg, total, nil
			}
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return msg, total, nil
		}
		s.logf("malformed message (%v): %.200s", err, data)
		s.rejectBody(data, err)
	}
}

// takeCut returns the texts cut out of msg, the message Read returned
// last, or nil when they were not. The reading goroutine calls it from
// the handler, before reading the next message.
func (s *stream) takeCut(msg jsonrpc2.Message) *cutMessage {
	if s == nil || s.cut == nil || s.cut.msg != msg {
		return nil
	}
	c := s.cut
	s.cut = nil
	return c
}

// readByte reads one byte, from the pushed-back bytes first.
func (s *stream) readByte() (byte, error) {
	if len(s.back) > 0 {
		b := s.back[0]
		s.back = s.back[1:]
		if len(s.back) == 0 {
			s.back = nil
		}
		return b, nil
	}
	return s.in.ReadByte()
}

// read reads into p, from the pushed-back bytes first.
func (s *stream) read(p []byte) (int, error) {
	if len(s.back) > 0 {
		n := copy(p, s.back)
		s.back = s.back[n:]
		if len(s.back) == 0 {
			s.back = nil
		}
		return n, nil
	}
	return s.in.Read(p)
}

// unread pushes bytes back to be read again.
func (s *stream) unread(b []byte) {
	s.back = append(append([]byte(nil), b...), s.back...)
}

// readLine reads one header line without its line end. Of a line longer
// than maxHeaderLine it keeps only the last bytes (where a header may
// begin after garbage) and reports long.
func (s *stream) readLine() (line string, n int64, long bool, err error) {
	var b []byte
	for {
		c, err := s.readByte()
		if err != nil {
			return string(b), n, long, err
		}
		n++
		if c == '\n' {
			return strings.TrimSuffix(string(b), "\r"), n, long, nil
		}
		if len(b) == 2*maxHeaderLine {
			b = append(b[:0], b[maxHeaderLine:]...)
		}
		b = append(b, c)
		if n > maxHeaderLine {
			long = true
		}
	}
}

// readFrame reads one header block and its body. A frame with a bad or
// missing Content-Length gives a nil body and no error.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64
	bad := ""
	lines := 0
	for {
		line, n, long, err := s.readLine()
		total += n
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, total, io.EOF
			}
			return nil, total, fmt.Errorf("reading header: %w", err)
		}
		if strings.TrimSpace(line) == "" {
			if lines == 0 && !long {
				continue // stray blank line between messages
			}
			break
		}
		lines++
		if long {
			bad = fmt.Sprintf("header line longer than %d bytes", maxHeaderLine)
		}
		// Garbage may run into the next header (a body shorter than its
		// Content-Length said, or bytes with no line end): resynchronise
		// at a Content-Length inside the line.
		if i := strings.Index(strings.ToLower(line), "content-length:"); i > 0 {
			s.logf("skipping garbage before a header: %.80q", line[:i])
			s.reply(errorResponse(nil, jsonrpc2.ParseError, "garbage before a header"))
			line, bad, length = line[i:], "", 0
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("invalid header line %.80q", line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			switch {
			case err != nil || n <= 0:
				bad = fmt.Sprintf("invalid Content-Length %.40q", strings.TrimSpace(value))
			case n > maxMessage:
				// Skip the body, which may also hold the next frame.
				s.logf("skipping a message of %d bytes (limit %d)", n, maxMessage)
				total += s.skipBody(n)
				s.reply(errorResponse(nil, jsonrpc2.InvalidRequest, fmt.Sprintf("message of %d bytes is over the limit of %d bytes", n, maxMessage)))
				return nil, total, nil
			default:
				length = n
			}
		}
	}
	if length == 0 {
		if bad == "" {
			bad = "missing Content-Length"
		}
		s.logf("skipping message: %s", bad)
		s.reply(errorResponse(nil, jsonrpc2.ParseError, bad))
		return nil, total, nil
	}
	data, n, err := s.readBody(length, true)
	total += n
	if err != nil {
		return nil, total, fmt.Errorf("reading body: %w", err)
	}
	if data == nil {
		s.logf("skipping message: its body holds the next header (wrong Content-Length)")
		s.reply(errorResponse(nil, jsonrpc2.ParseError, "wrong Content-Length: the body runs into the next message"))
	}
	return data, total, nil
}

// readBody reads a body of length bytes. When the bytes read hold a
// Content-Length header, the frame was bad: the bytes from the header on
// are pushed back to be read as the next frame, and the body is nil, so a
// Content-Length larger than the body never waits for bytes that will not
// come while the next message is there. keep=false drops what it reads.
func (s *stream) readBody(length int64, keep bool) ([]byte, int64, error) {
	var data []byte
	if keep {
		data = make([]byte, 0, length) // at most maxMessage
	}
	buf := make([]byte, min(length, 64<<10))
	var tail []byte // the last bytes seen, where a header may start
	var total int64
	for total < length {
		m, err := s.read(buf[:min(int64(len(buf)), length-total)])
		chunk := buf[:m]
		seen := append(tail, chunk...)
		// A header needs a line end: compact JSON (what clients send) has
		// none, so the search is skipped for most bodies.
		if bytes.IndexByte(seen, '\n') >= 0 {
			if loc := contentLength.FindIndex(seen); loc != nil {
				s.unread(seen[loc[0]:])
				return nil, total + int64(m) - int64(len(seen)-loc[0]), nil
			}
		}
		total += int64(m)
		if keep {
			data = append(data, chunk...)
		}
		tail = append(tail[:0], seen[max(len(seen)-40, 0):]...)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, total, err
		}
	}
	return data, total, nil
}

// skipBody reads and drops a body of length bytes (or up to the next
// header, see readBody).
func (s *stream) skipBody(length int64) int64 {
	_, n, _ := s.readBody(length, false)
	return n
}

// rejectBody answers a body that is not a JSON-RPC message: a parse error
// when it is not JSON, an invalid request (with its id when it has one)
// otherwise. Responses are never answered.
func (s *stream) rejectBody(data []byte, err error) {
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if !json.Valid(data) || json.Unmarshal(data, &probe) != nil {
		s.reply(errorResponse(nil, jsonrpc2.ParseError, "invalid JSON"))
		return
	}
	if len(probe.Method) == 0 || string(probe.Method) == "null" {
		return // a response we cannot read (maybe an error for us): answering could loop
	}
	id := probe.ID
	var v any
	if json.Unmarshal(id, &v) != nil {
		id = nil
	}
	switch v.(type) {
	case string, float64:
	default:
		id = nil
	}
	s.reply(errorResponse(id, jsonrpc2.InvalidRequest, "invalid request: "+err.Error()))
}

// reply queues an error answer to a malformed message.
func (s *stream) reply(data []byte) {
	if _, err := s.writeRaw(data); err != nil {
		s.logf("answering a malformed message: %v", err)
	}
}

func errorResponse(id json.RawMessage, code jsonrpc2.Code, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc2.Error  `json:"error"`
	}{"2.0", id, jsonrpc2.Error{Code: code, Message: msg}})
	return b
}

// Write implements jsonrpc2.Stream. It queues the message and returns:
// a writer goroutine sends the queue in order, so neither the reading
// goroutine nor a handler ever waits for the peer to read (two peers
// writing to each other at once would otherwise deadlock). For a client
// that does not read, the queue is bounded (maxQueue): diagnostics of a
// document replace those still waiting, progress and other notifications
// are dropped past the limits; replies and requests are always kept.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	var data []byte
	var err error
	if r, ok := msg.(*jsonrpc2.Response); ok && r.Err() == nil && len(r.Result()) > 0 {
		if data, err = encodeResult(r); err != nil {
			return 0, fmt.Errorf("marshaling message: %w", err)
		}
		return s.queueFramed(outgoing{data: data})
	} else if m, ok := msg.(json.Marshaler); ok {
		data, err = m.MarshalJSON() // already compact: skip encoding/json's re-check
	} else {
		data, err = json.Marshal(msg)
	}
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	out := outgoing{}
	if n, ok := msg.(*jsonrpc2.Notification); ok {
		out.notify = true
		switch n.Method() {
		case "textDocument/publishDiagnostics":
			var p struct {
				URI string `json:"uri"`
			}
			if json.Unmarshal(n.Params(), &p) == nil {
				out.key = p.URI
			}
		case "$/progress":
			out.key = "$/progress"
		}
	}
	return s.queueMessage(data, out)
}

// encodeResult writes a successful response as jsonrpc2's MarshalJSON
// does, byte for byte, without passing the result through the encoder
// again: jsonrpc2.NewResponse made it with json.Marshal (segmentio's),
// so it is already compact and escaped, and for an answer of hundreds of
// kilobytes (the symbols of a large file) the second pass was a tenth
// of the server's time.
func encodeResult(r *jsonrpc2.Response) ([]byte, error) {
	id := r.ID()
	idJSON, err := id.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshaling message: %w", err)
	}
	res := r.Result()
	const head, mid = `{"jsonrpc":"2.0","result":`, `,"id":`
	n := len(head) + len(res) + len(mid) + len(idJSON) + 1
	data := make([]byte, 0, n+32)
	data = appendHeader(data, n) // framed here: the answer may be megabytes, copied once
	data = append(data, head...)
	data = append(data, res...)
	data = append(data, mid...)
	data = append(data, idJSON...)
	return append(data, '}'), nil
}

// writeRaw frames and queues one message body that must not be dropped.
func (s *stream) writeRaw(data []byte) (int64, error) {
	return s.queueMessage(data, outgoing{})
}

func frame(data []byte) []byte {
	return append(appendHeader(make([]byte, 0, len(data)+32), len(data)), data...)
}

// appendHeader appends the header of a body of n bytes.
func appendHeader(buf []byte, n int) []byte {
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(n), 10)
	return append(buf, "\r\n\r\n"...)
}

// queueMessage frames and queues one message, applying the queue's
// bounds to notifications.
func (s *stream) queueMessage(data []byte, out outgoing) (int64, error) {
	out.data = frame(data)
	return s.queueFramed(out)
}

// queueFramed is queueMessage for out.data framed already.
func (s *stream) queueFramed(out outgoing) (int64, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.werr != nil {
		return 0, s.werr
	}
	if s.closed {
		return 0, io.ErrClosedPipe
	}
	if out.notify {
		switch {
		case out.key == "$/progress":
			if s.queued > s.limit/16 {
				s.drop()
				return int64(len(out.data)), nil
			}
		case out.key != "":
			// Newer diagnostics of a document replace waiting ones.
			for i := range s.queue {
				if q := &s.queue[i]; q.notify && q.key == out.key {
					s.queued += len(out.data) - len(q.data)
					q.data = out.data
					return int64(len(out.data)), nil
				}
			}
			if s.queued > s.limit {
				s.dropOne()
			}
		default:
			if s.queued > s.limit {
				s.drop()
				return int64(len(out.data)), nil
			}
		}
		s.queued += len(out.data)
	}
	s.queue = append(s.queue, out)
	if !s.writing {
		s.writing = true
		go s.flush()
	}
	return int64(len(out.data)), nil
}

// drop counts a dropped notification, logging the first of a run.
func (s *stream) drop() {
	if s.dropped == 0 {
		s.logf("the client does not read: dropping notifications")
	}
	s.dropped++
}

// dropOne makes room for diagnostics: it drops the oldest waiting
// notification other than diagnostics, if there is one.
func (s *stream) dropOne() {
	for i, q := range s.queue {
		if q.notify && (q.key == "" || q.key == "$/progress") {
			s.queued -= len(q.data)
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			s.drop()
			return
		}
	}
}

// flush writes the queue until it is empty.
func (s *stream) flush() {
	for {
		s.wmu.Lock()
		if len(s.queue) == 0 || s.werr != nil {
			s.writing = false
			s.queue = nil
			s.queued = 0
			s.idle.Broadcast()
			s.wmu.Unlock()
			return
		}
		// One message at a time, so that later ones can still be
		// coalesced or dropped while the client is slow.
		out := s.queue[0]
		s.queue[0] = outgoing{}
		s.queue = s.queue[1:]
		if out.notify {
			s.queued -= len(out.data)
		}
		if s.dropped > 0 && len(s.queue) == 0 {
			s.logf("the client reads again: %d notifications were dropped", s.dropped)
			s.dropped = 0
		}
		s.wmu.Unlock()
		if _, err := s.out.Write(out.data); err != nil {
			s.wmu.Lock()
			s.werr = fmt.Errorf("write to stream: %w", err)
			s.wmu.Unlock()
		}
		if len(out.data) >= bigDocument {
			// The encoding of an answer of megabytes (the symbols of a
			// 10 MB file) leaves several times its size of garbage, as
			// opening the file does (store.open).
			out = outgoing{}
			freeMemory()
		}
	}
}

// drain waits until every queued message is written (or writing failed).
func (s *stream) drain() {
	s.wmu.Lock()
	for s.writing {
		s.idle.Wait()
	}
	s.wmu.Unlock()
}

// Close implements jsonrpc2.Stream: it stops accepting messages, lets
// the queue drain for up to a second, and closes the underlying stream.
func (s *stream) Close() error {
	s.wmu.Lock()
	s.closed = true
	s.wmu.Unlock()
	done := make(chan struct{})
	go func() { s.drain(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	if s.closer == nil {
		return nil
	}
	return s.closer.Close()
}
