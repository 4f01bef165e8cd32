package partition

import (
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// Allocatable arrays. A program that reads its size allocates its arrays
// once, at the top (ALLOCATE (U(N, 0:NLOC+1))), and every loop after
// runs over them: their bounds are the ALLOCATE's wherever nothing else
// can give them another shape.

// allocs maps each allocatable array of the unit's own scope that one
// ALLOCATE statement of the unit's top level allocates to the bounds it
// gives; an array allocated more than once or by a statement inside a
// construct, passed to MOVE_ALLOC or to an ALLOCATABLE or POINTER dummy
// of a procedure of the file (which may allocate it anew), allocated by
// an internal procedure of the unit, or assigned as a whole from an
// expression with arrays (which may reallocate it to another shape,
// Fortran 2018 10.2.1.3) is left out.
func (e *est) allocs() map[string][]*parser.DimSpec {
	if e.allocated != nil {
		return e.allocated
	}
	e.allocated = map[string][]*parser.DimSpec{}
	seen := map[string]int{}
	for _, s := range e.u.Body {
		top := true
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.AllocateStmt:
				if x.Keyword != "ALLOCATE" {
					return false
				}
				for _, it := range x.Items {
					c, ok := it.(*parser.Call)
					if !ok {
						continue
					}
					id, ok := c.Fun.(*parser.Ident)
					if !ok {
						continue
					}
					seen[id.Name]++
					if !top {
						seen[id.Name]++
						continue
					}
					e.allocated[id.Name] = parser.SubscriptDims(c.Args)
				}
				return false
			case *parser.CallStmt:
				if x.Name != nil && x.Name.Name == "MOVE_ALLOC" {
					for _, a := range x.Args {
						if k, ok := a.(*parser.KeywordArg); ok {
							a = k.Value
						}
						if id, ok := a.(*parser.Ident); ok {
							seen[id.Name] += 2
						}
					}
				}
				if x.Name != nil {
					for _, name := range e.toAllocatableDummies(x.Name.Name, x.Args) {
						seen[name] += 2
					}
				}
			case *parser.Call:
				if id, ok := x.Fun.(*parser.Ident); ok {
					for _, name := range e.toAllocatableDummies(id.Name, x.Args) {
						seen[name] += 2
					}
				}
			case *parser.AssignStmt:
				if id, ok := x.LHS.(*parser.Ident); ok && e.namesArray(x.RHS) {
					seen[id.Name] += 2
				}
			}
			top = false
			return true
		})
	}
	// The unit's internal procedures may allocate its arrays anew (host
	// association).
	var inner func(us []*parser.Unit)
	inner = func(us []*parser.Unit) {
		for _, k := range us {
			for _, st := range k.Body {
				parser.Inspect(st, func(n parser.Node) bool {
					var names []parser.Expr
					switch x := n.(type) {
					case *parser.AllocateStmt:
						names = x.Items
					case *parser.CallStmt:
						if x.Name != nil && x.Name.Name == "MOVE_ALLOC" {
							names = x.Args
						}
					}
					for _, it := range names {
						if kw, ok := it.(*parser.KeywordArg); ok {
							it = kw.Value
						}
						if c, ok := it.(*parser.Call); ok {
							it = c.Fun
						}
						if id, ok := it.(*parser.Ident); ok && (k.Scope == nil || k.Scope.Syms[id.Name] == nil) {
							seen[id.Name] += 2
						}
					}
					return true
				})
			}
			inner(k.Contains)
		}
	}
	inner(e.u.Contains)
	for name := range e.allocated {
		sym := e.sc.Syms[name]
		if seen[name] != 1 || sym == nil || sym.Kind != parser.SymVariable || len(e.allocated[name]) != sym.Rank() {
			delete(e.allocated, name)
		}
	}
	return e.allocated
}

// toAllocatableDummies lists the whole arrays that a call of the file's
// procedure name passes to its ALLOCATABLE or POINTER dummy arguments.
func (e *est) toAllocatableDummies(name string, args []parser.Expr) []string {
	if e.f == nil || len(args) == 0 {
		return nil
	}
	if sym := e.sc.Lookup(name); sym != nil && sym.Kind == parser.SymVariable {
		return nil // an array element, not a call
	}
	// Only a call that passes an array of the unit's own whole is looked
	// up (Resolve indexes the file).
	whole := false
	for _, a := range args {
		if k, ok := a.(*parser.KeywordArg); ok {
			a = k.Value
		}
		if id, ok := a.(*parser.Ident); ok {
			if sym := e.sc.Syms[id.Name]; sym != nil && sym.Rank() > 0 {
				whole = true
			}
		}
	}
	if !whole {
		return nil
	}
	callee := e.resolveCall(name, args)
	if callee == nil || callee.Scope == nil {
		return nil
	}
	hdr, _ := callee.Header.(*parser.SubprogramStmt)
	if hdr == nil {
		return nil
	}
	var out []string
	for i, p := range hdr.Params {
		formal, ok := p.(*parser.Ident)
		if !ok {
			continue
		}
		id, ok := complexity.ActualFor(hdr, args, i).(*parser.Ident)
		sym := callee.Scope.Syms[formal.Name]
		if !ok || sym == nil {
			continue
		}
		for _, a := range sym.Attrs {
			if a == "ALLOCATABLE" || a == "POINTER" {
				out = append(out, id.Name)
				break
			}
		}
	}
	return out
}

// namesArray reports whether an expression names an array of the unit
// (other than in a subscript).
func (e *est) namesArray(x parser.Expr) bool {
	found := false
	parser.Inspect(x, func(n parser.Node) bool {
		switch v := n.(type) {
		case *parser.Call:
			if id, ok := v.Fun.(*parser.Ident); ok {
				if sym := e.sc.Lookup(id.Name); sym != nil && sym.Rank() > 0 {
					found = true // a section or an element: its subscripts aside
				}
			}
			return !found
		case *parser.Ident:
			if sym := e.sc.Lookup(v.Name); sym != nil && sym.Rank() > 0 {
				found = true
			}
		}
		return !found
	})
	return found
}

// dims are an array's bounds: as declared, or, for a deferred shape, the
// ALLOCATE's (allocs) when the unit's own array has one.
func (e *est) dims(name string, sym *parser.Symbol) []*parser.DimSpec {
	if sym.Rank() > 0 && sym.Dims[0] != nil && sym.Dims[0].Upper == nil && e.sc.Syms[name] == sym {
		if d := e.allocs()[name]; d != nil {
			return d
		}
	}
	return sym.Dims
}
