package lsp

import (
	"runtime/debug"
	"sync"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// diagScheduler debounces diagnostics per document: they are published
// delay after the last edit, but never later than 4×delay after the first
// unpublished one, so they keep pace with continuous typing.
type diagScheduler struct {
	mu      sync.Mutex
	delay   time.Duration
	pending map[protocol.DocumentURI]*pendingDiag
	publish func(protocol.DocumentURI)
	stopped bool
}

type pendingDiag struct {
	timer *time.Timer
	first time.Time
}

func newDiagScheduler(delay time.Duration, publish func(protocol.DocumentURI)) *diagScheduler {
	return &diagScheduler{delay: delay, pending: map[protocol.DocumentURI]*pendingDiag{}, publish: publish}
}

func (d *diagScheduler) schedule(uri protocol.DocumentURI) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	if p := d.pending[uri]; p != nil && p.timer.Stop() {
		wait := d.delay
		if left := 4*d.delay - time.Since(p.first); left < wait {
			wait = max(left, 0)
		}
		p.timer.Reset(wait)
		return
	}
	p := &pendingDiag{first: time.Now()}
	p.timer = time.AfterFunc(d.delay, func() { d.fire(uri, p) })
	d.pending[uri] = p
}

func (d *diagScheduler) fire(uri protocol.DocumentURI, p *pendingDiag) {
	d.mu.Lock()
	if d.pending[uri] != p || d.stopped {
		d.mu.Unlock()
		return
	}
	delete(d.pending, uri)
	d.mu.Unlock()
	d.publish(uri)
}

// forget drops a pending publication (the document was closed).
func (d *diagScheduler) forget(uri protocol.DocumentURI) {
	d.mu.Lock()
	if p := d.pending[uri]; p != nil {
		p.timer.Stop()
		delete(d.pending, uri)
	}
	d.mu.Unlock()
}

func (d *diagScheduler) stop() {
	d.mu.Lock()
	d.stopped = true
	for uri, p := range d.pending {
		p.timer.Stop()
		delete(d.pending, uri)
	}
	d.mu.Unlock()
}

// publishDiagnostics sends the diagnostics of the current snapshot.
func (s *Server) publishDiagnostics(uri protocol.DocumentURI) {
	// It runs on a timer goroutine: a bug in an analysis must not take
	// the server down.
	defer func() {
		if e := recover(); e != nil {
			s.log.Printf("diagnostics of %s: panic: %v\n%s", uri, e, debug.Stack())
		}
	}()
	snap := s.store.get(uri)
	if snap == nil {
		return
	}
	ds := hints.Diagnostics(snap.File)
	if s.opts.ExtraDiagnostics != nil && !hasErrors(ds) {
		// The compiler-capability diagnostics speak of a program that compiles.
		s.analyses(func() {
			ds = append(ds, s.opts.ExtraDiagnostics(snap.File, s.currentSettings().Estimate)...)
		})
	}
	s.notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{
		URI:         uri,
		Version:     uint32(max(snap.Version, 0)),
		Diagnostics: toDiagnostics(snap.File, ds),
	})
}

func hasErrors(ds []hints.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == parser.SevError {
			return true
		}
	}
	return false
}

// toDiagnostics converts plain diagnostics to LSP ones with source "pfls".
func toDiagnostics(f *parser.File, ds []hints.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, protocol.Diagnostic{
			Range:    rangeOf(f, d.Start, d.End),
			Severity: protocol.DiagnosticSeverity(d.Severity),
			Code:     d.Code,
			Source:   "pfls",
			Message:  d.Message,
		})
	}
	return out
}
