package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/lsp"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// runServe runs the language server over stdin and stdout until the
// client sends exit; logs go to stderr. It returns 0 after a shutdown
// and exit, 1 when the client went away without them, 2 on bad usage.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a != "--stdio" { // editors often pass --stdio
			fmt.Fprintf(stderr, "pfls serve: unexpected argument %q (the server speaks LSP over stdin and stdout)\n", a)
			return 2
		}
	}
	lsp.Version = version
	return lsp.Serve(context.Background(), stdin, stdout, nil, serveOptions(stderr))
}

// serveOptions wires the analyses to the server.
func serveOptions(stderr io.Writer) lsp.Options {
	eng := newEngineGate()
	est := newEstimates()
	return lsp.Options{
		Log: stderr,
		Inlay: func(ctx context.Context, f *parser.File, start, end int, o hints.InlayOptions) (out []hints.InlayHint) {
			eng.with(ctx, f, func(e *complexity.Engine) { out = hints.InlayHints(f, e, start, end, o) })
			return out
		},
		StatementHover: func(ctx context.Context, f *parser.File, off int) string {
			var text string
			eng.with(ctx, f, func(e *complexity.Engine) { text = hints.StatementHover(f, e, off) })
			if last := est.last(f, f.Lines.Line(off)+1); last != "" {
				text += "\n\n**Last estimate**\n\n" + last
			}
			return text
		},
		Actions: func(ctx context.Context, f *parser.File, start, end int, st hints.EstimateSettings) []hints.CodeAction {
			o, err := est.options(st)
			if err != nil {
				fmt.Fprintln(stderr, err)
			}
			return append(hints.QuickFixes(f, start, end, o, nil), hints.LoopActions(f, start, o)...)
		},
		ExtraDiagnostics: func(ctx context.Context, f *parser.File, st hints.EstimateSettings) []hints.Diagnostic {
			o, _ := est.options(st)
			return hints.CapabilityDiagnostics(f, o, nil)
		},
		Estimate: func(ctx context.Context, f *parser.File, line int, st hints.EstimateSettings) (string, error) {
			o, err := est.options(st)
			if err != nil {
				return "", err
			}
			text, err := hints.EstimateLoopText(f, line, o)
			if err == nil {
				est.keep(f, line, text)
			}
			return text, err
		},
		Release: func(name string) {
			eng.release(name)
			est.release(name)
		},
	}
}

// Bounds of what the server keeps: machine model files read (bytes), models
// kept, and loop reports kept for hovers.
const (
	maxMachineFile = 16 << 20
	maxMachines    = 8
	maxReports     = 1000
)

// estimates loads machine model files named by the settings (once per
// path) and keeps the last estimate of each loop for its hover.
type estimates struct {
	mu       sync.Mutex
	machines map[string]*partition.Machine
	reports  map[string]string
}

func newEstimates() *estimates {
	return &estimates{machines: map[string]*partition.Machine{}, reports: map[string]string{}}
}

func (e *estimates) options(st hints.EstimateSettings) (hints.EstimateOptions, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if st.Machine == "" {
		return st.Options(nil), nil
	}
	m, ok := e.machines[st.Machine]
	if !ok {
		// A FIFO or a device named here must not hang the server.
		data, err := lsp.ReadRegularFile(st.Machine, maxMachineFile)
		if err != nil {
			return st.Options(nil), fmt.Errorf("pfls.estimate.machine: %v; using the model inside pfls", fileErr(st.Machine, err))
		}
		m, err = partition.LoadMachine(bytes.NewReader(data))
		if err != nil {
			return st.Options(nil), fmt.Errorf("pfls.estimate.machine: %s: %v; using the model inside pfls", st.Machine, err)
		}
		if len(e.machines) >= maxMachines {
			clear(e.machines)
		}
		e.machines[st.Machine] = m
	}
	return st.Options(m), nil
}

// reportKey names a loop by file, line and the text of its line, so that
// a report is not shown on another loop after edits move lines.
func reportKey(f *parser.File, line int) string {
	if line < 1 || line > f.Lines.LineCount() {
		return ""
	}
	text := f.Src[f.Lines.LineStart(line-1):f.Lines.LineEnd(line-1)]
	return fmt.Sprintf("%s:%d:%s", f.Name, line, text)
}

func (e *estimates) keep(f *parser.File, line int, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.reports) >= maxReports {
		clear(e.reports) // rare: a user reads the last few
	}
	e.reports[reportKey(f, line)] = text
}

