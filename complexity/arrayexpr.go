package complexity

import (
	"fmt"
	"strings"

	"github.com/pfls/pfls/parser"
)

// Array-valued expressions inside expressions.
//
// An array expression priced by expr costs one element: the array
// assignment (arrayWork) multiplies it by the number of elements. The
// arguments of a transformational intrinsic are array expressions of
// their own: SUM(A(:,J)**2) evaluates A(:,J)**2 on every element of the
// section and adds them up, whatever the context of the SUM (a scalar
// assignment, an IF condition, an array assignment). Such an intrinsic
// costs its elementwise argument over all its elements plus its own
// operation on each element, and that cost is paid once, not once per
// element of an enclosing array assignment: expr returns it in its cost
// and also adds it to m.once, which arrayWork leaves out of the
// per-element part.

// reductionOp is the cost of the operation a reduction applies to each
// element of type ty, as the loop that computes it is priced:
// S = S + A(I) for SUM, M = MAX(M, A(I)) for MAXVAL and MAXLOC, ...
func (m *unitModel) reductionOp(name string, ty Type) Poly {
	switch name {
	case "SUM":
		return m.cost.op("+", ty)
	case "PRODUCT":
		return m.cost.op("*", ty)
	case "MAXVAL", "MAXLOC":
		return m.cost.intrinsic("MAX", ty)
	case "MINVAL", "MINLOC":
		return m.cost.intrinsic("MIN", ty)
	case "ANY", "ALL", "PARITY":
		return m.cost.op("log", TLogical)
	case "IALL":
		return m.cost.intrinsic("IAND", ty)
	case "IANY":
		return m.cost.intrinsic("IOR", ty)
	case "IPARITY":
		return m.cost.intrinsic("IEOR", ty)
	case "COUNT":
		return m.cost.op("+", TInt)
	case "FINDLOC":
		return m.cost.op("rel", ty)
	case "DOT_PRODUCT", "MATMUL", "NORM2":
		if ty == TLogical {
			return m.cost.op("log", TLogical).Add(m.cost.op("log", TLogical))
		}
		return m.cost.op("*", ty).Add(m.cost.op("+", ty))
	}
	return Zero()
}

// transformational is true for the intrinsics priced over the elements
// of their array arguments here.
var transformational = map[string]bool{
	"SUM": true, "PRODUCT": true, "MAXVAL": true, "MINVAL": true, "MAXLOC": true, "MINLOC": true,
	"ANY": true, "ALL": true, "COUNT": true, "DOT_PRODUCT": true, "MATMUL": true, "NORM2": true,
	"IALL": true, "IANY": true, "IPARITY": true, "PARITY": true, "FINDLOC": true, "REDUCE": true,
}

// elemental lists the elemental intrinsic functions (Fortran 2018 §16.9,
// class E, with the specific names of Fortran 77): applied to an array
// they give an array of the same shape.
var elemental = func() map[string]bool {
	out := map[string]bool{}
	for _, n := range strings.Fields(`
ABS ACHAR ACOS ACOSH ADJUSTL ADJUSTR AIMAG AINT ANINT ASIN ASINH ATAN ATAN2 ATANH BESSEL_J0 BESSEL_J1
BESSEL_Y0 BESSEL_Y1 BGE BGT BLE BLT BTEST CEILING CHAR CMPLX CONJG COS COSH DBLE DIM DPROD DSHIFTL DSHIFTR
ERF ERFC ERFC_SCALED EXP EXPONENT FLOOR FRACTION GAMMA HYPOT IACHAR IAND IBCLR IBITS IBSET ICHAR IEOR
INDEX INT IOR ISHFT ISHFTC LEADZ LEN_TRIM LGE LGT LLE LLT LOG LOG10 LOG_GAMMA LOGICAL MAX MERGE
MERGE_BITS MIN MOD MODULO NEAREST NINT NOT POPCNT POPPAR REAL RRSPACING SCALE SCAN SET_EXPONENT SHIFTA
SHIFTL SHIFTR SIGN SIN SINH SPACING SQRT TAN TANH TRAILZ VERIFY
ALOG ALOG10 AMAX0 AMAX1 AMIN0 AMIN1 AMOD CABS CCOS CEXP CLOG CSIN CSQRT DABS DACOS DASIN DATAN DATAN2
DCOS DCOSH DDIM DEXP DINT DLOG DLOG10 DMAX1 DMIN1 DMOD DNINT DSIGN DSIN DSINH DSQRT DTAN DTANH FLOAT
IABS IDIM IDINT IDNINT IFIX ISIGN MAX0 MAX1 MIN0 MIN1 SNGL DCMPLX DCONJG DIMAG DREAL IMAG`) {
		out[n] = true
	}
	return out
}()

