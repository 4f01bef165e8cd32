package complexity

import (
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
				id, ok := c.Fun.(*parser.Ident)
				if !ok {
					continue // a component
				}
				if _, seen := out[id.Name]; seen {
					out[id.Name] = nil
					continue
				}
				out[id.Name] = m.allocBounds(c.Args, at)
			}
			return false
		})
	}
	return out
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
			if id, ok := n.(*parser.Ident); ok && !m.stableBefore(id.Name, at) {
				stable = false
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
