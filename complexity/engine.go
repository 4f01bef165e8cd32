package complexity

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pfls/pfls/parser"
)

// Unanalysed is the cost of a unit whose analysis failed with an internal
// error; the unit's notes say what failed.
const Unanalysed = "UNANALYSED"

// RecursionPrefix starts the name of the unknown that stands for the cost
// of a call inside a cycle of calls: RECURSION_A_B for routines A and B
// that call each other, RECURSION_R for R calling itself.
const RecursionPrefix = "RECURSION_"

// DefaultCacheBytes is the default budget of an engine's cache of results
// (Options.CacheBytes): 64 MB holds the results of some 50,000 routines
// of LAPACK's size (about 1 KB of polynomials and notes each, plus their
// statement trees), more than any workspace an editor keeps open.
const DefaultCacheBytes = 64 << 20

// MaxCallDepth bounds how deep the engine follows calls to compute the
// summaries a unit needs: a chain of routines each calling the next is
// analysed that deep and no deeper, so that no chain can exhaust the
// stack. Real call graphs are a few dozen levels deep.
const MaxCallDepth = 1000

// Engine computes and caches the complexity of the program units of a
// workspace. A unit's result is reused while its text is unchanged and the
// summaries of the procedures it calls are the same, so after an edit only
// the changed routine and the routines that call it are computed again.
//
// An Engine is safe for concurrent use: each analysis works on a snapshot
// of the workspace and takes the engine's lock only to read and store
// cached results, so two documents are analysed at the same time. The
// cache is bounded by bytes (least recently used results go first) and a
// removed file's results go with it.
type Engine struct {
	opts    Options
	cost    *CostTable
	analyze func(*parser.File, *parser.Unit, *CostTable, []string, procTable) *UnitResult // analyzeUnit; tests replace it

	mu     sync.Mutex
	files  map[string]*parser.File
	cache  map[[32]byte]*list.Element // of *cached
	lru    *list.List                 // most recently used first
	bytes  int64                      // estimated size of the cache
	byFile map[string]map[[32]byte]bool
	budget int64

	noMemo bool // tests: each pass computes every step afresh (memo.go)

	// Stats count what the last analysis to finish computed and reused.
	// Read them only while no analysis runs.
	Stats EngineStats
}

// EngineStats count what the last Analyze computed and what it reused.
type EngineStats struct {
	Computed, Reused int
}

type procRef struct {
	f *parser.File
	u *parser.Unit
}

// cached is one result in the cache. Its UnitResult has no Unit or File:
// those are set on each use, so the cache never holds a whole file.
type cached struct {
	key  [32]byte
	res  *UnitResult
	deps map[string]string // callee name → summary used, or "cycle:" and the cycle's unknown
	file string            // the file that produced it
	size int64
}

// Options configure the model.
type Options struct {
	Cost       *CostTable // nil: all-one
	Keep       []string   // variables to keep unevaluated (symbolic) in results
	CacheBytes int64      // budget of the cache of results; 0: DefaultCacheBytes
	Pips       bool       // the 1992 report's convention: ranges assumed non-empty
	// Branches are measured branch counts by file name (SetBranches).
	Branches map[string]*Branches
}

// NewEngine returns an engine with the given options.
func NewEngine(opts Options) *Engine {
	e := &Engine{opts: opts, cost: opts.Cost, analyze: analyzeUnit, files: map[string]*parser.File{},
		cache: map[[32]byte]*list.Element{}, lru: list.New(), byFile: map[string]map[[32]byte]bool{}, budget: opts.CacheBytes}
	if e.cost == nil {
		e.cost = AllOne()
	}
	if e.budget <= 0 {
		e.budget = DefaultCacheBytes
	}
	return e
}

// SetFile adds or replaces a file of the workspace (by its name).
func (e *Engine) SetFile(f *parser.File) {
	e.mu.Lock()
	e.files[f.Name] = f
	e.mu.Unlock()
}

// RemoveFile forgets a file and drops the cached results it produced.
func (e *Engine) RemoveFile(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.files, name)
	for key := range e.byFile[name] {
		if el, ok := e.cache[key]; ok {
			e.drop(el)
		}
	}
	delete(e.byFile, name)
}

// CacheBytes returns the estimated size of the cached results and their
// number.
func (e *Engine) CacheBytes() (bytes int64, entries int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bytes, len(e.cache)
}