// intrinsicRef reports whether a call names an intrinsic function (not
// an array or a user function of that name), and its name.
func (m *unitModel) intrinsicRef(v *parser.Call) (string, bool) {
	id, ok := v.Fun.(*parser.Ident)
	if !ok {
		return "", false
	}
	sym := m.sc.Lookup(id.Name)
	if (sym == nil || sym.Intrinsic) && parser.IsIntrinsic(id.Name) {
		return id.Name, true
	}
	return "", false
}

// intrinsicArgs sorts the actual arguments of an intrinsic by their
// keywords: positional arguments take the names of names in order. A
// positional argument that names "DIM|MASK" is MASK when it is LOGICAL
// (SUM(A, A > 0)), DIM otherwise (SUM(A, 1)).
func (m *unitModel) intrinsicArgs(args []parser.Expr, names ...string) map[string]parser.Expr {
	out := map[string]parser.Expr{}
	pos := 0
	for _, a := range args {
		if k, ok := a.(*parser.KeywordArg); ok {
			if k.Name != nil {
				out[strings.ToUpper(k.Name.Name)] = k.Value
			}
			continue
		}
		if pos >= len(names) {
			continue
		}
		name := names[pos]
		pos++
		if name == "DIM|MASK" {
			if m.isLogical(a) {
				name = "MASK"
				pos++ // the next one, if any, is KIND or BACK
			} else {
				name = "DIM"
			}
		}
		out[name] = a
	}
	return out
}

// isLogical reports whether an expression is LOGICAL, from its
// operators and names (without pricing it).
func (m *unitModel) isLogical(x parser.Expr) bool {
	switch v := x.(type) {
	case *parser.Paren:
		return m.isLogical(v.X)
	case *parser.Unary:
		return v.Op == ".NOT." || m.isLogical(v.X)
	case *parser.Binary:
		switch v.Op {
		case ".AND.", ".OR.", ".EQV.", ".NEQV.", ".XOR.",
			".EQ.", ".NE.", ".LT.", ".LE.", ".GT.", ".GE.", "==", "/=", "<", "<=", ">", ">=":
			return true
		}
		return false
	case *parser.Lit:
		return v.Kind == parser.LogicalLit
	case *parser.Ident:
		return m.typeOf(v.Name) == TLogical
	case *parser.Call:
		if name, ok := m.intrinsicRef(v); ok {
			switch name {
			case "ANY", "ALL", "LOGICAL", "BTEST", "LGE", "LGT", "LLE", "LLT", "BGE", "BGT", "BLE", "BLT":
				return true
			case "MERGE", "CSHIFT", "EOSHIFT", "TRANSPOSE", "SPREAD", "PACK", "UNPACK", "RESHAPE":
				return len(v.Args) > 0 && m.isLogical(v.Args[0])
			}
			return false
		}
		if id, ok := v.Fun.(*parser.Ident); ok {
			return m.typeOf(id.Name) == TLogical
		}
	}
	return false
}

// exprOnce prices an expression and returns its cost, the part of it
// paid once whatever the number of elements (the transformational
// intrinsics inside it) and its type.
func (m *unitModel) exprOnce(x parser.Expr) (Poly, Poly, Type) {
	saved := m.once
	m.once = Zero()
	c, ty := m.expr(x)
	once := m.once
	m.once = saved.Add(once)
	return c, once, ty
}

// elementsOf is the number of elements of an array expression given its
// extents; unknown extents make a new unknown, with its note.
func (m *unitModel) elementsOf(ext []Poly, ok bool, what string) Poly {
	if !ok {
		u, note := m.newUnknown(what)
		m.res.Notes = append(m.res.Notes, note)
		return u
	}
	return m.product(ext)
}

