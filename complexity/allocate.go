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
	for _, s := range m.u.Body {
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
				out[id.Name] = m.allocBounds(c.Args)
			}
			return false
		})
	}
	return out
}

// allocBounds turns the bounds of one ALLOCATE item into dimensions, or
// nil when a bound uses a name the unit assigns.
func (m *unitModel) allocBounds(args []parser.Expr) []*parser.DimSpec {
	dims := make([]*parser.DimSpec, 0, len(args))
	stable := true
	for _, a := range args {
		if _, ok := a.(*parser.KeywordArg); ok {
			return nil
		}
		parser.Inspect(a, func(n parser.Node) bool {
			if id, ok := n.(*parser.Ident); ok && m.writtenSet()[id.Name] {
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
