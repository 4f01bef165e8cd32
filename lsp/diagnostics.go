package lsp

import (
	"context"
	"runtime/debug"
	"sync"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// diagScheduler debounces diagnostics per document: they are published
// delay after the last edit, but never later than 4×delay after the first
// unpublished one, so they keep pace with continuous typing. A newer edit
// or a close cancels the publication under way for the document.
type diagScheduler struct {
	mu      sync.Mutex
	delay   time.Duration
	pending map[protocol.DocumentURI]*pendingDiag
	running map[protocol.DocumentURI]*runningDiag
	publish func(context.Context, protocol.DocumentURI)
	stopped bool
}

type pendingDiag struct {
	timer *time.Timer
	first time.Time
}

type runningDiag struct {
	cancel context.CancelFunc
	again  bool // a newer version waits for this publication to end
}

func newDiagScheduler(delay time.Duration, publish func(context.Context, protocol.DocumentURI)) *diagScheduler {
	return &diagScheduler{delay: delay, pending: map[protocol.DocumentURI]*pendingDiag{},
		running: map[protocol.DocumentURI]*runningDiag{}, publish: publish}
}

func (d *diagScheduler) schedule(uri protocol.DocumentURI) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	if r := d.running[uri]; r != nil {
		r.cancel() // its version is gone
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
	if old := d.running[uri]; old != nil {
		// One publication per document at a time: the one under way is
		// cancelled and this one follows when it ends.
		old.cancel()
		old.again = true
		d.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &runningDiag{cancel: cancel}
	d.running[uri] = r
	d.mu.Unlock()
	defer func() {
		cancel()
		d.mu.Lock()
		again := false
		if d.running[uri] == r {
			delete(d.running, uri)
			again = r.again && !d.stopped
		}
		d.mu.Unlock()
		if again {
			d.schedule(uri)
		}
	}()
	d.publish(ctx, uri)
}

// forget drops a pending publication and cancels a running one (the
// document was closed).
func (d *diagScheduler) forget(uri protocol.DocumentURI) {
	d.mu.Lock()
	if p := d.pending[uri]; p != nil {
		p.timer.Stop()
		delete(d.pending, uri)
	}
	if r := d.running[uri]; r != nil {
		r.cancel()
		delete(d.running, uri)
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
	for uri, r := range d.running {
		r.cancel()
		delete(d.running, uri)
	}
	d.mu.Unlock()
}

// internalCode is the code of the diagnostic that stands for an analysis
// that failed (a bug in pfls, recovered).
const internalCode = "internal-error"

func internalDiagnostic(msg string) hints.Diagnostic {
	return hints.Diagnostic{Severity: parser.SevError, Code: internalCode, Message: msg}
}

// publishDiagnostics sends the diagnostics of the current snapshot. A
// publication whose document changed or closed meanwhile is dropped (the
// newer version has its own), so the client never gets diagnostics of an
// older version after those of a newer one.
func (s *Server) publishDiagnostics(ctx context.Context, uri protocol.DocumentURI) {
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
	ds := s.diagnosticsOf(ctx, snap)
	if ctx.Err() != nil {
		return
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if s.store.get(uri) != snap {
		return
	}
	s.notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{
		URI:         uri,
		Version:     uint32(max(snap.Version, 0)),
		Diagnostics: toDiagnostics(snap.File, ds),
	})
}

// diagnosticsOf computes a snapshot's diagnostics; a panic in a producer
// becomes an internal-error diagnostic beside the others.
func (s *Server) diagnosticsOf(ctx context.Context, snap *Snapshot) []hints.Diagnostic {
	if snap.Broken != "" {
		return []hints.Diagnostic{internalDiagnostic(snap.Broken)}
	}
	if snap.TooLarge != "" {
		return []hints.Diagnostic{{Severity: parser.SevWarning, Code: tooLargeCode, Message: snap.TooLarge}}
	}
	var ds []hints.Diagnostic
	if msg := try(func() { ds = hints.Diagnostics(snap.File) }); msg != "" {
		s.log.Printf("diagnostics of %s: panic: %s", snap.URI, msg)
		return []hints.Diagnostic{internalDiagnostic("internal error while checking this file: " + msg)}
	}
	ds = append(ds, s.moduleDiagnostics(snap)...)
	if s.opts.ExtraDiagnostics != nil && !hasErrors(ds) {
		// The compiler-capability diagnostics speak of a program that compiles.
		var extra []hints.Diagnostic
		est := s.currentSettings().Estimate
		if hints.EstimatesLoops(snap.File, est) {
			est = s.estimateSettings(ctx, snap)
		}
		err := s.analyse(ctx, "capability diagnostics", func(ctx context.Context) { extra = s.opts.ExtraDiagnostics(ctx, snap.File, est) })
		if err != nil {
			if ctx.Err() == nil {
				ds = append(ds, internalDiagnostic(err.Error()))
			}
			return ds
		}
		ds = append(ds, extra...)
	}
	return ds
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
