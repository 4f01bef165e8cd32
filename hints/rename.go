package hints

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pfls/pfls/parser"
)

// TextEdit replaces [Start, End) of File by Text.
type TextEdit struct {
	File       *parser.File
	Start, End int
	Text       string
}

// PrepareRename returns the extent of the name at off when it can be
// renamed (the whole token, blanks of a fixed-form name included), or an
// error saying why not. others are the other files of the workspace.
func PrepareRename(f *parser.File, off int, others []*parser.File) (start, end int, err error) {
	w := newWorkspace(f, others)
	r, err := w.renamable(f, off)
	if err != nil {
		return 0, 0, err
	}
	return r.start, r.end, nil
}

// renamable returns the reference at off when rename can handle it, and
// loads the files that may refer to it.
func (w *workspace) renamable(f *parser.File, off int) (*ref, error) {
	at := w.refAt(f, off)
	if at == nil {
		return nil, fmt.Errorf("no name here")
	}
	r := &ref{}
	*r = *at
	w.loadFor(r.key, r.name)
	name := strings.Trim(r.name, "/")
	switch r.key.kind {
	case bindIntrinsic:
		return nil, fmt.Errorf("%s is an intrinsic procedure", name)
	case bindOpaque:
		if strings.HasPrefix(r.key.why, "module ") {
			return nil, fmt.Errorf("%s comes from %s; rename it there", name, r.key.why)
		}
		return nil, fmt.Errorf("cannot rename %s: it is %s", name, r.key.why)
	case bindProc:
		units := w.procs[r.key.name]
		if len(units) == 0 {
			return nil, fmt.Errorf("cannot rename %s: the procedure is not defined in the workspace's files", name)
		}
		if len(units) > 1 {
			return nil, fmt.Errorf("cannot rename %s: %d procedures have that name", name, len(units))
		}
		if w.interfaced[r.key.name] {
			return nil, fmt.Errorf("cannot rename %s: an interface body describes it; rename it by hand", name)
		}
	case bindModule:
		if _, ok := w.modules[r.key.name]; !ok {
			return nil, fmt.Errorf("cannot rename %s: the module is not among the workspace's files", name)
		}
	case bindLocal:
		if h, ok := r.key.unit.Header.(*parser.SubprogramStmt); ok && w.interfaced[r.key.unit.Name] && h != nil {
			if sym := r.key.unit.Scope.Syms[r.key.name]; sym != nil && sym.Dummy {
				return nil, fmt.Errorf("cannot rename %s: an interface body of %s names its dummy arguments", name, r.key.unit.Name)
			}
		}
		if sym := r.key.unit.Scope.Syms[r.key.name]; sym != nil && sym.Included != "" {
			return nil, fmt.Errorf("cannot rename %s: it is declared in the INCLUDE file %s", name, sym.Included)
		}
	}
	if r.split {
		return nil, fmt.Errorf("cannot rename %s: it is written across a continuation line", name)
	}
	if r.key.kind == bindLocal {
		if res := w.resolve(r.key.file, r.key.unit, r.key.name, 0); res.unknownUse != "" {
			return nil, fmt.Errorf("cannot rename %s: it is not declared in %s and may come from module %s, which is not among the workspace's files", name, r.key.unit.Name, res.unknownUse)
		}
	}
	global := r.key.kind == bindProc || r.key.kind == bindCommon || r.key.kind == bindModule
	region := w.region(r.key, r.name)
	for inc, names := range w.included {
		if !names[r.name] {
			continue
		}
		for _, u := range w.includers[inc] {
			if global || region[u] || region[top(u)] {
				return nil, fmt.Errorf("cannot rename %s: it is written in the INCLUDE file %s", name, inc.Name)
			}
		}
	}
	return r, nil
}

// Rename returns the edits that rename the name at off to newName in
// code and directive lines (never in comments or strings), in f and the
// other files of the workspace. Every reference to the same binding is
// renamed: USE-associated uses, the use-name side of rename clauses,
// keyword arguments naming a dummy, a function's result variable with
// the function. It refuses, with an error saying why, any rename that
// would change what a name means or would not compile: a new name that is
// not a Fortran name, that is already known where the name is visible
// (declared, USE- or host-associated, an intrinsic in use, the name of an
// enclosing routine), that would give an implicitly typed name another
// type, or that would push a line past its last column.
func Rename(f *parser.File, off int, newName string, others []*parser.File) ([]TextEdit, error) {
	w := newWorkspace(f, others)
	r, err := w.renamable(f, off)
	if err != nil {
		return nil, err
	}
	if !validName(newName) {
		if len(newName) > 63 && validName(newName[:63]) {
			return nil, fmt.Errorf("%s is longer than 63 characters", newName)
		}
		return nil, fmt.Errorf("%q is not a Fortran name", newName)
	}
	old := strings.Trim(r.name, "/")
	up := strings.ToUpper(newName)
	w.loadFor(r.key, up)
	if up != old {
		if err := w.checkFree(r.key, old, up); err != nil {
			return nil, err
		}
	}
	var edits []TextEdit
	seen := map[[2]int]map[*parser.File]bool{}
	for _, x := range w.refs {
		if x.key != r.key {
			continue
		}
		if x.split {
			return nil, fmt.Errorf("cannot rename %s: it is written across a continuation line in %s", old, x.file.Name)
		}
		k := [2]int{x.start, x.end}
		if seen[k][x.file] {
			continue
		}
		if seen[k] == nil {
			seen[k] = map[*parser.File]bool{}
		}
		seen[k][x.file] = true
		edits = append(edits, TextEdit{x.file, x.start, x.end, newName})
	}
	sort.Slice(edits, func(i, j int) bool {
		if edits[i].File != edits[j].File {
			return edits[i].File.Name < edits[j].File.Name
		}
		return edits[i].Start < edits[j].Start
	})
	return fitLines(edits)
}

