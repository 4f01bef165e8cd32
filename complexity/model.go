package complexity

import (
	"fmt"
	"maps"
	"math/big"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pfls/pfls/parser"
)

// This file is the PIPS model (seed 004 §4, DESIGN.md §5): the cost of
// expressions bottom-up with their types, of statements, loops (summed
// over the index), branches (weighed by probability), parallel loops
// (their largest iteration), calls (the callee's summary with actual
// arguments for formals) and unstructured code (g = c + P·g, solved
// exactly). Preconditions replace intermediate variables by what they
// stand for, so a routine's summary is in its formals and COMMON
// variables.

// Stats are the statistics of seed 004 §2.2 for a statement and what it
// contains.
type Stats struct {
	VarSymbolic, VarGuessed, VarBounded, VarUnknown int
	RangeGuessed, RangeBounded, RangeUnknown        int
	IfComputed, IfHalfHalf                          int
	// IfMeasured counts the branches priced with the frequencies a
	// profile measured (Options.Branches).
	IfMeasured int
	// VarKnown counts the PARAMETER constants met: values the program
	// states, not guesses (the report counts them with the guessed).
	VarKnown int
}

func (s *Stats) add(t Stats) {
	s.VarSymbolic += t.VarSymbolic
	s.VarGuessed += t.VarGuessed
	s.VarBounded += t.VarBounded
	s.VarUnknown += t.VarUnknown
	s.RangeGuessed += t.RangeGuessed
	s.RangeBounded += t.RangeBounded
	s.RangeUnknown += t.RangeUnknown
	s.IfComputed += t.IfComputed
	s.IfHalfHalf += t.IfHalfHalf
	s.IfMeasured += t.IfMeasured
	s.VarKnown += t.VarKnown
}

// String prints the statistics compactly (the PARAMETERs and the
// measured branches only when there are some).
func (s Stats) String() string {
	known := ""
	if s.VarKnown > 0 {
		known = fmt.Sprintf(", %d known (PARAMETERs)", s.VarKnown)
	}
	measured := ""
	if s.IfMeasured > 0 {
		measured = fmt.Sprintf(", %d measured", s.IfMeasured)
	}
	return fmt.Sprintf("variables: %d symbolic, %d guessed, %d bounded, %d unknown%s; ranges: %d guessed, %d bounded, %d unknown; IFs: %d computed, %d half-half%s",
		s.VarSymbolic, s.VarGuessed, s.VarBounded, s.VarUnknown, known, s.RangeGuessed, s.RangeBounded, s.RangeUnknown, s.IfComputed, s.IfHalfHalf, measured)
}

// StmtResult is the complexity of one statement: a simple statement
// (STAT), a loop (DO), a branch (IF), or a statement list with jumps
// (UNSTR).
type StmtResult struct {
	Stmt  parser.Stmt
	Kind  string // "STAT", "DO", "IF", "UNSTR"
	Cost  Poly   // the work; where it is piecewise, the piece for large values
	Stats Stats
	Notes []string // assumptions: branch probabilities, unknown ranges, ...

	// Count is the exact work: Cost, or where ranges may be empty or
	// bounds are MIN/MAX, a guarded count (evaluate it with EvalGuarded).
	Count Poly
	// Elements is the number of elements of an array assignment or
	// WHERE, exact as Count is (guarded where a section may be empty or
	// its count depends on a parity), the zero polynomial for others.
	// The work is the span less the parts paid once (a section's bounds,
	// reductions) times the elements, plus those parts.
	Elements Poly
	// When is the condition under which Cost holds (nil: everywhere).
	When []Cond
	// Pieces are every piece of a piecewise count (nil otherwise).
	Pieces []Piece
	// Span is the cost on unboundedly many processors (the largest
	// iteration of each parallel construct); HasSpan says it differs
	// from the work.
	Span    Poly
	HasSpan bool
}

// UnitResult is the complexity of one program unit.
type UnitResult struct {
	Unit       *parser.Unit
	File       *parser.File
	Summary    Poly
	Stats      Stats
	Statements []*StmtResult // executable statements in source order
	Notes      []string
	Calls      []string // names of the procedures it calls

	Count     Poly            // the exact work (see StmtResult.Count)
	When      []Cond          // where Summary holds
	Pieces    []Piece         // every piece of a piecewise summary
	Span      Poly            // the span (see StmtResult.Span)
	SpanCount Poly            // the exact span
	HasSpan   bool            // the span differs from the work
	Unknowns  []string        // "UNKNOWN_1: what it stands for", ...
	Mod       map[string]bool // formals it may change (F, or F%C for only the component C of a structure F); modCommon for COMMON
	// Out gives the formals the unit assigns a known value: their value
	// on exit in the values on entry of its formals (M = M1 + M2), for
	// the caller's preconditions (PIPS's transformers, for values).
	Out map[string]Poly
	// Extents names the unknowns that stand for an extent of one of the
	// unit's assumed-shape dummy arguments: a caller puts the extent of
	// its actual argument in their place.
	Extents map[string]Extent
}

// Extent is dimension Dim (from 0) of the dummy argument Dummy; Host,
// when not nil, is the symbol of a host's dummy that a contained
// procedure reads (its host binds it, not the call's arguments).
type Extent struct {
	Dummy string
	Dim   int
	Host  *parser.Symbol
}

// procTable finds the summaries of the procedures a unit calls.
type procTable interface {
	summary(name string) (*UnitResult, bool)
}

// procName is the procedure a reference to name with the arguments args
// calls: the specific procedure of a generic interface where the
// procedure table resolves generics (the engine's), else name.
func (m *unitModel) procName(name string, args []parser.Expr) string {
	g, ok := m.procs.(interface {
		specific(string, []parser.Expr) string
	})
	if !ok {
		return name
	}
	if s := g.specific(name, args); s != "" {
		return s
	}
	return name
}

// unitModel computes the complexity of one unit.
type unitModel struct {
	u      *parser.Unit
	f      *parser.File
	sc     *parser.Scope
	cost   *CostTable
	keep   map[string]bool
	procs  procTable
	res    *UnitResult
	labels map[int]bool // labels that a jump targets
	sets   map[*parser.DoConstruct]map[string]bool
	guard  guards // budgets and recursion guards (guard.go)

	pips     bool      // the report's convention: ranges assumed non-empty
	branches *Branches // measured branch counts of the file (branches.go)
	spanMode bool      // parallel constructs cost their largest iteration
	// collapsed holds the loops an enclosing OpenMP COLLAPSE(n) makes
	// part of one parallel iteration space.
	collapsed map[*parser.DoConstruct]bool
	spans     map[parser.Stmt]Poly // the span of each statement, in span mode
	memo      *memo                // results the pass remembers (memo.go); nil outside an engine
	unknowns  *unknowns            // UNKNOWN_1, UNKNOWN_2, ... of this unit
	// summaries prices a call with the callee's summary (its piece for
	// large values) instead of its exact count (StmtCostIn).
	summaries bool
	// spanDiffers is set, in the work pass, where the span pass would
	// take another way (a parallel loop, FORALL, an array assignment, a
	// callee whose span is not its work, ...): without it the span pass
	// would repeat the work pass step for step, and is not run.
	spanDiffers bool
	compVars    bool // the preconditions may hold component variables, "X%C" (compvars.go)
	userFuncs   int8 // 0 not known yet, 1 the unit references no user function in view, 2 it does (anyUserFunction)
	userFuncOf  map[*parser.Call]userFuncRef
	structs     int8 // 0 not known yet, 1 the unit sees no variable of derived type, 2 it does (hasStructures)

	// entry holds the unknown value of each integer local the unit never
	// assigns; written is what the unit may assign (entryValue).
	entry    map[string]Poly
	written  map[string]bool
	definite map[string]bool // formals the unit really may change (changedFormal)
	// definiteComps lists, per formal structure F, the F%C of definite.
	definiteComps map[string][]string
	aliasDepth    int             // forget's depth through associate names' selectors
	selectors     int             // 1: the unit has associate names, 2: it has none (hasSelectors)
	changed       map[string]bool // changedFormal's answers

	// cur is the preconditions at the statement being priced, for the
	// actual arguments of the function references in its expressions.
	cur env
	// once is the part of the expressions priced so far that is paid
	// once whatever the number of elements of an enclosing array
	// assignment: the transformational intrinsics (arrayexpr.go), a
	// section's bounds.
	once Poly
	// elements is the number of elements of the array statement simple
	// is pricing (StmtResult.Elements).
	elements Poly
	// elementReductions prices a transformational intrinsic as one
	// element, as before arrayexpr.go: the estimator's ExprCost and
	// StmtCost, whose callers price the reductions over distributed
	// arrays themselves (each processor its share).
	elementReductions bool
	// components remembers the structure components looked up
	// (components.go).
	components map[string]component
	// inSelector holds the associate names whose selector's shape is
	// being found (a guard against ASSOCIATE (X => X + 1) loops).
	inSelector map[*parser.Symbol]bool
	// allocated holds the bounds of the unit's ALLOCATEs (allocate.go).
	allocated map[string][]*parser.DimSpec
	writers   map[string][]int // the top-level statements that may assign each name
	// assigned holds the unknown value of each assignment of a local
	// whose value is not a polynomial (assignedUnknown).
	assigned   map[string]Poly
	topAssigns map[*parser.Ident]bool // left sides of the top-level assignments
}

// at makes e the preconditions of the expressions priced until the
// returned function restores the previous ones.
func (m *unitModel) at(e env) func() {
	saved := m.cur
	m.cur = e
	return func() { m.cur = saved }
}

// env maps integer variables to the polynomial value they are known to
// have at a point of the program (the preconditions of seed 004 §5.3).
type env map[string]Poly

func (e env) clone() env {
	if e == nil {
		return env{}
	}
	return maps.Clone(e)
}

func analyzeUnit(f *parser.File, u *parser.Unit, cost *CostTable, keep []string, procs procTable) *UnitResult {
	r, _ := analyzeUnitSpan(f, u, cost, keep, procs, false)
	return r
}

// analyzeUnitSpan is analyzeUnit. The span pass runs when the unit has
// parallel constructs, array syntax or calls and the work pass met one
// of them where the two passes part (spanDiffers), or always with
// always set (tests compare the two); ran reports whether it ran.
func analyzeUnitSpan(f *parser.File, u *parser.Unit, cost *CostTable, keep []string, procs procTable, always bool) (res *UnitResult, ran bool) {
	m := newUnitModel(f, u, cost, keep, procs, false)
	res = m.run()
	res.Mod = m.unitMod()
	// The routine's count rests on the assumptions of its loops.
	seen := map[string]bool{}
	for _, n := range res.Notes {
		seen[n] = true
	}
	for _, s := range res.Statements {
		for _, n := range s.Notes {
			if strings.HasPrefix(n, "assumes ") && !seen[n] {
				seen[n] = true
				res.Notes = append(res.Notes, n)
			}
		}
	}
	res.Span, res.SpanCount = res.Summary, res.Count
	if (m.spanDiffers || always) && needsSpan(u) {
		ran = true
		sm := newUnitModel(f, u, cost, keep, procs, true)
		sm.spans = map[parser.Stmt]Poly{}
		sm.unknowns = &unknowns{prior: res.Unknowns, used: make([]bool, len(res.Unknowns))}
		sr := sm.run()
		// The span's own unknowns (none of the work's stands for them)
		// are numbered after the work's and listed with them.
		res.Unknowns = append(slices.Clip(res.Unknowns), sm.unknowns.notes...)
		for k, x := range sr.Extents {
			if res.Extents == nil {
				res.Extents = map[string]Extent{}
			}
			res.Extents[k] = x
		}
		if !sr.Count.Equal(res.Count) {
			res.SpanCount, res.HasSpan = sr.Count, true
			res.Span, _, _, _ = m.memo.finish(sr.Count, m.isParam)
		}
		for _, s := range res.Statements {
			if sp, ok := sm.spans[s.Stmt]; ok && !sp.Equal(s.Count) {
				s.Span, _, _, _ = m.memo.finish(sp, m.isParam)
				s.HasSpan = true
			}
		}
	}
	return res, ran
}