// File returns the results of every unit of f (and of its contained
// procedures), in source order, adding f to the workspace first.
func (e *Engine) File(f *parser.File) []*UnitResult {
	out, _ := e.FileCtx(context.Background(), f)
	return out
}

// FileCtx is File under a context: once ctx is done it stops, between
// units or inside a long one, and returns ctx's error with the results
// computed so far.
func (e *Engine) FileCtx(ctx context.Context, f *parser.File) ([]*UnitResult, error) {
	p := e.begin(ctx, f)
	var out []*UnitResult
	err := p.run(func() {
		for _, u := range f.Units {
			p.unitTree(f, u, &out)
		}
	})
	e.finish(p)
	return out, err
}

// Procedure counts the procedure name of the workspace, with f added
// to it: its result as File gives it (from the cache when unchanged);
// ok is false when no file defines a subroutine or function of that name.
func (e *Engine) Procedure(f *parser.File, name string) (*UnitResult, bool) {
	p := e.begin(context.Background(), f)
	defer e.finish(p)
	ref, ok := p.procs[name]
	if !ok {
		return nil, false
	}
	var r *UnitResult
	_ = p.run(func() { r = p.unit(ref.f, ref.u) })
	return r, r != nil
}

// Analyze returns the results of every unit of the given files, which are
// added to the workspace.
func (e *Engine) Analyze(files ...*parser.File) map[string][]*UnitResult {
	out, _ := e.AnalyzeCtx(context.Background(), files...)
	return out
}

// AnalyzeCtx is Analyze under a context: once ctx is done it stops and
// returns ctx's error with the results computed so far.
func (e *Engine) AnalyzeCtx(ctx context.Context, files ...*parser.File) (map[string][]*UnitResult, error) {
	p := e.begin(ctx, files...)
	out := map[string][]*UnitResult{}
	err := p.run(func() {
		for _, f := range files {
			var rs []*UnitResult
			for _, u := range f.Units {
				p.unitTree(f, u, &rs)
			}
			out[f.Name] = append(out[f.Name], rs...)
		}
	})
	e.finish(p)
	return out, err
}

// pass is one analysis: a snapshot of the workspace's procedures and
// what has been computed in it. It belongs to one goroutine.
type pass struct {
	e       *Engine
	opts    Options // the engine's options when the pass began
	ctx     context.Context
	procs   map[string]procRef
	modules map[string]procRef // modules by name, for USE (resolve)
	done    map[*parser.Unit]*UnitResult
	running map[*parser.Unit]bool
	depth   int                 // calls followed
	cycles  map[string]string   // procedure → its cycle's unknown, "" outside cycles
	members map[string][]string // cycle's unknown → its procedures, sorted
	stats   EngineStats
	memo    *memo // made on first use (memo.go)
	// generics holds each unit's generic interfaces, by name, with
	// their specific procedures (generic.go), found on first use.
	generics map[*parser.Unit]map[string][]string
	// functions: the workspace has a FUNCTION (or a separate module
	// procedure) somewhere; without one no reference is a user
	// function's (anyUserFunction).
	functions bool
	// types holds each file's derived type definitions (typeDefs), found
	// on first use: a unit's counts depend on them (components.go,
	// compvars.go), so they are part of its cache key.
	types map[*parser.File][]byte
}

// begin starts a pass: it adds the files to analyse to the workspace and
// indexes the procedures of the workspace, in one step under the lock, so
// that a file another goroutine removes meanwhile is still seen by the
// pass that analyses it (its calls would otherwise find no callee).
func (e *Engine) begin(ctx context.Context, analysed ...*parser.File) *pass {
	p := &pass{e: e, ctx: ctx, procs: map[string]procRef{}, modules: map[string]procRef{}, done: map[*parser.Unit]*UnitResult{}, running: map[*parser.Unit]bool{}}
	e.mu.Lock()
	for _, f := range analysed {
		e.files[f.Name] = f
	}
	p.opts = e.opts
	files := make([]*parser.File, 0, len(e.files))
	for _, f := range e.files {
		files = append(files, f)
	}
	e.mu.Unlock()
	// Files in name order, so that a name defined twice always means the
	// same procedure.
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		p.index(f)
	}
	return p
}

