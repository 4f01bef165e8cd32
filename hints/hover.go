package hints

import (
	"fmt"
	"strings"

	"github.com/pfls/pfls/parser"
)

// HoverInfo is the hover of a name: its extent and a Markdown text.
type HoverInfo struct {
	Start, End int
	Markdown   string
}

// Hover describes the name at off: its declaration, type, shape,
// alignment and distribution (also through the template it is aligned
// with), COMMON block, PARAMETER value; or a procedure's header, or a
// COMMON block's members. It returns nil when off is not on a name.
func Hover(f *parser.File, off int, others []*parser.File) *HoverInfo {
	r := NameAt(f, off)
	if r == nil {
		return nil
	}
	h := &HoverInfo{Start: r.Start, End: r.End}
	if md := libraryHover(f, r, others); md != "" {
		h.Markdown = md
		return h
	}
	var b strings.Builder
	if file, u, sym, ok := ancestorSym(f, r, others); ok {
		// An entity of a submodule's parent module.
		p := *r
		p.Unit, p.Sym = u, sym
		symbolHoverIn(&b, f, file, &p)
		h.Markdown = b.String()
		return h
	}
	switch {
	case r.Common:
		commonHover(&b, f, r)
	case r.Header || r.Sym == nil || r.Sym.Kind == parser.SymProcedure:
		if _, u, ok := findUnit(f, r.Unit, r.Name, others); ok {
			fmt.Fprintf(&b, "```fortran\n%s\n```\n", unitSignature(u))
			if r.Sym != nil && r.Sym.Kind == parser.SymVariable {
				fmt.Fprintf(&b, "\nresult variable, %s\n", r.Sym.Type)
			}
		} else if loc, e, u, ok := findEntrySym(f, r.Name, others); ok {
			fmt.Fprintf(&b, "```fortran\n%s\n```\nentry point of %s, line %d of %s\n", e.Detail, unitSignature(u),
				loc.File.Lines.Line(loc.Start)+1, loc.File.Name)
		} else if md := intrinsicHover(r.Name); md != "" && (r.Sym == nil || r.Sym.Intrinsic || !r.Sym.Declared) {
			b.WriteString(md)
		} else if parser.IsIntrinsic(r.Name) && (r.Sym == nil || r.Sym.Intrinsic || !r.Sym.Declared) {
			fmt.Fprintf(&b, "```fortran\nINTRINSIC %s\n```\nintrinsic procedure (an extension of the standard)\n", r.Name)
		} else if r.Sym != nil {
			fmt.Fprintf(&b, "```fortran\nEXTERNAL %s\n```\nexternal procedure", r.Name)
			if r.Sym.Type != "" && !r.Sym.Implicit {
				fmt.Fprintf(&b, " returning %s", r.Sym.Type)
			}
			b.WriteString("\n")
		} else {
			return nil
		}
	default:
		symbolHover(&b, f, r)
	}
	h.Markdown = b.String()
	return h
}

func unitSignature(u *parser.Unit) string {
	if h, ok := u.Header.(*parser.SubprogramStmt); ok {
		return signature(h)
	}
	return strings.ToUpper(u.Kind.String()) + " " + u.Name
}

// DimsString prints array bounds as written: (0:N+1, *, :).
func DimsString(dims []*parser.DimSpec) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		var p string
		switch {
		case d.Lower != nil && d.Upper != nil:
			p = parser.ExprString(d.Lower) + ":" + parser.ExprString(d.Upper)
		case d.Lower != nil:
			p = parser.ExprString(d.Lower) + ":"
		case d.Upper != nil:
			p = parser.ExprString(d.Upper)
		default:
			p = ":"
		}
		parts[i] = p
	}
	return "(" + strings.Join(parts, ",") + ")"
}

func symbolHover(b *strings.Builder, f *parser.File, r *NameRef) {
	symbolHoverIn(b, f, f, r)
}

