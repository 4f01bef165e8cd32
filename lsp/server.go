package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The Options functions run the analyses. The server calls them from many
// goroutines at once, each with the context of its request, which is
// cancelled when the client cancels the request or a newer version makes
// the answer useless; a function that shares state (the complexity
// engine) serialises itself, waiting with respect to ctx. A function that
// goes on after a cancellation is not waited for while fewer than
// maxLeftRunning are (see analyse); Release is called in message order
// and must not wait for analyses.

// InlayFunc produces the inlay hints of f whose offsets fall in
// [start, end).
type InlayFunc func(ctx context.Context, f *parser.File, start, end int, opts hints.InlayOptions) []hints.InlayHint

// HoverFunc produces extra hover text (Markdown) for the statement at a
// byte offset, such as its complexity; "" when it has nothing to say.
// opts are the current settings (the counting convention among them).
type HoverFunc func(ctx context.Context, f *parser.File, off int, opts hints.InlayOptions) string

// Options configure a server. The zero value works: no inlay hints, no
// statement hovers, logs discarded.
type Options struct {
	// Inlay produces the inlay hints (the complexity polynomials).
	Inlay InlayFunc
	// StatementHover adds text to hovers on statements.
	StatementHover HoverFunc
	// Actions produces code actions (estimates and distributions).
	Actions ActionsFunc
	// Estimate runs the "Estimate this loop" command.
	Estimate EstimateFunc
	// EstimateOptions loads the machine model the settings name, for the
	// estimates the server makes itself (lsp/profile.go); nil: the model
	// inside pfls.
	EstimateOptions func(hints.EstimateSettings) (hints.EstimateOptions, error)
	// Profile runs the "Profile this program" command (lsp/profile.go).
	Profile ProfileFunc
	// MeasuredHover adds to a statement's hover what a profile changes
	// in its complexity (lsp/profile.go).
	MeasuredHover func(ctx context.Context, f *parser.File, off int, p *hints.MeasuredProfile) string
	// ExtraDiagnostics adds diagnostics beyond syntax and declarations
	// (the compiler-capability diagnostics) to each publication.
	ExtraDiagnostics func(ctx context.Context, f *parser.File, est hints.EstimateSettings) []hints.Diagnostic
	// Release forgets what the analyses keep for a file (by its name)
	// once its document is closed.
	Release func(name string)
	// Log receives the server's log lines.
	Log io.Writer
	// DiagnosticDelay is how long diagnostics wait for more edits
	// (0: 150 ms); they are never held back longer than four times that.
	DiagnosticDelay time.Duration
}

// lifecycle states.
const (
	stateNew = iota
	stateRunning
	stateShutdown
)

// requestCancelled is LSP's error code for a cancelled request.
const requestCancelled jsonrpc2.Code = -32800

// Server is one language server connection.
type Server struct {
	opts Options
	log  *log.Logger
	conn jsonrpc2.Conn
	// stream is conn's stream: it hands the handler the texts it cut
	// out of a didOpen or didChange (jsontext.go).
	stream *stream
	store  *store
	diags  *diagScheduler

	mu       sync.Mutex
	state    int
	client   clientInfo
	settings Settings
	index    *index
	roots    []string // workspace folders to index
	// realRoots are the roots with symlinks resolved: indexed files
	// must lie inside them.
	realRoots []string
	inflight  map[jsonrpc2.ID]context.CancelFunc

	pubMu sync.Mutex // orders publications of diagnostics against closes

	leftRunning atomic.Int32 // analyses still running after their request was cancelled

	sem semCache // the last semantic tokens of each document (features2.go)

	exited chan int
	once   sync.Once
}

// clientInfo is what the server remembers of the client's capabilities.
type clientInfo struct {
	configuration  bool // workspace/configuration
	inlayRefresh   bool // workspace/inlayHint/refresh
	resolveTooltip bool // inlayHint/resolve may fill in tooltips
	hierarchical   bool // hierarchical document symbols
	markdown       bool // hovers in Markdown (else plain text)
	progress       bool // window/workDoneProgress
	watch          bool // dynamic registration of file watchers
	// resolveActionEdit: codeAction/resolve may fill in edits.
	resolveActionEdit bool
}

