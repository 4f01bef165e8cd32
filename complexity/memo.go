package complexity

import (
	"slices"
	"strconv"
)

// memo keeps, for one pass of the engine, the results of two pure and
// costly steps of the model that recur across the loops and statements
// of a file: the exact sum of a loop body over its range (exactSum.loop)
// and the shown forms of a guarded count (finish). Routines of one file
// are alike (the same loop over 1 … N with the same body in many of
// them, and in one routine the same statement count at every nest), so
// the second time a step meets the same inputs it returns the first
// result. The memo lives as long as the pass, so a long-lived engine
// holds nothing more than before. Keys are the inputs encoded exactly
// (appendPolyKey): a hit is an equal input, never a similar one. It also
// makes the polynomial of each variable name once.
type memo struct {
	key    []byte // scratch for building keys
	hits   int    // results given again (tests)
	loops  map[string]loopResult
	vars   map[string]Poly // Var(name) for each name met
	counts map[string]*finishEntry
}

type loopResult struct {
	sum   Poly
	ok    bool
	notes []string
}

// finishEntry is finish for one count: its result depends on the
// unit only through whether the variables of its guards are all
// parameters of the unit (vars, the variables finish asks param
// about), so it holds the two results apart.
type finishEntry struct {
	vars []string
	res  [2]*finishResult // by params (0 false, 1 true)
}

type finishResult struct {
	cost   Poly
	pieces []Piece
	when   []Cond
	note   string
}

func newMemo() *memo {
	return &memo{loops: map[string]loopResult{}, counts: map[string]*finishEntry{}, vars: map[string]Poly{}}
}

// variable is Var(name), made once per name (a Poly is immutable).
func (mm *memo) variable(name string) Poly {
	if mm == nil {
		return Var(name)
	}
	p, ok := mm.vars[name]
	if !ok {
		p = Var(name)
		mm.vars[name] = p
	}
	return p
}

// loop is x.loop(body, v, los, his, step) for a new exactSum x, with
// the notes it leaves.
func (mm *memo) loop(body Poly, v string, los, his []boundAlt, step int64) (Poly, bool, []string) {
	if mm == nil {
		x := &exactSum{}
		sum, ok := x.loop(body, v, los, his, step)
		return sum, ok, x.notes
	}
	k := appendPolyKey(mm.key[:0], body)
	k = appendString(k, v)
	k = strconv.AppendInt(k, step, 10)
	for _, alts := range [2][]boundAlt{los, his} {
		k = append(k, '|')
		for _, a := range alts {
			k = appendPolyKey(append(k, '<'), a.val)
			for _, g := range a.guard {
				k = appendAtomKey(k, g)
			}
		}
	}
	mm.key = k
	if r, ok := mm.loops[string(k)]; ok {
		mm.hits++
		return r.sum, r.ok, slices.Clone(r.notes)
	}
	key := string(k)
	x := &exactSum{}
	sum, ok := x.loop(body, v, los, his, step)
	mm.loops[key] = loopResult{sum, ok, slices.Clone(x.notes)}
	return sum, ok, x.notes
}

// finish is finish(count, param), remembered.
func (mm *memo) finish(count Poly, param func(string) bool) (Poly, []Piece, []Cond, string) {
	if mm == nil || !isGuarded(count) {
		return finish(count, param)
	}
	k := appendPolyKey(mm.key[:0], count)
	mm.key = k
	e, ok := mm.counts[string(k)]
	if !ok {
		e = &finishEntry{vars: guardVars(splitGuarded(count))}
		mm.counts[string(k)] = e
	}
	params := 1
	for _, v := range e.vars {
		if param != nil && !param(v) {
			params = 0
		}
	}
	r := e.res[params]
	if r != nil {
		mm.hits++
	} else {
		r = &finishResult{}
		r.cost, r.pieces, r.when, r.note = finish(count, param)
		r.pieces, r.when = slices.Clip(r.pieces), slices.Clip(r.when)
		e.res[params] = r
	}
	// The pieces and the condition are shared by every statement with
	// this count, as the engine's results are shared by its callers:
	// read, never changed (clipped, so that an append copies them).
	return r.cost, r.pieces, r.when, r.note
}

// appendPolyKey appends an exact encoding of p: two polynomials have
// the same encoding only if they are equal.
func appendPolyKey(b []byte, p Poly) []byte {
	b = strconv.AppendInt(append(b, '('), int64(len(p.terms)), 10)
	for _, t := range p.terms {
		b = append(b, ';')
		if t.coef.r != nil {
			b = append(b, 'r')
			b = t.coef.r.Num().Append(b, 10)
			b = append(b, '/')
			b = t.coef.r.Denom().Append(b, 10)
		} else {
			b = strconv.AppendInt(b, t.coef.n, 10)
			b = append(b, '/')
			b = strconv.AppendInt(b, t.coef.d, 10)
		}
		for _, f := range t.mono {
			b = appendString(append(b, '*'), f.Name)
			b = strconv.AppendInt(append(b, '^'), int64(f.Exp), 10)
		}
	}
	return append(b, ')')
}

func appendAtomKey(b []byte, g gatom) []byte {
	b = append(b, '[')
	if g.main {
		b = append(b, '!')
	}
	b = strconv.AppendInt(b, g.a.mod, 10)
	return appendPolyKey(b, g.a.g)
}

// appendString appends s with its length first, so that no name can
// run into what follows it.
func appendString(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	return append(append(b, ':'), s...)
}
