package complexity

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pfls/pfls/parser"
)

// specific is the name of the procedure a reference to name with args
// calls: the specific procedure of a generic interface (ResolveCall),
// "" when no single one agrees, name itself when name is no generic.
func (p *pass) specific(f *parser.File, caller *parser.Unit, name string, args []parser.Expr) string {
	ref, ok, generic := p.specificRef(f, caller, name, args)
	switch {
	case !generic:
		return name
	case !ok:
		return ""
	}
	return ref.u.Name
}

// specificRef finds the specific procedure for specific; generic is
// false when name is no generic interface the caller sees.
//
// Scope by scope from the caller out (Fortran 2018 15.5.5.2): the
// specifics of the generic interfaces of the name that a scope defines
// or accesses by its USE statements, all of them together (a generic
// extended in several modules is one generic); first one whose dummy
// arguments have the ranks of the actual ones, then an elemental one
// whose scalar dummies take arrays; none: the host's, as if the
// reference were made there. A scope that has its own procedure of the
// name and no generic of it hides the host's generic.
func (p *pass) specificRef(f *parser.File, caller *parser.Unit, name string, args []parser.Expr) (ref procRef, ok, generic bool) {
	if caller == nil || caller.Scope == nil || dummyProc(caller, name) {
		return procRef{}, false, false
	}
	if sym := caller.Scope.Lookup(name); sym != nil && sym.Rank() > 0 {
		return procRef{}, false, false // an array element
	}
	for h := caller; h != nil; h = h.Parent {
		specs := p.genericIn(h, name)
		if len(specs) == 0 {
			if ownProc(h, name) {
				return procRef{}, false, generic
			}
			continue
		}
		generic = true
		for _, elem := range []bool{false, true} {
			ref, ok = procRef{}, false
			for _, s := range specs {
				r, found := p.resolve(f, s.home, s.name)
				if !found || r.u.Scope == nil || elem && !isElemental(r.u) || !p.agrees(caller.Scope, r.u, args, elem) {
					continue
				}
				if ok && r.u != ref.u {
					return procRef{}, false, true // ambiguous as far as pfls can tell
				}
				ref, ok = r, true
			}
			if ok {
				return ref, true, true
			}
		}
	}
	return procRef{}, false, generic
}

// ownProc reports whether a unit contains a procedure of the name or
// declares one EXTERNAL, which hides a host's generic of that name
// (Fortran 2018 19.5.1.4).
func ownProc(h *parser.Unit, name string) bool {
	if h.Scope != nil {
		if sym := h.Scope.Syms[name]; sym != nil && sym.External && sym.Declared {
			return true // EXTERNAL F: an external procedure of the name
		}
	}
	for _, k := range h.Contains {
		if k.Name == name && (k.Kind == parser.UnitSubroutine || k.Kind == parser.UnitFunction) {
			return true
		}
	}
	return false
}

// isElemental reports whether a procedure is declared ELEMENTAL.
func isElemental(u *parser.Unit) bool {
	hdr, _ := u.Header.(*parser.SubprogramStmt)
	return hdr != nil && slices.Contains(hdr.Prefix, "ELEMENTAL")
}

// specName is a specific procedure of a generic interface: its name
// and the unit whose scope names it (the interface's).
type specName struct {
	home *parser.Unit
	name string
}

// genericIn is the specific procedures of the generic interface name
// that a unit sees in itself: its own interface blocks of the name and
// those its USE statements access.
func (p *pass) genericIn(h *parser.Unit, name string) []specName {
	var out []specName
	if specs, ok := p.interfaceIn(h, name); ok {
		for _, s := range specs {
			out = append(out, specName{h, s})
		}
	}
	seen := map[*parser.Unit]bool{}
	for _, s := range h.Body {
		if use, ok := s.(*parser.UseStmt); ok {
			out = p.genericViaUse(use, name, 0, seen, out)
		}
	}
	return out
}

