package complexity

import (
	"fmt"
	"strings"

	"github.com/pfls/pfls/parser"
)

// inquiryValue is the value of SIZE, LBOUND or UBOUND of an array whose
// extents pfls knows (explicit bounds, the bounds of its one ALLOCATE, a
// section of such an array): DO I = 1, SIZE(A, 1) counts as many trips
// as DO I = 1, N for A(N). ok is false for any other function reference,
// for a DIM that is not a constant in range, for the array results of
// LBOUND and UBOUND without DIM, and for an extent pfls does not know.
//
// Fortran 2018 16.9.109 and 16.9.196: LBOUND and UBOUND of a whole array
// are its declared bounds when the dimension is not empty, and 1 and 0
// when it is; of a section or any other expression, 1 and the extent.
// Where the bounds are not numbers the declared ones are taken: they
// differ only for an empty dimension, where a loop from one to the other
// is empty both ways (a loop from LBOUND to a fixed bound is not).
func (m *unitModel) inquiryValue(c *parser.Call, e env) (Poly, bool) {
	name, ok := m.intrinsicRef(c)
	if !ok || name != "SIZE" && name != "LBOUND" && name != "UBOUND" {
		return Poly{}, false
	}
	args := m.intrinsicArgs(c.Args, "ARRAY", "DIM", "KIND")
	array := args["ARRAY"]
	if array == nil {
		return Poly{}, false
	}
	dim := -1
	if d := args["DIM"]; d != nil {
		k, okK := m.value(d, e, nil)
		kv, isC := k.Value()
		if !okK || !isC || !kv.IsInt() || !kv.Num().IsInt64() || kv.Num().Int64() < 1 {
			return Poly{}, false
		}
		dim = int(kv.Num().Int64()) - 1
	} else if name != "SIZE" {
		return Poly{}, false // a vector of bounds, not a scalar
	}
	if whole, isID := array.(*parser.Ident); isID {
		if sym := m.sc.Lookup(whole.Name); sym != nil && sym.Rank() > 0 && sym.Selector == nil {
			// A whole array: only the dimensions asked about.
			if dim >= sym.Rank() {
				return Poly{}, false
			}
			if name == "SIZE" && dim < 0 {
				n := Int(1)
				for i := range sym.Rank() {
					lo, hi, okLo, okHi := m.wholeBounds(sym, i, e)
					if !okLo || !okHi {
						return Poly{}, false
					}
					n = n.Mul(hi.Sub(lo).Add(Int(1)))
				}
				return n, true
			}
			lo, hi, okLo, okHi := m.wholeBounds(sym, dim, e)
			switch {
			case name == "LBOUND":
				return lo, okLo
			case name == "UBOUND":
				return hi, okHi
			case okLo && okHi:
				return hi.Sub(lo).Add(Int(1)), true
			}
			return Poly{}, false
		}
	}
	// A section or another array expression: bounds 1 and the extent.
	ext, isArray, known := m.shape(array, e)
	if !isArray || !known || dim >= len(ext) {
		return Poly{}, false
	}
	switch {
	case name == "LBOUND":
		return Int(1), true
	case dim >= 0:
		return ext[dim], true
	}
	n := Int(1)
	for _, x := range ext {
		n = n.Mul(x)
	}
	return n, true
}

// wholeBounds is the lower and upper bound of dimension i of a whole
// array where the unit uses it (dimsOf): declared, allocated, or for an
// assumed shape its lower bound and that plus its extent less one; not
// known for the * of an assumed size.
func (m *unitModel) wholeBounds(sym *parser.Symbol, i int, e env) (lo, hi Poly, okLo, okHi bool) {
	dims, de := m.dimsAt(sym, e)
	if i >= len(dims) {
		return Poly{}, Poly{}, false, false
	}
	d := dims[i]
	lo, okLo = Int(1), true
	if d.Lower != nil {
		lo, okLo = m.value(d.Lower, de, nil)
	}
	switch _, star := d.Upper.(*parser.Star); {
	case star:
	case d.Upper != nil:
		hi, okHi = m.value(d.Upper, de, nil)
	default:
		if u, isAssumed := m.assumedExtent(sym, i); isAssumed && okLo {
			hi, okHi = lo.Add(u).Sub(Int(1)), true
		}
	}
	// An empty dimension's bounds are 1 and 0 (16.9.109, 16.9.196), as
	// pfls can tell when both are numbers.
	if okLo && okHi {
		l, isL := lo.Value()
		h, isH := hi.Value()
		if isL && isH && h.Cmp(l) < 0 {
			lo, hi = Int(1), Int(0)
		}
	}
	return lo, hi, okLo, okHi
}