// index adds the procedures and modules of f to the pass's (the first of
// a name kept).
func (p *pass) index(f *parser.File) {
	var add func(u *parser.Unit)
	add = func(u *parser.Unit) {
		switch u.Kind {
		case parser.UnitSubroutine, parser.UnitFunction, parser.UnitProcedure:
			if _, dup := p.procs[u.Name]; !dup && u.Name != "" {
				p.procs[u.Name] = procRef{f, u}
			}
			p.functions = p.functions || u.Kind != parser.UnitSubroutine
		}
		for _, k := range u.Contains {
			add(k)
		}
	}
	for _, u := range f.Units {
		add(u)
		if _, dup := p.modules[u.Name]; !dup && u.Kind == parser.UnitModule {
			p.modules[u.Name] = procRef{f, u}
		}
	}
}

func (e *Engine) finish(p *pass) {
	e.mu.Lock()
	e.Stats = p.stats
	e.mu.Unlock()
}

// run runs f, turning the unwinding of a cancelled analysis into ctx's
// error.
func (p *pass) run(f func()) (err error) {
	defer func() {
		if x := recover(); x != nil {
			c, ok := x.(cancelled)
			if !ok {
				panic(x)
			}
			err = c.err
		}
	}()
	f()
	return p.ctx.Err()
}

func (p *pass) unitTree(f *parser.File, u *parser.Unit, out *[]*UnitResult) {
	if err := p.ctx.Err(); err != nil {
		panic(cancelled{err})
	}
	if u.Kind == parser.UnitNone || u.Scope == nil {
		return
	}
	*out = append(*out, p.unit(f, u))
	for _, k := range u.Contains {
		p.unitTree(f, k, out)
	}
}

type engineProcs struct {
	p      *pass
	file   *parser.File // the caller's
	caller *parser.Unit
	deps   map[string]string
	notes  *[]string
}

// resolve finds the procedure a call of name from the unit caller means:
// an internal procedure of the caller or of one of its hosts (Fortran
// 2018 19.3.1: its name is local to its host, and hides a global one),
// else the workspace's procedure of that name.
func (p *pass) resolve(f *parser.File, caller *parser.Unit, name string) (procRef, bool) {
	if dummyProc(caller, name) {
		return procRef{}, false
	}
	if ref, ok := p.scoped(f, caller, name); ok {
		return ref, true
	}
	ref, ok := p.procs[name]
	return ref, ok
}

// scoped is resolve without the workspace's first procedure of the name:
// only what the caller's scope makes accessible.
func (p *pass) scoped(f *parser.File, caller *parser.Unit, name string) (procRef, bool) {
	// Scope by scope from the caller out: a scope's own internal
	// procedures, then what its USE statements make accessible (ONLY
	// lists, renames, Fortran 2018 14.2.2), which hides a host's
	// procedure of the name (19.5.1.4); the module's procedures are
	// the module scope's.
	for h := caller; h != nil; h = h.Parent {
		for _, k := range h.Contains {
			if k.Name == name && k.Scope != nil && (k.Kind == parser.UnitSubroutine || k.Kind == parser.UnitFunction) {
				if ref, ok := p.procs[name]; ok && ref.u == k {
					return ref, true
				}
				if f != nil {
					return procRef{f, k}, true
				}
			}
		}
		for _, s := range h.Body {
			if use, ok := s.(*parser.UseStmt); ok {
				if ref, ok := p.viaUse(use, name, 0, map[*parser.Unit]bool{}); ok {
					return ref, true
				}
			}
		}
	}
	return procRef{}, false
}

// dummyProc reports whether name is a dummy argument of the caller or of
// a host: CALL F(X) with F a dummy procedure calls the actual procedure,
// whatever the workspace's procedures named F.
func dummyProc(caller *parser.Unit, name string) bool {
	if caller == nil || caller.Scope == nil {
		return false
	}
	sym := caller.Scope.Lookup(name)
	return sym != nil && sym.Dummy
}

// maxUseDepth bounds the chains of modules that USE modules followed by
// viaUse.
const maxUseDepth = 8

