package complexity

import (
	"strings"

	"github.com/pfls/pfls/parser"
)

// Structure components. X%NAME has the rank its type definition gives
// NAME, or X's when NAME is a scalar (Fortran 2018 9.4.2: PTS%A over an
// array of structures PTS is an array of PTS's shape). Definitions are
// found in the file of the unit; a component whose type is defined
// elsewhere (a module in another file) is not seen as an array, as before.

// component is the declaration of one component in its type definition.
type component struct {
	dims []*parser.DimSpec
	typ  *parser.TypeSpec
	sc   *parser.Scope // the scope of the type definition
}

// componentOf finds the declaration of the component c names, from the
// type of the structure it belongs to.
func (m *unitModel) componentOf(c *parser.Component) (component, bool) {
	if c.Name == nil {
		return component{}, false
	}
	derived, ok := m.structType(c.X)
	if !ok {
		return component{}, false
	}
	return m.findComponent(derived, c.Name.Name)
}

// structType is the name of the derived type of a structure expression:
// a variable, an element or section of an array of structures, or a
// component of derived type.
func (m *unitModel) structType(x parser.Expr) (string, bool) {
	switch v := x.(type) {
	case *parser.Ident:
		sym := m.sc.Lookup(v.Name)
		if sym == nil || sym.TypeSpec == nil || (sym.TypeSpec.Name != "TYPE" && sym.TypeSpec.Name != "CLASS") {
			return "", false
		}
		return sym.TypeSpec.Derived, sym.TypeSpec.Derived != ""
	case *parser.Call:
		return m.structType(v.Fun)
	case *parser.Component:
		d, ok := m.componentOf(v)
		if !ok || d.typ == nil || (d.typ.Name != "TYPE" && d.typ.Name != "CLASS") {
			return "", false
		}
		return d.typ.Derived, d.typ.Derived != ""
	}
	return "", false
}

// findComponent looks for TYPE derived's definition in the units of the
// file and returns its component name. The lookup is bounded by the
// file's units; the answer is remembered per unit model.
func (m *unitModel) findComponent(derived, name string) (component, bool) {
	if m.f == nil {
		return component{}, false
	}
	key := strings.ToUpper(derived) + "%" + strings.ToUpper(name)
	if c, ok := m.components[key]; ok {
		return c, c.sc != nil
	}
	var found component
	var walkUnits func(us []*parser.Unit) bool
	walkUnits = func(us []*parser.Unit) bool {
		for _, u := range us {
			if typeComponent(u.Body, u.Scope, derived, name, &found) || walkUnits(u.Contains) {
				return true
			}
		}
		return false
	}
	walkUnits(m.f.Units)
	if m.components == nil {
		m.components = map[string]component{}
	}
	m.components[key] = found
	return found, found.sc != nil
}

// typeComponent finds the definition of TYPE derived among the
// statements of a unit and, in it, the declaration of component name.
func typeComponent(body []parser.Stmt, sc *parser.Scope, derived, name string, out *component) bool {
	for _, s := range body {
		b, ok := s.(*parser.Block)
		if !ok {
			continue
		}
		h, ok := b.Head.(*parser.DerivedTypeStmt)
		if !ok || h.Name == nil || !strings.EqualFold(h.Name.Name, derived) {
			continue
		}
		for _, st := range b.Body {
			d, ok := st.(*parser.TypeDecl)
			if !ok {
				continue
			}
			var dims []*parser.DimSpec
			for _, a := range d.Attrs {
				if strings.EqualFold(a.Name, "DIMENSION") {
					dims = a.Dims
				}
			}
			for _, e := range d.Entities {
				if e.Name == nil || !strings.EqualFold(e.Name.Name, name) {
					continue
				}
				*out = component{dims: dims, typ: d.Type, sc: sc}
				if e.Dims != nil {
					out.dims = e.Dims
				}
				return true
			}
		}
		return false // the type is found, the component is not (an extension's parent)
	}
	return false
}

// componentShape is shape for X%NAME: the extents of an array component
// are constants of its definition or unknown (deferred, or given by a
// length parameter); a scalar component of an array of structures has
// the structures' shape.
func (m *unitModel) componentShape(c *parser.Component, e env) ([]Poly, bool, bool) {
	d, found := m.componentOf(c)
	if !found {
		return nil, false, true
	}
	if len(d.dims) == 0 {
		return m.shape(c.X, e)
	}
	if _, isArr, _ := m.shape(c.X, e); isArr {
		// Both an array of structures and an array component: not valid
		// (Fortran 2018 9.4.2, C919); not followed.
		return nil, false, true
	}
	if deferredShape(d.dims) {
		return m.allocatedComponentShape(c, len(d.dims), e)
	}
	ext := make([]Poly, 0, len(d.dims))
	ok := true
	for _, dim := range d.dims {
		lo, hi, okD := componentBounds(dim, d.sc)
		if !okD {
			ok = false
			continue
		}
		ext = append(ext, Int(max(hi-lo+1, 0)))
	}
	return ext, true, ok
}