// transformationalCost prices a transformational intrinsic over the
// elements of its array arguments; ok is false when its arguments are
// not array expressions pfls sees as such (the intrinsic is then priced
// as any other). The cost includes the arguments.
func (m *unitModel) transformationalCost(name string, v *parser.Call) (Poly, Type, bool) {
	e := m.cur
	if e == nil {
		e = env{}
	}
	line := m.line(v.Pos())
	var args map[string]parser.Expr
	switch name {
	case "ANY", "ALL", "COUNT", "PARITY":
		args = m.intrinsicArgs(v.Args, "MASK", "DIM", "KIND")
	case "DOT_PRODUCT":
		args = m.intrinsicArgs(v.Args, "VECTOR_A", "VECTOR_B")
	case "MATMUL":
		args = m.intrinsicArgs(v.Args, "MATRIX_A", "MATRIX_B")
	case "NORM2":
		args = m.intrinsicArgs(v.Args, "X", "DIM")
	case "FINDLOC":
		args = m.intrinsicArgs(v.Args, "ARRAY", "VALUE", "DIM|MASK", "MASK")
	case "REDUCE":
		args = m.intrinsicArgs(v.Args, "ARRAY", "OPERATION", "DIM|MASK", "MASK", "IDENTITY")
	default:
		args = m.intrinsicArgs(v.Args, "ARRAY", "DIM|MASK", "MASK")
	}
	switch name {
	case "DOT_PRODUCT", "MATMUL":
		a, b := args["VECTOR_A"], args["VECTOR_B"]
		if name == "MATMUL" {
			a, b = args["MATRIX_A"], args["MATRIX_B"]
		}
		if a == nil || b == nil {
			return Poly{}, 0, false
		}
		ea, isA, okA := m.shape(a, e)
		eb, isB, okB := m.shape(b, e)
		if !isA || !isB {
			return Poly{}, 0, false
		}
		ca, oa, ta := m.exprOnce(a)
		cb, ob, tb := m.exprOnce(b)
		ty := promote(ta, tb)
		per := ca.Sub(oa).Add(cb.Sub(ob)).Add(m.reductionOp(name, ty))
		once := oa.Add(ob)
		if m.spanMode {
			return per.Add(once), ty, true
		}
		m.spanDiffers = true
		var n Poly
		if name == "DOT_PRODUCT" {
			n = m.elementsOf(ea, okA, fmt.Sprintf("the number of elements of DOT_PRODUCT's arguments at line %d", line))
		} else {
			// (n×k)·(k×m): n·k·m multiply-adds; a vector has no n or m.
			ok := okA && okB && len(ea) >= 1 && len(eb) >= 1
			n = Int(1)
			if ok {
				for _, x := range ea {
					n = n.Mul(x)
				}
				if len(eb) == 2 {
					n = n.Mul(eb[1])
				}
			} else {
				n = m.elementsOf(nil, false, fmt.Sprintf("the multiply-adds of MATMUL at line %d", line))
			}
		}
		return per.Mul(n).Add(once), ty, true
	}
	key := "ARRAY"
	switch name {
	case "ANY", "ALL", "COUNT", "PARITY":
		key = "MASK"
	case "NORM2":
		key = "X"
	}
	arr := args[key]
	if arr == nil {
		return Poly{}, 0, false
	}
	ext, isArr, okExt := m.shape(arr, e)
	if !isArr {
		return Poly{}, 0, false
	}
	c, once, ty := m.exprOnce(arr)
	per := c.Sub(once)
	if value := args["VALUE"]; value != nil && name == "FINDLOC" {
		// FINDLOC compares every element with VALUE, a scalar
		// evaluated once (Fortran 2018 16.9.79).
		vc, _, vt := m.exprOnce(value)
		once = once.Add(vc)
		ty = promote(ty, vt)
	}
	per = per.Add(m.reductionOp(name, ty))
	if op, isID := args["OPERATION"].(*parser.Ident); isID && name == "REDUCE" {
		// REDUCE applies the user's OPERATION to every element
		// (Fortran 2018 16.9.161): its count each time, when its body
		// is in view (as any function reference), else nothing.
		per = per.Add(m.operationCost(op.Name, e))
	}
	if key != "MASK" {
		if mask := args["MASK"]; mask != nil {
			mc, mo, _ := m.exprOnce(mask)
			per = per.Add(mc.Sub(mo))
			once = once.Add(mo)
		}
	}
	if d := args["DIM"]; d != nil {
		dc, _, _ := m.exprOnce(d)
		once = once.Add(dc)
	}
	switch name {
	case "NORM2":
		once = once.Add(m.cost.intrinsic("SQRT", ty))
	case "COUNT", "MAXLOC", "MINLOC", "FINDLOC":
		ty = TInt
	case "ANY", "ALL", "PARITY":
		ty = TLogical
	}
	if m.spanMode {
		return per.Add(once), ty, true
	}
	m.spanDiffers = true
	n := m.elementsOf(ext, okExt, fmt.Sprintf("the number of elements of %s's argument at line %d", name, line))
	return per.Mul(n).Add(once), ty, true
}