// symbolHoverIn describes the symbol of r, a name of unit r.Unit in the
// file home, for a hover in f.
func symbolHoverIn(b *strings.Builder, f, home *parser.File, r *NameRef) {
	sym := r.Sym
	decl := ""
	switch sym.Kind {
	case parser.SymTemplate:
		decl = "TEMPLATE " + sym.Name
	case parser.SymProcessors:
		decl = "PROCESSORS " + sym.Name
	case parser.SymNamelist:
		decl = "NAMELIST /" + sym.Name + "/"
	case parser.SymDerivedType:
		decl = "TYPE " + sym.Name
	default:
		t := sym.Type
		if t == "" {
			t = "(untyped)"
		}
		decl = t + " " + sym.Name
	}
	if len(sym.Dims) > 0 {
		decl += DimsString(sym.Dims)
	}
	if sym.Param != nil {
		decl += " = " + parser.ExprString(sym.Param)
	}

	var facts []string
	switch {
	case sym.Kind == parser.SymNamelist:
		vars := namelistVars(r.Unit, sym.Name)
		facts = append(facts, fmt.Sprintf("NAMELIST group of %d variable%s: %s", len(vars), plural(len(vars)), strings.Join(vars, ", ")))
	case sym.Kind == parser.SymDerivedType:
		comps, n := typeComponents(r.Unit, sym.Name)
		facts = append(facts, fmt.Sprintf("derived type with %d component%s", n, plural(n)))
		if len(comps) > 0 {
			// The components go into the declaration's block.
			fmt.Fprintf(b, "```fortran\n%s\n%s\nEND TYPE\n```\n", decl, strings.Join(comps, "\n"))
			decl = ""
		}
	case sym.Kind == parser.SymTemplate || sym.Kind == parser.SymProcessors:
		if len(sym.Dims) > 0 {
			facts = append(facts, fmt.Sprintf("rank %d", len(sym.Dims)))
		}
	case sym.Param != nil:
		kind := "named constant"
		if v, ok := parser.EvalInt(sym.Param, r.Unit.Scope); ok {
			kind += fmt.Sprintf(" = %d", v)
		}
		facts = append(facts, kind)
	case len(sym.Dims) > 0:
		facts = append(facts, fmt.Sprintf("array of rank %d", len(sym.Dims)))
	default:
		facts = append(facts, "scalar")
	}
	if decl != "" {
		fmt.Fprintf(b, "```fortran\n%s\n```\n", decl)
	}
	if sym.Implicit {
		facts = append(facts, "implicitly typed")
	}
	if sym.Dummy {
		facts = append(facts, "dummy argument")
	}
	if sym.InCommon {
		facts = append(facts, "in COMMON /"+sym.Common+"/")
	}
	facts = append(facts, sym.Attrs...)
	b.WriteString("\n" + strings.Join(facts, " · ") + "\n")

	if sym.Align != nil {
		fmt.Fprintf(b, "\naligned: `%s`\n", alignString(sym.Align))
	}
	if sym.Dist != nil {
		fmt.Fprintf(b, "\ndistributed: `%s`\n", distString(sym.Name, sym.Dist))
	} else if sym.Align != nil && sym.Align.Target != nil {
		if t := r.Unit.Scope.Lookup(sym.Align.Target.Name); t != nil && t.Dist != nil {
			fmt.Fprintf(b, "\ndistributed through %s: `%s`\n", t.Name, distString(t.Name, t.Dist))
		}
	}
	if sym.Layout != nil {
		fmt.Fprintf(b, "\nlayout: `%s(%s)`\n", sym.Name, strings.Join(prefixAll(sym.Layout.Dims, ":"), ", "))
	}
	if loc, ok := declLoc(home, r.Unit, sym); ok {
		what := "declared"
		if sym.Implicit && !sym.Declared {
			what = "first used"
		}
		line := loc.File.Lines.Line(loc.Start) + 1
		if loc.File != f {
			fmt.Fprintf(b, "\n%s in %s, line %d\n", what, loc.File.Name, line)
		} else {
			fmt.Fprintf(b, "\n%s on line %d\n", what, line)
		}
	}
}

// hostUnits are u and the units around it, innermost first.
func hostUnits(u *parser.Unit) []*parser.Unit {
	var out []*parser.Unit
	for sc := u.Scope; sc != nil; sc = sc.Parent {
		if sc.Unit != nil {
			out = append(out, sc.Unit)
		}
	}
	if len(out) == 0 {
		out = append(out, u)
	}
	return out
}