// release forgets the reports of a closed file.
func (e *estimates) release(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k := range e.reports {
		if strings.HasPrefix(k, name+":") {
			delete(e.reports, k)
		}
	}
}

func (e *estimates) last(f *parser.File, line int) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reports[reportKey(f, line)]
}

// engineGate serialises the complexity engine, which is not safe for
// concurrent use: one analysis at a time, waiting for the engine with
// respect to the request's context (a cancelled request stops waiting),
// never under a server-wide lock. The engine cannot stop an analysis
// half-way yet, so when the request holding it is cancelled the gate gives
// that engine up to the analysis, which runs on alone, and lets the next
// request in with a fresh engine; at most maxAbandoned analyses run on so,
// beyond that a cancelled analysis keeps the engine to the end.
//
// It also bounds the engine's memory: the engine caches a result for every
// unit text it has seen, each holding its file's tree, so once the source
// of the files analysed since the last start exceeds the budget it starts
// a fresh engine with the files still open. Closed files are dropped at
// the next use, so that closing a document never waits for an analysis.
type engineGate struct {
	sem chan struct{}

	// guarded by sem
	eng   *complexity.Engine
	files map[string]*parser.File // latest version of each file analysed
	spent int                     // bytes of source analysed since the engine started

	mu        sync.Mutex
	released  []string // files closed since the last use
	holder    *holding // the analysis holding the engine
	abandoned int      // analyses running on engines given up
}

// holding is one analysis's hold on the engine.
type holding struct{ abandoned bool }

// engineBudget is the least source (bytes) analysed before the engine
// starts afresh; the budget is the size of the files kept when that is
// larger. Each result cached pins the tree of its file's version, about
// 50 bytes per byte of source, so the cache holds at most about 50 times
// the budget.
const engineBudget = 256 << 10

// maxAbandoned bounds the cancelled analyses left running on an engine
// given up (each may use a core until it ends).
const maxAbandoned = 1

func newEngineGate() *engineGate {
	return &engineGate{sem: make(chan struct{}, 1), eng: complexity.NewEngine(complexity.Options{}), files: map[string]*parser.File{}}
}

// with runs fn with the engine for f, unless ctx ends first; it reports
// whether fn ran.
func (g *engineGate) with(ctx context.Context, f *parser.File, fn func(*complexity.Engine)) bool {
	select {
	case g.sem <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	if ctx.Err() != nil {
		<-g.sem
		return false
	}
	h := &holding{}
	g.mu.Lock()
	g.holder = h
	released := g.released
	g.released = nil
	g.mu.Unlock()
	for _, name := range released {
		delete(g.files, name)
		g.eng.RemoveFile(name)
	}
	g.files[f.Name] = f
	budget, open := engineBudget, 0
	for _, x := range g.files {
		open += len(x.Src)
	}
	budget = max(budget, open)
	if g.spent > budget {
		g.restart()
	}
	eng := g.eng
	stop := context.AfterFunc(ctx, func() { g.abandon(h) })
	ok := false
	defer func() {
		stop()
		g.mu.Lock()
		if h.abandoned {
			g.abandoned--
			g.mu.Unlock()
			return // the gate has moved on
		}
		g.holder = nil
		g.mu.Unlock()
		if !ok { // a panic may leave the engine half-way through a pass
			g.restart()
		} else if eng.Stats.Computed > 0 {
			g.spent += len(f.Src)
		}
		<-g.sem
	}()
	fn(eng)
	ok = true
	return true
}

// abandon gives the engine up to a cancelled analysis that still holds
// it, and opens the gate with a fresh engine.
func (g *engineGate) abandon(h *holding) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.holder != h || g.abandoned >= maxAbandoned {
		return
	}
	h.abandoned = true
	g.abandoned++
	g.holder = nil
	g.restart() // the abandoned analysis touches only its own engine now
	<-g.sem
}

// restart replaces the engine by a fresh one holding the files kept.
func (g *engineGate) restart() {
	g.eng = complexity.NewEngine(complexity.Options{})
	for _, x := range g.files {
		g.eng.SetFile(x)
	}
	g.spent = 0
}

// release forgets a closed file at the next use of the engine.
func (g *engineGate) release(name string) {
	g.mu.Lock()
	g.released = append(g.released, name)
	g.mu.Unlock()
}