// viaUse finds the module procedure that the local name means through
// one USE statement: renamed (LOCAL => REMOTE), in its ONLY list, or, for
// a USE without ONLY, any name the statement does not rename away;
// found in the module or, through the module's own USEs, in the modules
// it uses.
func (p *pass) viaUse(use *parser.UseStmt, name string, depth int, seen map[*parser.Unit]bool) (procRef, bool) {
	if use.Module == nil || depth > maxUseDepth {
		return procRef{}, false
	}
	mod, ok := p.modules[use.Module.Name]
	if !ok || seen[mod.u] {
		return procRef{}, false
	}
	remote, visible := name, !use.Only
	for _, r := range use.Names {
		if r == nil || r.Local == nil {
			continue
		}
		rem := r.Local.Name
		if r.Remote != nil {
			rem = r.Remote.Name
		}
		if r.Local.Name == name {
			remote, visible = rem, true
			break
		}
		if r.Remote != nil && rem == name {
			visible = false // known here by another name
		}
	}
	if !visible {
		return procRef{}, false
	}
	seen[mod.u] = true
	for _, k := range mod.u.Contains {
		if k.Name == remote && k.Scope != nil && (k.Kind == parser.UnitSubroutine || k.Kind == parser.UnitFunction) {
			if ref, ok := p.procs[remote]; ok && ref.u == k {
				return ref, true
			}
			return procRef{mod.f, k}, true
		}
	}
	for _, s := range mod.u.Body {
		if u, ok := s.(*parser.UseStmt); ok {
			if ref, ok := p.viaUse(u, remote, depth+1, seen); ok {
				return ref, true
			}
		}
	}
	return procRef{}, false
}

func (ep engineProcs) context() context.Context { return ep.p.ctx }

// specific is the specific procedure a reference to the generic name
// with args means (Specific), name when it is no generic.
func (ep engineProcs) specific(name string, args []parser.Expr) string {
	return ep.p.specific(ep.file, ep.caller, name, args)
}

// memo gives the unit model the pass's memo.
func (ep engineProcs) memo() *memo {
	if ep.p.e.noMemo {
		return nil
	}
	if ep.p.memo == nil {
		ep.p.memo = newMemo()
	}
	return ep.p.memo
}

func (ep engineProcs) summary(name string) (*UnitResult, bool) {
	p := ep.p
	ref, ok := p.resolve(ep.file, ep.caller, name)
	if !ok {
		return nil, false
	}
	caller := ""
	if ep.caller != nil {
		caller = ep.caller.Name
	}
	if cyc := p.cycleOf(name); cyc != "" && cyc == p.cycleOf(caller) {
		*ep.notes = append(*ep.notes, fmt.Sprintf("recursive call of %s (cycle of calls: %s): its cost is the unknown %s", name, strings.Join(p.members[cyc], ", "), cyc))
		ep.deps[name] = "cycle:" + cyc
		return &UnitResult{Unit: ref.u, File: ref.f, Summary: Var(cyc)}, true
	}
	if p.running[ref.u] {
		// A cycle the call scan did not see (a call the model finds
		// elsewhere): not counted again.
		*ep.notes = append(*ep.notes, "recursive call of "+name+": its cost is not counted again")
		ep.deps[name] = "recursive"
		return nil, false
	}
	if p.depth >= MaxCallDepth {
		*ep.notes = append(*ep.notes, fmt.Sprintf("too large to analyse (calls nested deeper than %d): the cost of %s is %s", MaxCallDepth, name, TooLarge))
		ep.deps[name] = "too deep"
		return &UnitResult{Unit: ref.u, File: ref.f, Summary: tooLarge()}, true
	}
	r := p.unit(ref.f, ref.u)
	ep.deps[name] = depKey(r)
	return r, true
}

// depKey is what a caller's result depends on in a callee's: its full
// exact count and span (every piece, not only the shown one), its shown
// summary, its MOD set, the values it assigns its formals and the
// unknowns it names. A cached caller is
// reused only when each callee's key is unchanged.
func depKey(r *UnitResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%s\x00%t\x00", r.Summary, r.Count, r.Span, r.SpanCount, r.HasSpan)
	mod := make([]string, 0, len(r.Mod))
	for k := range r.Mod {
		mod = append(mod, k)
	}
	sort.Strings(mod)
	fmt.Fprintf(&b, "%t%q\x00%q", r.Mod != nil, mod, r.Unknowns)
	outs := make([]string, 0, len(r.Out))
	for k, v := range r.Out {
		outs = append(outs, k+"="+v.String())
	}
	sort.Strings(outs)
	fmt.Fprintf(&b, "\x00%q", outs)
	return b.String()
}

