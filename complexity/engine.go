package complexity

import (
	"crypto/sha256"
	"strings"

	"github.com/pfls/pfls/parser"
)

// Engine computes and caches the complexity of the program units of a
// workspace. A unit's result is reused while its text is unchanged and the
// summaries of the procedures it calls are the same, so after an edit only
// the changed routine and the routines that call it are computed again.
// It is not safe for concurrent use; the language server serialises it.
type Engine struct {
	opts  Options
	cost  *CostTable
	files map[string]*parser.File
	cache map[[32]byte]*cached

	// per Analyze pass
	procs   map[string]procRef
	done    map[*parser.Unit]*UnitResult
	running map[*parser.Unit]bool
	Stats   EngineStats
}

// EngineStats count what the last Analyze computed and what it reused.
type EngineStats struct {
	Computed, Reused int
}

type procRef struct {
	f *parser.File
	u *parser.Unit
}

type cached struct {
	res  *UnitResult
	deps map[string]string // callee name → summary used
}

// Options configure the model.
type Options struct {
	Cost *CostTable // nil: all-one
	Keep []string   // variables to keep unevaluated (symbolic) in results
	Pips bool       // the 1992 report's convention: ranges assumed non-empty
}

// NewEngine returns an engine with the given options.
func NewEngine(opts Options) *Engine {
	e := &Engine{opts: opts, cost: opts.Cost, files: map[string]*parser.File{}, cache: map[[32]byte]*cached{}}
	if e.cost == nil {
		e.cost = AllOne()
	}
	return e
}

// SetFile adds or replaces a file of the workspace (by its name).
func (e *Engine) SetFile(f *parser.File) { e.files[f.Name] = f }

// RemoveFile forgets a file.
func (e *Engine) RemoveFile(name string) { delete(e.files, name) }

// File returns the results of every unit of f (and of its contained
// procedures), in source order, adding f to the workspace first.
func (e *Engine) File(f *parser.File) []*UnitResult {
	e.SetFile(f)
	e.begin()
	var out []*UnitResult
	for _, u := range f.Units {
		out = append(out, e.unitTree(f, u)...)
	}
	return out
}

func (e *Engine) unitTree(f *parser.File, u *parser.Unit) []*UnitResult {
	if u.Kind == parser.UnitNone || u.Scope == nil {
		return nil
	}
	out := []*UnitResult{e.unit(f, u)}
	for _, k := range u.Contains {
		out = append(out, e.unitTree(f, k)...)
	}
	return out
}

// begin starts an analysis pass: it indexes the procedures of the workspace.
func (e *Engine) begin() {
	e.procs = map[string]procRef{}
	e.done = map[*parser.Unit]*UnitResult{}
	e.running = map[*parser.Unit]bool{}
	e.Stats = EngineStats{}
	var add func(f *parser.File, u *parser.Unit)
	add = func(f *parser.File, u *parser.Unit) {
		switch u.Kind {
		case parser.UnitSubroutine, parser.UnitFunction, parser.UnitProcedure:
			if _, dup := e.procs[u.Name]; !dup && u.Name != "" {
				e.procs[u.Name] = procRef{f, u}
			}
		}
		for _, k := range u.Contains {
			add(f, k)
		}
	}
	for _, f := range e.files {
		for _, u := range f.Units {
			add(f, u)
		}
	}
}

type engineProcs struct {
	e     *Engine
	deps  map[string]string
	notes *[]string
}

func (p engineProcs) summary(name string) (*UnitResult, bool) {
	ref, ok := p.e.procs[name]
	if !ok {
		return nil, false
	}
	if p.e.running[ref.u] {
		*p.notes = append(*p.notes, "recursive call of "+name+": its cost is not counted again")
		p.deps[name] = "recursive"
		return nil, false
	}
	r := p.e.unit(ref.f, ref.u)
	p.deps[name] = r.Summary.String()
	return r, true
}

func unitKey(f *parser.File, u *parser.Unit) [32]byte {
	h := sha256.New()
	h.Write([]byte{byte(f.Form)})
	top := u.Top()
	h.Write(f.Src[top.Base : top.Base+top.Len])
	// A contained procedure is told apart by its place in its host.
	h.Write([]byte(u.Name))
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// unit returns the result of one unit, from the cache when its text and
// its callees' summaries are unchanged.
func (e *Engine) unit(f *parser.File, u *parser.Unit) *UnitResult {
	if r, ok := e.done[u]; ok {
		return r
	}
	key := unitKey(f, u)
	if c, ok := e.cache[key]; ok && e.depsHold(c.deps) {
		r := *c.res
		r.Unit, r.File = u, f
		e.done[u] = &r
		e.Stats.Reused++
		return &r
	}
	e.running[u] = true
	deps := map[string]string{}
	var notes []string
	r := analyzeUnit(f, u, e.cost, e.opts.Keep, engineProcs{e, deps, &notes})
	r.Notes = append(r.Notes, notes...)
	delete(e.running, u)
	e.cache[key] = &cached{res: r, deps: deps}
	e.done[u] = r
	e.Stats.Computed++
	return r
}

func (e *Engine) depsHold(deps map[string]string) bool {
	for name, sum := range deps {
		ref, ok := e.procs[name]
		if !ok || e.running[ref.u] {
			return false
		}
		if e.unit(ref.f, ref.u).Summary.String() != sum {
			return false
		}
	}
	return true
}

// Analyze returns the results of every unit of the given files, which are
// added to the workspace.
func (e *Engine) Analyze(files ...*parser.File) map[string][]*UnitResult {
	for _, f := range files {
		e.SetFile(f)
	}
	e.begin()
	out := map[string][]*UnitResult{}
	for _, f := range files {
		for _, u := range f.Units {
			out[f.Name] = append(out[f.Name], e.unitTree(f, u)...)
		}
	}
	return out
}

// Normalize upper-cases variable names given on the command line or in
// settings.
func Normalize(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToUpper(strings.TrimSpace(n))
	}
	return out
}
