package main

import (
	"context"
	"sync"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

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