// assumedExtent is the extent of dimension i of an assumed-shape dummy
// argument (declared A(:) or A(0:)): one unknown for the unit, the same
// at every use, since the actual argument's shape does not change during
// the call (Fortran 2018 8.5.8.3). ok is false for any other array.
func (m *unitModel) assumedExtent(sym *parser.Symbol, i int) (Poly, bool) {
	if !sym.Dummy || i >= len(sym.Dims) || sym.Dims[i].Upper != nil || !sym.Dims[i].Colon {
		return Poly{}, false
	}
	for _, a := range sym.Attrs {
		if a == "ALLOCATABLE" || a == "POINTER" {
			return Poly{}, false
		}
	}
	key := extentKey(sym.Name, i)
	if u, ok := m.entry[key]; ok {
		return u, true
	}
	// The unit whose dummy it is: this one, or a host of this contained
	// procedure.
	owner := m.u.Name
	var host *parser.Symbol
	for sc := m.sc; sc != nil; sc = sc.Parent {
		if sc.Syms[sym.Name] == sym {
			if sc != m.sc {
				host = sym
				if sc.Unit != nil {
					owner = sc.Unit.Name
				}
			}
			break
		}
	}
	what := fmt.Sprintf("the extent of %s, an assumed-shape argument of %s", sym.Name, owner)
	if len(sym.Dims) > 1 {
		what = fmt.Sprintf("the extent of dimension %d of %s, an assumed-shape argument of %s", i+1, sym.Name, owner)
	}
	u, _ := m.newUnknown(what)
	if m.entry == nil {
		m.entry = map[string]Poly{}
	}
	m.entry[key] = u
	if m.res.Extents == nil {
		m.res.Extents = map[string]Extent{}
	}
	m.res.Extents[m.lastUnknown()] = Extent{sym.Name, i, host}
	return u, true
}

// extentKey is the name under which the unit's model keeps the extent
// of dimension i (from 0) of an assumed-shape dummy (m.entry).
func extentKey(name string, i int) string {
	return fmt.Sprintf("\x00extent:%s:%d", name, i+1)
}

// bindExtents puts, in a callee's count, the extents of the actual
// arguments for the unknowns that stand for extents of its assumed-shape
// dummies (CALL AXPY(2.0, P, Q) with P(100): the extent of AXPY's X is
// 100). The extents are left as placeholders, returned with their
// values, so that renaming the callee's other unknowns cannot touch an
// unknown of the caller's inside them; an actual whose shape pfls does
// not know leaves the callee's unknown to be renamed.
func (m *unitModel) bindExtents(sum Poly, callee *UnitResult, hdr *parser.SubprogramStmt, args []parser.Expr, e env) (Poly, map[string]Poly) {
	if len(callee.Extents) == 0 {
		return sum, nil
	}
	index := map[string]int{}
	if hdr != nil {
		for i, prm := range hdr.Params {
			if id, ok := prm.(*parser.Ident); ok {
				index[id.Name] = i
			}
		}
	}
	var out map[string]Poly
	bind := func(u string, ext Poly) {
		tmp := "\x00extent " + u
		s, ok := substGuarded(sum, u, Var(tmp))
		if !ok {
			return
		}
		sum = s
		if out == nil {
			out = map[string]Poly{}
		}
		out[tmp] = ext
	}
	for u, x := range callee.Extents {
		if x.Host != nil {
			// The callee is contained in this unit (or below it) and
			// reads its host's dummy: this unit's own extent of it.
			if m.sc.Lookup(x.Dummy) == x.Host {
				if lo, hi, okLo, okHi := m.wholeBounds(x.Host, x.Dim, e); okLo && okHi {
					bind(u, hi.Sub(lo).Add(Int(1)))
				}
			}
			continue
		}
		i, ok := index[x.Dummy]
		if !ok {
			continue
		}
		arg := ActualFor(hdr, args, i)
		dummy := callee.Unit.Scope.Lookup(x.Dummy)
		if arg == nil || dummy == nil {
			continue
		}
		if id, isID := arg.(*parser.Ident); isID {
			if sym := m.sc.Lookup(id.Name); sym == nil || sym.Rank() != dummy.Rank() {
				continue // another rank (not valid for an assumed shape): not followed
			}
		}
		ext, isArray, known := m.shape(arg, e)
		if !isArray || !known || len(ext) != dummy.Rank() {
			continue
		}
		bind(u, ext[x.Dim])
	}
	return sum, out
}

// ActualFor is the actual argument of a call for the callee's formal i:
// the one with its keyword, else the i-th positional one; nil when the
// call passes none.
func ActualFor(hdr *parser.SubprogramStmt, args []parser.Expr, i int) parser.Expr {
	if hdr != nil && i < len(hdr.Params) {
		if id, ok := hdr.Params[i].(*parser.Ident); ok {
			for _, a := range args {
				if k, isK := a.(*parser.KeywordArg); isK && k.Name != nil && strings.EqualFold(k.Name.Name, id.Name) {
					return k.Value
				}
			}
		}
	}
	if i < len(args) {
		if _, isK := args[i].(*parser.KeywordArg); !isK {
			return args[i]
		}
	}
	return nil
}