// shape returns the extents of an array expression: isArray is false for
// a scalar (or an expression whose shape pfls does not follow, such as
// a user function's result), ok false when an extent is not known.
func (m *unitModel) shape(x parser.Expr, e env) (ext []Poly, isArray, ok bool) {
	switch v := x.(type) {
	case *parser.Paren:
		return m.shape(v.X, e)
	case *parser.Unary:
		return m.shape(v.X, e)
	case *parser.Binary:
		if ext, is, ok := m.shape(v.X, e); is {
			return ext, is, ok
		}
		return m.shape(v.Y, e)
	case *parser.Ident:
		sym := m.sc.Lookup(v.Name)
		if sym != nil && sym.Rank() == 0 && sym.Selector != nil && !m.inSelector[sym] {
			// An associate name has its selector's shape (a section,
			// a component); a selector naming itself is not followed.
			if m.inSelector == nil {
				m.inSelector = map[*parser.Symbol]bool{}
			}
			m.inSelector[sym] = true
			defer delete(m.inSelector, sym)
			return m.shape(sym.Selector, e)
		}
		if sym == nil || sym.Rank() == 0 {
			return nil, false, true
		}
		ok := true
		dims, de := m.dimsAt(sym, e)
		for i, d := range dims {
			lo := Int(1)
			if d.Lower != nil {
				l, okl := m.value(d.Lower, de, nil)
				ok = ok && okl
				lo = l
			}
			if d.Upper == nil {
				if u, isAssumed := m.assumedExtent(sym, i); isAssumed {
					ext = append(ext, u)
					continue
				}
				ok = false
				continue
			}
			hi, okh := m.value(d.Upper, de, nil)
			if !okh || !ok {
				ok = false
				continue
			}
			ext = append(ext, hi.Sub(lo).Add(Int(1)))
		}
		return ext, true, ok
	case *parser.Call:
		return m.callShape(v, e)
	case *parser.Component:
		return m.componentShape(v, e)
	}
	return nil, false, true
}