// genericViaUse adds to out the specifics of the generic name that one
// USE statement accesses: the generic renamed, in the ONLY list, or any
// name of a USE without ONLY that it does not rename away; in the module
// and in the modules it uses.
func (p *pass) genericViaUse(use *parser.UseStmt, name string, depth int, seen map[*parser.Unit]bool, out []specName) []specName {
	if use.Module == nil || depth > maxUseDepth {
		return out
	}
	mod, ok := p.modules[use.Module.Name]
	if !ok || seen[mod.u] {
		return out
	}
	remote, visible := name, !use.Only
	for _, r := range use.Names {
		if r == nil || r.Local == nil {
			continue
		}
		switch {
		case r.Remote != nil && r.Local.Name == name:
			remote, visible = r.Remote.Name, true
		case r.Remote != nil && r.Remote.Name == name:
			if remote == name {
				visible = false // renamed away
			}
		case r.Remote == nil && r.Local.Name == name:
			visible = true
		}
	}
	if !visible || privateIn(mod.u, remote) {
		return out
	}
	seen[mod.u] = true
	if specs, ok := p.interfaceIn(mod.u, remote); ok {
		for _, s := range specs {
			out = append(out, specName{mod.u, s})
		}
	}
	for _, s := range mod.u.Body {
		if u, ok := s.(*parser.UseStmt); ok {
			out = p.genericViaUse(u, remote, depth+1, seen, out)
		}
	}
	return out
}

// privateIn reports whether a module's name is PRIVATE (Fortran 2018
// 8.5.2, 8.6.1): named in a PRIVATE statement, or the module's default
// made PRIVATE by a bare PRIVATE statement and the name not in a PUBLIC
// one. A USE does not access a private name, so a generic interface of
// that name is not the user's (the module's public generic of another
// name may still call its private specifics).
func privateIn(mod *parser.Unit, name string) bool {
	def, named := false, 0
	for _, s := range mod.Body {
		nl, ok := s.(*parser.NameListStmt)
		if !ok || (nl.Keyword != "PRIVATE" && nl.Keyword != "PUBLIC") {
			continue
		}
		if len(nl.Names) == 0 {
			def = nl.Keyword == "PRIVATE"
			continue
		}
		for _, n := range nl.Names {
			if id, ok := n.(*parser.Ident); ok && id.Name == name {
				if nl.Keyword == "PRIVATE" {
					named = -1
				} else {
					named = 1
				}
			}
		}
	}
	if named != 0 {
		return named < 0
	}
	return def
}

// interfaceIn returns the specific procedures that the generic
// interface blocks named name in the unit's specification part list
// (all the blocks of that name together).
func (p *pass) interfaceIn(u *parser.Unit, name string) ([]string, bool) {
	all, ok := p.generics[u]
	if !ok {
		// The unit's generic interfaces, found once a pass: a call
		// looks in the caller's scopes and modules every time.
		for _, s := range u.Body {
			b, ok := s.(*parser.Block)
			if !ok {
				continue
			}
			is, ok := b.Head.(*parser.InterfaceStmt)
			if !ok || is.Name == nil {
				continue
			}
			if all == nil {
				all = map[string][]string{}
			}
			specs := all[is.Name.Name]
			for _, x := range b.Body {
				switch ps := x.(type) {
				case *parser.ProcedureStmt:
					for _, e := range ps.Names {
						if e != nil && e.Name != nil {
							specs = append(specs, e.Name.Name)
						}
					}
				case *parser.SubprogramStmt:
					// An interface body: an external procedure,
					// resolved where the program defines it.
					if ps.Name != nil {
						specs = append(specs, ps.Name.Name)
					}
				}
			}
			all[is.Name.Name] = specs
		}
		if p.generics == nil {
			p.generics = map[*parser.Unit]map[string][]string{}
		}
		p.generics[u] = all
	}
	specs, found := all[name]
	return specs, found
}

