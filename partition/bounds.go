package partition

import (
	"strconv"

	"github.com/pfls/pfls/parser"
)

// withBounds returns x with every LBOUND(A, DIM), UBOUND(A, DIM) and
// SIZE(A, DIM) of an array of explicit shape replaced by the bound it
// declares (SIZE by upper − lower + 1), so that a loop written
// DO I = LBOUND(U,2), UBOUND(U,2) counts the iterations DO I = 1, N
// counts. Fortran 2018 16.9 (LBOUND, UBOUND, SIZE): the bounds are the declared
// ones when the dimension is not empty (LBOUND 1 and UBOUND 0 when it
// is, which known numbers check). x itself is not changed: the calls'
// ancestors are copied. Other calls (assumed or deferred shape, DIM not a
// constant, a user's function of that name) are left as they are.
func (e *est) withBounds(x parser.Expr) parser.Expr {
	switch v := x.(type) {
	case *parser.Call:
		if b := e.boundOf(v); b != nil {
			return b
		}
	case *parser.Binary:
		a, b := e.withBounds(v.X), e.withBounds(v.Y)
		if a != v.X || b != v.Y {
			c := *v
			c.X, c.Y = a, b
			return &c
		}
	case *parser.Unary:
		if a := e.withBounds(v.X); a != v.X {
			c := *v
			c.X = a
			return &c
		}
	case *parser.Paren:
		if a := e.withBounds(v.X); a != v.X {
			c := *v
			c.X = a
			return &c
		}
	}
	return x
}

// boundOf is the declared bound a call of LBOUND, UBOUND or SIZE with a
// constant DIM stands for, parenthesised; nil when it is not one.
func (e *est) boundOf(c *parser.Call) parser.Expr {
	id, ok := c.Fun.(*parser.Ident)
	if !ok || id.Name != "LBOUND" && id.Name != "UBOUND" && id.Name != "SIZE" {
		return nil
	}
	if s := e.sc.Lookup(id.Name); s != nil && !s.Intrinsic {
		return nil // the program's own LBOUND
	}
	var array, dim parser.Expr
	for i, a := range c.Args {
		name := ""
		if k, ok := a.(*parser.KeywordArg); ok {
			if k.Name != nil {
				name = k.Name.Name
			}
			a = k.Value
		} else if i == 0 {
			name = "ARRAY"
		} else if i == 1 {
			name = "DIM"
		}
		switch name {
		case "ARRAY":
			array = a
		case "DIM":
			dim = a
		case "KIND":
		default:
			return nil
		}
	}
	arr, ok := array.(*parser.Ident)
	if !ok {
		return nil
	}
	if dim == nil {
		return e.wholeSize(id, arr)
	}
	sym := e.sc.Lookup(arr.Name)
	k, ok := parser.EvalInt(dim, e.sc)
	if sym == nil || sym.Kind != parser.SymVariable || !ok || k < 1 || k > int64(sym.Rank()) {
		return nil
	}
	ds := e.dims(arr.Name, sym)[k-1]
	if ext, ok := e.extents[arr.Name]; ok && ds != nil && ds.Upper == nil && e.sc.Syms[arr.Name] == sym {
		return e.assumedBound(id.Name, ds.Lower, arr.Name, int(k-1), ext[k-1])
	}
	if ds == nil || ds.Upper == nil || ds.Colon && ds.Lower == nil {
		return nil // assumed or deferred shape
	}
	if _, star := ds.Upper.(*parser.Star); star {
		return nil // assumed size
	}
	lower := ds.Lower
	if lower == nil {
		lower = &parser.Lit{Kind: parser.IntLit, Value: "1"}
	}
	// The bounds are written in the names of the scope that declares the
	// array: where the unit (a contained procedure) has names of its own
	// with their spellings, a bound is its value there when it is a
	// constant, else not known.
	home := e.sc
	for home != nil && home.Syms[arr.Name] == nil {
		home = home.Parent
	}
	var okL, okU bool
	lower, okL = e.inScope(lower, home)
	upper, okU := e.inScope(ds.Upper, home)
	if !okL || !okU {
		return nil
	}
	// An empty dimension has the bounds 1 and 0 (and size 0): known
	// numbers say whether it is; symbolic ones are taken as written.
	lo, ok1 := parser.EvalInt(lower, e.sc)
	hi, ok2 := parser.EvalInt(upper, e.sc)
	if ok1 && ok2 && hi < lo {
		n := map[string]int64{"LBOUND": 1, "UBOUND": 0, "SIZE": 0}[id.Name]
		return &parser.Lit{Kind: parser.IntLit, Value: strconv.FormatInt(n, 10)}
	}
	var b parser.Expr
	switch id.Name {
	case "LBOUND":
		b = lower
	case "UBOUND":
		b = upper
	default:
		b = &parser.Binary{X: &parser.Binary{X: &parser.Paren{X: upper}, Op: "-", Y: &parser.Paren{X: lower}},
			Op: "+", Y: &parser.Lit{Kind: parser.IntLit, Value: "1"}}
	}
	return &parser.Paren{X: b}
}