// componentBounds evaluates a dimension of a component in the scope of
// its type definition: constants only.
func componentBounds(dim *parser.DimSpec, sc *parser.Scope) (lo, hi int64, ok bool) {
	lo = 1
	if dim.Lower != nil {
		if lo, ok = parser.EvalInt(dim.Lower, sc); !ok {
			return 0, 0, false
		}
	}
	if dim.Upper == nil {
		return 0, 0, false
	}
	if _, star := dim.Upper.(*parser.Star); star {
		return 0, 0, false
	}
	hi, ok = parser.EvalInt(dim.Upper, sc)
	return lo, hi, ok
}

// componentSectionShape is shape for X%NAME(args): an element or a
// section of an array component. A bound left out of a triplet is the
// component's own, when it is a constant.
func (m *unitModel) componentSectionShape(c *parser.Component, args []parser.Expr, e env) ([]Poly, bool, bool) {
	d, found := m.componentOf(c)
	if !found || len(d.dims) == 0 || len(args) != len(d.dims) {
		return nil, false, true
	}
	// A bound the triplet leaves out is the component's: known when it
	// is a constant of the definition.
	return m.sectionShape(args, e, func(i int) (lo, hi Poly, okLo, okHi bool) {
		l, h, ok := componentBounds(d.dims[i], d.sc)
		return Int(l), Int(h), ok, ok
	})
}

// componentType is the type of a component's declaration (a REAL of
// KIND 8 or 16 given as a literal is DOUBLE PRECISION's).
func componentType(d component) Type {
	if d.typ == nil {
		return TReal
	}
	name := d.typ.Name
	if l, ok := d.typ.Kind.(*parser.Lit); ok && name == "REAL" && (l.Value == "8" || l.Value == "16") {
		name = "REAL*" + l.Value
	}
	return typeFromName(name)
}

// exprComponentBase is the cost of the structure part of a component
// reference X%C other than X's own access, which an element of an array
// component pays with its own memory cost: the subscripts of an array of
// structures (PTS(I)%U(J)) and the inner components' parts.
func (m *unitModel) exprComponentBase(c *parser.Component) (Poly, Type) {
	switch x := c.X.(type) {
	case *parser.Ident:
		return Zero(), TInt
	case *parser.Call:
		return m.exprs(x.Args), TInt
	case *parser.Component:
		return m.exprComponentBase(x)
	}
	return m.expr(c.X)
}

// allocatedComponentShape is the shape of a deferred-shape component
// G%U that the unit allocates once, ALLOCATE (G%U(0:NX+1, 0:NY+1)), with
// bounds the unit does not change (allocations): (NX + 2)·(NY + 2)
// elements. Elsewhere its extents are unknown.
func (m *unitModel) allocatedComponentShape(c *parser.Component, rank int, e env) ([]Poly, bool, bool) {
	if m.allocated == nil {
		m.allocated = m.allocations()
	}
	dims := m.allocated[ComponentName(c)]
	if len(dims) != rank {
		return nil, true, false
	}
	ext := make([]Poly, 0, rank)
	for _, d := range dims {
		lo := Int(1)
		ok := true
		if d.Lower != nil {
			lo, ok = m.value(d.Lower, e, nil)
		}
		hi, okH := m.value(d.Upper, e, nil)
		if !ok || !okH {
			return nil, true, false
		}
		ext = append(ext, hi.Sub(lo).Add(Int(1)))
	}
	return ext, true, true
}

// DataComponent reports whether c names a data component of its
// structure's type as the type definitions of f give it (u is the unit
// c is in): G%U in G%U(I, J) does, the binding G%ADD of a type-bound
// procedure reference G%ADD(5) does not, nor a component of a type
// defined outside f.
func DataComponent(f *parser.File, u *parser.Unit, c *parser.Component) bool {
	if u == nil || u.Scope == nil {
		return false
	}
	m := &unitModel{u: u, f: f, sc: u.Scope}
	_, ok := m.componentOf(c)
	return ok
}