// Serve runs a server on the stream r/w until the client sends exit or
// the stream ends, and returns the process exit code LSP asks for: 0 after
// shutdown and exit, 1 otherwise. c, when not nil, is closed at the end.
func Serve(ctx context.Context, r io.Reader, w io.Writer, c io.Closer, opts Options) int {
	s := NewServer(opts)
	return s.serve(ctx, r, w, c)
}

// NewServer returns a server that is not connected yet.
func NewServer(opts Options) *Server {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.DiagnosticDelay <= 0 {
		opts.DiagnosticDelay = 150 * time.Millisecond
	}
	s := &Server{
		opts:     opts,
		log:      log.New(opts.Log, "pfls: ", log.Ltime|log.Lmicroseconds),
		store:    newStore(),
		index:    newIndex(),
		settings: DefaultSettings(),
		inflight: map[jsonrpc2.ID]context.CancelFunc{},
		exited:   make(chan int, 1),
	}
	s.diags = newDiagScheduler(opts.DiagnosticDelay, s.publishDiagnostics)
	return s
}

// Serve runs the server on the stream r/w, as the function Serve does.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer, c io.Closer) int {
	return s.serve(ctx, r, w, c)
}

// DocumentText returns the text and version of an open document as the
// server holds them (for tests that check it stays in step).
func (s *Server) DocumentText(uri string) (text string, version int32, ok bool) {
	snap := s.store.get(protocol.DocumentURI(uri))
	if snap == nil {
		return "", 0, false
	}
	return string(snap.File.Src), snap.Version, true
}

func (s *Server) serve(ctx context.Context, r io.Reader, w io.Writer, c io.Closer) int {
	st := newStream(r, w, c, s.log.Printf)
	s.stream = st
	s.conn = jsonrpc2.NewConn(st)
	s.conn.Go(ctx, s.handle)
	defer s.diags.stop()
	select {
	case code := <-s.exited:
		s.conn.Close()
		return code
	case <-s.conn.Done():
		if err := s.conn.Err(); err != nil && !errors.Is(err, io.EOF) {
			s.log.Printf("connection ended: %v", err)
		}
		select {
		case code := <-s.exited:
			return code
		default:
			return 1
		}
	case <-ctx.Done():
		s.conn.Close()
		return 1
	}
}

// request is what a handler gets: the raw parameters and the snapshot of
// the document named in them, captured when the request arrived.
type request struct {
	method string
	params json.RawMessage
	snap   *Snapshot
	cut    *cutMessage // the texts stream.Read cut out of params, if it did
}

// handler answers one method. Synchronous handlers run in message order
// on the reading goroutine (text sync, lifecycle); the others run
// concurrently on snapshots.
type handler struct {
	fn   func(s *Server, ctx context.Context, r *request) (any, error)
	sync bool
}

// handle is the jsonrpc2 handler in front of everything: lifecycle
// checks, cancellation, dispatch, panic recovery. It never returns an
// error, since that would close the connection.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	method := req.Method()
	call, isCall := req.(*jsonrpc2.Call)
	switch method {
	case "$/cancelRequest":
		s.cancel(req.Params())
		return nil
	case "exit":
		s.exit()
		return nil
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state == stateNew && method != "initialize" {
		if isCall {
			reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized"))
		}
		return nil
	}
	if state == stateShutdown && isCall {
		reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down"))
		return nil
	}
	h, ok := handlers[method]
	if !ok {
		if isCall {
			reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not supported: "+method))
		}
		return nil
	}
	r := &request{method: method, params: req.Params(), cut: s.stream.takeCut(req)}
	if h.sync {
		s.run(ctx, reply, r, h)
		return nil
	}
	r.snap = s.capture(r.params)
	ctx, cancel := context.WithCancel(ctx)
	if isCall {
		s.mu.Lock()
		s.inflight[call.ID()] = cancel
		s.mu.Unlock()
	}
	go func() {
		defer func() {
			if isCall {
				s.mu.Lock()
				delete(s.inflight, call.ID())
				s.mu.Unlock()
			}
			cancel()
		}()
		s.run(ctx, reply, r, h)
	}()
	return nil
}