// callShape is shape for NAME(args): an element or a section of an
// array, or an intrinsic function's result.
func (m *unitModel) callShape(v *parser.Call, e env) ([]Poly, bool, bool) {
	id, isID := v.Fun.(*parser.Ident)
	if !isID {
		if c, isC := v.Fun.(*parser.Component); isC {
			return m.componentSectionShape(c, v.Args, e)
		}
		return nil, false, true
	}
	sym := m.sc.Lookup(id.Name)
	if sym != nil && sym.Rank() > 0 {
		if len(v.Args) != sym.Rank() {
			return nil, false, true
		}
		dims, de := m.dimsAt(sym, e)
		return m.sectionShape(v.Args, e, func(i int) (lo, hi Poly, okLo, okHi bool) {
			lo, okLo = Int(1), true
			if d := dims[i]; d.Lower != nil {
				lo, okLo = m.value(d.Lower, de, nil)
			}
			if d := dims[i]; d.Upper != nil {
				hi, okHi = m.value(d.Upper, de, nil)
			} else if u, isAssumed := m.assumedExtent(sym, i); isAssumed && okLo {
				hi, okHi = lo.Add(u).Sub(Int(1)), true
			}
			return lo, hi, okLo, okHi
		})
	}
	name, isIntr := m.intrinsicRef(v)
	if !isIntr && !m.userElemental(id.Name) {
		return nil, false, true
	}
	switch {
	case !isIntr || elemental[name]:
		for _, a := range v.Args {
			if k, isK := a.(*parser.KeywordArg); isK {
				if k.Name != nil && strings.EqualFold(k.Name.Name, "KIND") {
					continue
				}
				a = k.Value
			}
			if ext, is, ok := m.shape(a, e); is {
				return ext, is, ok
			}
		}
		return nil, false, true
	case name == "CSHIFT" || name == "EOSHIFT":
		if len(v.Args) > 0 {
			a := v.Args[0]
			if k, isK := a.(*parser.KeywordArg); isK {
				a = k.Value
			}
			return m.shape(a, e)
		}
	case name == "TRANSPOSE":
		if len(v.Args) == 1 {
			a := v.Args[0]
			if k, isK := a.(*parser.KeywordArg); isK {
				a = k.Value
			}
			ext, is, ok := m.shape(a, e)
			if is && ok && len(ext) == 2 {
				ext = []Poly{ext[1], ext[0]}
			}
			return ext, is, ok
		}
	case name == "MATMUL":
		args := m.intrinsicArgs(v.Args, "MATRIX_A", "MATRIX_B")
		if args["MATRIX_A"] == nil || args["MATRIX_B"] == nil {
			return nil, false, true
		}
		ea, isA, okA := m.shape(args["MATRIX_A"], e)
		eb, isB, okB := m.shape(args["MATRIX_B"], e)
		if !isA || !isB {
			return nil, false, true
		}
		if !okA || !okB {
			return nil, true, false
		}
		var ext []Poly
		if len(ea) == 2 {
			ext = append(ext, ea[0])
		}
		if len(eb) == 2 {
			ext = append(ext, eb[1])
		}
		return ext, true, true
	case transformational[name] && name != "DOT_PRODUCT":
		var args map[string]parser.Expr
		key := "ARRAY"
		switch name {
		case "ANY", "ALL", "COUNT", "PARITY":
			args = m.intrinsicArgs(v.Args, "MASK", "DIM", "KIND")
			key = "MASK"
		case "NORM2":
			args = m.intrinsicArgs(v.Args, "X", "DIM")
			key = "X"
		case "FINDLOC":
			args = m.intrinsicArgs(v.Args, "ARRAY", "VALUE", "DIM|MASK", "MASK")
		case "REDUCE":
			args = m.intrinsicArgs(v.Args, "ARRAY", "OPERATION", "DIM|MASK", "MASK", "IDENTITY")
		default:
			args = m.intrinsicArgs(v.Args, "ARRAY", "DIM|MASK", "MASK")
		}
		d := args["DIM"]
		if d == nil {
			// A scalar, or for MAXLOC and MINLOC one subscript per
			// dimension: a small vector priced as a scalar.
			return nil, false, true
		}
		ext, is, ok := m.shape(args[key], e)
		if !is {
			return nil, false, true
		}
		k, okK := m.value(d, e, nil)
		kv, isC := k.Value()
		if !ok || !okK || !isC || !kv.IsInt() || kv.Num().Int64() < 1 || kv.Num().Int64() > int64(len(ext)) {
			return nil, true, false
		}
		i := int(kv.Num().Int64()) - 1
		out := append(append([]Poly{}, ext[:i]...), ext[i+1:]...)
		if len(out) == 0 {
			return nil, false, true
		}
		return out, true, true
	}
	return nil, false, true
}

// sectionShape is the shape of an element or a section with the given
// subscripts: a triplet's extent, or a vector subscript's own; a bound a
// triplet leaves out is bound(i)'s, the array's in dimension i.
func (m *unitModel) sectionShape(args []parser.Expr, e env, bound func(i int) (lo, hi Poly, okLo, okHi bool)) ([]Poly, bool, bool) {
	var ext []Poly
	is, ok := false, true
	for i, a := range args {
		t, isT := a.(*parser.Triplet)
		if !isT {
			// A vector subscript gives its own extent.
			if se, sIs, sOk := m.shape(a, e); sIs {
				is = true
				ok = ok && sOk
				ext = append(ext, se...)
			}
			continue
		}
		is = true
		var lo, hi Poly
		var okL, okH bool
		if t.Lo == nil || t.Hi == nil {
			// Only a bound left out is the array's (asking for it may
			// make an unknown, which would then stand for nothing).
			lo, hi, okL, okH = bound(i)
		}
		step, okS := Int(1), true
		los, his := []boundAlt{{val: lo}}, []boundAlt{{val: hi}}
		if t.Lo != nil {
			los, okL = m.sectionBound(t.Lo, e)
		}
		if t.Hi != nil {
			his, okH = m.sectionBound(t.Hi, e)
		}
		if t.Stride != nil {
			step, okS = m.value(t.Stride, e, nil)
		}
		if !okL || !okH || !okS {
			ok = false
			continue
		}
		n, okN := m.sectionCount(los, his, step)
		if !okN {
			ok = false
			continue
		}
		ext = append(ext, n)
	}
	return ext, is, ok
}

