package hints

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pfls/pfls/parser"
)

// Symbol is an entry of a document outline or a workspace symbol search,
// with byte offsets: [Start, End) is the whole construct, [SelStart,
// SelEnd) its name (or head).
type Symbol struct {
	Name             string
	Detail           string
	Kind             string // "program", "subroutine", "function", "module", "block data", "loop", "common block", "template", "processors"
	Container        string // the enclosing unit, for workspace symbols
	Start, End       int
	SelStart, SelEnd int
	Children         []Symbol
}

// DocumentSymbols returns the outline of f: its program units, their
// contained procedures and their loops (nested, labelled DOs with their
// labels), in source order.
func DocumentSymbols(f *parser.File) []Symbol {
	var out []Symbol
	for _, u := range f.Units {
		if u.Kind == parser.UnitNone {
			continue
		}
		out = append(out, unitSymbol(u))
	}
	return out
}

func unitSymbol(u *parser.Unit) Symbol {
	start, end := unitExtent(u)
	sym := Symbol{Name: u.Name, Kind: u.Kind.String(), Start: start, End: end, SelStart: start, SelEnd: start}
	switch h := u.Header.(type) {
	case *parser.SubprogramStmt:
		sym.SelStart, sym.SelEnd = u.Abs(h.Name.Pos()), u.Abs(h.Name.End())
		sym.Detail = signature(h)
	case *parser.ProgramStmt:
		if h.Name != nil {
			sym.SelStart, sym.SelEnd = u.Abs(h.Name.Pos()), u.Abs(h.Name.End())
		}
	case *parser.ModuleStmt:
		if h.Name != nil {
			sym.SelStart, sym.SelEnd = u.Abs(h.Name.Pos()), u.Abs(h.Name.End())
		}
	}
	if sym.Name == "" {
		sym.Name = "(" + sym.Kind + ")"
	}
	if sym.SelEnd == sym.SelStart && u.Header != nil {
		sym.SelStart, sym.SelEnd = u.Abs(u.Header.Pos()), u.Abs(u.Header.End())
	}
	sym.Children = loopSymbols(u, u.Body)
	if entries := entrySymbols(u); len(entries) > 0 {
		sym.Children = append(sym.Children, entries...)
		sort.SliceStable(sym.Children, func(i, j int) bool { return sym.Children[i].Start < sym.Children[j].Start })
	}
	for _, k := range u.Contains {
		sym.Children = append(sym.Children, unitSymbol(k))
	}
	return sym
}

// unitExtent is the absolute extent of a unit from its first statement to
// the end of its END statement.
func unitExtent(u *parser.Unit) (int, int) {
	var first, last parser.Node
	if u.Header != nil {
		first = u.Header
	} else if len(u.Body) > 0 {
		first = u.Body[0]
	}
	switch {
	case u.EndStmt != nil:
		last = u.EndStmt
	case len(u.Contains) > 0:
		s, e := unitExtent(u.Contains[len(u.Contains)-1])
		if first == nil {
			return s, e
		}
		return u.Abs(first.Pos()), e
	case len(u.Body) > 0:
		last = u.Body[len(u.Body)-1]
	}
	if first == nil {
		first = last
	}
	if last == nil {
		last = first // a header alone, while the unit is being typed
	}
	if first == nil {
		return u.Base, u.Base
	}
	return u.Abs(first.Pos()), u.Abs(last.End())
}

// signature prints a procedure header: SUBROUTINE NAME(A, B).
func signature(h *parser.SubprogramStmt) string {
	var b strings.Builder
	if h.Type != nil {
		b.WriteString(h.Type.Name)
		b.WriteByte(' ')
	}
	if h.Function {
		b.WriteString("FUNCTION ")
	} else {
		b.WriteString("SUBROUTINE ")
	}
	b.WriteString(h.Name.Name)
	b.WriteByte('(')
	b.WriteString(strings.Join(paramNames(h.Params), ", "))
	b.WriteByte(')')
	return b.String()
}

// entrySymbols are the ENTRY statements of a subprogram: other names by
// which it is called, each a subroutine or function as the subprogram
// is. ENTRY is not allowed inside a construct (Fortran 2018 C1571), so
// only the unit's own statements are looked at.
func entrySymbols(u *parser.Unit) []Symbol {
	var out []Symbol
	for _, st := range u.Body {
		e, ok := st.(*parser.EntryStmt)
		if !ok || e.Name == nil || e.Name.Name == "" {
			continue
		}
		out = append(out, Symbol{Name: e.Name.Name, Kind: u.Kind.String(),
			Detail: "ENTRY " + e.Name.Name + "(" + strings.Join(paramNames(e.Params), ", ") + ")",
			Start:  u.Abs(e.Pos()), End: u.Abs(e.End()), SelStart: u.Abs(e.Name.Pos()), SelEnd: u.Abs(e.Name.End())})
	}
	return out
}

func paramNames(params []parser.Expr) []string {
	out := make([]string, 0, len(params))
	for _, p := range params {
		if id, ok := p.(*parser.Ident); ok {
			out = append(out, id.Name)
		} else {
			out = append(out, "*")
		}
	}
	return out
}