// namelistVars are the variables of the NAMELIST group name in the unit
// that declares it (u or a host), in order: every NAMELIST statement
// naming the group adds to it.
func namelistVars(u *parser.Unit, name string) []string {
	for _, h := range hostUnits(u) {
		var vars []string
		found := false
		for _, s := range h.Body {
			nl, ok := s.(*parser.NameListStmt)
			if !ok || nl.Keyword != "NAMELIST" {
				continue
			}
			// The variables of group i lie between its name and the next.
			for i, g := range nl.Args {
				id, ok := g.(*parser.Ident)
				if !ok || !strings.EqualFold(id.Name, name) {
					continue
				}
				found = true
				end := nl.End()
				if i+1 < len(nl.Args) {
					end = nl.Args[i+1].Pos()
				}
				for _, v := range nl.Names {
					if v.Pos() > id.Pos() && v.Pos() < end {
						vars = append(vars, strings.ToUpper(parser.ExprString(v)))
					}
				}
			}
		}
		if found {
			return vars
		}
	}
	return nil
}

// typeComponents are the declarations of the components of the derived
// type name defined in u or a host ("REAL(8) :: X, Y(3)"), and how many
// components they declare.
func typeComponents(u *parser.Unit, name string) ([]string, int) {
	for _, h := range hostUnits(u) {
		for _, s := range h.Body {
			blk, ok := s.(*parser.Block)
			if !ok {
				continue
			}
			dt, ok := blk.Head.(*parser.DerivedTypeStmt)
			if !ok || dt.Name == nil || !strings.EqualFold(dt.Name.Name, name) {
				continue
			}
			var decls []string
			n := 0
			for _, c := range blk.Body {
				td, ok := c.(*parser.TypeDecl)
				if !ok {
					continue
				}
				spec := typeSpecString(td.Type)
				for _, a := range td.Attrs {
					spec += ", " + a.Name
					if len(a.Dims) > 0 {
						spec += DimsString(a.Dims)
					}
				}
				var names []string
				for _, e := range td.Entities {
					names = append(names, e.Name.Name+DimsStringIf(e.Dims))
					n++
				}
				decls = append(decls, "  "+spec+" :: "+strings.Join(names, ", "))
			}
			return decls, n
		}
	}
	return nil, 0
}

// typeSpecString prints a type as declared: REAL(8), CHARACTER(LEN=10),
// TYPE(POINT).
func typeSpecString(t *parser.TypeSpec) string {
	if t == nil {
		return "(untyped)"
	}
	s := t.Name
	switch {
	case t.Derived != "":
		s += "(" + t.Derived + ")"
	case t.Len != nil:
		s += "(LEN=" + parser.ExprString(t.Len) + ")"
	case t.Kind != nil:
		s += "(" + parser.ExprString(t.Kind) + ")"
	}
	return s
}

func prefixAll(xs []string, p string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = p + x
	}
	return out
}

func exprList(xs []parser.Expr) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = parser.ExprString(x)
	}
	return strings.Join(parts, ",")
}

func alignString(a *parser.AlignSpec) string {
	names := make([]string, len(a.Alignees))
	for i, x := range a.Alignees {
		names[i] = x.Name
	}
	s := "ALIGN " + strings.Join(names, ", ")
	if a.HasSubs {
		s += "(" + exprList(a.Subs) + ")"
	}
	if a.Target != nil {
		s += " WITH " + a.Target.Name
		if a.HasTarget {
			s += "(" + exprList(a.TargetSubs) + ")"
		}
	}
	return s
}

func distString(name string, d *parser.DistributeSpec) string {
	parts := make([]string, len(d.Formats))
	for i, fm := range d.Formats {
		parts[i] = fm.Kind
		if fm.Arg != nil {
			parts[i] += "(" + parser.ExprString(fm.Arg) + ")"
		}
	}
	s := name + "(" + strings.Join(parts, ",") + ")"
	if d.Onto != nil {
		s += " ONTO " + d.Onto.Name
	}
	return s
}

func commonHover(b *strings.Builder, f *parser.File, r *NameRef) {
	name := strings.Trim(r.Name, "/")
	var members []string
	for sc := r.Unit.Scope; sc != nil; sc = sc.Parent {
		for _, n := range sc.Names() {
			if s := sc.Syms[n]; s.InCommon && s.Common == name {
				members = append(members, n+DimsStringIf(s.Dims))
			}
		}
	}
	fmt.Fprintf(b, "```fortran\nCOMMON /%s/ %s\n```\nCOMMON block\n", name, strings.Join(members, ", "))
}

// DimsStringIf prints the bounds of an array and nothing for a scalar.
func DimsStringIf(dims []*parser.DimSpec) string {
	if len(dims) == 0 {
		return ""
	}
	return DimsString(dims)
}
