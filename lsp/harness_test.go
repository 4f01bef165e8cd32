package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// client drives a server in-process over net.Pipe through a real
// jsonrpc2 connection, as an editor would.
type client struct {
	t      testing.TB
	srv    *Server
	conn   jsonrpc2.Conn
	st     *stream
	exit   chan int
	diags  chan protocol.PublishDiagnosticsParams
	mu     sync.Mutex
	config json.RawMessage // the answer to workspace/configuration
	logs   []string        // what the client's stream rejected
	calls  []string        // requests the server sent to the client
	// progress holds the values of the $/progress notifications.
	progress []json.RawMessage
	// refuse: requests of these methods are answered with an error.
	refuse map[string]bool
}

func newClient(t testing.TB, opts Options) *client {
	if opts.DiagnosticDelay == 0 {
		opts.DiagnosticDelay = 20 * time.Millisecond
	}
	if opts.Log == nil && os.Getenv("PFLS_TEST_LOG") != "" {
		opts.Log = os.Stderr
	}
	sc, cc := net.Pipe()
	c := &client{t: t, srv: NewServer(opts), exit: make(chan int, 1), diags: make(chan protocol.PublishDiagnosticsParams, 1000)}
	go func() { c.exit <- c.srv.serve(context.Background(), sc, sc, sc) }()
	c.st = newStream(cc, cc, cc, func(format string, args ...any) {
		c.mu.Lock()
		c.logs = append(c.logs, fmt.Sprintf(format, args...))
		c.mu.Unlock()
	})
	c.conn = jsonrpc2.NewConn(c.st)
	c.conn.Go(context.Background(), c.handle)
	t.Cleanup(func() { c.conn.Close(); sc.Close() })
	return c
}

func (c *client) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.diags <- p
		}
		return nil
	case "workspace/configuration":
		c.mu.Lock()
		c.calls = append(c.calls, req.Method())
		cfg := c.config
		c.mu.Unlock()
		if cfg == nil {
			cfg = json.RawMessage("null")
		}
		return reply(ctx, []json.RawMessage{cfg}, nil)
	}
	c.mu.Lock()
	c.calls = append(c.calls, req.Method())
	if req.Method() == "$/progress" {
		var p struct {
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal(req.Params(), &p) == nil {
			c.progress = append(c.progress, p.Value)
		}
	}
	refused := c.refuse[req.Method()]
	c.mu.Unlock()
	if refused {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, "refused by the test"))
	}
	return reply(ctx, nil, nil)
}

func (c *client) sentCalls(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.calls {
		if m == method {
			n++
		}
	}
	return n
}

// call sends a request and decodes the result; it fails the test on error.
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	if err := c.callErr(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) callErr(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// capabilities is a client's initialize capabilities with everything on.
var fullCapabilities = map[string]any{
	"workspace": map[string]any{"configuration": true, "inlayHint": map[string]any{"refreshSupport": true}},
	"textDocument": map[string]any{
		"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
		"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"inlayHint":          map[string]any{"resolveSupport": map[string]any{"properties": []string{"tooltip"}}},
		"publishDiagnostics": map[string]any{"tagSupport": map[string]any{"valueSet": []int{1, 2}}},
	},
}

// initialize performs initialize and initialized with caps.
func (c *client) initialize(caps any) json.RawMessage {
	c.t.Helper()
	var res json.RawMessage
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

func (c *client) open(uri protocol.DocumentURI, text string) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "fortran", "version": 1, "text": text}})
}

// change sends one ranged change; a nil range replaces the whole text.
func (c *client) change(uri protocol.DocumentURI, version int, rg *protocol.Range, text string) {
	c.t.Helper()
	ch := map[string]any{"text": text}
	if rg != nil {
		ch["range"] = rg
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": []any{ch}})
}

// waitDiags waits for diagnostics of uri with the given version.
func (c *client) waitDiags(uri protocol.DocumentURI, version uint32) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri && p.Version == version {
				return p
			}
		case <-timeout:
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

// shutdownExit ends the session and returns the server's exit code.
func (c *client) shutdownExit() int {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	return c.waitExit()
}

func (c *client) waitExit() int {
	c.t.Helper()
	select {
	case code := <-c.exit:
		return code
	case <-time.After(5 * time.Second):
		c.t.Fatal("server did not exit")
	}
	return -1
}

func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// example reads a file of ../examples.
func example(t testing.TB, name string) (protocol.DocumentURI, string) {
	path, err := filepath.Abs(filepath.Join("..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return pathToURI(path), string(b)
}

// posOf returns the LSP position of the first occurrence of marker in
// text, moved by delta bytes (text is ASCII up to there in the tests).
func posOf(t testing.TB, text, marker string, delta int) protocol.Position {
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%q not in text", marker)
	}
	i += delta
	line := strings.Count(text[:i], "\n")
	col := i - (strings.LastIndex(text[:i], "\n") + 1)
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

func textPos(uri protocol.DocumentURI, p protocol.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}
}
