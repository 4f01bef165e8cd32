package hints

import (
	"strings"

	"github.com/pfls/pfls/parser"
)

// NameRef is a name found in the source: an identifier in a statement or
// a directive, or the name of a COMMON block.
type NameRef struct {
	Name       string // upper case; "/NAME/" for a COMMON block
	Start, End int    // absolute offsets of the name as written
	Unit       *parser.Unit
	Sym        *parser.Symbol // nil when the scope does not know the name
	Common     bool
	Header     bool // the name in a program unit's header
}

// Location is a stretch of a file: f itself, an INCLUDE'd file, or
// another file of the workspace.
type Location struct {
	File       *parser.File
	Start, End int
}

// global reports whether the name denotes something that lives outside
// one unit: a COMMON block or a procedure.
func (r *NameRef) global() bool {
	return r.Common || r.Header || r.Sym != nil && r.Sym.Kind == parser.SymProcedure ||
		r.Sym == nil && !parser.IsIntrinsic(r.Name)
}

// innermost returns the unit (top level or contained) holding off.
func innermost(f *parser.File, off int) *parser.Unit {
	u := f.UnitAt(off)
	if u == nil {
		return nil
	}
outer:
	for {
		for _, k := range u.Contains {
			if s, e := unitExtent(k); s <= off && off <= e {
				u = k
				continue outer
			}
		}
		return u
	}
}

// ownStmts returns the statements of u itself (header, body, END), not
// those of its contained procedures.
func ownStmts(u *parser.Unit) []parser.Stmt {
	out := make([]parser.Stmt, 0, len(u.Body)+2)
	if u.Header != nil {
		out = append(out, u.Header)
	}
	out = append(out, u.Body...)
	if u.EndStmt != nil {
		out = append(out, u.EndStmt)
	}
	return out
}

// eachName calls fn for every name of u's own statements that is a
// reference to a symbol: identifiers (not keyword-argument names or
// derived-type components) and COMMON block names. within, when not nil,
// restricts the walk to nodes around one absolute offset.
func eachName(u *parser.Unit, within *int, fn func(r NameRef) bool) {
	var header *parser.Ident
	if h, ok := u.Header.(*parser.SubprogramStmt); ok {
		header = h.Name
	}
	stop := false
	var visit func(n parser.Node) bool
	visit = func(n parser.Node) bool {
		if stop {
			return false
		}
		if within != nil && (u.Abs(n.Pos()) > *within || u.Abs(n.End()) < *within) {
			if _, ok := n.(*parser.CommonStmt); !ok {
				return false
			}
		}
		switch x := n.(type) {
		case *parser.CommonStmt:
			for _, b := range x.Blocks {
				if b.Name != nil {
					r := NameRef{Name: "/" + b.Name.Name + "/", Start: u.Abs(b.Name.Pos()), End: u.Abs(b.Name.End()), Unit: u, Common: true}
					r.Sym = u.Scope.Lookup(r.Name)
					if !fn(r) {
						stop = true
						return false
					}
				}
				for _, e := range b.Entities {
					parser.Inspect(e.Name, visit)
					for _, d := range e.Dims {
						if d.Lower != nil {
							parser.Inspect(d.Lower, visit)
						}
						if d.Upper != nil {
							parser.Inspect(d.Upper, visit)
						}
					}
				}
			}
			return false
		case *parser.Call:
			if b := savedBlock(x); b != nil {
				r := NameRef{Name: "/" + b.Name + "/", Start: u.Abs(b.Pos()), End: u.Abs(b.End()), Unit: u, Common: true}
				if u.Scope != nil {
					r.Sym = u.Scope.Lookup(r.Name)
				}
				if !fn(r) {
					stop = true
				}
				return false
			}
		case *parser.ParameterStmt:
			// The names a PARAMETER statement defines are kept as
			// keyword arguments by the tree; they are references.
			for _, d := range x.Defs {
				parser.Inspect(d.Name, visit)
				if d.Value != nil {
					parser.Inspect(d.Value, visit)
				}
			}
			return false
		case *parser.KeywordArg:
			if x.Value != nil {
				parser.Inspect(x.Value, visit)
			}
			return false
		case *parser.Component:
			parser.Inspect(x.X, visit)
			return false
		case *parser.Ident:
			if x.Name == "" {
				return false
			}
			r := NameRef{Name: x.Name, Start: u.Abs(x.Pos()), End: u.Abs(x.End()), Unit: u, Header: x == header}
			if u.Scope != nil {
				r.Sym = u.Scope.Lookup(x.Name)
			}
			if !fn(r) {
				stop = true
			}
			return false
		}
		return true
	}
	for _, st := range ownStmts(u) {
		if stop {
			return
		}
		parser.Inspect(st, visit)
	}
}

