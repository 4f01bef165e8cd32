package parser

import (
	"path/filepath"
	"strings"
)

// DialectCMF is File.Dialect for CM Fortran source: a .fcm file, whose
// arrays are spread over the machine by default (CM Fortran's layout
// rules) where the other dialects keep them on one processor.
const DialectCMF = "cmf"

// DialectFor is the dialect the name of a file announces: DialectCMF for
// .fcm, "" (decided by the directives) otherwise.
func DialectFor(name string) string {
	if strings.EqualFold(filepath.Ext(name), ".fcm") {
		return DialectCMF
	}
	return ""
}

// Loop is a DO construct and the program unit it belongs to.
type Loop struct {
	Unit *Unit
	Do   *DoConstruct
}

// Line is the 1-based line of the loop's DO statement.
func (l Loop) Line(f *File) int { return f.Lines.Line(l.Unit.Abs(l.Do.Do.Pos())) + 1 }

// LoopsAt returns the DO loops whose DO statement starts on a 1-based
// line, or with line 0 the outermost DO loops of every unit, in source
// order. It looks inside every construct (IF, SELECT CASE, BLOCK, WHERE,
// FORALL, other DOs) and in contained procedures; units without a scope
// (not resolved) are left out.
func LoopsAt(f *File, line int) []Loop {
	var out []Loop
	var visit func(u *Unit)
	visit = func(u *Unit) {
		if u.Scope != nil {
			for _, s := range u.Body {
				Inspect(s, func(n Node) bool {
					d, ok := n.(*DoConstruct)
					if !ok {
						_, isStmt := n.(Stmt)
						return isStmt // expressions hold no loops
					}
					l := Loop{u, d}
					switch {
					case line == 0:
						out = append(out, l)
						return false // outermost only
					case l.Line(f) == line:
						out = append(out, l)
					}
					return true
				})
			}
		}
		for _, k := range u.Contains {
			visit(k)
		}
	}
	for _, u := range f.Units {
		visit(u)
	}
	return out
}