// newUnitModel prepares the model of one unit; span selects the span
// (parallel constructs cost their largest iteration) over the work.
func newUnitModel(f *parser.File, u *parser.Unit, cost *CostTable, keep []string, procs procTable, span bool) *unitModel {
	m := &unitModel{u: u, f: f, sc: u.Scope, cost: cost, keep: map[string]bool{}, procs: procs,
		res: &UnitResult{Unit: u, File: f}, labels: map[int]bool{}, spanMode: span}
	if o, ok := procs.(interface{ options() Options }); ok {
		m.pips = o.options().Pips
		m.branches = o.options().Branches[f.Name]
	}
	if mp, ok := procs.(interface{ memo() *memo }); ok {
		m.memo = mp.memo()
	}
	for _, k := range keep {
		m.keep[strings.ToUpper(k)] = true
	}
	for _, s := range u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.GotoStmt:
				for _, l := range x.Labels {
					m.labels[litInt(l)] = true
				}
			case *parser.ArithIfStmt:
				for _, l := range x.Labels {
					if l != nil {
						m.labels[litInt(l)] = true
					}
				}
			}
			return !isExpr(n) // no statement inside an expression
		})
	}
	return m
}

// run computes the unit's cost.
func (m *unitModel) run() *UnitResult {
	top := env{}
	total, st := m.list(m.u.Body, top)
	m.res.Out = m.exitValues(top)
	m.res.Count = total
	var note string
	m.res.Summary, m.res.Pieces, m.res.When, note = m.memo.finish(total, m.isParam)
	if note != "" {
		m.res.Notes = append(m.res.Notes, note)
	}
	if m.unknowns != nil {
		m.res.Unknowns = m.unknowns.notes
	}
	m.res.Stats = st
	sort.SliceStable(m.res.Statements, func(i, j int) bool {
		return m.res.Statements[i].Stmt.Pos() < m.res.Statements[j].Stmt.Pos()
	})
	return m.res
}