// NameAt returns the name at the byte offset off (or just after it), or
// nil when there is none.
func NameAt(f *parser.File, off int) *NameRef {
	u := innermost(f, off)
	if u == nil {
		return nil
	}
	var found *NameRef
	eachName(u, &off, func(r NameRef) bool {
		if r.Start <= off && off <= r.End {
			found = &r
			return false
		}
		return true
	})
	return found
}

// allUnits calls fn for every unit of f, contained ones included.
func allUnits(f *parser.File, fn func(u *parser.Unit)) {
	var visit func(u *parser.Unit)
	visit = func(u *parser.Unit) {
		fn(u)
		for _, k := range u.Contains {
			visit(k)
		}
	}
	for _, u := range f.Units {
		visit(u)
	}
}

// findUnit returns the header name of the procedure or program unit
// called name: first among the units around from, then in f, then in
// the other files.
func findUnit(f *parser.File, from *parser.Unit, name string, others []*parser.File) (Location, *parser.Unit, bool) {
	match := func(u *parser.Unit) bool { return u.Name == name && u.Header != nil }
	for h := from; h != nil; h = h.Parent {
		for _, k := range h.Contains {
			if match(k) {
				return headerLoc(f, k), k, true
			}
		}
	}
	for _, file := range append([]*parser.File{f}, others...) {
		var hit *parser.Unit
		allUnits(file, func(u *parser.Unit) {
			if hit == nil && match(u) {
				hit = u
			}
		})
		if hit != nil {
			return headerLoc(file, hit), hit, true
		}
	}
	return Location{}, nil, false
}

// ancestorSym finds the module entity a name denotes where the unit
// (and its hosts) do not declare it: the entity of a module a USE
// statement of the unit or a host makes accessible (with its ONLY list
// and renames, through the modules that module uses), or of a
// submodule's parent module, whose entities are the submodule's by host
// association (Fortran 2018 14.2.3). Modules are looked up in f and then
// in the other files. Procedures are left to findUnit.
func ancestorSym(f *parser.File, r *NameRef, others []*parser.File) (*parser.File, *parser.Unit, *parser.Symbol, bool) {
	if r.Common || r.Header || r.Unit == nil || r.Sym != nil && solid(r.Sym) {
		return nil, nil, nil, false
	}
	files := append([]*parser.File{f}, others...)
	for _, us := range useStmts(r.Unit) {
		for _, rn := range us.Names {
			if rn.Remote != nil && r.Unit.Abs(rn.Remote.Pos()) == r.Start {
				// The module's name for it, in USE M, LOCAL => REMOTE.
				return moduleSym(files, us.Module.Name, r.Name, 0, true)
			}
		}
	}
	for s := r.Unit; s != nil; s = s.Parent {
		if file, m, sym, ok := usedSym(files, s, r.Name, 0); ok {
			return file, m, sym, true
		}
	}
	top := r.Unit.Top()
	if h, ok := top.Header.(*parser.ModuleStmt); ok && h.Parent != nil && top.Kind == parser.UnitSubmodule {
		return moduleSym(files, h.Parent.Name, r.Name, 0, false)
	}
	return nil, nil, nil, false
}

