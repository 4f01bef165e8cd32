package hints

import (
	"strings"

	"github.com/pfls/pfls/parser"
)

// This file resolves every name of a set of files to what it means, the
// way the Fortran standard does (F2018 11.2.2 and 19.5.1): a name in a
// scope is a local entity, a USE-associated entity (by its own name or by
// the local name of a rename clause), a host-associated entity, a
// procedure, a COMMON block or an intrinsic. Rename works on these
// bindings, never on spellings.

// bindKind tells what a name is bound to.
type bindKind uint8

const (
	bindLocal     bindKind = iota // a symbol of one scope (variable, dummy, PARAMETER, template...)
	bindAlias                     // the local name of LOCAL => REMOTE in a USE statement
	bindProc                      // a procedure or main program, by name across files
	bindCommon                    // a COMMON block, by name across files
	bindModule                    // a module, by name across files
	bindIntrinsic                 // an intrinsic procedure
	bindOpaque                    // a name rename does not handle (see why)
)

// bindKey identifies one binding: two references mean the same thing
// when their keys are equal.
type bindKey struct {
	kind bindKind
	file *parser.File
	unit *parser.Unit // the scope of a local or alias binding
	name string       // upper case; "/B/" for a COMMON block
	why  string       // for bindOpaque: what the name is
}

// refRole is where a name stands.
type refRole uint8

const (
	rolePlain     refRole = iota // an ordinary reference or declaration
	roleHeader                   // the name of a program unit in its header
	roleEnd                      // the name after END SUBROUTINE and the like
	roleKeyword                  // the keyword of an actual argument, N in CALL S(N=1)
	roleUseModule                // the module name of a USE statement
	roleUseLocal                 // LOCAL in USE M, LOCAL => REMOTE
	roleUseRemote                // REMOTE in USE M, LOCAL => REMOTE
	roleOnly                     // a plain name in an ONLY list
	roleOther                    // a name inside an interface body, a component, a construct name
)

// ref is one occurrence of a name in the source.
type ref struct {
	file       *parser.File
	unit       *parser.Unit // the innermost unit holding it
	name       string
	start, end int // the whole token as written, blanks of fixed form included
	split      bool
	role       refRole
	info       string // the module of a USE role, the callee of a keyword
	key        bindKey
}

type unitAt struct {
	f *parser.File
	u *parser.Unit
}

// workspace holds the files rename looks at, their units and every name
// reference with its binding.
type workspace struct {
	files      []*parser.File
	units      []unitAt
	fileOf     map[*parser.Unit]*parser.File
	modules    map[string]unitAt
	procs      map[string][]unitAt
	commons    map[string]bool
	interfaced map[string]bool                  // procedures with an interface body somewhere
	called     map[*parser.Unit]map[string]bool // names referenced as functions, per unit
	refs       []ref
	loaded     map[*parser.File]bool
	included   map[*parser.File]map[string]bool // names written in INCLUDE'd files
	includers  map[*parser.File][]*parser.Unit  // the units that INCLUDE each file
}

const maxUseDepth = 16

func newWorkspace(f *parser.File, others []*parser.File) *workspace {
	w := &workspace{fileOf: map[*parser.Unit]*parser.File{}, modules: map[string]unitAt{}, procs: map[string][]unitAt{},
		commons: map[string]bool{}, interfaced: map[string]bool{}, called: map[*parser.Unit]map[string]bool{},
		included: map[*parser.File]map[string]bool{}, includers: map[*parser.File][]*parser.Unit{}, loaded: map[*parser.File]bool{}}
	seen := map[*parser.File]bool{}
	names := map[string]bool{}
	for _, file := range append([]*parser.File{f}, others...) {
		if file == nil || seen[file] || file != f && names[file.Name] {
			continue
		}
		seen[file], names[file.Name] = true, true
		w.files = append(w.files, file)
		allUnits(file, func(u *parser.Unit) {
			w.units = append(w.units, unitAt{file, u})
			w.fileOf[u] = file
			if u.Name == "" || u.Header == nil {
				return
			}
			switch u.Header.(type) {
			case *parser.ModuleStmt:
				if u.Kind == parser.UnitModule {
					if _, dup := w.modules[u.Name]; !dup {
						w.modules[u.Name] = unitAt{file, u}
					}
				}
			case *parser.SubprogramStmt, *parser.ProgramStmt:
				w.procs[u.Name] = append(w.procs[u.Name], unitAt{file, u})
			}
		})
	}
	w.load(f)
	return w
}