// run calls a handler, recovering a panic into an internal error.
func (s *Server) run(ctx context.Context, reply jsonrpc2.Replier, r *request, h handler) {
	var result any
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Printf("panic in %s: %v\n%s", r.method, p, debug.Stack())
				result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", r.method, p)
			}
		}()
		result, err = h.fn(s, ctx, r)
	}()
	if ctx.Err() != nil && err == nil {
		result, err = nil, jsonrpc2.NewError(requestCancelled, "request cancelled")
	}
	if err != nil {
		s.log.Printf("%s: %v", r.method, err)
	}
	if rerr := reply(context.Background(), result, err); rerr != nil {
		s.log.Printf("replying to %s: %v", r.method, rerr)
	}
}

// capture returns the current snapshot of the document a request names.
func (s *Server) capture(params json.RawMessage) *Snapshot {
	var p struct {
		TextDocument struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"textDocument"`
		Data *inlayData `json:"data"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	uri := p.TextDocument.URI
	if uri == "" && p.Data != nil {
		uri = p.Data.URI
	}
	if uri == "" {
		return nil
	}
	return s.store.get(uri)
}

func (s *Server) cancel(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	var id jsonrpc2.ID
	if err := id.UnmarshalJSON(p.ID); err != nil {
		return
	}
	s.mu.Lock()
	cancel := s.inflight[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *Server) exit() {
	s.once.Do(func() {
		s.mu.Lock()
		code := 1
		if s.state == stateShutdown {
			code = 0
		}
		s.mu.Unlock()
		s.exited <- code
	})
}

// decode unmarshals a request's parameters, as an invalid-params error.
func decode(r *request, v any) error {
	if len(r.params) == 0 {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "missing params")
	}
	var err error
	switch p := v.(type) {
	case *didOpenParams: // texts of megabytes: see jsontext.go
		err = decodeDidOpen(r.params, r.cut, p)
	case *didChangeParams:
		err = decodeDidChange(r.params, r.cut, p)
	default:
		err = json.Unmarshal(r.params, v)
	}
	if err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

// notify sends a notification to the client, logging failures.
func (s *Server) notify(method string, params any) {
	if s.conn == nil {
		return
	}
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.log.Printf("notify %s: %v", method, err)
	}
}

// callClient sends a request to the client with a time limit.
func (s *Server) callClient(method string, params, result any) error {
	if s.conn == nil {
		return fmt.Errorf("not connected")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}

// maxLeftRunning bounds the analyses that go on after their request was
// cancelled (an analysis that does not watch its context, such as the
// estimator, runs to its end): past it a cancelled request waits for its
// analysis to end before it answers, so that typing in a file whose
// analysis is slow cannot start ever more of them at once.
const maxLeftRunning = 2

// analyse runs an analysis (a call of an Options function) for a
// request: it returns nil when f finished, a RequestCancelled error as
// soon as ctx is cancelled (f, which got ctx, is left to notice it and
// stop on its own, while fewer than maxLeftRunning are so left), and an
// internal error when f panicked. The server holds no lock meanwhile, so
// other requests are answered beside it.
func (s *Server) analyse(ctx context.Context, what string, f func(ctx context.Context)) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Printf("panic in %s: %v\n%s", what, p, debug.Stack())
				done <- jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", what, p)
				return
			}
			done <- nil
		}()
		f(ctx)
	}()
	cancelled := jsonrpc2.NewError(requestCancelled, "request cancelled")
	select {
	case err := <-done:
		if err == nil && ctx.Err() != nil {
			err = cancelled
		}
		return err
	case <-ctx.Done():
	}
	if s.leftRunning.Add(1) <= maxLeftRunning {
		go func() {
			<-done
			s.leftRunning.Add(-1)
		}()
		return cancelled
	}
	s.leftRunning.Add(-1)
	<-done
	return cancelled
}
