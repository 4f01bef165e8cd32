package complexity

import (
	"strings"

	"github.com/pfls/pfls/parser"
)

// dimsOf is the dimensions an array has where the unit uses it: its
// declared ones, or for an array of deferred shape (ALLOCATABLE or
// POINTER, declared A(:,:)) the bounds of the one ALLOCATE of the unit
// that gives it a shape, when the unit never assigns a name those bounds
// use (so they mean the same at every statement). An array allocated in
// two places, or in another unit, keeps its deferred shape: an unknown
// number of elements.
func (m *unitModel) dimsOf(sym *parser.Symbol) []*parser.DimSpec {
	if !deferredShape(sym.Dims) {
		return sym.Dims
	}
	if m.allocated == nil {
		m.allocated = m.allocations()
	}
	if d, ok := m.allocated[sym.Name]; ok && d != nil && len(d) == len(sym.Dims) {
		return d
	}
	return sym.Dims
}

// dimsAt is dimsOf with the environment its bounds are evaluated in: a
// declared (explicit or automatic) bound has the value it had on entry,
// whatever the unit assigns its names later (Fortran 2018 8.5.8.2), so
// it is evaluated in the entry environment; an allocated one is stable
// from its ALLOCATE on (dimsOf), so e serves. The entry environment is
// nil (nothing known, and only read).
func (m *unitModel) dimsAt(sym *parser.Symbol, e env) ([]*parser.DimSpec, env) {
	dims := m.dimsOf(sym)
	if len(dims) > 0 && len(sym.Dims) == len(dims) && &dims[0] == &sym.Dims[0] {
		return dims, nil
	}
	return dims, e
}

func deferredShape(dims []*parser.DimSpec) bool {
	if len(dims) == 0 {
		return false
	}
	for _, d := range dims {
		if d.Upper != nil || d.Lower != nil {
			return false
		}
	}
	return true
}