// load collects and binds the names of one file. Only the files a rename
// can touch are loaded: those that mention the names involved (see
// loadFor), so that a workspace of thousands of files costs a text search.
func (w *workspace) load(f *parser.File) {
	if w.loaded[f] {
		return
	}
	w.loaded[f] = true
	n := len(w.refs)
	allUnits(f, func(u *parser.Unit) { w.collect(f, u) })
	for i := n; i < len(w.refs); i++ {
		w.refs[i].key = w.bind(&w.refs[i])
	}
}

// loadAll loads every file.
func (w *workspace) loadAll() {
	for _, f := range w.files {
		w.load(f)
	}
}

// loadFor loads the files that may hold references to the binding key or
// names that could clash with it: for a name seen outside its file (a
// procedure, COMMON block, module or module entity, or a dummy argument,
// whose keywords and interface bodies name the procedure), the files
// that mention one of names, the procedure's name, or a USE or INCLUDE
// statement that could make them visible.
func (w *workspace) loadFor(key bindKey, names ...string) {
	associating := false
	switch key.kind {
	case bindProc, bindCommon, bindModule:
		associating = true
	case bindLocal:
		if top(key.unit).Kind == parser.UnitModule && key.unit.Parent == nil {
			associating = true
			break
		}
		if sym := key.unit.Scope.Syms[key.name]; sym != nil && sym.Dummy && key.unit.Name != "" {
			names = append(names, key.unit.Name)
			break
		}
		return
	default:
		return
	}
	for _, f := range w.files {
		if w.loaded[f] {
			continue
		}
		if associating && usesOrIncludes(f) {
			w.load(f)
			continue
		}
		for _, n := range names {
			if mentions(f, strings.Trim(n, "/")) {
				w.load(f)
				break
			}
		}
	}
}

// usesOrIncludes reports whether a unit of f has a USE or INCLUDE
// statement.
func usesOrIncludes(f *parser.File) bool {
	found := false
	allUnits(f, func(u *parser.Unit) {
		for _, st := range u.Body {
			switch st.(type) {
			case *parser.UseStmt, *parser.IncludeStmt:
				found = true
			}
		}
	})
	return found
}

// mentions reports whether the text of f holds name in any case, with
// blanks inside it in fixed form (where they may stand inside names).
func mentions(f *parser.File, name string) bool {
	src := f.Src
	fixed := f.Form == parser.Fixed
	for i := 0; i < len(src); i++ {
		if upperByte(src[i]) != name[0] {
			continue
		}
		j, k := i+1, 1
		for k < len(name) && j < len(src) {
			c := src[j]
			if fixed && (c == ' ' || c == '\t') {
				j++
				continue
			}
			if upperByte(c) != name[k] {
				break
			}
			j, k = j+1, k+1
		}
		if k == len(name) {
			return true
		}
	}
	return false
}