func litInt(l *parser.Lit) int {
	n := 0
	for _, c := range l.Value {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func (m *unitModel) record(s parser.Stmt, kind string, cost Poly, st Stats, notes ...string) {
	if cost.IsTooLarge() {
		notes = m.tooLargeNote(s, notes)
	}
	// A construct is listed at its head statement.
	switch c := s.(type) {
	case *parser.DoConstruct:
		s = c.Do
	case *parser.IfConstruct:
		s = c.Arms[0].Head
	case *parser.Block:
		s = c.Head
	}
	if m.spanMode {
		if m.spans != nil {
			m.spans[s] = cost
		}
		return
	}
	r := &StmtResult{Stmt: s, Kind: kind, Count: cost, Stats: st, Notes: notes}
	var note string
	r.Cost, r.Pieces, r.When, note = m.memo.finish(cost, m.isParam)
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	r.Span = r.Cost
	m.res.Statements = append(m.res.Statements, r)
}

// ---------------------------------------------------------------------------
// Statement lists, structured and unstructured

// jumpy reports whether a statement list needs the unstructured model:
// it has a jump, or a statement a jump targets.
func (m *unitModel) jumpy(list []parser.Stmt) bool {
	for _, s := range list {
		switch x := s.(type) {
		case *parser.GotoStmt, *parser.ArithIfStmt:
			return true
		case *parser.IfStmt:
			if _, ok := x.Then.(*parser.GotoStmt); ok {
				return true
			}
		}
		if l := s.Base().Label; l != 0 && m.labels[l] {
			return true
		}
	}
	return false
}

// list returns the cost of a statement list, executed in order, or by the
// unstructured model when it has jumps.
func (m *unitModel) list(list []parser.Stmt, e env) (Poly, Stats) {
	defer m.at(e)()
	if m.jumpy(list) {
		return m.unstructured(list, e)
	}
	total := Zero()
	var stats Stats
	for _, s := range list {
		c, st := m.stmt(s, e)
		total = total.Add(c)
		stats.add(st)
	}
	return total, stats
}

// unstructured solves g_i = c_i + Σ p_ij g_j over the statements of a list
// (seed 004 §4.6): node i is statement i, the exit is past the end.
func (m *unitModel) unstructured(list []parser.Stmt, e env) (Poly, Stats) {
	n := len(list)
	if n > MaxUnstructuredNodes {
		return m.tooManyNodes(list, e)
	}
	labelAt := map[int]int{}
	for i, s := range list {
		if l := s.Base().Label; l != 0 {
			labelAt[l] = i
		}
	}
	c := make([]Poly, n)
	p := make([][]*big.Rat, n)
	var stats Stats
	var notes []string
	// Jumps make the values of variables uncertain: a precondition holds
	// only until the first label a jump can reach.
	for i, s := range list {
		if l := s.Base().Label; l != 0 && m.labels[l] {
			m.forgetAll(e)
		}
		p[i] = make([]*big.Rat, n)
		edge := func(target int, prob *big.Rat) {
			if target >= 0 && target < n {
				if p[i][target] == nil {
					p[i][target] = new(big.Rat)
				}
				p[i][target].Add(p[i][target], prob)
			}
			// a target of n or -1 is the exit: nothing more to pay
		}
		to := func(l *parser.Lit) int {
			if j, ok := labelAt[litInt(l)]; ok {
				return j
			}
			notes = append(notes, fmt.Sprintf("jump to label %s outside this statement list: counted as an exit", l.Value))
			return -1
		}
		switch x := s.(type) {
		case *parser.GotoStmt:
			cx, _ := m.expr(x.X)
			c[i] = cx
			m.funcEffects(e, x.X) // GO TO (10, 20), NEXT(K)
			m.record(s, "STAT", cx, Stats{})
			if len(x.Labels) == 1 && x.X == nil {
				edge(to(x.Labels[0]), big.NewRat(1, 1))
				continue
			}
			// Computed and assigned GOTO: each label, and the fall-through
			// of a computed GOTO, equally likely.
			k := int64(len(x.Labels))
			if !x.Assigned || k == 0 {
				k++
				edge(i+1, big.NewRat(1, k))
			}
			for _, l := range x.Labels {
				edge(to(l), big.NewRat(1, k))
			}
			stats.IfHalfHalf++
		case *parser.ArithIfStmt:
			cx, _ := m.expr(x.Cond)
			c[i] = cx
			m.record(s, "IF", cx, Stats{IfHalfHalf: 1})
			stats.IfHalfHalf++
			for _, l := range x.Labels {
				if l != nil {
					edge(to(l), big.NewRat(1, 3))
				} else {
					edge(i+1, big.NewRat(1, 3))
				}
			}
		case *parser.IfStmt:
			if g, ok := x.Then.(*parser.GotoStmt); ok && len(g.Labels) == 1 && g.X == nil {
				cx, _ := m.expr(x.Cond)
				prob, computed := m.probability(x.Cond, e)
				m.funcEffects(e, x.Cond) // IF (DECR(N) > 0) GO TO 10
				c[i] = cx
				st := Stats{IfHalfHalf: 1}
				if computed {
					st = Stats{IfComputed: 1}
				}
				stats.add(st)
				m.record(s, "IF", cx, st)
				edge(to(g.Labels[0]), prob)
				edge(i+1, new(big.Rat).Sub(big.NewRat(1, 1), prob))
				continue
			}
			ci, st := m.stmt(s, e)
			c[i] = ci
			stats.add(st)
			edge(i+1, big.NewRat(1, 1))
		default:
			ci, st := m.stmt(s, e)
			c[i] = ci
			stats.add(st)
			if sb := s.Base(); sb.Keyword == "RETURN" || sb.Keyword == "STOP" {
				continue // to the exit
			}
			edge(i+1, big.NewRat(1, 1))
		}
	}
	if len(notes) > 0 {
		m.res.Notes = append(m.res.Notes, notes...)
	}
	return m.solveJumps(list, p, c), stats
}

// stmt returns the cost of one statement or construct and records it.
func (m *unitModel) stmt(s parser.Stmt, e env) (Poly, Stats) {
	defer m.at(e)()
	ok := m.enter()
	defer m.leave()
	if !ok {
		return m.tooDeep(s, e)
	}
	switch x := s.(type) {
	case *parser.DoConstruct:
		return m.doLoop(x, e)
	case *parser.IfConstruct:
		return m.ifConstruct(x, e)
	case *parser.Block:
		return m.block(x, e)
	case *parser.IfStmt:
		cond, _ := m.expr(x.Cond)
		prob, computed := m.probability(x.Cond, e)
		m.funcEffects(e, x.Cond)
		inner := e.clone()
		then := Zero()
		var st Stats
		if x.Then != nil {
			then, st = m.simple(x.Then, inner, false)
		}
		m.merge(e, inner, e)
		if computed {
			st.IfComputed++
		} else {
			st.IfHalfHalf++
		}
		c := cond.Add(then.Scale(prob))
		m.record(s, "IF", c, st, probNote(prob, computed))
		return c, st
	}
	return m.simple(s, e, true)
}

func probNote(p *big.Rat, computed bool) string {
	if computed {
		return "branch probability " + p.RatString() + " (computed)"
	}
	return "branch probability 1/2 (unknown)"
}

// simple returns the cost of a simple statement; record says whether to
// list it (the statement of a logical IF is listed with its IF).
func (m *unitModel) simple(s parser.Stmt, e env, record bool) (Poly, Stats) {
	defer m.at(e)()
	m.elements = Poly{}
	var c Poly
	var st Stats
	kind := "STAT"
	switch x := s.(type) {
	case *parser.AssignStmt:
		l, lo, _ := m.exprOnce(x.LHS)
		r, ro, _ := m.exprOnce(x.RHS)
		c = l.Add(r)
		// Array syntax: every element (the work); one element is its span.
		c = m.assignWork(x, c, lo.Add(ro), e)
		m.funcEffects(e, x.LHS, x.RHS)
		if !x.Pointer {
			m.assign(x.LHS, x.RHS, e)
		} else if id := modName(x.LHS); id != nil {
			m.forget(e, id.Name) // P => B: P%N is B's now
		}
	case *parser.CallStmt:
		c = m.call(x, e)
	case *parser.SimpleStmt:
		c = m.exprs(x.Args)
		m.funcEffects(e, x.Args...)
	case *parser.IOStmt:
		c = m.exprs(x.Control).Add(m.ioItems(x.Items, e))
		m.funcEffects(e, x.Control...)
		m.funcEffects(e, x.Items...)
		// The variables a READ defines, also inside implied DOs (READ
		// (*,*) (K, B(M), M = 1, 3) defines K), and the implied DOs'
		// indices of any data transfer.
		changed := map[string]bool{}
		m.ioDefines(x, changed)
		for _, it := range x.Items {
			impliedDoVars(it, changed)
		}
		for name := range changed {
			m.forget(e, name)
		}
	case *parser.AllocateStmt:
		c = m.exprs(x.Items)
	case *parser.ForallStmt:
		return m.forall(x, e, record)
	case *parser.WhereStmt:
		mask, once, _ := m.exprOnce(x.Mask)
		body := Zero()
		if x.Body != nil {
			body, st = m.simple(x.Body, e, false)
			if a, ok := x.Body.(*parser.AssignStmt); ok {
				mask = m.arrayWork(a.LHS, mask, once, e, &m.res.Notes)
			}
		}
		c = mask.Add(body)
	case *parser.GotoStmt:
		c, _ = m.expr(x.X)
	case *parser.ArithIfStmt:
		c, _ = m.expr(x.Cond)
		kind = "IF"
	default:
		return Zero(), Stats{} // declarations, directives, FORMAT, ...
	}
	if record {
		m.record(s, kind, c, st)
		if r := m.res.Statements; !m.spanMode && !m.elements.IsZero() && len(r) > 0 && r[len(r)-1].Stmt == s {
			r[len(r)-1].Elements = m.elements
		}
	}
	return c, st
}

func (m *unitModel) exprs(xs []parser.Expr) Poly {
	total := Zero()
	for _, x := range xs {
		c, _ := m.expr(x)
		total = total.Add(c)
	}
	return total
}

// assign updates the preconditions after LHS = RHS.
func (m *unitModel) assign(lhs, rhs parser.Expr, e env) {
	if c, ok := lhs.(*parser.Component); ok {
		if name, ok := m.componentVar(c); ok {
			m.compVars = true
			if v, ok := m.value(rhs, e, nil); ok {
				e[name] = v
			} else {
				m.forget(e, name)
			}
		} else if id := modName(lhs); id != nil && m.hasSelectors() {
			m.forgetSelector(e, id.Name) // H%NX = 1 with ASSOCIATE (H => G)
		}
		return
	}
	id, ok := lhs.(*parser.Ident)
	if !ok {
		return
	}
	if m.hasSelectors() {
		m.forgetSelector(e, id.Name) // M = 1 with ASSOCIATE (M => G%N)
	}
	sym := m.sc.Lookup(id.Name)
	if sym == nil || sym.Rank() > 0 || sym.Type != "INTEGER" || m.keep[id.Name] {
		m.forget(e, id.Name)
		return
	}
	// A formal or COMMON variable given a known value holds it from
	// here on, in terms of the values on entry (N = 2*N: 2·N).
	if v, ok := m.value(rhs, e, nil); ok {
		e[id.Name] = v
	} else if u, ok := m.assignedUnknown(id, sym); ok {
		e[id.Name] = u // a placeholder until a use needs it (nameValue)
	} else {
		m.forget(e, id.Name)
	}
}

// assignedUnknown is the value of a local integer assigned a value that
// is not a polynomial (NLOC = N / NP, with NP from MPI_COMM_SIZE): one
// unknown per assignment, the same at every use it reaches, so that
// DO J = 1, NLOC and U(1:N, 1:NLOC) share it. A formal or COMMON
// variable is not a local: forget marks it as changed. What goes in the
// preconditions is a placeholder, made an unknown (numbered, with its
// note) only when a value needs it: an assignment no count uses, such
// as I = I + 1 in a DO WHILE, makes none.
func (m *unitModel) assignedUnknown(id *parser.Ident, sym *parser.Symbol) (Poly, bool) {
	if sym.Dummy || sym.InCommon || m.changedFormal(id.Name) || !m.topLevelAssign(id) {
		return Poly{}, false
	}
	return Var(fmt.Sprintf("%s%s@%d", assignedPrefix, id.Name, m.line(id.Pos()))), true
}

// indexOut removes a loop's index from the cost of its body where the
// loop is not summed over it (its range or its body is not polynomial):
// the index has no value outside the loop, and a count with it would
// be no count at all. It becomes a new unknown, a value the index takes,
// with its note.
func (m *unitModel) indexOut(body Poly, idx string, d *parser.DoStmt, notes *[]string) Poly {
	probe, ok := substGuarded(body, idx, Var("\x00probe"))
	if ok && probe.Equal(body) {
		return body
	}
	u, note := m.newUnknown(fmt.Sprintf("a value of %s in the DO loop at line %d", idx, m.line(d.Pos())))
	*notes = append(*notes, "the body's cost depends on "+idx+": "+note)
	if out, ok := substGuarded(body, idx, u); ok {
		return out
	}
	return body
}

// topLevelAssign reports whether id is the left side of an assignment
// statement of the unit's top level, not inside a loop or an IF: the
// set-up of a program (NLOC = N / NP, the local block's size), whose
// value every later statement sees. Inside constructs the value may
// differ between executions, and the old reading (an unknown at each
// use) is kept.
func (m *unitModel) topLevelAssign(id *parser.Ident) bool {
	if m.topAssigns == nil {
		m.topAssigns = map[*parser.Ident]bool{}
		for _, s := range m.u.Body {
			if a, ok := s.(*parser.AssignStmt); ok {
				if l, ok := a.LHS.(*parser.Ident); ok {
					m.topAssigns[l] = true
				}
			}
		}
	}
	return m.topAssigns[id]
}

// assignedPrefix starts the placeholders of assignedUnknown (no Fortran
// name starts with it).
const assignedPrefix = "\x00assigned:"

// assignedValue makes the unknown a placeholder stands for, once.
func (m *unitModel) assignedValue(p Poly) (Poly, bool) {
	vars := p.Vars()
	if len(vars) != 1 || !strings.HasPrefix(vars[0], assignedPrefix) {
		return Poly{}, false
	}
	if u, ok := m.assigned[vars[0]]; ok {
		return u, true
	}
	name, line, _ := strings.Cut(strings.TrimPrefix(vars[0], assignedPrefix), "@")
	u, note := m.newUnknown(fmt.Sprintf("the value of %s assigned at line %s", name, line))
	m.res.Notes = append(m.res.Notes, note)
	if m.assigned == nil {
		m.assigned = map[string]Poly{}
	}
	m.assigned[vars[0]] = u
	return u, true
}

// modified marks, in the preconditions, a formal that no longer holds
// its value on entry and whose value is not known (an absent formal
// stands for its value on entry).
var modified = Var("\x00modified")

// forget drops what is known of a variable that may have changed: a
// local becomes unknown and a formal is marked modified; a COMMON
// variable stays a symbol, as the report keeps COMMON variables (seed
// 004 §5.2), and so does a variable the user keeps.
func (m *unitModel) forget(e env, name string) {
	if m.hasSelectors() {
		// An associate name changes its selector's variable (ASSOCIATE
		// (H => G), H%NX = 1: G%NX is no longer known).
		m.forgetSelector(e, name)
	}
	if RootOf(name) == name {
		if m.compVars {
			forgetComponents(e, name)
		}
		if !m.changedFormal(name) {
			// The components the unit itself assigns (X%C = ...) no longer
			// hold their values on entry, though X as a whole does.
			for _, k := range m.definiteComps[name] {
				e[k] = modified
			}
		}
	}
	if m.changedFormal(name) {
		e[name] = modified
		return
	}
	delete(e, name)
}

// hasSelectors reports whether the unit has associate names (ASSOCIATE,
// SELECT TYPE): only then does forget look through them.
func (m *unitModel) hasSelectors() bool {
	if m.selectors == 0 {
		m.selectors = 2
		if m.sc != nil {
			for _, sym := range m.sc.Syms {
				if sym.Selector != nil {
					m.selectors = 1
					break
				}
			}
		}
	}
	return m.selectors == 1
}

// selectorRoot is the variable the associate name at the root of name
// stands for (H%NX with ASSOCIATE (H => G%SUB): G), or "".
func (m *unitModel) selectorRoot(name string) string {
	root := RootOf(name)
	sym := m.sc.Lookup(root)
	if sym == nil || sym.Selector == nil {
		return ""
	}
	if id := RootIdent(sym.Selector); id != nil && id.Name != root {
		return id.Name
	}
	return ""
}

// forgetSelector forgets the selector's variable of an associate name.
func (m *unitModel) forgetSelector(e env, name string) {
	if r := m.selectorRoot(name); r != "" && m.aliasDepth < 16 {
		m.aliasDepth++
		m.forget(e, r)
		m.aliasDepth--
	}
}

// addSelectors adds to out the selectors' variables of the associate
// names in it, and theirs.
func (m *unitModel) addSelectors(out map[string]bool) {
	if !m.hasSelectors() {
		return
	}
	for depth := 0; depth < 16; depth++ {
		added := false
		for k := range out {
			if r := m.selectorRoot(k); r != "" && !out[r] {
				out[r] = true
				added = true
			}
		}
		if !added {
			return
		}
	}
}

// changedFormal reports whether a formal may really change in the unit:
// it assigns or reads it, or passes it to a routine in view that writes
// it. Passed to a routine whose body is not in view, it keeps its value
// on entry (the optimistic reading of an external call, such as
// CALL XERBLA('DGEMM', INFO) or a BLAS call with N).
func (m *unitModel) changedFormal(name string) bool {
	if c, ok := m.changed[name]; ok {
		return c
	}
	if m.changed == nil {
		m.changed = map[string]bool{}
	}
	c := m.isChangedFormal(name)
	m.changed[name] = c
	return c
}

func (m *unitModel) isChangedFormal(name string) bool {
	root := RootOf(name)
	sym := m.sc.Lookup(root)
	if sym == nil || !sym.Dummy || m.keep[name] {
		return false
	}
	if m.definite == nil {
		m.definite = map[string]bool{}
		for _, s := range m.u.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				switch x := n.(type) {
				case *parser.CallStmt:
					if m.procs == nil {
						return true
					}
					name := m.procName(x.Name.Name, x.Args)
					if callee, ok := m.procs.summary(name); ok && callee.Mod != nil {
						for k := range m.callMod(name, x.Args) {
							m.definite[k] = true
						}
					}
				case *parser.AssignStmt, *parser.DoStmt, *parser.IOStmt:
					m.addModOf(x.(parser.Stmt), m.definite)
					return false // addModOf walked it
				case parser.Expr:
					m.funcMods(x, m.definite) // an IF's condition, a CALL's arguments
					return false
				}
				return true
			})
		}
		m.addSelectors(m.definite)
		for k := range m.definite {
			if r := RootOf(k); r != k {
				if m.definiteComps == nil {
					m.definiteComps = map[string][]string{}
				}
				m.definiteComps[r] = append(m.definiteComps[r], k)
			}
		}
	}
	return m.definite[name] || m.definite[root]
}

// forgetAll forgets every variable, as at a label a jump reaches: the
// formals the unit may assign are marked modified.
func (m *unitModel) forgetAll(e env) {
	for k := range e {
		delete(e, k)
	}
	for k := range m.writtenSet() {
		if m.changedFormal(k) {
			e[k] = modified
		}
	}
}

// symbolic reports whether a variable stays a symbol in results: a formal
// argument, a COMMON variable, or one the user asked to keep, or an
// integer component of a formal or COMMON structure ("X%C").
func (m *unitModel) symbolic(name string) bool {
	if m.keep[name] {
		return true
	}
	sym := m.sc.Lookup(RootOf(name))
	return sym != nil && (sym.Dummy || sym.InCommon)
}

// value converts an integer expression to a polynomial in symbolic
// variables, loop indices and known values; ok is false when it is not
// polynomial (a function call, a division by a non-monomial, an unknown
// local variable). st, if not nil, counts the variables met.
func (m *unitModel) value(x parser.Expr, e env, st *Stats) (Poly, bool) {
	return polyOf(x, func(v *parser.Ident) (Poly, bool) { return m.nameValue(v, e, st) },
		func(x parser.Expr) (Poly, bool) {
			switch v := x.(type) {
			case *parser.Call:
				return m.inquiryValue(v, e)
			case *parser.Component:
				return m.componentValue(v, e, st)
			}
			return Poly{}, false
		})
}