// allocations maps each name the unit allocates to the bounds of its
// ALLOCATE, or to nil when there is more than one or the bounds use a
// name the unit assigns.
func (m *unitModel) allocations() map[string][]*parser.DimSpec {
	out := map[string][]*parser.DimSpec{}
	for at, s := range m.u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			a, ok := n.(*parser.AllocateStmt)
			if !ok {
				return true
			}
			if a.Keyword != "ALLOCATE" {
				return false
			}
			for _, it := range a.Items {
				c, ok := it.(*parser.Call)
				if !ok {
					continue // STAT=, SOURCE=, ...
				}
				name := ""
				switch f := c.Fun.(type) {
				case *parser.Ident:
					name = f.Name
				case *parser.Component:
					// G%U(0:NX+1, 0:NY+1): the component U of the
					// structure G, "G%U" (componentShape).
					if x, ok := f.X.(*parser.Ident); ok && f.Name != nil {
						name = x.Name + "%" + f.Name.Name
					}
				}
				if name == "" {
					continue
				}
				if _, seen := out[name]; seen {
					out[name] = nil
					continue
				}
				out[name] = m.allocBounds(c.Args, at)
			}
			return false
		})
	}
	// A shape given otherwise: an assignment of an array to the whole
	// allocatable reallocates it to the right side's shape when that
	// differs (Fortran 2018 10.2.1.3), MOVE_ALLOC gives TO the shape of
	// FROM (16.9.137). The shapes are compared with the ALLOCATEs' bounds
	// (m.allocated holds them meanwhile); one pfls cannot compare counts
	// as different.
	m.allocated = out
	defer func() { m.allocated = nil }()
	for _, s := range m.u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.AssignStmt:
				if c, ok := x.LHS.(*parser.Component); ok && m.mayBeArray(x.RHS) {
					// G%U = array may reallocate G%U: not followed.
					if name := ComponentName(c); out[name] != nil {
						out[name] = nil
					}
					return true
				}
				id, ok := x.LHS.(*parser.Ident)
				if !ok || x.Pointer || out[id.Name] == nil || !m.mayBeArray(x.RHS) {
					return true
				}
				lext, _, okL := m.shape(x.LHS, env{})
				rext, isR, okR := m.shape(x.RHS, env{})
				same := okL && okR && (!isR || len(lext) == len(rext))
				for i := range rext {
					same = same && i < len(lext) && lext[i].Equal(rext[i])
				}
				if !same {
					out[id.Name] = nil
				}
			case *parser.CallStmt:
				if x.Name != nil && x.Name.Name == "MOVE_ALLOC" {
					for i, a := range x.Args {
						if k, ok := a.(*parser.KeywordArg); ok && k.Name != nil && strings.EqualFold(k.Name.Name, "TO") {
							a = k.Value
						} else if i != 1 {
							continue
						}
						if id, ok := a.(*parser.Ident); ok {
							if _, alloc := out[id.Name]; alloc {
								out[id.Name] = nil
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// mayBeArray reports whether an expression may be array-valued: it names
// an array without subscripts, a section, or holds an array constructor
// or a function reference whose result pfls does not know to be scalar.
func (m *unitModel) mayBeArray(x parser.Expr) bool {
	found := false
	parser.Inspect(x, func(n parser.Node) bool {
		switch v := n.(type) {
		case *parser.ArrayCons:
			found = true
		case *parser.Ident:
			if sym := m.sc.Lookup(v.Name); sym != nil && sym.Rank() > 0 {
				found = true
			}
		case *parser.Call:
			if id, ok := v.Fun.(*parser.Ident); ok {
				if sym := m.sc.Lookup(id.Name); sym != nil && sym.Rank() > 0 {
					// An element is a scalar, a section an array.
					for _, a := range v.Args {
						if _, isT := a.(*parser.Triplet); isT {
							found = true
						}
						if m.mayBeArray(a) {
							found = true
						}
					}
					return false
				}
			}
		}
		return !found
	})
	return found
}

// allocBounds turns the bounds of one ALLOCATE item, in the unit's
// statement at, into dimensions, or nil when a bound uses a name whose
// value may differ between statements of the unit (stableBefore).
func (m *unitModel) allocBounds(args []parser.Expr, at int) []*parser.DimSpec {
	dims := make([]*parser.DimSpec, 0, len(args))
	stable := true
	for _, a := range args {
		if _, ok := a.(*parser.KeywordArg); ok {
			return nil
		}
		parser.Inspect(a, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.Ident:
				stable = stable && m.stableBefore(x.Name, at)
			case *parser.Component:
				// A size in a structure, G%NX: stable when the unit
				// never sets it (stableBefore takes no component
				// assignment as the one before).
				if name := ComponentName(x); name != "" {
					stable = stable && m.stableBefore(name, at)
				}
			}
			return stable
		})
		if !stable {
			return nil
		}
		if t, ok := a.(*parser.Triplet); ok {
			if t.Stride != nil || t.Hi == nil {
				return nil
			}
			dims = append(dims, &parser.DimSpec{Lower: t.Lo, Upper: t.Hi})
			continue
		}
		dims = append(dims, &parser.DimSpec{Upper: a})
	}
	return dims
}

// stableBefore reports whether name has one value from the unit's
// statement at on: the unit never assigns it, or assigns it only in one
// assignment statement of its top level before at (NLOC = N / NP before
// ALLOCATE (U(N, NLOC))), whose value the uses after it all see.
func (m *unitModel) stableBefore(name string, at int) bool {
	if !m.writtenSet()[name] {
		return true
	}
	if m.writers == nil {
		m.writers = map[string][]int{}
		for i, s := range m.u.Body {
			for w := range m.modOf(s) {
				m.writers[w] = append(m.writers[w], i)
			}
		}
	}
	ws := m.writers[name]
	if len(ws) != 1 || ws[0] >= at {
		return false
	}
	a, ok := m.u.Body[ws[0]].(*parser.AssignStmt)
	if !ok {
		return false
	}
	id, ok := a.LHS.(*parser.Ident)
	return ok && id.Name == name
}
