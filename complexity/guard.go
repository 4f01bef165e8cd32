package complexity

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/pfls/pfls/parser"
)

// This file holds the guards of the model: the nesting budget, the
// checks for cancellation, the limits and the endless loops of code with
// jumps, the notes that explain a cost TooLarge, and the evaluation of
// PARAMETERs, which follows user data and so must stop at cycles and must
// not repeat itself (a chain K(i+1) = K(i) + K(i) would otherwise take
// time doubling with each line).

// guards is the state of the guards during the analysis of one unit.
type guards struct {
	depth  int                            // constructs entered and not left
	enters int                            // constructs entered, for the cancellation check
	noted  map[string]bool                // unit notes already written
	params map[*parser.Symbol]paramResult // PARAMETER values, once computed
	inEval []*parser.Symbol               // PARAMETERs being evaluated, outermost first
	spans  [][2]parser.Pos                // lists found too large, with a note saying why
}

type paramResult struct {
	p  Poly
	ok bool
}

// note adds a note to the unit once.
func (m *unitModel) note(msg string) {
	if m.guard.noted == nil {
		m.guard.noted = map[string]bool{}
	}
	if !m.guard.noted[msg] {
		m.guard.noted[msg] = true
		m.res.Notes = append(m.res.Notes, msg)
	}
}

// enter counts one more level of nesting and reports whether it keeps to
// MaxNesting; every enter is paired with a leave. Every enterCheckEvery
// calls it also checks for cancellation.
func (m *unitModel) enter() bool {
	m.guard.depth++
	m.guard.enters++
	if m.guard.enters%enterCheckEvery == 0 {
		if err := m.checkCancel(); err != nil {
			panic(cancelled{err})
		}
	}
	return m.guard.depth <= MaxNesting
}

func (m *unitModel) leave() { m.guard.depth-- }

// enterCheckEvery is how many statements pass between two checks for
// cancellation: a few microseconds of work.
const enterCheckEvery = 64

// cancelled is the panic that unwinds an analysis whose context is done;
// the engine recovers it and returns the context's error.
type cancelled struct{ err error }

// ctxProcs is a procedure table that knows the context of its analysis.
type ctxProcs interface {
	context() context.Context
}

// checkCancel returns the error of the analysis' context once it is done.
func (m *unitModel) checkCancel() error {
	if c, ok := m.procs.(ctxProcs); ok {
		if ctx := c.context(); ctx != nil {
			return ctx.Err()
		}
	}
	return nil
}

// tooManyNodes prices a list with jumps past MaxUnstructuredNodes: its
// statements are analysed (and listed) one by one, the list costs
// TooLarge.
func (m *unitModel) tooManyNodes(list []parser.Stmt, e env) (Poly, Stats) {
	var stats Stats
	for _, s := range list {
		if l := s.Base().Label; l != 0 && m.labels[l] {
			m.forgetAll(e)
		}
		_, st := m.stmt(s, e)
		stats.add(st)
	}
	m.note(fmt.Sprintf("too large to analyse (%d statements in one list with jumps, past %d): cost %s", len(list), MaxUnstructuredNodes, TooLarge))
	m.explained(list)
	return tooLarge(), stats
}

// solveJumps returns the expected cost of a list with jumps, from the
// probabilities p between its statements and their costs c. A loop of
// jumps that seems never left may be left from inside one of its
// statements, by a RETURN, STOP or a jump out of an IF block, which the
// probabilities do not show: such a statement is then assumed to leave
// with probability 1/2 (the model's coin toss), with a note.
func (m *unitModel) solveJumps(list []parser.Stmt, p [][]*big.Rat, c []Poly) Poly {
	halved := map[int]bool{}
	for {
		g, err := expectedCost(p, c, m.checkCancel)
		if err == nil {
			return g
		}
		se, ok := err.(*solveError)
		if !ok || !se.unbounded {
			return m.unsolved(list, err)
		}
		fixed := false
		for _, i := range se.nodes {
			if halved[i] || !mayLeave(list[i]) {
				continue
			}
			halved[i], fixed = true, true
			for j, v := range p[i] {
				if v != nil {
					p[i][j] = new(big.Rat).Mul(v, big.NewRat(1, 2))
				}
			}
			m.note(fmt.Sprintf("a loop of jumps is left from inside the statement at %s: assumed left there with probability 1/2", m.where(list[i])))
		}
		if !fixed {
			return m.unsolved(list, err)
		}
	}
}