// nameValue is the polynomial of one name for value.
func (m *unitModel) nameValue(v *parser.Ident, e env, st *Stats) (Poly, bool) {
	if m.keep[v.Name] {
		if st != nil {
			st.VarSymbolic++
		}
		return m.memo.variable(v.Name), true
	}
	if p, ok := e[v.Name]; ok && p.Equal(modified) {
		if st != nil {
			st.VarUnknown++
		}
		return Poly{}, false
	} else if ok {
		if u, isPlaceholder := m.assignedValue(p); isPlaceholder {
			if st != nil {
				st.VarUnknown++
			}
			return u, true
		}
		if st != nil {
			if isSymbolOnly(p, v.Name) {
				st.VarSymbolic++
			} else {
				st.VarGuessed++
			}
		}
		return p, true
	}
	if sym := m.sc.Lookup(v.Name); sym != nil && sym.Param != nil {
		if p, ok := m.paramValue(sym); ok {
			if st != nil {
				st.VarKnown++
			}
			return p, true
		}
	}
	if m.symbolic(v.Name) {
		if st != nil {
			st.VarSymbolic++
		}
		return m.memo.variable(v.Name), true
	}
	if st != nil {
		st.VarUnknown++
	}
	if u, ok := m.entryValue(v.Name); ok {
		return u, true
	}
	return Poly{}, false
}

// writtenSet is every name the unit may assign.
func (m *unitModel) writtenSet() map[string]bool {
	if m.written == nil {
		m.written = map[string]bool{}
		for _, s := range m.u.Body {
			m.addModOf(s, m.written)
		}
		m.addSelectors(m.written)
	}
	return m.written
}

// entryValue is the value of an integer local that the unit never
// assigns (nor reads, nor passes where it may change): the same unknown
// at every use, so that DO I = 1, N and DO J = 1, N share it.
func (m *unitModel) entryValue(name string) (Poly, bool) {
	if u, ok := m.entry[name]; ok {
		return u, true
	}
	sym := m.sc.Lookup(name)
	if sym == nil || sym.Kind != parser.SymVariable || sym.Rank() > 0 || sym.Param != nil || typeFromName(m.sc.TypeOf(name)) != TInt {
		return Poly{}, false
	}
	if m.writtenSet()[name] {
		return Poly{}, false
	}
	u, _ := m.newUnknown(fmt.Sprintf("the value of %s, which %s never assigns", name, m.u.Name))
	if m.entry == nil {
		m.entry = map[string]Poly{}
	}
	m.entry[name] = u
	return u, true
}

// PolyOf converts an arithmetic expression to a polynomial: literals
// take their values, each name is what name returns, and +, -, *, / and
// integer powers are exact; a component X%C of a structure variable is
// the name "X%C". ok is false when a part is not polynomial (a function
// call, a division by a non-monomial, a name without one).
func PolyOf(x parser.Expr, name func(*parser.Ident) (Poly, bool)) (Poly, bool) {
	return polyOf(x, name, func(x parser.Expr) (Poly, bool) {
		// X%C of a structure variable X is the name "X%C".
		if c, ok := x.(*parser.Component); ok && c.Name != nil {
			if id, ok := c.X.(*parser.Ident); ok {
				return name(&parser.Ident{NamePos: id.Pos(), Name: id.Name + "%" + c.Name.Name})
			}
		}
		return Poly{}, false
	})
}

// polyOf is PolyOf where other, if not nil, gives the value of a function
// reference or a structure component (ok false when it has none).
func polyOf(x parser.Expr, name func(*parser.Ident) (Poly, bool), other func(parser.Expr) (Poly, bool)) (Poly, bool) {
	switch v := x.(type) {
	case *parser.Lit:
		return literal(v)
	case *parser.Ident:
		return name(v)
	case *parser.Call, *parser.Component:
		if other != nil {
			return other(v)
		}
		return Poly{}, false
	case *parser.Paren:
		return polyOf(v.X, name, other)
	case *parser.Unary:
		p, ok := polyOf(v.X, name, other)
		switch v.Op {
		case "-":
			return p.Neg(), ok
		case "+":
			return p, ok
		}
		return Poly{}, false
	case *parser.Binary:
		a, ok1 := polyOf(v.X, name, other)
		b, ok2 := polyOf(v.Y, name, other)
		if !ok1 || !ok2 {
			return Poly{}, false
		}
		switch v.Op {
		case "+":
			return a.Add(b), true
		case "-":
			return a.Sub(b), true
		case "*":
			return a.Mul(b), true
		case "/":
			return a.Div(b)
		case "**":
			if k, ok := b.Value(); ok && k.IsInt() && k.Num().IsInt64() {
				return a.Pow(int(k.Num().Int64()))
			}
		}
	}
	return Poly{}, false
}

// literal is the value of an integer or real literal constant, its kind
// parameter dropped.
func literal(v *parser.Lit) (Poly, bool) {
	if literalTooLarge(v.Value) {
		return tooLarge(), true
	}
	if v.Kind != parser.IntLit {
		if v.Kind == parser.RealLit {
			if r, ok := new(big.Rat).SetString(strings.NewReplacer("D", "E", "Q", "E").Replace(strings.SplitN(v.Value, "_", 2)[0])); ok {
				return Rat(r), true
			}
		}
		return Poly{}, false
	}
	digits, _, _ := strings.Cut(v.Value, "_")
	if n, err := strconv.ParseInt(digits, 10, 64); err == nil {
		return Int(n), true
	}
	r, ok := new(big.Rat).SetString(digits)
	if !ok {
		return Poly{}, false
	}
	return Rat(r), true
}

func isSymbolOnly(p Poly, name string) bool {
	vs := p.Vars()
	return len(vs) == 1 && vs[0] == name && p.Equal(Var(name))
}

// probability returns the probability that a condition holds: 1 or 0
// when it can be decided from constants and known values, else 1/2.
func (m *unitModel) probability(cond parser.Expr, e env) (*big.Rat, bool) {
	if b, ok := m.truth(cond, e); ok {
		if b {
			return ratOne, true
		}
		return ratZero, true
	}
	return ratHalf, false
}

// The probabilities a condition gets (shared: never to be modified).
var (
	ratZero = new(big.Rat)
	ratHalf = big.NewRat(1, 2)
	ratOne  = big.NewRat(1, 1)
)

// scaleCoef is p.Scale for a coefficient: c·p.
func scaleCoef(p Poly, c coef) Poly {
	if c.sign() == 0 || len(p.terms) == 0 {
		return Poly{}
	}
	return p.scale(c)
}

func (m *unitModel) truth(x parser.Expr, e env) (bool, bool) {
	switch v := x.(type) {
	case *parser.Lit:
		if v.Kind == parser.LogicalLit {
			return strings.HasPrefix(v.Value, ".TRUE."), true
		}
	case *parser.Paren:
		return m.truth(v.X, e)
	case *parser.Unary:
		if v.Op == ".NOT." {
			b, ok := m.truth(v.X, e)
			return !b, ok
		}
	case *parser.Binary:
		switch v.Op {
		case ".AND.", ".OR.":
			a, ok1 := m.truth(v.X, e)
			b, ok2 := m.truth(v.Y, e)
			if !ok1 || !ok2 {
				return false, false
			}
			if v.Op == ".AND." {
				return a && b, true
			}
			return a || b, true
		}
		a, ok1 := m.value(v.X, e, nil)
		b, ok2 := m.value(v.Y, e, nil)
		if !ok1 || !ok2 {
			return false, false
		}
		d, ok := a.Sub(b).Value()
		if !ok {
			return false, false
		}
		switch v.Op {
		case ".EQ.", "==":
			return d.Sign() == 0, true
		case ".NE.", "/=":
			return d.Sign() != 0, true
		case ".LT.", "<":
			return d.Sign() < 0, true
		case ".LE.", "<=":
			return d.Sign() <= 0, true
		case ".GT.", ">":
			return d.Sign() > 0, true
		case ".GE.", ">=":
			return d.Sign() >= 0, true
		}
	}
	return false, false
}

// ---------------------------------------------------------------------------
// Constructs

// assignedIn returns the variables a loop's body may change, computed once
// per loop (nested loops would otherwise walk their bodies again).
func (m *unitModel) assignedIn(c *parser.DoConstruct) map[string]bool {
	if s, ok := m.sets[c]; ok {
		return s
	}
	if m.sets == nil {
		m.sets = map[*parser.DoConstruct]map[string]bool{}
	}
	s := map[string]bool{}
	m.collectSets(c.Body, s)
	m.funcMods(c.Do.While, s) // evaluated before every iteration
	m.addSelectors(s)
	m.sets[c] = s
	return s
}

// collectSets records, in one walk, the variables each loop of a
// statement list may change, and adds those of the whole list to into.
func (m *unitModel) collectSets(list []parser.Stmt, into map[string]bool) {
	ok := m.enter()
	defer m.leave()
	if !ok {
		return // too deep: stmt gives up on the construct
	}
	for _, s := range list {
		switch x := s.(type) {
		case *parser.DoConstruct:
			set := map[string]bool{}
			m.collectSets(x.Body, set)
			// A DO WHILE's condition runs before every iteration: what its
			// functions change, the loop changes (DO WHILE (NEXT(K) < N)).
			m.funcMods(x.Do.While, set)
			m.sets[x] = set
			if x.Do.Var != nil {
				into[x.Do.Var.Name] = true
			}
			for _, b := range []parser.Expr{x.Do.Lo, x.Do.Hi, x.Do.Step} {
				m.funcMods(b, into)
			}
			for k := range set {
				into[k] = true
			}
		case *parser.IfConstruct:
			for _, a := range x.Arms {
				if h, ok := a.Head.(*parser.IfThenStmt); ok {
					m.funcMods(h.Cond, into)
				}
				m.collectSets(a.Body, into)
			}
		case *parser.Block:
			if h, ok := x.Head.(*parser.SelectStmt); ok {
				m.funcMods(h.X, into)
			}
			m.collectSets(x.Body, into)
			for _, a := range x.Arms {
				m.collectSets(a.Body, into)
			}
		default:
			m.addModOf(s, into)
		}
	}
}

// isExpr reports whether n is an expression: the walks that look for
// statements need not enter it.
func isExpr(n parser.Node) bool {
	_, ok := n.(parser.Expr)
	return ok
}

// RootIdent is the variable at the root of a designator: A in A(I),
// G in G%U(I, J) or G(I)%A%N; nil for another expression.
func RootIdent(x parser.Expr) *parser.Ident {
	for {
		switch v := x.(type) {
		case *parser.Ident:
			return v
		case *parser.Call:
			x = v.Fun
		case *parser.Component:
			x = v.X
		default:
			return nil
		}
	}
}

// parallel reports whether a loop runs its iterations in parallel: DO
// CONCURRENT, or a loop under INDEPENDENT or an OpenMP loop directive.
func parallel(c *parser.DoConstruct) bool {
	if c.Do.Concurrent != nil {
		return true
	}
	for _, d := range c.Directives {
		switch d.Name {
		case "INDEPENDENT", "PARALLEL DO", "DO", "PARALLEL DO SIMD", "DO SIMD", "TASKLOOP", "LOOP",
			"DISTRIBUTE PARALLEL DO", "TEAMS DISTRIBUTE PARALLEL DO", "TARGET TEAMS DISTRIBUTE PARALLEL DO":
			return true
		}
	}
	return false
}

// parallel reports whether a loop runs its iterations in parallel on
// its own or as one of the loops an enclosing COLLAPSE joins.
func (m *unitModel) parallel(c *parser.DoConstruct) bool {
	return parallel(c) || m.collapsed[c]
}

// collapse marks the loops that the COLLAPSE(n) clause of a parallel
// loop's OpenMP directive joins to it: the n - 1 loops nested in it, each
// the only statement of the body around it (OpenMP 5.2 §4.4.3: the
// collapsed loops' iterations form one iteration space shared among the
// threads, so the largest parallel iteration is one of the innermost).
func (m *unitModel) collapse(c *parser.DoConstruct) {
	n := int64(1)
	for _, d := range c.Directives {
		if d.Sentinel != "OMP" {
			continue
		}
		if cs, ok := d.Spec.(*parser.ClauseSpec); ok {
			for _, cl := range cs.Clauses {
				if cl.Name == "COLLAPSE" && len(cl.Args) == 1 {
					if v, ok := parser.EvalInt(cl.Args[0], nil); ok && v > n {
						n = v
					}
				}
			}
		}
	}
	for ; n > 1; n-- {
		if len(c.Body) != 1 {
			return
		}
		in, ok := c.Body[0].(*parser.DoConstruct)
		if !ok || in.Do.Var == nil {
			return
		}
		if m.collapsed == nil {
			m.collapsed = map[*parser.DoConstruct]bool{}
		}
		m.collapsed[in] = true
		c = in
	}
}