// inScope is a bound written in the names of scope home as an expression
// of the unit's scope: itself when every name in it means there what it
// means in home, else its value in home when it is a constant there.
func (e *est) inScope(x parser.Expr, home *parser.Scope) (parser.Expr, bool) {
	if home == nil || home == e.sc {
		return x, true
	}
	alike := true
	parser.Inspect(x, func(n parser.Node) bool {
		if id, ok := n.(*parser.Ident); ok && e.sc.Lookup(id.Name) != home.Lookup(id.Name) {
			alike = false
		}
		return alike
	})
	if alike {
		return x, true
	}
	if v, ok := parser.EvalInt(x, home); ok {
		return &parser.Lit{Kind: parser.IntLit, Value: strconv.FormatInt(v, 10)}, true
	}
	return nil, false
}

// assumedBound is LBOUND, UBOUND or SIZE (fn) of dimension k (from 0) of
// an assumed-shape dummy argument whose extent a call gave (callee.go):
// the declared lower bound (1 if none), the extent (bound to a name of
// its own, extentName), and the lower bound plus the extent less one;
// an empty dimension's bounds are 1 and 0.
func (e *est) assumedBound(fn string, lower parser.Expr, array string, k int, ext Poly) parser.Expr {
	one := &parser.Lit{Kind: parser.IntLit, Value: "1"}
	if lower == nil {
		lower = one
	}
	if v, ok := ext.Value(); ok && v.Sign() <= 0 {
		n := map[string]string{"LBOUND": "1", "UBOUND": "0", "SIZE": "0"}[fn]
		return &parser.Lit{Kind: parser.IntLit, Value: n}
	}
	name := extentName(array, k)
	e.setBind(name, ext)
	size := &parser.Ident{Name: name}
	switch fn {
	case "LBOUND":
		return &parser.Paren{X: lower}
	case "UBOUND":
		return &parser.Paren{X: &parser.Binary{X: &parser.Binary{X: &parser.Paren{X: lower}, Op: "+", Y: size}, Op: "-", Y: one}}
	}
	return size
}

// wholeSize is SIZE(A) without DIM: the product of the extents of A's
// dimensions, each as SIZE(A, K) gives it; nil for LBOUND and UBOUND
// without DIM (arrays), or when an extent is not known.
func (e *est) wholeSize(fn, arr *parser.Ident) parser.Expr {
	sym := e.sc.Lookup(arr.Name)
	if fn.Name != "SIZE" || sym == nil || sym.Rank() == 0 {
		return nil
	}
	var size parser.Expr
	for k := 1; k <= sym.Rank(); k++ {
		x := e.boundOf(&parser.Call{Fun: fn, Args: []parser.Expr{arr, &parser.Lit{Kind: parser.IntLit, Value: strconv.Itoa(k)}}})
		if x == nil {
			return nil
		}
		if size == nil {
			size = x
		} else {
			size = &parser.Binary{X: size, Op: "*", Y: x}
		}
	}
	return size
}
