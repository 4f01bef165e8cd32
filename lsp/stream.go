package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// maxMessage is the largest message body accepted (a 10 MB file sent as
// JSON with escapes fits with room to spare).
const maxMessage = 1 << 28

// stream frames JSON-RPC messages with Content-Length headers, as
// jsonrpc2.NewStream does, but never gives up on a malformed message: a
// bad header or a body that is not a JSON-RPC message is answered with a
// parse or invalid-request error (id null) and skipped, because
// jsonrpc2.Conn closes the connection on any read error. Only I/O errors
// end the stream.
type stream struct {
	in     *bufio.Reader
	out    io.Writer
	closer io.Closer
	logf   func(format string, args ...any)

	wmu     sync.Mutex // guards the fields below
	idle    *sync.Cond // signalled when the writer goroutine stops
	queue   [][]byte   // framed messages waiting to be written
	writing bool       // a writer goroutine is running
	closed  bool
	werr    error
}

func newStream(r io.Reader, w io.Writer, c io.Closer, logf func(string, ...any)) *stream {
	s := &stream{in: bufio.NewReaderSize(r, 64<<10), out: w, closer: c, logf: logf}
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
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return msg, total, nil
		}
		s.logf("malformed message (%v): %.200s", err, data)
		s.rejectBody(data, err)
	}
}

// readFrame reads one header block and its body. A frame with a bad or
// missing Content-Length gives a nil body and no error.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64
	bad := ""
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if errors.Is(err, io.EOF) && strings.TrimSpace(line) == "" {
				return nil, total, io.EOF
			}
			return nil, total, fmt.Errorf("reading header: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if total <= 2 {
				continue // stray blank line between messages
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("invalid header line %q", line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 || n > maxMessage {
				bad = fmt.Sprintf("invalid Content-Length %q", value)
				continue
			}
			length = n
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
	data := make([]byte, length)
	n, err := io.ReadFull(s.in, data)
	total += int64(n)
	if err != nil {
		return nil, total, fmt.Errorf("reading body: %w", err)
	}
	return data, total, nil
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
// writing to each other at once would otherwise deadlock).
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	var data []byte
	var err error
	if m, ok := msg.(json.Marshaler); ok {
		data, err = m.MarshalJSON() // already compact: skip encoding/json's re-check
	} else {
		data, err = json.Marshal(msg)
	}
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeRaw(data)
}

// writeRaw frames and queues one message body.
func (s *stream) writeRaw(data []byte) (int64, error) {
	buf := make([]byte, 0, len(data)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(data)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, data...)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.werr != nil {
		return 0, s.werr
	}
	if s.closed {
		return 0, io.ErrClosedPipe
	}
	s.queue = append(s.queue, buf)
	if !s.writing {
		s.writing = true
		go s.flush()
	}
	return int64(len(buf)), nil
}

// flush writes the queue until it is empty.
func (s *stream) flush() {
	for {
		s.wmu.Lock()
		if len(s.queue) == 0 || s.werr != nil {
			s.writing = false
			s.queue = nil
			s.idle.Broadcast()
			s.wmu.Unlock()
			return
		}
		batch := s.queue
		s.queue = nil
		s.wmu.Unlock()
		for _, b := range batch {
			if _, err := s.out.Write(b); err != nil {
				s.wmu.Lock()
				s.werr = fmt.Errorf("write to stream: %w", err)
				s.wmu.Unlock()
				break
			}
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