// doLoop is formula (1) of seed 004 §4.4.4 — bounds plus the sum of the
// body over the index — or formula (2) for a parallel loop.
func (m *unitModel) doLoop(c *parser.DoConstruct, e env) (Poly, Stats) {
	d := c.Do
	var st Stats
	var notes []string
	if parallel(c) {
		m.spanDiffers = true
		m.collapse(c)
	}
	// The cost of evaluating the bounds, once.
	bounds := Zero()
	for _, x := range []parser.Expr{d.Lo, d.Hi, d.Step, d.While} {
		if x != nil {
			b, _ := m.expr(x)
			bounds = bounds.Add(b)
		}
	}
	m.funcEffects(e, d.Lo, d.Hi, d.Step)
	// Variables the body changes are unknown inside it.
	changed := m.assignedIn(c)
	inner := e.clone()
	for k := range changed {
		m.forget(inner, k)
	}
	var total Poly
	switch {
	case d.Var != nil && d.Lo != nil && d.Hi != nil:
		lo, okLo := m.value(d.Lo, e, &st)
		hi, okHi := m.value(d.Hi, e, &st)
		step := Int(1)
		okStep := true
		if d.Step != nil {
			step, okStep = m.value(d.Step, e, &st)
		}
		idx := d.Var.Name
		inner[idx] = m.memo.variable(idx)
		body, bst := m.list(c.Body, inner)
		st.add(bst)
		body = body.Add(m.cost.PerIteration)
		if floorsDependOn(body, idx) {
			// A blocked loop of a callee over this index: its floor is not
			// summed exactly.
			if b, ns, ok := dropFloors(body, idx); ok {
				body = b
				notes = append(notes, ns...)
			}
		}
		if !(m.spanMode && m.parallel(c)) {
			if sum, ok := m.exactLoop(d, body, e, &st, &notes); ok {
				total = bounds.Add(sum)
				break
			}
		}
		trip, okTrip := Poly{}, false
		if okLo && okHi && okStep {
			trip, okTrip = TripCount(lo, hi, step)
		}
		switch {
		case !okTrip:
			st.RangeUnknown++
			u, note := m.newUnknown(fmt.Sprintf("the iterations of the DO %s loop at line %d", idx, m.line(d.Pos())))
			notes = append(notes, "loop range unknown: "+note)
			// The body at an unknown iteration, times the unknown range.
			b := body
			if okLo {
				b, _ = substGuarded(body, idx, lo)
			}
			b = m.indexOut(b, idx, d, &notes)
			total = bounds.Add(b.Mul(u))
		case m.parallel(c) && m.spanMode:
			st.RangeGuessed++
			total = bounds.Add(m.nonEmpty(lo, hi, step).Mul(m.largest(body, idx, lo, hi, step, &notes)))
		default:
			st.RangeGuessed++
			sum, ok := SumStep(body, idx, lo, hi, step)
			if !ok {
				sum = m.indexOut(body, idx, d, &notes).Mul(trip)
				notes = append(notes, "body cost not polynomial in "+idx+": multiplied by the trip count")
			}
			total = bounds.Add(sum)
		}
	case d.While != nil:
		body, bst := m.list(c.Body, inner)
		st.add(bst)
		cond, _ := m.expr(d.While)
		st.RangeUnknown++
		u, note := m.newUnknown(fmt.Sprintf("the iterations of the DO WHILE loop at line %d", m.line(d.Pos())))
		notes = append(notes, "DO WHILE: iterations unknown: "+note)
		total = cond.Add(cond.Add(body).Add(m.cost.PerIteration).Mul(u))
	case d.Concurrent != nil:
		body, bst := m.list(c.Body, inner)
		st.add(bst)
		total = m.forallCost(d.Concurrent, body, e, &st, &notes)
	default: // DO forever
		body, bst := m.list(c.Body, inner)
		st.add(bst)
		st.RangeUnknown++
		u, note := m.newUnknown(fmt.Sprintf("the iterations of the endless DO loop at line %d", m.line(d.Pos())))
		notes = append(notes, "DO without a range: iterations unknown: "+note)
		total = body.Add(m.cost.PerIteration).Mul(u)
	}
	total = total.Add(m.cost.PerLoop)
	// After the loop, what it changed, and its index, are unknown.
	for k := range changed {
		m.forget(e, k)
	}
	if d.Var != nil {
		m.forget(e, d.Var.Name)
	}
	m.record(c, "DO", total, st, notes...)
	return total, st
}

// largest returns the cost of the largest iteration of a parallel loop:
// the body at the first or the last index, whichever is larger when that
// can be told, else at the first (seed 004 §4.4.5).
func (m *unitModel) largest(body Poly, idx string, lo, hi, step Poly, notes *[]string) Poly {
	first, ok1 := substGuarded(body, idx, lo)
	if !body.Has(idx) {
		return body
	}
	last := Poly{}
	ok2 := false
	if trip, ok := TripCount(lo, hi, step); ok {
		// The last index is lo + (trip-1)*step.
		last, ok2 = substGuarded(body, idx, lo.Add(trip.Sub(Int(1)).Mul(step)))
	}
	if ok1 && ok2 {
		if d, ok := last.Sub(first).Value(); ok {
			if d.Sign() > 0 {
				return last
			}
			return first
		}
	}
	*notes = append(*notes, "largest iteration taken at the first index")
	if ok1 {
		return first
	}
	return body
}

func (m *unitModel) forallCost(h *parser.ForallHeader, body Poly, e env, st *Stats, notes *[]string) Poly {
	m.spanDiffers = true
	total := Zero()
	if h == nil {
		return body
	}
	specs := forallSpecs(h)
	for _, s := range specs {
		for _, x := range []parser.Expr{s.Lo, s.Hi, s.Stride} {
			if x != nil {
				c, _ := m.expr(x)
				total = total.Add(c)
			}
		}
	}
	if h.Mask != nil {
		c, _ := m.expr(h.Mask)
		body = body.Add(c)
	}
	for i := len(specs) - 1; i >= 0; i-- {
		s := specs[i]
		lo, ok1 := m.value(s.Lo, e, st)
		hi, ok2 := m.value(s.Hi, e, st)
		step := Int(1)
		ok3 := true
		if s.Stride != nil {
			step, ok3 = m.value(s.Stride, e, st)
		}
		if ok1 && ok2 && ok3 {
			st.RangeGuessed++
			if m.spanMode {
				body = m.nonEmpty(lo, hi, step).Mul(m.largest(body, s.Var.Name, lo, hi, step, notes))
			} else {
				body = m.forallSum(body, s, e, lo, hi, step, notes)
			}
		} else {
			st.RangeUnknown++
			u, note := m.newUnknown(fmt.Sprintf("the values of FORALL index %s at line %d", s.Var.Name, m.line(s.Var.Pos())))
			*notes = append(*notes, "FORALL range unknown: "+note)
			if !m.spanMode {
				body = body.Mul(u)
			}
		}
	}
	return total.Add(body)
}

// forall prices FORALL as a parallel loop: its largest iteration.
func (m *unitModel) forall(x *parser.ForallStmt, e env, record bool) (Poly, Stats) {
	var st Stats
	var notes []string
	body := Zero()
	if x.Body != nil {
		inner := e.clone()
		for _, s := range forallSpecs(x.Header) {
			inner[s.Var.Name] = Var(s.Var.Name)
		}
		body, st = m.simple(x.Body, inner, false)
	}
	c := m.forallCost(x.Header, body, e, &st, &notes)
	if record {
		m.record(x, "DO", c, st, notes...)
	}
	return c, st
}

// ifConstruct: condition + p·then + (1−p)·else, arm by arm (seed 004 §4.4.3).
func (m *unitModel) ifConstruct(c *parser.IfConstruct, e env) (Poly, Stats) {
	var st Stats
	var notes []string
	hasElse := false
	if _, ok := c.Arms[len(c.Arms)-1].Head.(*parser.SimpleStmt); ok {
		hasElse = true
	}
	// Counts a profile measured give each arm the probability of being
	// taken when the arms before it were not: its count over what the
	// arms before it left.
	heads := make([]parser.Stmt, len(c.Arms))
	for i, a := range c.Arms {
		heads[i] = a.Head
	}
	counts, measured := m.measuredArms(heads, c.EndStmt, hasElse)
	left := func(i int) int64 {
		n := counts.reached
		for _, t := range counts.taken[:i] {
			n -= t
		}
		return n
	}
	// The conditions run in turn until one holds: arm i starts after the
	// functions of conditions 0..i have run (IF (DECR(K) > 0) THEN
	// changes K for every arm and after the construct), before[i] is
	// what condition i sees.
	before := make([]env, len(c.Arms))
	after := make([]env, len(c.Arms))
	cur := e
	for i, a := range c.Arms {
		before[i] = cur
		if h, ok := a.Head.(*parser.IfThenStmt); ok && m.hasUserFunctions(h.Cond) {
			cur = cur.clone()
			m.funcEffects(cur, h.Cond)
		}
		after[i] = cur
	}
	// Walk the arms from the last: the cost of "the rest" after arm i.
	rest := Zero()
	envs := []env{}
	for i := len(c.Arms) - 1; i >= 0; i-- {
		arm := c.Arms[i]
		inner := after[i].clone()
		body, bst := m.list(arm.Body, inner)
		envs = append(envs, inner)
		st.add(bst)
		h, ok := arm.Head.(*parser.IfThenStmt)
		if !ok { // ELSE
			rest = body
			continue
		}
		cond, _ := m.expr(h.Cond)
		var p *big.Rat
		if measured {
			p = new(big.Rat) // an arm never reached: its weight is 0 anyway
			if n := left(i); n > 0 {
				p.SetFrac64(counts.taken[i], n)
			}
			st.IfMeasured++
			notes = append(notes, measuredNote(p, counts.taken[i], left(i)))
		} else {
			var computed bool
			p, computed = m.probability(h.Cond, before[i])
			if computed {
				st.IfComputed++
			} else {
				st.IfHalfHalf++
			}
			notes = append(notes, probNote(p, computed))
		}
		// body·p + rest·(1 − p), in small coefficients where they fit.
		pc := coefFromRat(p)
		rest = cond.Add(scaleCoef(body, pc)).Add(scaleCoef(rest, coefOne.add(pc.neg())))
	}
	// A variable keeps its value after the IF only if every arm agrees.
	if !hasElse {
		// No arm taken: every condition ran (mergeAll reads each key
		// before it writes it, so cur may be e itself).
		envs = append(envs, cur)
	}
	m.mergeAll(e, envs)
	m.record(c, "IF", rest, st, notes...)
	return rest, st
}

// merge keeps in out the values a and b agree on.
func (m *unitModel) merge(out, a, b env) {
	m.mergeAll(out, []env{a, b})
}

func (m *unitModel) mergeAll(out env, envs []env) {
	keys := map[string]bool{}
	for _, e := range envs {
		for k := range e {
			keys[k] = true
		}
	}
	for k := range out {
		keys[k] = true
	}
	for k := range keys {
		var v Poly
		agree := true
		for i, e := range envs {
			w, ok := e[k]
			if !ok || i > 0 && !w.Equal(v) {
				agree = false
				break
			}
			v = w
		}
		if agree && len(envs) > 0 {
			out[k] = v
		} else {
			m.forget(out, k)
		}
	}
}