// agrees reports whether the actual arguments args, in the caller's scope
// sc, can be those of procedure u: no more of them than its dummies, the
// dummies left out OPTIONAL, and each actual of the dummy's type, kind
// and rank where both are known (any rank where elemental: an elemental
// reference given arrays).
func (p *pass) agrees(sc *parser.Scope, u *parser.Unit, args []parser.Expr, elemental bool) bool {
	hdr, _ := u.Header.(*parser.SubprogramStmt)
	if hdr == nil || len(args) > len(hdr.Params) {
		return false
	}
	given := map[string]bool{}
	for i, a := range args {
		dummy := ""
		if k, ok := a.(*parser.KeywordArg); ok {
			if k.Name == nil {
				return false
			}
			dummy, a = k.Name.Name, k.Value
		} else if id, ok := hdr.Params[i].(*parser.Ident); ok {
			dummy = id.Name
		}
		sym := u.Scope.Syms[dummy]
		if sym == nil || !sym.Dummy {
			return false
		}
		given[dummy] = true
		want, ok1 := p.symType(u.Scope, sym)
		got, ok2 := p.actualType(sc, a)
		if elemental {
			got.rank = want.rank
		}
		if ok1 && ok2 && !want.agrees(got) {
			return false
		}
	}
	for _, p := range hdr.Params {
		id, ok := p.(*parser.Ident)
		if !ok || given[id.Name] {
			continue
		}
		if sym := u.Scope.Syms[id.Name]; sym == nil || !slices.Contains(sym.Attrs, "OPTIONAL") {
			return false
		}
	}
	return true
}

// argType is what generic resolution compares: the type's category
// (INTEGER, REAL, COMPLEX, LOGICAL, CHARACTER, TYPE(T)), its kind (0 when
// not known) and the rank.
type argType struct {
	cat  string
	kind int
	rank int
}

func (a argType) agrees(b argType) bool {
	return a.cat == b.cat && a.rank == b.rank && (a.kind == 0 || b.kind == 0 || a.kind == b.kind)
}

// symType is the type of a declared name; ok is false when the
// declarations do not say it.
func (p *pass) symType(sc *parser.Scope, sym *parser.Symbol) (argType, bool) {
	t := sym.Type
	if t == "" {
		t = sc.ImplicitType(sym.Name)
	}
	a, ok := typeCategory(t)
	if !ok {
		return argType{}, false
	}
	if a.kind == 0 && sym.TypeSpec != nil && sym.TypeSpec.Kind != nil {
		a.kind = p.kindValue(sc, sym.TypeSpec.Kind, 0)
	} else if a.kind == 0 && (sym.TypeSpec == nil || sym.TypeSpec.Kind == nil) {
		a.kind = defaultKind(a.cat)
	}
	a.rank = sym.Rank()
	return a, true
}

// typeCategory splits a symbol's type name into its category and, where
// the name gives it, its kind.
func typeCategory(t string) (argType, bool) {
	switch {
	case t == "INTEGER" || t == "LOGICAL" || t == "CHARACTER" || t == "REAL" || t == "COMPLEX":
		return argType{cat: t}, true
	case t == "DOUBLEPRECISION":
		return argType{cat: "REAL", kind: 8}, true
	case t == "DOUBLECOMPLEX":
		return argType{cat: "COMPLEX", kind: 8}, true
	case strings.HasPrefix(t, "REAL*"):
		k, _ := strconv.Atoi(t[5:])
		return argType{cat: "REAL", kind: k}, true
	case strings.HasPrefix(t, "TYPE(") || strings.HasPrefix(t, "CLASS("):
		return argType{cat: "TYPE(" + t[strings.Index(t, "(")+1:]}, true
	}
	return argType{}, false
}

// defaultKind is the kind of a type declared without one (gfortran's and
// most compilers' defaults: 4 bytes for INTEGER, REAL and LOGICAL).
func defaultKind(cat string) int {
	switch cat {
	case "INTEGER", "REAL", "COMPLEX", "LOGICAL":
		return 4
	}
	return 0
}

// kindValue evaluates a kind selector: a literal, a named constant, or
// KIND(x) and SELECTED_REAL_KIND(P) of constants; 0 when it cannot.
func (p *pass) kindValue(sc *parser.Scope, x parser.Expr, depth int) int {
	if depth > 4 {
		return 0
	}
	switch v := x.(type) {
	case *parser.KeywordArg:
		return p.kindValue(sc, v.Value, depth+1)
	case *parser.Lit:
		if v.Kind == parser.IntLit {
			k, err := strconv.Atoi(v.Value)
			if err == nil {
				return k
			}
		}
	case *parser.Ident:
		if sym := sc.Lookup(v.Name); sym != nil && sym.Param != nil {
			return p.kindValue(sc, sym.Param, depth+1)
		}
		if msc, c := p.useParam(sc, v.Name); c != nil {
			return p.kindValue(msc, c, depth+1)
		}
	case *parser.Call:
		id, ok := v.Fun.(*parser.Ident)
		if !ok || len(v.Args) == 0 {
			return 0
		}
		switch id.Name {
		case "KIND":
			if t, ok := p.actualType(sc, v.Args[0]); ok {
				return t.kind
			}
		case "SELECTED_REAL_KIND":
			if l, ok := v.Args[0].(*parser.Lit); ok && l.Kind == parser.IntLit {
				// gfortran's kinds on x86-64: binary32, binary64, the
				// x87 80-bit extended (kind 10) and binary128.
				p, _ := strconv.Atoi(l.Value)
				switch {
				case p <= 6:
					return 4
				case p <= 15:
					return 8
				case p <= 18:
					return 10
				case p <= 33:
					return 16
				}
				return 0 // no such kind: SELECTED_REAL_KIND is negative
			}
		}
	}
	return 0
}