// mayLeave reports whether a statement holds a way out of the list it is
// in: a RETURN or STOP, or a jump to a label it does not define.
// The jumps of the list's own statements are its edges already.
func mayLeave(s parser.Stmt) bool {
	switch x := s.(type) {
	case *parser.GotoStmt, *parser.ArithIfStmt:
		return false
	case *parser.IfStmt:
		if _, ok := x.Then.(*parser.GotoStmt); ok {
			return false
		}
	}
	inside := map[int]bool{}
	parser.Inspect(s, func(n parser.Node) bool {
		if st, ok := n.(parser.Stmt); ok && st.Base().Label != 0 {
			inside[st.Base().Label] = true
		}
		return true
	})
	leaves := false
	parser.Inspect(s, func(n parser.Node) bool {
		switch x := n.(type) {
		case *parser.GotoStmt:
			for _, l := range x.Labels {
				if !inside[litInt(l)] {
					leaves = true
				}
			}
		case *parser.ArithIfStmt:
			for _, l := range x.Labels {
				if l != nil && !inside[litInt(l)] {
					leaves = true
				}
			}
		case parser.Stmt:
			if k := x.Base().Keyword; k == "RETURN" || k == "STOP" {
				leaves = true
			}
		}
		return !leaves
	})
	return leaves
}

// where names the line of a statement for a note.
func (m *unitModel) where(s parser.Stmt) string {
	if m.f != nil && m.f.Lines != nil && m.u != nil {
		return fmt.Sprintf("line %d", m.f.Lines.Line(m.u.Abs(s.Pos()))+1)
	}
	return "a statement"
}

// unsolved turns an error of expectedCost into the cost of the list:
// Unbounded for a cycle never left, TooLarge past a budget; a cancelled
// analysis unwinds.
func (m *unitModel) unsolved(list []parser.Stmt, err error) Poly {
	se, ok := err.(*solveError)
	if !ok {
		panic(cancelled{err})
	}
	if !se.unbounded {
		m.note("too large to analyse (" + se.reason + "): cost " + TooLarge)
		m.explained(list)
		return tooLarge()
	}
	s := list[se.nodes[0]]
	msg := fmt.Sprintf("does not terminate: the jumps from %s on form a loop that is never left; cost %s", m.where(s), Unbounded)
	m.note(msg)
	for _, r := range m.res.Statements {
		if r.Stmt.Pos() == s.Pos() {
			r.Notes = append(r.Notes, msg)
		}
	}
	return Var(Unbounded)
}

// nestingNote is the note of a construct nested past MaxNesting.
var nestingNote = fmt.Sprintf("too large to analyse (constructs nested deeper than %d levels): cost %s", MaxNesting, TooLarge)

// polyNote is the note of a cost past the polynomial budgets.
var polyNote = fmt.Sprintf("too large to analyse (a polynomial past degree %d, %d terms or %d-bit coefficients, or a literal of more than %d digits): cost %s", MaxDegree, MaxTerms, MaxCoefBits, MaxLiteralDigits, TooLarge)

// explained remembers that a list's cost TooLarge has a note saying why.
func (m *unitModel) explained(list []parser.Stmt) {
	if len(list) > 0 {
		m.guard.spans = append(m.guard.spans, [2]parser.Pos{list[0].Pos(), list[len(list)-1].End()})
	}
}

// tooDeep prices a construct nested past MaxNesting: TooLarge, and no
// variable is known after it.
func (m *unitModel) tooDeep(s parser.Stmt, e env) (Poly, Stats) {
	m.forgetAll(e)
	m.note(nestingNote)
	m.record(s, "STAT", tooLarge(), Stats{}, nestingNote)
	return tooLarge(), Stats{}
}

// tooLargeNote explains the cost TooLarge of statement s: either s holds
// a part already reported (a construct nested too deep, a knot of jumps),
// or a polynomial of its own went past the budgets.
func (m *unitModel) tooLargeNote(s parser.Stmt, notes []string) []string {
	for _, n := range notes {
		if strings.HasPrefix(n, "too large to analyse") {
			return notes
		}
	}
	lo, hi := s.Pos(), s.End()
	for _, sp := range m.guard.spans {
		if sp[0] >= lo && sp[0] < hi {
			return append(notes, "cost "+TooLarge+": a part of it is too large to analyse")
		}
	}
	for i := len(m.res.Statements) - 1; i >= 0; i-- {
		r := m.res.Statements[i]
		if p := r.Stmt.Pos(); p >= lo && p < hi && r.Cost.IsTooLarge() {
			return append(notes, "cost "+TooLarge+": a part of it is too large to analyse")
		}
	}
	m.note(polyNote)
	return append(notes, polyNote)
}