// caseTaken finds the arm of a SELECT CASE that runs when the selector
// and every case value are numbers where the construct stands (a
// PARAMETER, a value the preconditions know): its index, or -1 when no
// case matches and there is no CASE DEFAULT; known is false when some
// value is not a number.
func (m *unitModel) caseTaken(selector parser.Expr, arms []*parser.IfArm, e env) (taken int, known bool) {
	num := func(x parser.Expr) (*big.Rat, bool) {
		p, ok := m.value(x, e, nil)
		if !ok {
			return nil, false
		}
		return p.Value()
	}
	sv, ok := num(selector)
	if !ok {
		return -1, false
	}
	def := -1
	for i, a := range arms {
		if sm, ok := a.Head.(*parser.SimpleStmt); ok && sm.Keyword == "CASEDEFAULT" {
			def = i
			continue
		}
		cs, ok := a.Head.(*parser.CaseStmt)
		if !ok {
			return -1, false
		}
		if cs.Default {
			def = i
			continue
		}
		for _, v := range cs.Values {
			if t, ok := v.(*parser.Triplet); ok {
				in := true
				if t.Lo != nil {
					lo, ok := num(t.Lo)
					if !ok {
						return -1, false
					}
					in = in && sv.Cmp(lo) >= 0
				}
				if t.Hi != nil {
					hi, ok := num(t.Hi)
					if !ok {
						return -1, false
					}
					in = in && sv.Cmp(hi) <= 0
				}
				if in {
					return i, true
				}
				continue
			}
			x, ok := num(v)
			if !ok {
				return -1, false
			}
			if sv.Cmp(x) == 0 {
				return i, true
			}
		}
	}
	return def, true
}

// block prices SELECT CASE (each arm equally likely), WHERE (as IF) and
// the other blocks (their bodies in order).
func (m *unitModel) block(b *parser.Block, e env) (Poly, Stats) {
	var st Stats
	switch h := b.Head.(type) {
	case *parser.SelectStmt:
		sel, _ := m.expr(h.X)
		n := int64(len(b.Arms))
		hasDefault := false
		for _, a := range b.Arms {
			if cs, ok := a.Head.(*parser.CaseStmt); ok && cs.Default {
				hasDefault = true
			}
			// CLASS DEFAULT, SELECT TYPE's default arm (F2018 11.1.11),
			// and CASE DEFAULT where it comes as a statement of that
			// keyword.
			if sm, ok := a.Head.(*parser.SimpleStmt); ok && (sm.Keyword == "CLASSDEFAULT" || sm.Keyword == "CASEDEFAULT") {
				hasDefault = true
			}
		}
		if !hasDefault {
			n++
		}
		heads := make([]parser.Stmt, len(b.Arms))
		for i, a := range b.Arms {
			heads[i] = a.Head
		}
		// CASE DEFAULT may come as a statement of keyword CASEDEFAULT,
		// which the guess above does not see: the counts do.
		complete := hasDefault
		for _, a := range b.Arms {
			if sm, ok := a.Head.(*parser.SimpleStmt); ok && sm.Keyword == "CASEDEFAULT" {
				complete = true
			}
		}
		counts, measured := m.measuredArms(heads, b.EndStmt, complete)
		taken, known := -1, false
		if !measured {
			taken, known = m.caseTaken(h.X, b.Arms, e)
		}
		m.funcEffects(e, h.X) // SELECT CASE (NEXT(K)): every arm sees K changed
		total := sel
		var envs []env
		var notes []string
		for i, a := range b.Arms {
			inner := e.clone()
			c, ast := m.list(a.Body, inner)
			if known && i != taken {
				continue // never runs: its values leave the environment alone
			}
			envs = append(envs, inner)
			st.add(ast)
			switch {
			case known:
				total = total.Add(c)
			case measured:
				p := big.NewRat(counts.taken[i], counts.reached)
				notes = append(notes, measuredNote(p, counts.taken[i], counts.reached))
				total = total.Add(c.Scale(p))
			case n > 0:
				total = total.Add(c.Scale(big.NewRat(1, n)))
			}
		}
		if !hasDefault && (!known || taken < 0) {
			envs = append(envs, e.clone())
		}
		m.mergeAll(e, envs)
		switch {
		case known:
			st.IfComputed++
			if taken >= 0 {
				notes = []string{fmt.Sprintf("the selector is %s: the case at line %d is taken", parser.ExprString(h.X), m.line(b.Arms[taken].Head.Pos()))}
			} else {
				notes = []string{fmt.Sprintf("the selector is %s: no case is taken", parser.ExprString(h.X))}
			}
		case measured:
			st.IfMeasured++
		default:
			st.IfHalfHalf++
			notes = []string{fmt.Sprintf("each of %d cases taken with probability 1/%d", n, n)}
		}
		m.record(b, "IF", total, st, notes...)
		return total, st
	case *parser.WhereStmt:
		mask, once, _ := m.exprOnce(h.Mask)
		for _, s := range b.Body {
			if a, ok := s.(*parser.AssignStmt); ok {
				mask = m.arrayWork(a.LHS, mask, once, e, &m.res.Notes)
				break
			}
		}
		body, bst := m.list(b.Body, e)
		st.add(bst)
		total := mask.Add(body.Scale(big.NewRat(1, 2)))
		for _, a := range b.Arms {
			c, ast := m.list(a.Body, e)
			st.add(ast)
			if w, ok := a.Head.(*parser.WhereStmt); ok && w.Mask != nil {
				mc, _ := m.expr(w.Mask)
				c = c.Add(mc)
			}
			total = total.Add(c.Scale(big.NewRat(1, 2)))
		}
		st.IfHalfHalf++
		m.record(b, "IF", total, st, "WHERE mask true for half the elements")
		return total, st
	case *parser.ForallStmt:
		inner := e.clone()
		for _, s := range forallSpecs(h.Header) {
			inner[s.Var.Name] = Var(s.Var.Name)
		}
		body, bst := m.list(b.Body, inner)
		st.add(bst)
		var notes []string
		total := m.forallCost(h.Header, body, e, &st, &notes)
		m.record(b, "DO", total, st, notes...)
		return total, st
	case *parser.DerivedTypeStmt, *parser.InterfaceStmt:
		return Zero(), st
	}
	total, bst := m.list(b.Body, e)
	st.add(bst)
	return total, st
}

// exitValues returns the formals that hold a known value at the end of
// a unit that ends only there (no RETURN, STOP or jump before its last
// statement): values in the unit's formals alone.
func (m *unitModel) exitValues(e env) map[string]Poly {
	hdr, _ := m.u.Header.(*parser.SubprogramStmt)
	if hdr == nil {
		return nil
	}
	early := false
	for i, s := range m.u.Body {
		last := i == len(m.u.Body)-1
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.GotoStmt, *parser.ArithIfStmt:
				early = true
			case parser.Stmt:
				if k := x.Base().Keyword; (k == "RETURN" || k == "STOP") && !(last && n == s) {
					early = true
				}
			}
			return !early && !isExpr(n)
		})
	}
	if early {
		return nil
	}
	formals := map[string]bool{}
	for _, prm := range hdr.Params {
		if id, ok := prm.(*parser.Ident); ok {
			formals[id.Name] = true
		}
	}
	var out map[string]Poly
	for k, v := range e {
		if !formals[RootOf(k)] || v.Equal(modified) || isGuarded(v) {
			continue
		}
		inFormals := true
		for _, w := range v.Vars() {
			inFormals = inFormals && formals[RootOf(w)]
		}
		if !inFormals {
			continue
		}
		if out == nil {
			out = map[string]Poly{}
		}
		out[k] = v
	}
	return out
}

// call prices CALL S(args) as seed 004 §4.4.2 does: exactly the
// callee's summary with the actual arguments put for the formals, with no
// charge for the call or its arguments.
func (m *unitModel) call(c *parser.CallStmt, e env) Poly {
	name := m.procName(c.Name.Name, c.Args)
	m.res.Calls = append(m.res.Calls, name)
	total := Zero()
	callee, inView := m.procs.summary(name)
	if inView {
		total = m.instantiate(callee, c.Args, e)
	}
	m.funcEffects(e, c.Args...) // CALL S(F(N)): F runs before S
	out := m.outValues(callee, inView, c.Args, e)
	// The callee may change the arguments and COMMON variables its MOD
	// set names (all of them when its body is not in view).
	for k := range m.callMod(name, c.Args) {
		m.forget(e, k)
	}
	if obj := boundCallObject(c); obj != "" {
		m.forget(e, obj) // CALL G%INIT(N) may change G
	}
	// What it assigns them, where known.
	for k, v := range out {
		e[k] = v
	}
	return total
}

// outValues returns, for CALL S(args), the caller's variables passed for
// formals to which S assigns a known value, with that value in the
// caller's terms (the actual arguments through the preconditions before
// the call).
func (m *unitModel) outValues(callee *UnitResult, inView bool, args []parser.Expr, e env) map[string]Poly {
	if !inView || len(callee.Out) == 0 {
		return nil
	}
	hdr, _ := callee.Unit.Header.(*parser.SubprogramStmt)
	if hdr == nil {
		return nil
	}
	// The actual argument of each formal, positional or by keyword
	// (CALL DECR(M=N)).
	index := map[string]int{}
	actual := make([]parser.Expr, len(hdr.Params))
	for i, prm := range hdr.Params {
		if f, ok := prm.(*parser.Ident); ok {
			if actual[i] = ActualFor(hdr, args, i); actual[i] != nil {
				index[f.Name] = i
			}
		}
	}
	var out map[string]Poly
	for k, v := range callee.Out {
		i, ok := index[RootOf(k)]
		if !ok {
			continue
		}
		id, ok := actual[i].(*parser.Ident)
		if !ok || m.keep[id.Name] {
			continue
		}
		target := id.Name + k[len(RootOf(k)):] // N, or A%C for the formal's F%C
		sym := m.sc.Lookup(id.Name)
		switch {
		case sym == nil || sym.Rank() > 0:
			continue
		case target == id.Name && sym.Type != "INTEGER":
			continue
		case target != id.Name && (sym.TypeSpec == nil || sym.TypeSpec.Derived == ""):
			continue
		}
		// Rename the formals first, then put the actual values, so that a
		// formal named like a caller's variable cannot capture it.
		good := true
		vals := map[string]Poly{}
		for _, w := range v.Vars() {
			j, isFormal := index[RootOf(w)]
			if !isFormal {
				continue
			}
			var a Poly
			if w == RootOf(w) {
				a, good = m.value(actual[j], e, nil)
			} else {
				a, good = m.componentActual(actual[j], w[len(RootOf(w))+1:], e)
			}
			if !good {
				break
			}
			if v, good = v.Subst(w, Var("\x00"+w)); !good {
				break
			}
			vals["\x00"+w] = a
		}
		for tmp, a := range vals {
			if !good {
				break
			}
			v, good = v.Subst(tmp, a)
		}
		if good {
			if out == nil {
				out = map[string]Poly{}
			}
			out[target] = v
			if target != id.Name {
				m.compVars = true
			}
		}
	}
	return out
}