// collect records the names of u's own statements.
func (w *workspace) collect(f *parser.File, u *parser.Unit) {
	var headerName *parser.Ident
	switch h := u.Header.(type) {
	case *parser.SubprogramStmt:
		headerName = h.Name
	case *parser.ProgramStmt:
		headerName = h.Name
	case *parser.ModuleStmt:
		headerName = h.Name
	}
	var endName *parser.Ident
	if e, ok := u.EndStmt.(*parser.EndStmt); ok {
		endName = e.Name
	}
	add := func(id *parser.Ident, role refRole, info string) {
		if id == nil || id.Name == "" {
			return
		}
		start := u.Abs(id.Pos())
		end, split := tokenEnd(f, start, id.Name)
		w.refs = append(w.refs, ref{file: f, unit: u, name: id.Name, start: start, end: end, split: split, role: role, info: info})
	}
	called := w.called[u]
	if called == nil {
		called = map[string]bool{}
		w.called[u] = called
	}
	var visit func(n parser.Node) bool
	other := func(n parser.Node) {
		parser.Inspect(n, func(m parser.Node) bool {
			if id, ok := m.(*parser.Ident); ok {
				add(id, roleOther, "")
			}
			if s, ok := m.(*parser.SubprogramStmt); ok && s.Name != nil {
				w.interfaced[s.Name.Name] = true
			}
			return true
		})
	}
	args := func(callee string, list []parser.Expr) {
		for _, a := range list {
			if kw, ok := a.(*parser.KeywordArg); ok {
				if callee != "" {
					add(kw.Name, roleKeyword, callee)
				}
				if kw.Value != nil {
					parser.Inspect(kw.Value, visit)
				}
				continue
			}
			if a != nil {
				parser.Inspect(a, visit)
			}
		}
	}
	visit = func(n parser.Node) bool {
		if st, ok := n.(parser.Stmt); ok {
			if b := st.Base(); b != nil && b.Construct != nil {
				add(b.Construct, roleOther, "construct")
			}
		}
		switch x := n.(type) {
		case *parser.IncludeStmt:
			if x.File != nil {
				w.includedNames(x.File, 0)
				w.includers[x.File] = append(w.includers[x.File], u)
			}
			return false
		case *parser.SimpleStmt:
			if x.Keyword == "EXIT" || x.Keyword == "CYCLE" {
				for _, a := range x.Args {
					if id, ok := a.(*parser.Ident); ok {
						add(id, roleOther, "construct")
					}
				}
				return false
			}
		case *parser.Block:
			switch x.Head.(type) {
			case *parser.InterfaceStmt, *parser.DerivedTypeStmt:
				other(x)
				return false
			}
		case *parser.CommonStmt:
			for _, b := range x.Blocks {
				if b.Name != nil {
					start := u.Abs(b.Name.Pos())
					end, split := tokenEnd(f, start, b.Name.Name)
					w.refs = append(w.refs, ref{file: f, unit: u, name: "/" + b.Name.Name + "/", start: start, end: end, split: split})
					w.commons[b.Name.Name] = true
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
		case *parser.UseStmt:
			add(x.Module, roleUseModule, "")
			mod := ""
			if x.Module != nil {
				mod = x.Module.Name
			}
			for _, r := range x.Names {
				if r.Remote != nil {
					add(r.Local, roleUseLocal, mod)
					add(r.Remote, roleUseRemote, mod)
				} else {
					add(r.Local, roleOnly, mod)
				}
			}
			return false
		case *parser.CallStmt:
			if x.Proc != nil {
				parser.Inspect(x.Proc, visit)
				args("", x.Args)
				return false
			}
			callee := ""
			if x.Name != nil {
				add(x.Name, rolePlain, "")
				callee = x.Name.Name
			}
			args(callee, x.Args)
			return false
		case *parser.Call:
			if b := savedBlock(x); b != nil {
				start := u.Abs(b.Pos())
				end, split := tokenEnd(f, start, b.Name)
				w.refs = append(w.refs, ref{file: f, unit: u, name: "/" + b.Name + "/", start: start, end: end, split: split})
				return false
			}
			if id, ok := x.Fun.(*parser.Ident); ok {
				add(id, rolePlain, "")
				if !allTriplets(x.Args) {
					called[id.Name] = true
				}
				args(id.Name, x.Args)
				return false
			}
			parser.Inspect(x.Fun, visit)
			args("", x.Args)
			return false
		case *parser.ParameterStmt:
			// PARAMETER (N = 10): the names defined are kept as keyword
			// arguments by the tree.
			for _, d := range x.Defs {
				add(d.Name, rolePlain, "")
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
			add(x.Name, roleOther, "component")
			return false
		case *parser.EndStmt:
			if x.Name != nil {
				if x.Name == endName {
					add(x.Name, roleEnd, "")
				} else {
					add(x.Name, roleOther, "construct")
				}
			}
			return false
		case *parser.Ident:
			role := rolePlain
			if x == headerName {
				role = roleHeader
			}
			add(x, role, "")
			return false
		}
		return true
	}
	for _, st := range ownStmts(u) {
		parser.Inspect(st, visit)
	}
}

// includedNames records the names written in an INCLUDE'd file (and the
// files it includes): rename does not edit them.
func (w *workspace) includedNames(f *parser.File, depth int) {
	if w.included[f] != nil || depth > maxUseDepth {
		return
	}
	names := map[string]bool{}
	w.included[f] = names
	for _, u := range f.Units {
		for _, st := range ownStmts(u) {
			parser.Inspect(st, func(n parser.Node) bool {
				switch x := n.(type) {
				case *parser.Ident:
					names[x.Name] = true
				case *parser.Call:
					if b := savedBlock(x); b != nil {
						names["/"+b.Name+"/"] = true
						return false
					}
				case *parser.IncludeStmt:
					if x.File != nil {
						w.includedNames(x.File, depth+1)
					}
				case *parser.CommonStmt:
					for _, b := range x.Blocks {
						if b.Name != nil {
							names["/"+b.Name.Name+"/"] = true
						}
					}
				}
				return true
			})
		}
	}
}

// savedBlock returns the name of the COMMON block of SAVE /BLOCK/, which
// the tree keeps as a call of "/" with the name as its one argument, or
// nil when c is anything else ("/" is no name a call can have).
func savedBlock(c *parser.Call) *parser.Ident {
	if id, ok := c.Fun.(*parser.Ident); !ok || id.Name != "/" || len(c.Args) != 1 {
		return nil
	}
	if b, ok := c.Args[0].(*parser.Ident); ok && b.Name != "" {
		return b
	}
	return nil
}

func allTriplets(args []parser.Expr) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		if _, ok := a.(*parser.Triplet); !ok {
			return false
		}
	}
	return true
}

// tokenEnd returns the end of the name written from start: in fixed form
// blanks inside a name are not significant (N MAX is NMAX), so the token
// runs to its last letter. split is set when the name goes on past the
// end of the line (onto a continuation line).
func tokenEnd(f *parser.File, start int, name string) (end int, split bool) {
	src := f.Src
	i := start
	for k := 0; k < len(name); k++ {
		if f.Form == parser.Fixed {
			for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
		}
		if i >= len(src) {
			return start + len(name), false
		}
		if src[i] == '\n' || src[i] == '\r' {
			return i, true
		}
		if upperByte(src[i]) != name[k] {
			// Not spelt as the tree says (a macro, say): the tree's extent.
			return start + len(name), false
		}
		i++
	}
	return i, false
}

func upperByte(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// solid reports whether a symbol is a real entity of its scope, not one
// the parser made up for an undeclared name (which may be USE-associated).
func solid(sym *parser.Symbol) bool {
	return sym.Declared || sym.Dummy || sym.InCommon || sym.Param != nil
}

// resolution is what a name means in a unit.
type resolution struct {
	key     bindKey
	found   bool           // the name is known in the unit (declared, used, associated)
	sym     *parser.Symbol // the symbol that holds its type, when it is the unit's (or a host's)
	scope   *parser.Unit   // the unit of sym
	viaUse  bool
	implied bool // the name's type comes from the implicit rules of scope
	// unknownUse is a module outside the workspace that a USE without
	// ONLY makes accessible where an undeclared name is used: the name
	// may be one of its entities.
	unknownUse string
}

// resolve tells what name means in unit u of file f: the innermost scope
// that declares it or USEs a module giving it, then the host, else the
// symbol the parser made for an undeclared name, else an intrinsic or an
// external procedure.
func (w *workspace) resolve(f *parser.File, u *parser.Unit, name string, depth int) resolution {
	var fallback *resolution
	for s := u; s != nil; s = s.Parent {
		var sym *parser.Symbol
		if s.Scope != nil {
			sym = s.Scope.Syms[name]
		}
		if sym != nil && solid(sym) {
			r := w.symKey(f, s, u, name, sym)
			return r
		}
		if r, ok := w.useGives(f, s, name, depth); ok {
			return r
		}
		if sym != nil && fallback == nil {
			r := w.symKey(f, s, u, name, sym)
			fallback = &r
		}
	}
	if fallback != nil {
		for s := u; s != nil && fallback.unknownUse == ""; s = s.Parent {
			for _, us := range useStmts(s) {
				if _, ok := w.modules[us.Module.Name]; !ok && !us.Only {
					fallback.unknownUse = us.Module.Name
					break
				}
			}
		}
		return *fallback
	}
	if parser.IsIntrinsic(name) {
		return resolution{key: bindKey{kind: bindIntrinsic, name: name}}
	}
	return resolution{key: bindKey{kind: bindProc, name: name}}
}

// symKey is the binding of sym, found in scope s for a reference in u.
func (w *workspace) symKey(f *parser.File, s, u *parser.Unit, name string, sym *parser.Symbol) resolution {
	r := resolution{found: true, sym: sym, scope: s, implied: sym.Implicit}
	if h, ok := s.Header.(*parser.SubprogramStmt); ok && h.Function && h.Result == nil && h.Name != nil && h.Name.Name == name {
		// The result variable of a function without RESULT is the
		// function's name: renaming one renames the other.
		r.key = bindKey{kind: bindProc, name: name}
		return r
	}
	switch {
	case sym.Intrinsic:
		r.key = bindKey{kind: bindIntrinsic, name: name}
	case sym.Dummy:
		r.key = bindKey{kind: bindLocal, file: f, unit: s, name: name}
	case sym.Kind == parser.SymProcedure:
		r.key = bindKey{kind: bindProc, name: name}
	case sym.Kind == parser.SymVariable && len(sym.Dims) == 0 && !sym.InCommon && sym.Param == nil && w.calledIn(u, s, name):
		// A typed external function: INTEGER F ... F(3).
		r.key = bindKey{kind: bindProc, name: name}
	default:
		r.key = bindKey{kind: bindLocal, file: f, unit: s, name: name}
	}
	return r
}

func (w *workspace) calledIn(u, s *parser.Unit, name string) bool {
	for h := u; h != nil; h = h.Parent {
		if w.called[h][name] {
			return true
		}
		if h == s {
			break
		}
	}
	return false
}

func useStmts(u *parser.Unit) []*parser.UseStmt {
	var out []*parser.UseStmt
	for _, st := range u.Body {
		if x, ok := st.(*parser.UseStmt); ok && x.Module != nil {
			out = append(out, x)
		}
	}
	return out
}

// useGives looks for name among what the USE statements of s make
// accessible (F2018 14.2.2): the local names of its rename clauses, the
// names of its ONLY list, and, without ONLY, every public entity of the
// module that no rename clause renames.
func (w *workspace) useGives(f *parser.File, s *parser.Unit, name string, depth int) (resolution, bool) {
	for _, us := range useStmts(s) {
		if us.Module == nil {
			continue
		}
		mod := us.Module.Name
		renamedAway := false
		for _, rn := range us.Names {
			if rn.Local == nil {
				continue
			}
			if rn.Remote != nil {
				if rn.Local.Name == name {
					return resolution{key: bindKey{kind: bindAlias, file: f, unit: s, name: name}, found: true, viaUse: true}, true
				}
				if rn.Remote.Name == name {
					renamedAway = true
				}
				continue
			}
			if us.Only && rn.Local.Name == name {
				r, _ := w.moduleEntity(mod, name, true, depth+1)
				r.viaUse = true
				return r, true
			}
		}
		if us.Only || renamedAway {
			continue
		}
		if r, ok := w.moduleEntity(mod, name, false, depth+1); ok {
			r.viaUse = true
			return r, true
		}
	}
	return resolution{}, false
}

// moduleEntity is the public entity called name in module mod. explicit
// says the USE statement names it (ONLY or a rename clause), so a module
// outside the workspace still gives it.
func (w *workspace) moduleEntity(mod, name string, explicit bool, depth int) (resolution, bool) {
	m, ok := w.modules[mod]
	if !ok || depth > maxUseDepth {
		if explicit {
			return resolution{key: bindKey{kind: bindOpaque, name: name, why: "module " + mod + ", which is not among the workspace's files"}, found: true}, true
		}
		return resolution{}, false
	}
	var sym *parser.Symbol
	if m.u.Scope != nil {
		sym = m.u.Scope.Syms[name]
	}
	if sym != nil && solid(sym) {
		if private(m.u, sym) {
			return resolution{}, false
		}
		return w.symKey(m.f, m.u, m.u, name, sym), true
	}
	if r, ok := w.useGives(m.f, m.u, name, depth); ok {
		return r, true
	}
	if sym != nil && !private(m.u, sym) {
		return w.symKey(m.f, m.u, m.u, name, sym), true
	}
	if explicit {
		return resolution{key: bindKey{kind: bindOpaque, name: name, why: "module " + mod + ", which does not declare it"}, found: true}, true
	}
	return resolution{}, false
}

// private reports whether a module's symbol is PRIVATE: by its own
// attribute, or by a bare PRIVATE statement without PUBLIC for it.
func private(m *parser.Unit, sym *parser.Symbol) bool {
	for _, a := range sym.Attrs {
		switch a {
		case "PRIVATE":
			return true
		case "PUBLIC":
			return false
		}
	}
	for _, st := range m.Body {
		if nl, ok := st.(*parser.NameListStmt); ok && nl.Keyword == "PRIVATE" && len(nl.Names) == 0 {
			return true
		}
	}
	return false
}

// bind computes the binding of a collected reference.
func (w *workspace) bind(r *ref) bindKey {
	info := r.info
	switch {
	case strings.HasPrefix(r.name, "/"):
		return bindKey{kind: bindCommon, name: r.name}
	}
	switch r.role {
	case roleHeader:
		if _, ok := r.unit.Header.(*parser.ModuleStmt); ok {
			if r.unit.Kind == parser.UnitModule {
				return bindKey{kind: bindModule, name: r.name}
			}
			return bindKey{kind: bindOpaque, name: r.name, why: "a submodule or BLOCK DATA name"}
		}
		return bindKey{kind: bindProc, name: r.name}
	case roleEnd:
		k := bindKey{kind: bindProc, name: r.name}
		if _, ok := r.unit.Header.(*parser.ModuleStmt); ok {
			k.kind = bindModule
		}
		return k
	case roleUseModule:
		return bindKey{kind: bindModule, name: r.name}
	case roleUseLocal:
		return bindKey{kind: bindAlias, file: r.file, unit: r.unit, name: r.name}
	case roleUseRemote, roleOnly:
		res, _ := w.moduleEntity(info, r.name, true, 0)
		return res.key
	case roleKeyword:
		callee := w.resolve(r.file, r.unit, info, 0)
		if callee.key.kind != bindProc {
			return bindKey{kind: bindOpaque, name: r.name, why: "the keyword of an argument of " + info}
		}
		units := w.procs[info]
		if len(units) == 1 && units[0].u.Scope != nil {
			if sym := units[0].u.Scope.Syms[r.name]; sym != nil && sym.Dummy {
				return bindKey{kind: bindLocal, file: units[0].f, unit: units[0].u, name: r.name}
			}
		}
		return bindKey{kind: bindOpaque, name: r.name, why: "the keyword of an argument of " + info}
	case roleOther:
		why := "a name in an interface body or a derived-type definition"
		switch info {
		case "component":
			why = "a derived-type component"
		case "construct":
			why = "a construct name"
		}
		return bindKey{kind: bindOpaque, unit: r.unit, name: r.name, why: why}
	}
	return w.resolve(r.file, r.unit, r.name, 0).key
}

// refAt returns the reference of f at off (or just after it).
func (w *workspace) refAt(f *parser.File, off int) *ref {
	var best *ref
	for i := range w.refs {
		r := &w.refs[i]
		if r.file == f && r.start <= off && off <= r.end {
			if best == nil || r.start > best.start {
				best = r
			}
		}
	}
	return best
}