// paramValue returns the value of the named constant sym: an integer
// when integer arithmetic gives one (Fortran's truncating division),
// else the exact polynomial. Each PARAMETER is evaluated once per unit; a
// PARAMETER defined in terms of itself has no value and gets a note
// naming the cycle.
func (m *unitModel) paramValue(sym *parser.Symbol) (Poly, bool) {
	if r, ok := m.guard.params[sym]; ok {
		return r.p, r.ok
	}
	for i, s := range m.guard.inEval {
		if s == sym {
			names := []string{}
			for _, c := range m.guard.inEval[i:] {
				names = append(names, c.Name)
			}
			names = append(names, sym.Name)
			m.note(fmt.Sprintf("PARAMETER %s is defined in terms of itself (%s): it has no value", sym.Name, strings.Join(names, " → ")))
			return Poly{}, false
		}
	}
	if len(m.guard.inEval) >= MaxParamDepth {
		m.note(fmt.Sprintf("too large to analyse (PARAMETERs defined in terms of each other more than %d deep)", MaxParamDepth))
		return Poly{}, false
	}
	m.guard.inEval = append(m.guard.inEval, sym)
	var r paramResult
	if n, ok := m.paramInt(sym.Param); ok {
		r = paramResult{Int(n), true}
	} else {
		r.p, r.ok = PolyOf(sym.Param, func(v *parser.Ident) (Poly, bool) {
			if s := m.sc.Lookup(v.Name); s != nil && s.Param != nil {
				return m.paramValue(s)
			}
			if m.symbolic(v.Name) {
				return Var(v.Name), true
			}
			return Poly{}, false
		})
	}
	m.guard.inEval = m.guard.inEval[:len(m.guard.inEval)-1]
	if m.guard.params == nil {
		m.guard.params = map[*parser.Symbol]paramResult{}
	}
	m.guard.params[sym] = r
	return r.p, r.ok
}

// paramInt evaluates an integer constant expression as Fortran does,
// with truncating division; ok is false for anything else and on
// overflow.
func (m *unitModel) paramInt(x parser.Expr) (int64, bool) {
	switch e := x.(type) {
	case *parser.Lit:
		if e.Kind != parser.IntLit {
			return 0, false
		}
		p, ok := literal(e)
		if !ok {
			return 0, false
		}
		v, _ := p.Value()
		if !v.IsInt() || !v.Num().IsInt64() {
			return 0, false
		}
		return v.Num().Int64(), true
	case *parser.Ident:
		sym := m.sc.Lookup(e.Name)
		if sym == nil || sym.Param == nil {
			return 0, false
		}
		p, ok := m.paramValue(sym)
		if !ok {
			return 0, false
		}
		v, isConst := p.Value()
		if !isConst || !v.IsInt() || !v.Num().IsInt64() {
			return 0, false
		}
		return v.Num().Int64(), true
	case *parser.Paren:
		return m.paramInt(e.X)
	case *parser.Unary:
		v, ok := m.paramInt(e.X)
		switch {
		case !ok:
			return 0, false
		case e.Op == "-" && v != math.MinInt64:
			return -v, true
		case e.Op == "+":
			return v, true
		}
	case *parser.Binary:
		a, ok1 := m.paramInt(e.X)
		if !ok1 {
			return 0, false
		}
		b, ok2 := m.paramInt(e.Y)
		if !ok2 {
			return 0, false
		}
		return intOp(e.Op, a, b)
	}
	return 0, false
}

// intOp applies a Fortran integer operator, failing on overflow.
func intOp(op string, a, b int64) (int64, bool) {
	switch op {
	case "+", "-":
		if op == "-" {
			if b == math.MinInt64 {
				return 0, false
			}
			b = -b
		}
		r := a + b
		if a > 0 && b > 0 && r < 0 || a < 0 && b < 0 && r >= 0 {
			return 0, false
		}
		return r, true
	case "*":
		if a == 0 || b == 0 {
			return 0, true
		}
		r := a * b
		if r/b != a || a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 {
			return 0, false
		}
		return r, true
	case "/":
		if b == 0 || a == math.MinInt64 && b == -1 {
			return 0, false
		}
		return a / b, true
	case "**":
		switch {
		case b < 0:
			return 0, false
		case a == 0 && b > 0:
			return 0, true
		case a == 1 || b == 0:
			return 1, true
		case a == -1:
			return 1 - 2*(b%2), true
		case b > 63:
			return 0, false // |a| ≥ 2: past int64
		}
		r := int64(1)
		for i := int64(0); i < b; i++ {
			var ok bool
			if r, ok = intOp("*", r, a); !ok {
				return 0, false
			}
		}
		return r, true
	}
	return 0, false
}

// literalTooLarge reports whether a numeric literal has more than
// MaxLiteralDigits digits, or an exponent (1E400, 1D-999) past that many
// places: its exact value would be a number of thousands of bits that
// every later product carries along.
func literalTooLarge(lit string) bool {
	digits, exp := 0, 0
	inExp := false
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		switch {
		case c == '_':
			i = len(lit) // the kind parameter
		case c >= '0' && c <= '9' && inExp:
			if exp = exp*10 + int(c-'0'); exp > MaxLiteralDigits {
				return true
			}
		case c >= '0' && c <= '9':
			digits++
		case c == 'E' || c == 'D' || c == 'Q' || c == 'e' || c == 'd' || c == 'q':
			inExp = true
		}
	}
	return digits > MaxLiteralDigits
}

// forallSpecs returns the index specifications of a FORALL header that
// name their index; a half-typed FORALL may have no header at all.
func forallSpecs(h *parser.ForallHeader) []*parser.ForallSpec {
	if h == nil {
		return nil
	}
	var out []*parser.ForallSpec
	for _, s := range h.Specs {
		if s != nil && s.Var != nil {
			out = append(out, s)
		}
	}
	return out
}