// instantiate substitutes actual arguments for the formals of a callee's
// count (its span in span mode). An actual whose value is not known is
// a new unknown of the caller, never a name of the caller's own.
func (m *unitModel) instantiate(callee *UnitResult, args []parser.Expr, e env) Poly {
	sum := callee.Count
	if m.spanMode {
		sum = callee.SpanCount
	} else if !callee.SpanCount.Equal(sum) {
		m.spanDiffers = true
	}
	if sum.IsZero() && !callee.Summary.IsZero() || m.summaries {
		// A result made without exact counting; or for StmtCostIn, the
		// piece that holds for large values, a plain polynomial that an
		// estimator can sum over its loops.
		sum = callee.Summary
	}
	hdr, _ := callee.Unit.Header.(*parser.SubprogramStmt)
	sum, extents := m.bindExtents(sum, callee, hdr, args, e)
	sum = m.renameUnknowns(sum, callee)
	for tmp, x := range extents {
		sum, _ = substGuarded(sum, tmp, x)
	}
	if hdr != nil {
		// Rename formals first, so that a formal named like a caller
		// variable cannot capture it.
		type pair struct {
			tmp string
			val Poly
		}
		var pairs []pair
		vars := map[string]bool{}
		for _, v := range plainVars(sum) {
			vars[v] = true
		}
		for i, prm := range hdr.Params {
			id, ok := prm.(*parser.Ident)
			if !ok || !vars[id.Name] {
				continue
			}
			tmp := "\x00" + id.Name
			sum, _ = substGuarded(sum, id.Name, Var(tmp))
			pairs = append(pairs, pair{tmp, m.actualValue(callee.Unit.Name, i, ActualFor(hdr, args, i), e)})
		}
		// The formals' components, F%C: the actual structure's, A%C.
		for i, prm := range hdr.Params {
			id, ok := prm.(*parser.Ident)
			if !ok {
				continue
			}
			for _, v := range plainVars(sum) {
				if RootOf(v) != id.Name || v == id.Name {
					continue
				}
				tmp := "\x00" + v
				sum, _ = substGuarded(sum, v, Var(tmp))
				val, ok := m.componentActual(ActualFor(hdr, args, i), v[len(id.Name)+1:], e)
				if !ok {
					var note string
					val, note = m.newUnknown(fmt.Sprintf("%s of argument %d of %s, whose value is not known", v[len(id.Name):], i+1, callee.Unit.Name))
					m.res.Notes = append(m.res.Notes, note)
				}
				pairs = append(pairs, pair{tmp, val})
			}
		}
		for _, p := range pairs {
			if s, ok := substGuarded(sum, p.tmp, p.val); ok {
				sum = s
			} else {
				u, note := m.newUnknown("a formal of " + callee.Unit.Name + " with a negative power")
				m.res.Notes = append(m.res.Notes, note)
				sum, _ = substGuarded(sum, p.tmp, u)
			}
		}
	}
	return sum
}

// ---------------------------------------------------------------------------
// Expressions

func (m *unitModel) typeOf(name string) Type {
	return typeFromName(m.sc.TypeOf(name))
}

func typeFromName(t string) Type {
	switch {
	case t == "INTEGER" || t == "BYTE":
		return TInt
	case t == "DOUBLEPRECISION" || strings.HasPrefix(t, "REAL*8") || strings.HasPrefix(t, "REAL*16"):
		return TDouble
	case strings.HasPrefix(t, "REAL"):
		return TReal
	case t == "DOUBLECOMPLEX":
		return TDComplex
	case t == "COMPLEX":
		return TComplex
	case t == "LOGICAL":
		return TLogical
	case t == "CHARACTER":
		return TChar
	}
	return TReal
}

func promote(a, b Type) Type {
	if a == TChar || b == TChar {
		return TChar
	}
	if a == TLogical && b == TLogical {
		return TLogical
	}
	if a > b && a <= TDComplex {
		return a
	}
	if b <= TDComplex {
		return b
	}
	return a
}

// intrinsicType is the result type of an intrinsic given its argument type.
func intrinsicType(name string, arg Type) Type {
	switch name {
	case "INT", "NINT", "IFIX", "IDINT", "IDNINT", "ICHAR", "LEN", "INDEX", "SIZE", "LBOUND", "UBOUND", "KIND", "MOD", "IABS", "ISIGN", "MAX0", "MIN0", "COUNT", "LEN_TRIM":
		if name == "MOD" {
			return arg
		}
		return TInt
	case "REAL", "FLOAT", "SNGL", "AMAX1", "AMIN1", "ALOG", "ALOG10", "AIMAG":
		return TReal
	case "DBLE", "DFLOAT", "DSQRT", "DEXP", "DLOG", "DSIN", "DCOS", "DABS", "DMAX1", "DMIN1":
		return TDouble
	case "CMPLX":
		return TComplex
	case "CHAR", "TRIM", "ADJUSTL", "ADJUSTR", "REPEAT":
		return TChar
	case "ANY", "ALL", "LGE", "LGT", "LLE", "LLT":
		return TLogical
	}
	return arg
}

// expr returns the cost of evaluating an expression and its type.
func (m *unitModel) expr(x parser.Expr) (Poly, Type) {
	switch v := x.(type) {
	case nil:
		return Zero(), TInt
	case *parser.Lit:
		switch v.Kind {
		case parser.IntLit, parser.BOZLit:
			return Zero(), TInt
		case parser.RealLit:
			if strings.ContainsAny(v.Value, "DQ") {
				return Zero(), TDouble
			}
			return Zero(), TReal
		case parser.LogicalLit:
			return Zero(), TLogical
		}
		return Zero(), TChar
	case *parser.Ident:
		sym := m.sc.Lookup(v.Name)
		ty := m.typeOf(v.Name)
		if sym != nil && sym.Param != nil {
			return Zero(), ty // a named constant
		}
		if m.cost.ScalarRegisters && (sym == nil || sym.Rank() == 0) {
			return Zero(), ty
		}
		rank := 0
		if sym != nil {
			rank = sym.Rank()
			if rank == 0 && sym.Selector != nil {
				// An associate name of an array expression: an element
				// of an array of the selector's rank.
				if ext, is, _ := m.shape(v, m.cur); is {
					rank = max(len(ext), 1)
				}
			}
		}
		c := m.cost.Memory[ty]
		if rank >= 2 {
			c = c.Add(m.cost.Index["multi"])
		}
		if rank >= 1 {
			c = c.Add(m.cost.Index["element"])
		}
		return c, ty
	case *parser.Paren:
		return m.expr(v.X)
	case *parser.Unary:
		c, ty := m.expr(v.X)
		switch v.Op {
		case "-":
			return c.Add(m.cost.op("--", ty)), ty
		case ".NOT.":
			return c.Add(m.cost.op("log", ty)), ty
		}
		return c, ty
	case *parser.Binary:
		a, ta := m.expr(v.X)
		b, tb := m.expr(v.Y)
		c := a.Add(b)
		switch v.Op {
		case "+", "-", "*", "/", "**":
			ty := promote(ta, tb)
			if k, ok := smallPower(v); ok && m.cost.InlinePowers {
				// X**K with K a small integer constant: the compiler
				// multiplies (binary powering), it does not call pow.
				return c.Add(m.cost.op("*", ty).Mul(Int(int64(powerMuls(k))))), ta
			}
			return c.Add(m.cost.op(v.Op, ty)), ty
		case "//":
			return c.Add(m.cost.op("//", TChar)), TChar
		case ".AND.", ".OR.", ".EQV.", ".NEQV.", ".XOR.":
			return c.Add(m.cost.op("log", promote(ta, tb))), TLogical
		case ".EQ.", ".NE.", ".LT.", ".LE.", ".GT.", ".GE.", "==", "/=", "<", "<=", ">", ">=":
			return c.Add(m.cost.op("rel", promote(ta, tb))), TLogical
		}
		return c, promote(ta, tb) // a defined operator: its operands
	case *parser.Call:
		return m.callExpr(v)
	case *parser.ComplexLit:
		a, _ := m.expr(v.Re)
		b, _ := m.expr(v.Im)
		return a.Add(b), TComplex
	case *parser.Component:
		// X%C: the access of X, of C's type.
		c, _ := m.expr(v.X)
		if d, ok := m.componentOf(v); ok {
			return c, componentType(d)
		}
		return c, TReal
	case *parser.KeywordArg:
		return m.expr(v.Value)
	case *parser.Triplet:
		// A section's bounds and stride are evaluated once, before the
		// elements (Fortran 2018 10.2.1.3): paid once in an array
		// assignment, not per element. The once parts inside them (a
		// reduction or a function in X(1:MAXVAL(K))), which pricing
		// them added to m.once, are in c already: c takes their place.
		saved := m.once
		a, _ := m.expr(v.Lo)
		b, _ := m.expr(v.Hi)
		s, _ := m.expr(v.Stride)
		c := a.Add(b).Add(s)
		m.once = saved.Add(c)
		return c, TInt
	case *parser.ArrayCons:
		// The constructor is built once, whatever the number of elements
		// of an enclosing array assignment: its whole cost takes the
		// place of the once parts of its items (as a reduction's does).
		saved := m.once
		total := Zero()
		ty := TInt
		for i, it := range v.Items {
			c, t := m.expr(it)
			total = total.Add(c)
			if i == 0 {
				ty = t
			}
		}
		m.once = saved.Add(total)
		return total, ty
	case *parser.ImpliedDo:
		// Like a DO loop: bounds plus the items summed over the index.
		bounds := Zero()
		for _, b := range []parser.Expr{v.Lo, v.Hi, v.Step} {
			c, _ := m.expr(b)
			bounds = bounds.Add(c)
		}
		items := Zero()
		ty := TInt
		for _, it := range v.Items {
			c, t := m.expr(it)
			items = items.Add(c)
			ty = t
		}
		lo, ok1 := m.value(v.Lo, env{v.Var.Name: Var(v.Var.Name)}, nil)
		hi, ok2 := m.value(v.Hi, env{}, nil)
		step := Int(1)
		ok3 := true
		if v.Step != nil {
			step, ok3 = m.value(v.Step, env{}, nil)
		}
		if ok1 && ok2 && ok3 {
			if s, ok := SumStep(items, v.Var.Name, lo, hi, step); ok {
				return bounds.Add(s), ty
			}
		}
		u, note := m.newUnknown(fmt.Sprintf("the iterations of an implied DO at line %d", m.line(v.Pos())))
		m.res.Notes = append(m.res.Notes, note)
		return bounds.Add(items.Mul(u)), ty
	}
	return Zero(), TInt
}

// callExpr prices NAME(args): an array element, a substring, an intrinsic
// or a user function.
func (m *unitModel) callExpr(v *parser.Call) (Poly, Type) {
	id, ok := v.Fun.(*parser.Ident)
	if !ok {
		if comp, isComp := v.Fun.(*parser.Component); isComp {
			if d, ok := m.componentOf(comp); ok && len(d.dims) > 0 && len(d.dims) == len(v.Args) {
				// An element of an array component, X%U(I, J): as an
				// element of an array U(I, J) (subscripts, memory, index
				// computation), plus X's own part, a subscript of an
				// array of structures.
				ty := componentType(d)
				base, _ := m.exprComponentBase(comp)
				c := base.Add(m.exprs(v.Args)).Add(m.cost.Memory[ty]).Add(m.cost.Index["element"])
				if len(d.dims) >= 2 {
					c = c.Add(m.cost.Index["multi"])
				}
				return c, ty
			}
		}
		// A substring of an element, A(I)(1:2), or a structure's component call.
		c, ty := m.expr(v.Fun)
		return c.Add(m.exprs(v.Args)), ty
	}
	if name, ok := m.intrinsicRef(v); ok && transformational[name] && !m.elementReductions {
		// c holds the once parts of the intrinsic's arguments (an inner
		// reduction), which pricing them added to m.once already: the
		// intrinsic's whole cost takes their place, so that an enclosing
		// array assignment leaves each out of its elements exactly once.
		saved := m.once
		if c, ty, ok := m.transformationalCost(name, v); ok {
			m.once = saved.Add(c)
			return c, ty
		}
		m.once = saved
	}
	args := Zero()
	argTy := TInt
	for i, a := range v.Args {
		c, t := m.expr(a)
		args = args.Add(c)
		if i == 0 {
			argTy = t
		} else {
			argTy = promote(argTy, t)
		}
	}
	sym := m.sc.Lookup(id.Name)
	switch {
	case sym != nil && sym.Rank() > 0:
		// An array element: subscripts + memory + index computation.
		ty := m.typeOf(id.Name)
		c := args.Add(m.cost.Memory[ty]).Add(m.cost.Index["element"])
		if sym.Rank() >= 2 {
			c = c.Add(m.cost.Index["multi"])
		}
		return c, ty
	case sym != nil && sym.Type == "CHARACTER" && sym.Kind == parser.SymVariable && len(v.Args) == 1 && isTriplet(v.Args[0]):
		return args.Add(m.cost.Memory[TChar]), TChar
	case (sym == nil || sym.Intrinsic) && parser.IsIntrinsic(id.Name):
		return args.Add(m.cost.intrinsic(id.Name, argTy)), intrinsicType(id.Name, argTy)
	}
	// A user function whose body is in view costs exactly its summary
	// with the actual arguments put for its formals through the
	// preconditions, as a CALL does (seed 004 §4.4.2): no charge for
	// the reference or its arguments. Without the body, what is known
	// is the cost of evaluating the arguments.
	name := m.procName(id.Name, v.Args)
	m.res.Calls = append(m.res.Calls, name)
	ty := m.typeOf(id.Name)
	if m.procs == nil {
		return args, ty
	}
	if callee, ok := m.procs.summary(name); ok {
		e := m.cur
		if e == nil {
			e = env{}
		}
		c := m.instantiate(callee, v.Args, e)
		if !m.userElemental(name) {
			// Only an ELEMENTAL function is applied element by element
			// (Fortran 2018 15.8); any other reference inside an array
			// expression is evaluated once, a scalar or an array operand
			// (10.1.4): paid once, as a transformational intrinsic is.
			m.once = m.once.Add(c)
		}
		return c, ty
	}
	return args, ty
}