// usedSym finds name among the entities the USE statements of unit s
// make accessible.
func usedSym(files []*parser.File, s *parser.Unit, name string, depth int) (*parser.File, *parser.Unit, *parser.Symbol, bool) {
	for _, us := range useStmts(s) {
		remote, listed, renamedAway := name, false, false
		for _, rn := range us.Names {
			switch {
			case rn.Local == nil:
			case rn.Remote != nil && rn.Local.Name == name:
				remote, listed = rn.Remote.Name, true
			case rn.Remote != nil && rn.Remote.Name == name:
				renamedAway = true
			case rn.Remote == nil && rn.Local.Name == name:
				listed = true
			}
		}
		if !listed && (us.Only || renamedAway) {
			continue
		}
		if file, m, sym, ok := moduleSym(files, us.Module.Name, remote, depth+1, true); ok {
			return file, m, sym, true
		}
	}
	return nil, nil, nil, false
}

// moduleSym finds the entity called name of module mod: declared in it,
// or given by the modules it uses. byUse is true when the name is reached
// by a USE statement, which makes only the module's public entities
// accessible (Fortran 2018 8.5.2: a PRIVATE entity, by its attribute or
// by a bare PRIVATE statement, is not; that holds as well for an entity
// the module has from another module); a submodule's parent is searched
// with byUse false, as host association gives it all of them.
func moduleSym(files []*parser.File, mod, name string, depth int, byUse bool) (*parser.File, *parser.Unit, *parser.Symbol, bool) {
	if depth > maxUseDepth {
		return nil, nil, nil, false
	}
	for _, file := range files {
		for _, m := range file.Units {
			if m.Kind != parser.UnitModule || m.Name != mod || m.Scope == nil {
				continue
			}
			sym := m.Scope.Syms[name]
			if byUse && (sym != nil && private(m, sym) || sym == nil && private(m, &parser.Symbol{})) {
				return nil, nil, nil, false
			}
			if sym != nil && solid(sym) {
				if sym.Kind == parser.SymProcedure {
					return nil, nil, nil, false
				}
				return file, m, sym, true
			}
			return usedSym(files, m, name, depth)
		}
	}
	return nil, nil, nil, false
}

// findEntry returns the name in the ENTRY statement that makes name a
// subprogram's other entry point, in f and then in the other files, with
// the entry's outline symbol and its subprogram.
func findEntry(f *parser.File, name string, others []*parser.File) (Location, bool) {
	loc, _, _, ok := findEntrySym(f, name, others)
	return loc, ok
}

func findEntrySym(f *parser.File, name string, others []*parser.File) (Location, Symbol, *parser.Unit, bool) {
	for _, file := range append([]*parser.File{f}, others...) {
		var loc Location
		var sym Symbol
		var in *parser.Unit
		allUnits(file, func(u *parser.Unit) {
			for _, e := range entrySymbols(u) {
				if in == nil && e.Name == name {
					loc, sym, in = Location{file, e.SelStart, e.SelEnd}, e, u
				}
			}
		})
		if in != nil {
			return loc, sym, in, true
		}
	}
	return Location{}, Symbol{}, nil, false
}

func headerLoc(f *parser.File, u *parser.Unit) Location {
	switch h := u.Header.(type) {
	case *parser.SubprogramStmt:
		return Location{f, u.Abs(h.Name.Pos()), u.Abs(h.Name.End())}
	case *parser.ProgramStmt:
		if h.Name != nil {
			return Location{f, u.Abs(h.Name.Pos()), u.Abs(h.Name.End())}
		}
	case *parser.ModuleStmt:
		if h.Name != nil {
			return Location{f, u.Abs(h.Name.Pos()), u.Abs(h.Name.End())}
		}
	}
	return Location{f, u.Abs(u.Header.Pos()), u.Abs(u.Header.End())}
}

