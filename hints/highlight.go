package hints

import (
	"sort"

	"github.com/pfls/pfls/parser"
)

// Highlight is one occurrence of the name under the cursor in its file.
// Write is set where the occurrence gives the name a value: the left
// side of an assignment, a DO or FORALL index, an implied-DO index, the
// target of READ or ASSIGN.
type Highlight struct {
	Start, End int
	Write      bool
}

// Highlights returns the occurrences in f of the name at off that mean
// the same thing, by binding (a local variable of one scope, a USE
// association, a procedure, a COMMON block), not by spelling: an I of
// another routine is not highlighted. Nil when off is not on a name.
func Highlights(f *parser.File, off int) []Highlight {
	w := newWorkspace(f, nil)
	at := w.refAt(f, off)
	if at == nil {
		return nil
	}
	key := at.key
	writes := writtenNames(f)
	seen := map[int]bool{}
	var out []Highlight
	for _, r := range w.refs {
		if r.file != f || r.key != key || seen[r.start] {
			continue
		}
		seen[r.start] = true
		out = append(out, Highlight{Start: r.start, End: r.end, Write: writes[r.start]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// writtenNames returns the absolute offsets of the names of f that are
// given a value where they stand.
func writtenNames(f *parser.File) map[int]bool {
	out := map[int]bool{}
	allUnits(f, func(u *parser.Unit) {
		mark := func(id *parser.Ident) {
			if id != nil && id.Name != "" {
				out[u.Abs(id.Pos())] = true
			}
		}
		var target func(e parser.Expr)
		target = func(e parser.Expr) {
			switch x := e.(type) {
			case *parser.Ident:
				mark(x)
			case *parser.Call:
				target(x.Fun)
			case *parser.Component:
				target(x.X)
			case *parser.ImageSelector:
				target(x.X)
			case *parser.Paren:
				target(x.X)
			case *parser.ImpliedDo:
				mark(x.Var)
				for _, it := range x.Items {
					target(it)
				}
			}
		}
		for _, st := range ownStmts(u) {
			parser.Inspect(st, func(n parser.Node) bool {
				switch x := n.(type) {
				case *parser.AssignStmt:
					target(x.LHS)
				case *parser.DoStmt:
					mark(x.Var)
					if x.Concurrent != nil {
						for _, s := range x.Concurrent.Specs {
							mark(s.Var)
						}
					}
				case *parser.ForallStmt:
					if x.Header != nil {
						for _, s := range x.Header.Specs {
							mark(s.Var)
						}
					}
				case *parser.IOStmt:
					if x.Keyword == "READ" {
						for _, it := range x.Items {
							target(it)
						}
					}
				case *parser.AssignLabelStmt:
					mark(x.Var)
				case *parser.ImpliedDo:
					mark(x.Var)
				}
				return true
			})
		}
	})
	return out
}
