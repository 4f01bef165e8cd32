package complexity

import "github.com/pfls/pfls/parser"

// Engine computes and caches the complexity of the program units of a
// workspace. After an edit only the changed routines and the routines that
// call them are computed again. It is safe for use by one goroutine at a
// time; the language server serialises access.
type Engine struct {
	opts  Options
	cache map[string]*UnitResult
}

// NewEngine returns an engine with the given options.
func NewEngine(opts Options) *Engine {
	return &Engine{opts: opts, cache: map[string]*UnitResult{}}
}

// Options configure the model.
type Options struct {
	Cost *CostTable // nil: all-one
	Keep []string   // variables to keep unevaluated (symbolic) in results
}

// CostTable gives the cost of each kind of operation (seed 004 §3.1).
type CostTable struct {
	Name string
}

// UnitResult is the complexity of one program unit.
type UnitResult struct {
	Unit    *parser.Unit
	Summary Poly
}

// File returns the results of every unit of f, in source order.
func (e *Engine) File(f *parser.File) []*UnitResult { return nil }