// declLoc is where a symbol of unit u is declared: in f, or in the
// INCLUDE'd file its declaration came from.
func declLoc(f *parser.File, u *parser.Unit, sym *parser.Symbol) (Location, bool) {
	n := len(strings.Trim(sym.Name, "/"))
	if sym.Included == "" {
		start := u.Abs(sym.Decl)
		if start < 0 || start+n > len(f.Src) {
			return Location{}, false
		}
		return Location{f, start, start + n}, true
	}
	var loc Location
	ok := false
	for h := u; h != nil && !ok; h = h.Parent {
		for _, st := range h.Body {
			inc, isInc := st.(*parser.IncludeStmt)
			if !isInc || inc.File == nil || inc.File.Name != sym.Included {
				continue
			}
			for _, iu := range inc.File.Units {
				start := iu.Abs(sym.Decl)
				if start >= 0 && start+n <= len(inc.File.Src) && strings.EqualFold(string(inc.File.Src[start:start+n]), strings.Trim(sym.Name, "/")) {
					loc, ok = Location{inc.File, start, start + n}, true
					break
				}
			}
		}
	}
	return loc, ok
}

// Definition returns where the name at off is defined: the declaration of
// a variable, array, PARAMETER, template, decomposition or processor
// arrangement (also for names inside directives), the COMMON statement of
// a block, or the header of a procedure (or the ENTRY statement of an
// entry point), looked up in f and then in the other open files.
func Definition(f *parser.File, off int, others []*parser.File) []Location {
	r := NameAt(f, off)
	if r == nil {
		return nil
	}
	if r.Header {
		return []Location{{f, r.Start, r.End}}
	}
	if file, u, sym, ok := ancestorSym(f, r, others); ok {
		if loc, ok := declLoc(file, u, sym); ok {
			return []Location{loc}
		}
	}
	if !r.Common && (r.Sym == nil || r.Sym.Kind == parser.SymProcedure) {
		if loc, _, ok := findUnit(f, r.Unit, r.Name, others); ok {
			return []Location{loc}
		}
		if loc, ok := findEntry(f, r.Name, others); ok {
			return []Location{loc}
		}
	}
	if r.Sym == nil {
		return nil
	}
	if loc, ok := declLoc(f, r.Unit, r.Sym); ok {
		return []Location{loc}
	}
	return nil
}

// References returns every place the name at off is used in f and the
// other files, directive lines included and comments excluded (comments
// are not in the tree). Local names are matched by symbol, in the unit
// that declares them and its contained procedures; COMMON blocks and
// procedures by name across units. The declaration is included when
// includeDecl is set.
func References(f *parser.File, off int, includeDecl bool, others []*parser.File) []Location {
	r := NameAt(f, off)
	if r == nil || r.Sym == nil && parser.IsIntrinsic(r.Name) {
		return nil
	}
	var out []Location
	var declStart = -1
	if r.Sym != nil && !r.global() {
		if loc, ok := declLoc(f, r.Unit, r.Sym); ok {
			if loc.File != f && includeDecl {
				out = append(out, loc)
			}
			declStart = loc.Start
		}
	}
	global := r.global()
	for _, file := range append([]*parser.File{f}, others...) {
		if !global && file != f {
			continue
		}
		allUnits(file, func(u *parser.Unit) {
			eachName(u, nil, func(x NameRef) bool {
				if x.Name != r.Name {
					return true
				}
				same := false
				switch {
				case global:
					same = x.Common == r.Common && (x.Common || x.global())
				default:
					same = x.Sym == r.Sym
				}
				if same && (includeDecl || !(file == f && x.Start == declStart) && !(global && x.Header)) {
					out = append(out, Location{file, x.Start, x.End})
				}
				return true
			})
		})
	}
	return out
}
