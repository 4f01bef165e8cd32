package complexity

import (
	"slices"
	"strings"

	"github.com/pfls/pfls/parser"
)

// Integer components of scalar structures as variables. Modern programs
// keep their sizes in a derived type (G%NX, G%NY of a grid passed to
// every routine), so a loop DO I = 1, G%NX must count G%NX iterations as
// DO I = 1, NX counts NX. A component X%C of a scalar structure X, with
// C an INTEGER scalar in X's type definition (componentOf), is the
// variable "X%C" of the preconditions and of the counts: symbolic where X
// is a formal or in COMMON, assigned by X%C = ..., passed through CALLs
// as its structure is (outValues, instantiate), and forgotten with X when
// X may change as a whole. An assignment to another component of X
// (X%U(I, J) = ...) changes "X%U", not X%C.

// componentVar is the variable name of an integer scalar component of a
// scalar structure variable, "X%C".
func (m *unitModel) componentVar(c *parser.Component) (string, bool) {
	x, ok := c.X.(*parser.Ident)
	if !ok || c.Name == nil {
		return "", false
	}
	// Not a pointer, a target or an associate name: another name may
	// change the same component (P => G, then P%NX = 1).
	sym := m.sc.Lookup(x.Name)
	if sym == nil || sym.Rank() > 0 || sym.Selector != nil || slices.ContainsFunc(sym.Attrs, func(a string) bool {
		return a == "POINTER" || a == "TARGET" || a == "ALLOCATABLE"
	}) {
		return "", false
	}
	d, ok := m.componentOf(c)
	if !ok || len(d.dims) > 0 || d.typ == nil || d.typ.Name != "INTEGER" {
		return "", false
	}
	return x.Name + "%" + c.Name.Name, true
}

// componentValue is the value of an integer component X%C: what the
// preconditions hold for "X%C", else its symbol on entry where X is
// symbolic and has not changed as a whole (CALL INIT(X) forgets X's
// components).
func (m *unitModel) componentValue(c *parser.Component, e env, st *Stats) (Poly, bool) {
	name, ok := m.componentVar(c)
	if !ok {
		return Poly{}, false
	}
	if _, known := e[name]; !known {
		if p, ok := e[RootOf(name)]; ok && p.Equal(modified) {
			if st != nil {
				st.VarUnknown++
			}
			return Poly{}, false
		}
	}
	return m.nameValue(&parser.Ident{NamePos: c.Pos(), Name: name}, e, st)
}

// RootOf is the structure of a component variable "X%C", or name itself.
func RootOf(name string) string {
	if i := strings.IndexByte(name, '%'); i > 0 {
		return name[:i]
	}
	return name
}

// ComponentName is "X%C" for the component C of a structure variable
// X, else "".
func ComponentName(c *parser.Component) string {
	if x, ok := c.X.(*parser.Ident); ok && c.Name != nil {
		return x.Name + "%" + c.Name.Name
	}
	return ""
}

// modName is the name an assignment to lhs changes: "X%C" when lhs is
// a component (or an element or section of one) of a scalar structure
// X, else lhs's root name.
func modName(lhs parser.Expr) *parser.Ident {
	for {
		switch v := lhs.(type) {
		case *parser.Ident:
			return v
		case *parser.Call:
			lhs = v.Fun
		case *parser.Component:
			if name := ComponentName(v); name != "" {
				return &parser.Ident{NamePos: v.X.Pos(), Name: name}
			}
			lhs = v.X
		default:
			return nil
		}
	}
}

// forgetComponents drops the component variables of the structure name
// from e, after name may have changed as a whole.
func forgetComponents(e env, name string) {
	prefix := name + "%"
	for k := range e {
		if strings.HasPrefix(k, prefix) {
			delete(e, k)
		}
	}
}

// componentActual is the caller's value of the component C of the
// actual argument for formal F, for the callee's variable "F%C": the
// value of "A%C" when the actual is a scalar structure variable A.
func (m *unitModel) componentActual(arg parser.Expr, comp string, e env) (Poly, bool) {
	a, ok := arg.(*parser.Ident)
	if !ok {
		return Poly{}, false
	}
	return m.componentValue(&parser.Component{X: a, Name: &parser.Ident{NamePos: a.Pos(), Name: comp}}, e, nil)
}