// userElemental reports whether name is an ELEMENTAL function whose body
// is in view: applied to arrays it gives an array of their shape
// (Fortran 2018 15.8.2).
func (m *unitModel) userElemental(name string) bool {
	if m.procs == nil {
		return false
	}
	if sym := m.sc.Lookup(name); sym != nil && sym.Rank() > 0 {
		return false
	}
	callee, ok := m.procs.summary(name)
	if !ok || callee == nil || callee.Unit == nil {
		return false
	}
	h, ok := callee.Unit.Header.(*parser.SubprogramStmt)
	if !ok || !h.Function {
		return false
	}
	for _, p := range h.Prefix {
		if strings.EqualFold(p, "ELEMENTAL") {
			return true
		}
	}
	return false
}

// assignWork is arrayWork for LHS = RHS. Where pfls does not see the
// left side as an array (an associate name of a section, a structure
// component) an array right side gives the number of elements: the
// right side of an assignment to a scalar is a scalar (Fortran 2018
// 10.2.1.2), so an array right side means an array assignment.
func (m *unitModel) assignWork(a *parser.AssignStmt, perElement, once Poly, e env) Poly {
	if _, isArray, known := m.arrayElements(a.LHS, e); isArray || m.spanMode || a.Pointer {
		if !known && !m.spanMode && !a.Pointer {
			m.spanDiffers = true
			// The left side's shape is not known (an allocatable given
			// another shape): an array right side has the shape the
			// assignment takes (conformance, or reallocation to it,
			// Fortran 2018 10.2.1.2-3).
			if ext, isR, okR := m.shape(a.RHS, e); isR && okR {
				n := m.elementsOf(ext, true, "")
				m.elements = n
				return perElement.Sub(once).Mul(n).Add(once)
			}
		}
		return m.arrayWork(a.LHS, perElement, once, e, &m.res.Notes)
	}
	// The span pass returns perElement at once: the passes part here
	// when the shapes below make an unknown or find an array.
	made := m.unknownsMade()
	ext, isArray, ok := m.shape(a.LHS, e)
	if !isArray {
		ext, isArray, ok = m.shape(a.RHS, e)
	}
	if isArray || m.unknownsMade() != made {
		m.spanDiffers = true
	}
	if !isArray {
		return perElement
	}
	n := m.elementsOf(ext, ok, "the number of elements of an array assignment")
	m.elements = n
	return perElement.Sub(once).Mul(n).Add(once)
}

// ioItems prices the items of an I/O list: an array expression
// (`PRINT *, A`, `WRITE (6,*) U(1:N,J)*2`) transfers and computes every
// element, as the array assignment of it would; the reductions inside
// an item are paid once (Fortran 2018 12.6.3: an array item stands for
// its elements in array element order).
func (m *unitModel) ioItems(items []parser.Expr, e env) Poly {
	c := Zero()
	for _, it := range items {
		per, once, _ := m.exprOnce(it)
		if !m.spanMode {
			made := m.unknownsMade()
			ext, isArray, ok := m.shape(it, e)
			if isArray || m.unknownsMade() != made {
				m.spanDiffers = true // the span pass does not look
			}
			if isArray {
				n := m.elementsOf(ext, ok, "the number of elements of an array in an I/O list")
				per = per.Sub(once).Mul(n).Add(once)
			}
		}
		c = c.Add(per)
	}
	return c
}

// operationCost is the cost of one reference to the function name with
// two scalar arguments whose values are not known (REDUCE's OPERATION):
// its summary, where its body is in view.
func (m *unitModel) operationCost(name string, e env) Poly {
	m.res.Calls = append(m.res.Calls, name)
	if m.procs == nil {
		return Zero()
	}
	callee, ok := m.procs.summary(name)
	if !ok {
		return Zero()
	}
	return m.instantiate(callee, nil, e)
}