func unitKey(f *parser.File, u *parser.Unit, pips bool, b *Branches, types []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte{byte(f.Form)})
	if len(types) > 0 { // a component's type, rank and extents count
		h.Write([]byte("types"))
		h.Write(types)
	}
	if pips { // results under the report's convention are kept apart
		h.Write([]byte("pips"))
	}
	if b != nil { // so are results priced with measured branch counts
		h.Write([]byte("branches"))
		h.Write(b.digest[:])
	}
	top := u.Top()
	h.Write(f.Src[top.Base : top.Base+top.Len])
	// A contained procedure is told apart by its place in its host.
	h.Write([]byte(u.Name))
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// typeDefs is the text of the derived type definitions of f, in every
// unit (where componentOf finds them), each after its length; nil when
// there are none.
func (p *pass) typeDefs(f *parser.File) []byte {
	if t, ok := p.types[f]; ok {
		return t
	}
	var out []byte
	var walk func(us []*parser.Unit)
	walk = func(us []*parser.Unit) {
		for _, u := range us {
			for _, s := range u.Body {
				b, ok := s.(*parser.Block)
				if !ok {
					continue
				}
				if _, ok := b.Head.(*parser.DerivedTypeStmt); !ok {
					continue
				}
				from, to := u.Abs(b.Pos()), u.Abs(b.End())
				if from < 0 || to > len(f.Src) || from > to {
					continue
				}
				out = binary.AppendUvarint(out, uint64(to-from))
				out = append(out, f.Src[from:to]...)
			}
			walk(u.Contains)
		}
	}
	walk(f.Units)
	if p.types == nil {
		p.types = map[*parser.File][]byte{}
	}
	p.types[f] = out
	return out
}

// unit returns the result of one unit, from the cache when its text and
// its callees' summaries are unchanged.
func (p *pass) unit(f *parser.File, u *parser.Unit) *UnitResult {
	if r, ok := p.done[u]; ok {
		return r
	}
	p.depth++
	defer func() { p.depth-- }()
	key := unitKey(f, u, p.opts.Pips, p.opts.Branches[f.Name], p.typeDefs(f))
	p.running[u] = true // a cached result that depends on u itself is not reused
	if c := p.e.lookup(key); c != nil && p.depsHold(f, u, c.deps) {
		delete(p.running, u)
		r := *c.res
		r.Unit, r.File = u, f
		p.done[u] = &r
		p.stats.Reused++
		return &r
	}
	deps := map[string]string{}
	var notes []string
	r := p.e.analyzeRecovering(f, u, engineProcs{p, f, u, deps, &notes})
	for _, n := range notes {
		if !slices.Contains(r.Notes, n) {
			r.Notes = append(r.Notes, n)
		}
	}
	delete(p.running, u)
	p.e.store(key, f.Name, r, deps, int64(u.Top().Len))
	p.done[u] = r
	p.stats.Computed++
	return r
}

// analyzeRecovering analyses one unit; a panic in the model becomes a
// result of its own, an unknown cost (Unanalysed) with a note, so that the
// other units keep their results. A cancelled analysis goes on unwinding.
func (e *Engine) analyzeRecovering(f *parser.File, u *parser.Unit, procs engineProcs) (r *UnitResult) {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(cancelled); ok {
				panic(x)
			}
			r = &UnitResult{Unit: u, File: f, Summary: Var(Unanalysed),
				Notes: []string{fmt.Sprintf("internal error analysing %s: %v", unitName(u), x)}}
		}
	}()
	return e.analyze(f, u, e.cost, e.opts.Keep, procs)
}

func unitName(u *parser.Unit) string {
	if u.Name != "" {
		return u.Name
	}
	return u.Kind.String()
}

func (p *pass) depsHold(f *parser.File, u *parser.Unit, deps map[string]string) bool {
	for name, sum := range deps {
		ref, ok := p.resolve(f, u, name)
		if !ok || p.running[ref.u] {
			return false
		}
		cyc := p.cycleOf(name)
		inCycle := cyc != "" && cyc == p.cycleOf(u.Name)
		if c, was := strings.CutPrefix(sum, "cycle:"); was || inCycle {
			if !was || !inCycle || c != cyc {
				return false
			}
			continue
		}
		if p.depth >= MaxCallDepth || depKey(p.unit(ref.f, ref.u)) != sum {
			return false
		}
	}
	return true
}

// cycleOf returns the unknown that stands for calls inside the cycle of
// calls procedure name is in, or "" when it is in none. The cycles are
// the strongly connected components of the call graph of the pass's
// procedures, found once per pass from the calls each routine's text
// makes, so they do not depend on which routine is analysed first.
func (p *pass) cycleOf(name string) string {
	if p.cycles == nil {
		p.findCycles()
	}
	return p.cycles[name]
}