func isTriplet(x parser.Expr) bool {
	_, ok := x.(*parser.Triplet)
	return ok
}

// ExprCost returns the cost of evaluating an expression of unit u with a
// cost table: the model's own pricing, for estimators built on it, except
// that a reduction (SUM, MAXVAL, DOT_PRODUCT, ...) costs one element of
// its argument and the call: the estimator prices the reductions over
// distributed arrays itself, each processor its share. extents, when
// not nil, gives the extents of the unit's assumed-shape dummy arguments
// (extents[name][k] is dimension k's, from 0), as a call's actual
// arguments make them: an estimator pricing a callee's statements for
// one call. Those not given are unknowns.
func ExprCost(f *parser.File, u *parser.Unit, x parser.Expr, table *CostTable, extents map[string][]Poly) Poly {
	m := &unitModel{u: u, f: f, sc: u.Scope, cost: table, keep: map[string]bool{}, res: &UnitResult{}, procs: noProcs{}, elementReductions: true}
	m.shaped(extents)
	c, _ := m.expr(x)
	return c
}

// shaped puts the extents of assumed-shape dummies given by a call where
// assumedExtent finds them.
func (m *unitModel) shaped(extents map[string][]Poly) {
	for name, ext := range extents {
		for k, x := range ext {
			if m.entry == nil {
				m.entry = map[string]Poly{}
			}
			m.entry[extentKey(name, k)] = x
		}
	}
}

// StmtCost returns the cost of a simple statement (assignment, CALL
// without the callee, I/O, ...) of unit u with a cost table; constructs
// and declarations cost nothing here. Reductions cost one element, as in
// ExprCost. f, the unit's file (nil: not known), holds the definitions
// of the derived types whose components the statement names.
func StmtCost(f *parser.File, u *parser.Unit, s parser.Stmt, table *CostTable) Poly {
	// Out of its loops, every scalar the statement names stands for
	// itself (the caller's loop indices among them): an array section
	// A(K+1:N,K) then has N - K elements, not an unknown number.
	keep := map[string]bool{}
	parser.Inspect(s, func(n parser.Node) bool {
		if id, ok := n.(*parser.Ident); ok {
			if sym := u.Scope.Lookup(id.Name); sym != nil && sym.Kind == parser.SymVariable && sym.Param == nil && sym.Rank() == 0 {
				keep[id.Name] = true
			}
		}
		return true
	})
	return stmtCost(f, u, s, table, keep, nil, nil)
}

// stmtCost prices one statement out of its unit's flow (StmtCost,
// StmtCostIn): the names in keep stand for themselves, a call of one of
// procs's procedures costs its summary (procs nil: none in view).
func stmtCost(f *parser.File, u *parser.Unit, s parser.Stmt, table *CostTable, keep map[string]bool, procs *Procs, extents map[string][]Poly) Poly {
	m := &unitModel{u: u, f: f, sc: u.Scope, cost: table, keep: keep, res: &UnitResult{}, procs: noProcs{}, elementReductions: true}
	m.shaped(extents)
	if procs != nil {
		m.procs, m.summaries = procs, true
	}
	c, _ := m.simple(s, env{}, false)
	return c
}

// StmtCostIn is StmtCost where a CALL or a function reference to one of
// procs's procedures costs that procedure's summary (the piece of its
// count for large values) under procs's table,
// with the actual arguments (values, and the extents of arrays for
// assumed shapes) put for its formals, as the engine prices calls; a
// procedure not in procs costs its arguments, as in StmtCost.
// extents gives the extents of assumed-shape dummy arguments, as in
// ExprCost (nil: none given).
func StmtCostIn(f *parser.File, u *parser.Unit, s parser.Stmt, table *CostTable, procs *Procs, extents map[string][]Poly) Poly {
	if procs == nil && extents == nil {
		return StmtCost(f, u, s, table)
	}
	return stmtCost(f, u, s, table, scalarsOf(u), procs, extents)
}

// ExprCostIn is ExprCost where a function reference to one of procs's
// procedures costs that procedure's summary with the actual arguments,
// as in StmtCostIn.
func ExprCostIn(f *parser.File, u *parser.Unit, x parser.Expr, table *CostTable, procs *Procs, extents map[string][]Poly) Poly {
	m := &unitModel{u: u, f: f, sc: u.Scope, cost: table, keep: scalarsOf(u), res: &UnitResult{}, procs: noProcs{}, elementReductions: true}
	m.shaped(extents)
	if procs != nil {
		m.procs, m.summaries = procs, true
	}
	c, _ := m.expr(x)
	return c
}

// scalarsOf is every scalar variable of the unit and its hosts, those a
// statement names and those the bounds of its arrays name (NLOC in U(N,
// 0:NLOC+1), whose extents a callee's assumed shape takes): priced out
// of the unit's flow, each stands for itself, and the estimator puts
// their values in.
func scalarsOf(u *parser.Unit) map[string]bool {
	keep := map[string]bool{}
	for sc := u.Scope; sc != nil; sc = sc.Parent {
		for name, sym := range sc.Syms {
			if sym.Kind == parser.SymVariable && sym.Param == nil && sym.Rank() == 0 {
				keep[name] = true
			}
		}
	}
	return keep
}

// Procs gives the counts of the procedures of a file under one cost
// table, for StmtCostIn; each is counted when first asked for (with the
// procedures it calls), then remembered. Safe for concurrent use.
type Procs struct {
	f   *parser.File
	eng *Engine
	mu  sync.Mutex
	got map[string]*UnitResult
	// functions is 0 until hasFunctions looks, then 1 (none) or 2.
	functions int8
}

// FileProcs gives the procedures of f (contained ones too) counted with
// the cost table.
func FileProcs(f *parser.File, table *CostTable) *Procs {
	return &Procs{f: f, eng: NewEngine(Options{Cost: table}), got: map[string]*UnitResult{}}
}

func (p *Procs) summary(name string) (*UnitResult, bool) {
	p.mu.Lock()
	r, ok := p.got[name]
	p.mu.Unlock()
	if ok {
		return r, r != nil
	}
	// Counted without the lock (the engine is safe for concurrent use),
	// so that one long count does not hold up the file's other
	// estimates; two at once may both count it, with the same result.
	r, _ = p.eng.Procedure(p.f, name)
	p.mu.Lock()
	p.got[name] = r
	p.mu.Unlock()
	return r, r != nil
}

// OutValues is what the procedure name leaves in its formals when it
// returns (and in their integer components, "F%C"), where the engine
// knows it: polynomials in the formals' values on entry (UnitResult.Out).
// nil where none is known.
func (p *Procs) OutValues(name string) map[string]Poly {
	if r, ok := p.summary(name); ok {
		return r.Out
	}
	return nil
}

// hasFunctions reports whether the file has a function (anyUserFunction).
func (p *Procs) hasFunctions() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.functions == 0 {
		p.functions = 1
		var walk func([]*parser.Unit)
		walk = func(us []*parser.Unit) {
			for _, u := range us {
				if u.Kind == parser.UnitFunction || u.Kind == parser.UnitProcedure {
					p.functions = 2
				}
				walk(u.Contains)
			}
		}
		walk(p.f.Units)
	}
	return p.functions == 2
}

// Parallel reports whether the procedure name has a parallel loop: DO
// CONCURRENT, a loop under INDEPENDENT or an OpenMP loop directive, or a
// FORALL (array syntax is not counted).
func (p *Procs) Parallel(name string) bool {
	r, ok := p.summary(name)
	if !ok {
		return false
	}
	found := false
	for _, s := range r.Unit.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.DoConstruct:
				found = found || parallel(x)
			case *parser.ForallStmt:
				found = true
			}
			return !found
		})
	}
	return found
}

type noProcs struct{}

func (noProcs) summary(string) (*UnitResult, bool) { return nil, false }

func (noProcs) hasFunctions() bool { return false }

// TableFromCosts builds a cost table from per-operation costs given as
// rationals: op for + - * / ** and unary minus on numbers, load for each
// reference to an array element (scalars are taken to live in registers:
// ScalarRegisters), index for the second and later dimensions of an
// element, intrinsic for each intrinsic call.
func TableFromCosts(name string, add, mul, div, pow, load, index, intrinsic Poly) *CostTable {
	t := &CostTable{Name: name, Operation: map[string]Row{}, Transcend: map[string]Row{}, Trigo: map[string]Row{},
		Index: map[string]Poly{"element": Zero(), "multi": index}, PerLoop: Zero(), PerIteration: Zero()}
	row := func(v Poly) Row {
		var r Row
		for i := range r {
			r[i] = v
		}
		return r
	}
	t.Operation["+"], t.Operation["-"], t.Operation["--"] = row(add), row(add), row(add)
	t.Operation["*"], t.Operation["/"], t.Operation["**"] = row(mul), row(div), row(pow)
	t.Operation["rel"], t.Operation["log"], t.Operation["//"] = row(add), row(add), row(add)
	t.Memory = row(load)
	t.ScalarRegisters, t.InlinePowers = true, true
	t.Transcend["DEFAULT"] = row(intrinsic)
	for _, n := range freeIntrinsics {
		t.Transcend[n] = row(Zero())
	}
	return t
}

// maxInlinePower is the largest integer constant exponent priced as
// multiplications.
const maxInlinePower = 64

// smallPower reports whether x is X**K with K an integer literal from 1
// to maxInlinePower, and gives K.
func smallPower(x *parser.Binary) (int, bool) {
	if x.Op != "**" {
		return 0, false
	}
	lit, ok := x.Y.(*parser.Lit)
	if !ok || lit.Kind != parser.IntLit {
		return 0, false
	}
	k, err := strconv.Atoi(strings.SplitN(lit.Value, "_", 2)[0])
	if err != nil || k < 1 || k > maxInlinePower {
		return 0, false
	}
	return k, true
}

// powerMuls is the number of multiplications binary powering takes for
// X**K: one per squaring (the bits of K after the first) and one per
// further set bit (X**2 1, X**3 2, X**4 2, X**8 3).
func powerMuls(k int) int {
	return bits.Len(uint(k)) - 1 + bits.OnesCount(uint(k)) - 1
}