// loopSymbols returns the loops among stmts, each with its inner loops.
func loopSymbols(u *parser.Unit, stmts []parser.Stmt) []Symbol {
	var out []Symbol
	for _, st := range stmts {
		switch x := st.(type) {
		case *parser.DoConstruct:
			out = append(out, loopSymbol(u, x))
		case *parser.IfConstruct:
			for _, a := range x.Arms {
				out = append(out, loopSymbols(u, a.Body)...)
			}
		case *parser.Block:
			if fa, ok := x.Head.(*parser.ForallStmt); ok {
				sym := Symbol{Name: "FORALL", Kind: "loop", Detail: forallDetail(fa.Header),
					Start: u.Abs(x.Pos()), End: u.Abs(x.End()), SelStart: u.Abs(fa.Pos()), SelEnd: u.Abs(fa.End())}
				sym.Children = loopSymbols(u, x.Body)
				out = append(out, sym)
				continue
			}
			out = append(out, loopSymbols(u, x.Body)...)
			for _, a := range x.Arms {
				out = append(out, loopSymbols(u, a.Body)...)
			}
		case *parser.ForallStmt:
			out = append(out, Symbol{Name: "FORALL", Kind: "loop", Detail: forallDetail(x.Header),
				Start: u.Abs(x.Pos()), End: u.Abs(x.End()), SelStart: u.Abs(x.Pos()), SelEnd: u.Abs(x.End())})
		}
	}
	return out
}

func loopSymbol(u *parser.Unit, c *parser.DoConstruct) Symbol {
	d := c.Do
	name := "DO"
	if d.Construct != nil {
		name = d.Construct.Name + ": DO"
	}
	if d.EndLabel != 0 {
		name += " " + strconv.Itoa(d.EndLabel)
	}
	var detail string
	switch {
	case d.Var != nil:
		name += " " + d.Var.Name
		detail = d.Var.Name + " = " + parser.ExprString(d.Lo) + ", " + parser.ExprString(d.Hi)
		if d.Step != nil {
			detail += ", " + parser.ExprString(d.Step)
		}
	case d.While != nil:
		name += " WHILE"
		detail = "(" + parser.ExprString(d.While) + ")"
	case d.Concurrent != nil:
		name += " CONCURRENT"
		detail = forallDetail(d.Concurrent)
	}
	for _, dir := range c.Directives {
		if !loopDirective(dir) {
			continue
		}
		if detail != "" {
			detail += "  "
		}
		detail += dir.Name
	}
	sym := Symbol{Name: name, Detail: detail, Kind: "loop", Start: u.Abs(c.Pos()), End: u.Abs(c.End()),
		SelStart: u.Abs(d.Pos()), SelEnd: u.Abs(d.End())}
	sym.Children = loopSymbols(u, c.Body)
	return sym
}

// loopDirective reports whether a directive attached to a loop governs
// it (INDEPENDENT, OpenMP DO...) rather than declaring data.
func loopDirective(d *parser.Directive) bool {
	switch d.Name {
	case "ALIGN", "DISTRIBUTE", "REALIGN", "REDISTRIBUTE", "TEMPLATE", "PROCESSORS", "DYNAMIC", "INHERIT", "LAYOUT", "DECOMPOSITION":
		return false
	}
	return true
}

func forallDetail(h *parser.ForallHeader) string {
	if h == nil {
		return ""
	}
	parts := make([]string, 0, len(h.Specs)+1)
	for _, s := range h.Specs {
		p := s.Var.Name + " = " + parser.ExprString(s.Lo) + ":" + parser.ExprString(s.Hi)
		if s.Stride != nil {
			p += ":" + parser.ExprString(s.Stride)
		}
		parts = append(parts, p)
	}
	if h.Mask != nil {
		parts = append(parts, parser.ExprString(h.Mask))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// WorkspaceSymbols returns the global names of f that match query (a
// case-insensitive subsequence; "" matches everything): program units,
// contained procedures, COMMON blocks, templates, decompositions and
// processor arrangements, and the ENTRY names of subprograms. COMMON
// blocks are listed once per file.
func WorkspaceSymbols(f *parser.File, query string) []Symbol {
	q := strings.ToUpper(query)
	var out []Symbol
	seenCommon := map[string]bool{}
	var visit func(u *parser.Unit, container string)
	visit = func(u *parser.Unit, container string) {
		if u.Kind != parser.UnitNone {
			s := unitSymbol(u)
			s.Children, s.Container = nil, container
			if matches(s.Name, q) {
				out = append(out, s)
			}
			for _, e := range entrySymbols(u) {
				if matches(e.Name, q) {
					e.Container = u.Name
					out = append(out, e)
				}
			}
		}
		if u.Scope != nil {
			for _, name := range u.Scope.Names() {
				sym := u.Scope.Syms[name]
				if sym.Included != "" {
					continue
				}
				kind := ""
				switch sym.Kind {
				case parser.SymCommon:
					if seenCommon[name] {
						continue
					}
					seenCommon[name] = true
					kind = "common block"
				case parser.SymTemplate:
					kind = "template"
				case parser.SymProcessors:
					kind = "processors"
				default:
					continue
				}
				if !matches(name, q) {
					continue
				}
				start := u.Abs(sym.Decl)
				end := start + len(strings.Trim(name, "/"))
				out = append(out, Symbol{Name: name, Kind: kind, Container: u.Name, Start: start, End: end, SelStart: start, SelEnd: end})
			}
		}
		for _, k := range u.Contains {
			visit(k, u.Name)
		}
	}
	for _, u := range f.Units {
		visit(u, "")
	}
	return out
}

// matches reports whether the letters of q appear in name in order.
func matches(name, q string) bool {
	name = strings.ToUpper(name)
	i := 0
	for j := 0; j < len(name) && i < len(q); j++ {
		if name[j] == q[i] {
			i++
		}
	}
	return i == len(q)
}