func (p *pass) findCycles() {
	p.cycles = map[string]string{}
	p.members = map[string][]string{}
	names := make([]string, 0, len(p.procs))
	for n := range p.procs {
		names = append(names, n)
	}
	sort.Strings(names)
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	calls := make([][]int, len(names))
	self := make([]bool, len(names))
	for i, n := range names {
		ref := p.procs[n]
		seen := map[int]bool{}
		for _, c := range callsOf(ref.u) {
			if j, ok := index[c]; ok && !seen[j] {
				seen[j] = true
				calls[i] = append(calls[i], j)
				if j == i {
					self[i] = true
				}
			}
		}
	}
	keep := make([]bool, len(names))
	for i := range keep {
		keep[i] = true
	}
	for _, comp := range sccs(len(names), func(i int) []int { return calls[i] }, keep) {
		if len(comp) == 1 && !self[comp[0]] {
			continue
		}
		members := make([]string, len(comp))
		for k, i := range comp {
			members[k] = names[i]
		}
		sort.Strings(members)
		cyc := RecursionPrefix + strings.Join(members, "_")
		p.members[cyc] = members
		for _, m := range members {
			p.cycles[m] = cyc
		}
	}
}

// callsOf returns the names a unit may call: CALL statements and
// references NAME(...) that are not arrays of its scope.
func callsOf(u *parser.Unit) []string {
	var out []string
	for _, s := range u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.CallStmt:
				if x.Name != nil {
					out = append(out, x.Name.Name)
				}
			case *parser.Call:
				if id, ok := x.Fun.(*parser.Ident); ok {
					if sym := u.Scope.Lookup(id.Name); sym == nil || sym.Rank() == 0 {
						out = append(out, id.Name)
					}
				}
			}
			return true
		})
	}
	return out
}

// lookup returns the cached result of a key, marking it used.
func (e *Engine) lookup(key [32]byte) *cached {
	e.mu.Lock()
	defer e.mu.Unlock()
	el, ok := e.cache[key]
	if !ok {
		return nil
	}
	e.lru.MoveToFront(el)
	return el.Value.(*cached)
}

// store caches a result, evicting the least recently used results past
// the budget. srcLen is the length of the unit's text, which sizes the
// statement trees the result keeps.
func (e *Engine) store(key [32]byte, file string, r *UnitResult, deps map[string]string, srcLen int64) {
	c := &cached{key: key, deps: deps, file: file}
	res := *r
	res.Unit, res.File = nil, nil
	c.res = &res
	c.size = resultSize(&res, deps, srcLen)
	e.mu.Lock()
	defer e.mu.Unlock()
	if old, ok := e.cache[key]; ok {
		e.drop(old)
	}
	e.cache[key] = e.lru.PushFront(c)
	e.bytes += c.size
	if e.byFile[file] == nil {
		e.byFile[file] = map[[32]byte]bool{}
	}
	e.byFile[file][key] = true
	for e.bytes > e.budget && e.lru.Len() > 1 {
		e.drop(e.lru.Back())
	}
}

// drop removes one cached result; e.mu is held.
func (e *Engine) drop(el *list.Element) {
	c := el.Value.(*cached)
	e.lru.Remove(el)
	delete(e.cache, c.key)
	e.bytes -= c.size
	if m := e.byFile[c.file]; m != nil {
		delete(m, c.key)
		if len(m) == 0 {
			delete(e.byFile, c.file)
		}
	}
}

// resultSize estimates the bytes a cached result keeps alive: its
// polynomials, notes and dependencies, and the statement trees its
// statement results point into, taken as 16 bytes of tree per byte of
// source (the parser's nodes for a typical Fortran line).
func resultSize(r *UnitResult, deps map[string]string, srcLen int64) int64 {
	const entry = 256 // the cached, UnitResult and map entries themselves
	n := int64(entry) + polySize(r.Summary) + 16*srcLen
	for _, s := range r.Statements {
		n += 96 + polySize(s.Cost)
		for _, t := range s.Notes {
			n += 16 + int64(len(t))
		}
	}
	for _, t := range r.Notes {
		n += 16 + int64(len(t))
	}
	for _, t := range r.Calls {
		n += 16 + int64(len(t))
	}
	for k, v := range deps {
		n += 64 + int64(len(k)+len(v))
	}
	return n
}

// polySize estimates the bytes of a polynomial.
func polySize(p Poly) int64 {
	n := int64(24)
	for _, t := range p.terms {
		n += 56 + 24*int64(len(t.mono))
		if t.coef.r != nil {
			n += 64 + int64(ratBits(t.coef.r)/8)
		}
	}
	return n
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

// hasFunctions reports whether the workspace of the pass has a function.
func (ep engineProcs) hasFunctions() bool { return ep.p.functions }