// actualType is the type of an actual argument where the caller's
// declarations tell it: a name, an element or section of an array, a
// literal; ok is false for other expressions.
func (p *pass) actualType(sc *parser.Scope, x parser.Expr) (argType, bool) {
	switch v := x.(type) {
	case *parser.Paren:
		return p.actualType(sc, v.X)
	case *parser.Ident:
		sym := sc.Lookup(v.Name)
		if sym == nil {
			a, ok := typeCategory(sc.ImplicitType(v.Name))
			if ok && a.kind == 0 {
				a.kind = defaultKind(a.cat)
			}
			return a, ok
		}
		if sym.Kind != parser.SymVariable {
			return argType{}, false
		}
		return p.symType(sc, sym)
	case *parser.Call:
		id, ok := v.Fun.(*parser.Ident)
		if !ok {
			return argType{}, false
		}
		sym := sc.Lookup(id.Name)
		if sym == nil || sym.Kind != parser.SymVariable || sym.Rank() == 0 {
			return argType{}, false // a function's result
		}
		a, ok := p.symType(sc, sym)
		a.rank = 0
		for _, s := range v.Args {
			if _, ok := s.(*parser.Triplet); ok {
				a.rank++
			}
		}
		return a, ok
	case *parser.Lit:
		switch v.Kind {
		case parser.IntLit:
			return argType{cat: "INTEGER", kind: litKind(v.Value, 4)}, true
		case parser.RealLit:
			k := 4
			if strings.ContainsAny(v.Value, "dD") {
				k = 8
			}
			return argType{cat: "REAL", kind: litKind(v.Value, k)}, true
		case parser.StringLit:
			return argType{cat: "CHARACTER"}, true
		case parser.LogicalLit:
			return argType{cat: "LOGICAL", kind: 4}, true
		}
	}
	return argType{}, false
}

// litKind is the kind of a literal: its _K suffix when a number, unknown
// (0) when a name, else def.
func litKind(v string, def int) int {
	i := strings.LastIndex(v, "_")
	if i < 0 {
		return def
	}
	k, err := strconv.Atoi(v[i+1:])
	if err != nil {
		return 0
	}
	return k
}

// useParam finds a named constant that a scope sees through the USE
// statements of its units (a module's KIND parameter, DP = KIND(1.0D0)):
// the module's scope and the constant's value.
func (p *pass) useParam(sc *parser.Scope, name string) (*parser.Scope, parser.Expr) {
	seen := map[*parser.Unit]bool{}
	var via func(u *parser.Unit, depth int) (*parser.Scope, parser.Expr)
	via = func(u *parser.Unit, depth int) (*parser.Scope, parser.Expr) {
		if depth > maxUseDepth {
			return nil, nil
		}
		for _, s := range u.Body {
			use, ok := s.(*parser.UseStmt)
			if !ok || use.Module == nil {
				continue
			}
			mod, ok := p.modules[use.Module.Name]
			if !ok || seen[mod.u] || mod.u.Scope == nil {
				continue
			}
			seen[mod.u] = true
			if sym := mod.u.Scope.Syms[name]; sym != nil && sym.Param != nil {
				return mod.u.Scope, sym.Param
			}
			if msc, c := via(mod.u, depth+1); c != nil {
				return msc, c
			}
		}
		return nil, nil
	}
	for s := sc; s != nil; s = s.Parent {
		if s.Unit == nil {
			continue
		}
		if msc, c := via(s.Unit, 0); c != nil {
			return msc, c
		}
	}
	return nil, nil
}