// checkFree refuses newName (upper case) for the binding key of old when
// the new name would mean something else somewhere the binding is seen.
func (w *workspace) checkFree(key bindKey, old, up string) error {
	switch key.kind {
	case bindProc, bindModule, bindCommon:
		if parser.IsIntrinsic(up) && key.kind == bindProc {
			return fmt.Errorf("%s is an intrinsic procedure: calls to %s would call the intrinsic", up, old)
		}
		if len(w.procs[up]) > 0 {
			return fmt.Errorf("%s is already the name of a procedure", up)
		}
		if _, ok := w.modules[up]; ok {
			return fmt.Errorf("%s is already the name of a module", up)
		}
		if key.kind == bindCommon && w.commons[up] {
			return fmt.Errorf("/%s/ is already a COMMON block", up)
		}
		for _, x := range w.refs {
			if x.key.kind == key.kind && x.key.name == nameOf(key, up) {
				return fmt.Errorf("%s is already used as the name of a %s in %s", up, kindName(key.kind), where(unitAt{x.file, x.unit}))
			}
		}
	}
	if key.kind == bindCommon {
		// A COMMON block name lives apart from other names: only other
		// blocks can clash.
		return nil
	}
	region := w.region(key, old)
	var order []unitAt
	for _, ua := range w.units {
		if region[ua.u] && w.loaded[ua.f] {
			order = append(order, ua)
		}
	}
	used := map[*parser.Unit]map[string]bool{}
	for _, x := range w.refs {
		if x.role == rolePlain || x.role == roleHeader || x.role == roleEnd || x.role == roleOnly || x.role == roleUseLocal {
			if used[x.unit] == nil {
				used[x.unit] = map[string]bool{}
			}
			used[x.unit][x.name] = true
		}
	}
	for _, ua := range order {
		u := ua.u
		for s := u; s != nil; s = s.Parent {
			if s.Name == up && s.Header != nil {
				return fmt.Errorf("%s is the name of the routine %s is in", up, where(ua))
			}
		}
		if used[u][up] {
			if parser.IsIntrinsic(up) && w.resolve(ua.f, u, up, 0).key.kind == bindIntrinsic {
				return fmt.Errorf("%s is an intrinsic procedure used in %s", up, where(ua))
			}
			return fmt.Errorf("%s is already a name in %s", up, where(ua))
		}
		res := w.resolve(ua.f, u, up, 0)
		if res.found && res.key != key {
			return fmt.Errorf("%s is already a name in %s", up, where(ua))
		}
		if key.kind == bindProc {
			if k := res.key; k.kind == bindProc && len(w.procs[up]) > 0 {
				return fmt.Errorf("%s is already the name of a procedure", up)
			}
		}
		// The implicit type of an undeclared name goes with its first
		// letter.
		if o := w.resolve(ua.f, u, old, 0); o.key == key && o.implied && o.scope != nil && o.scope.Scope != nil && !o.viaUse {
			if key.kind == bindProc && !w.isFunction(key.name) {
				continue
			}
			sc := o.scope.Scope
			if a, b := sc.ImplicitType(old), sc.ImplicitType(up); a != b {
				return fmt.Errorf("%s is not declared and would change type from %s to %s in %s (declare it first)", old, orNone(a), orNone(b), where(ua))
			}
		}
	}
	return nil
}

// nameOf is up spelt as a name of key's kind.
func nameOf(key bindKey, up string) string {
	if key.kind == bindCommon {
		return "/" + up + "/"
	}
	return up
}

func kindName(k bindKind) string {
	switch k {
	case bindProc:
		return "procedure"
	case bindModule:
		return "module"
	}
	return "COMMON block"
}

// region returns the units where the binding key of name is seen by its
// name, and those that reference it.
func (w *workspace) region(key bindKey, name string) map[*parser.Unit]bool {
	region := map[*parser.Unit]bool{}
	for _, x := range w.refs {
		// REMOTE in LOCAL => REMOTE names the entity in the module's
		// namespace, and the keyword of an argument the callee's dummy:
		// neither is a name of the unit it is written in.
		if x.key == key && x.role != roleUseRemote && x.role != roleKeyword {
			region[x.unit] = true
		}
	}
	if key.kind != bindCommon {
		for _, ua := range w.units {
			if w.loaded[ua.f] && !region[ua.u] && w.resolve(ua.f, ua.u, name, 0).key == key {
				region[ua.u] = true
			}
		}
	}
	return region
}

func top(u *parser.Unit) *parser.Unit {
	for u.Parent != nil {
		u = u.Parent
	}
	return u
}

func orNone(t string) string {
	if t == "" {
		return "none (IMPLICIT NONE)"
	}
	return t
}

// isFunction reports whether the one procedure called name is a function.
func (w *workspace) isFunction(name string) bool {
	for _, ua := range w.procs[name] {
		if h, ok := ua.u.Header.(*parser.SubprogramStmt); ok && h.Function {
			return true
		}
	}
	return false
}

func where(ua unitAt) string {
	if ua.u.Name != "" {
		return ua.u.Name
	}
	return "the main program of " + ua.f.Name
}

func validName(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i, c := range s {
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return true
}
