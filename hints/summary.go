package hints

import (
	"strings"
	"unique"

	"github.com/pfls/pfls/parser"
)

// FileSummary is what the workspace index keeps of a file that is not
// open, computed once from its tree: enough to answer workspace symbols,
// the completion of program units and "module not found" without the
// tree, and to tell which files a request must parse again (Mentions,
// Defines); the references of global names are answered from Globals. Its strings are interned copies that do not hold on to the
// file's text.
type FileSummary struct {
	Symbols []Symbol     // WorkspaceSymbols(f, ""), without details
	Units   []Completion // the named program units but main programs, as Complete offers them
	Modules []string     // the modules the file defines, upper case
	Uses    []string     // the modules its units USE, upper case, each once
	// Globals are the places the file names a procedure, a COMMON block
	// or another name References matches across files, in its order;
	// Spans their offsets, start and end of each in turn (the index turns
	// them into positions and drops them).
	Globals []Occurrence
	Spans   []int
	names   []unique.Handle[string]
}

// Occurrence is a place a file names a global name.
type Occurrence struct {
	Name   unique.Handle[string] // upper case; "/B/" for a COMMON block
	Common bool
	Header bool // the name in a program unit's header
}

// RefTarget is what References looks for in the other files.
type RefTarget struct {
	name   unique.Handle[string]
	common bool
}

// ReferencesTarget returns what References at off of f matches in the
// other files, and false when it looks at none: for a name local to its
// scope, an intrinsic or nothing.
func ReferencesTarget(f *parser.File, off int) (RefTarget, bool) {
	r := NameAt(f, off)
	if r == nil || r.Sym == nil && parser.IsIntrinsic(r.Name) || !r.global() {
		return RefTarget{}, false
	}
	return RefTarget{unique.Make(r.Name), r.Common}, true
}

// Matches reports whether References for t, with or without the
// declarations, finds the occurrence o of another file.
func (t RefTarget) Matches(o *Occurrence, includeDecl bool) bool {
	return o.Name == t.name && o.Common == t.common && (includeDecl || !o.Header)
}

// Summarize computes the summary of f.
func Summarize(f *parser.File) *FileSummary {
	s := &FileSummary{}
	for _, sy := range WorkspaceSymbols(f, "") {
		sy.Name, sy.Container, sy.Detail = intern(sy.Name), intern(sy.Container), ""
		s.Symbols = append(s.Symbols, sy)
	}
	seenUse := map[string]bool{}
	allUnits(f, func(u *parser.Unit) {
		if u.Name != "" && u.Kind != parser.UnitMain {
			s.Units = append(s.Units, Completion{Label: intern(u.Name), Kind: "procedure", Detail: unitSignature(u)})
		}
		if u.Kind == parser.UnitModule && u.Name != "" {
			s.Modules = append(s.Modules, intern(strings.ToUpper(u.Name)))
		}
		for _, m := range unitUses(u) {
			if m = strings.ToUpper(m); !seenUse[m] {
				seenUse[m] = true
				s.Uses = append(s.Uses, intern(m))
			}
		}
	})
	names := FileNames(f)
	s.names = make([]unique.Handle[string], 0, len(names))
	for n := range names {
		s.names = append(s.names, unique.Make(n))
	}
	var globals []Occurrence
	var spans []int
	allUnits(f, func(u *parser.Unit) {
		eachName(u, nil, func(x NameRef) bool {
			if x.Common || x.global() {
				globals = append(globals, Occurrence{Name: unique.Make(x.Name), Common: x.Common, Header: x.Header})
				spans = append(spans, x.Start, x.End)
			}
			return true
		})
	})
	// Kept for the file's life: no spare capacity.
	s.Globals = append([]Occurrence(nil), globals...)
	s.Spans = spans
	return s
}

// Mentions reports whether the tree of the file names one of names
// (upper case, as Handles): an identifier, a program unit, a COMMON
// block (without its slashes), also inside the files it INCLUDEs.
func (s *FileSummary) Mentions(names []unique.Handle[string]) bool {
	for _, h := range s.names {
		for _, n := range names {
			if h == n {
				return true
			}
		}
	}
	return false
}

// Defines reports whether the file defines a program unit, module,
// COMMON block, template or processor arrangement whose name is in names
// (upper case, COMMON blocks without their slashes).
func (s *FileSummary) Defines(names map[string]bool) bool {
	for _, sy := range s.Symbols {
		if names[strings.ToUpper(strings.Trim(sy.Name, "/"))] {
			return true
		}
	}
	return false
}

// FileNames returns the names the tree of f holds, upper case: every
// identifier of every unit's statements, the names of its scopes' symbols
// (COMMON blocks without their slashes) and those of the files it
// INCLUDEs. A file whose text holds a name only in comments or strings
// does not name it; nothing a feature resolves lies there.
func FileNames(f *parser.File) map[string]bool {
	out := map[string]bool{}
	add := func(n string) {
		if n = strings.Trim(n, "/"); n != "" {
			out[strings.ToUpper(n)] = true
		}
	}
	var file func(f *parser.File, depth int)
	file = func(f *parser.File, depth int) {
		allUnits(f, func(u *parser.Unit) {
			add(u.Name)
			if u.Scope != nil {
				for n := range u.Scope.Syms {
					add(n)
				}
				for _, m := range u.Scope.Uses {
					add(m)
				}
			}
			for _, st := range ownStmts(u) {
				parser.Inspect(st, func(n parser.Node) bool {
					switch x := n.(type) {
					case *parser.Ident:
						add(x.Name)
					case *parser.IncludeStmt:
						if x.File != nil && depth < maxUseDepth {
							file(x.File, depth+1)
						}
					}
					return true
				})
			}
		})
	}
	file(f, 0)
	return out
}

// UnitNames returns the names of the own statements of the unit holding
// off (not of its contained procedures), upper case: the procedures a
// call there can name. All of f's names outside any unit.
func UnitNames(f *parser.File, off int) map[string]bool {
	u := innermost(f, off)
	if u == nil {
		return FileNames(f)
	}
	out := map[string]bool{}
	for _, st := range ownStmts(u) {
		parser.Inspect(st, func(n parser.Node) bool {
			if id, ok := n.(*parser.Ident); ok && id.Name != "" {
				out[strings.ToUpper(id.Name)] = true
			}
			return true
		})
	}
	return out
}

// FileUses returns the modules the units of f USE, upper case.
func FileUses(f *parser.File) []string {
	var out []string
	allUnits(f, func(u *parser.Unit) {
		for _, m := range unitUses(u) {
			out = append(out, strings.ToUpper(m))
		}
	})
	return out
}

// QueryMatcher returns the test of whether a workspace symbol called
// name answers query: the query's letters appear in the name in order,
// in any case (as WorkspaceSymbols matches).
func QueryMatcher(query string) func(name string) bool {
	q := strings.ToUpper(query)
	return func(name string) bool { return matches(name, q) }
}

// CompleteWith is Complete at off of f with, besides the units of f and
// others, units: the program units of files that are not open (from
// their summaries), offered when the word being completed starts their
// name and no other candidate has it, as Complete offers units.
func CompleteWith(f *parser.File, off int, others []*parser.File, units []Completion) ([]Completion, int) {
	items, start := Complete(f, off, others)
	if start < 0 || start > off || off > len(f.Src) || len(units) == 0 {
		return items, start
	}
	prefix := string(f.Src[start:off])
	up := strings.ToUpper(prefix)
	lower := prefix != "" && prefix[0] >= 'a' && prefix[0] <= 'z'
	if d, _ := directiveAt(string(f.Src[f.Lines.LineStart(f.Lines.Line(off)):off])); d != "" {
		return items, start // directives offer no program units
	}
	if len(items) == 0 && isComment(f, string(f.Src[f.Lines.LineStart(f.Lines.Line(off)):off])) {
		return items, start
	}
	seen := map[string]int{}
	for i, it := range items {
		seen[strings.ToUpper(it.Label)] = i
	}
	for _, u := range units {
		if !strings.HasPrefix(u.Label, up) {
			continue
		}
		it := u
		if lower {
			it.Label = strings.ToLower(it.Label)
		}
		if i, ok := seen[u.Label]; ok {
			if items[i].Kind == "intrinsic" { // a unit hides the intrinsic of its name
				items[i] = it
			}
			continue
		}
		seen[u.Label] = len(items)
		items = append(items, it)
	}
	return items, start
}

// intern returns a copy of s shared by every equal string interned
// while one is alive, so that summaries neither hold their file's text
// nor repeat names.
func intern(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}

// RenameAcross returns the names whose files (those naming one of them)
// rename needs beside f and others (f's definitions and modules) for the
// name at off: the name itself for a procedure, COMMON block, module or
// module entity, with the procedure's name for a dummy argument (keyword
// arguments name it), none for a local name. As loadFor loads them.
func RenameAcross(f *parser.File, off int, others []*parser.File) []string {
	w := newWorkspace(f, others)
	at := w.refAt(f, off)
	if at == nil {
		return nil
	}
	name := strings.Trim(at.name, "/")
	switch at.key.kind {
	case bindProc, bindCommon, bindModule:
		return []string{name}
	case bindLocal:
		if top(at.key.unit).Kind == parser.UnitModule && at.key.unit.Parent == nil {
			return []string{name}
		}
		if sym := at.key.unit.Scope.Syms[at.key.name]; sym != nil && sym.Dummy && at.key.unit.Name != "" {
			return []string{name, at.key.unit.Name}
		}
	}
	return nil
}

// SignatureCallees returns the names SignatureHelp at off of f may look
// up as procedures, upper case: those before an opening parenthesis in
// the statement up to off. Only the files defining them matter to its
// answer (beside the modules f uses), not those defining every procedure
// the unit names.
func SignatureCallees(f *parser.File, off int) []string {
	if f == nil || off < 0 || off > len(f.Src) {
		return nil
	}
	text := statementText(f, off)
	var out []string
	scanCode(text, func(i int, c byte) bool {
		if c != '(' {
			return true
		}
		j := i
		for j > 0 && text[j-1] == ' ' {
			j--
		}
		k := j
		for k > 0 && isNameByte(text[k-1]) {
			k--
		}
		if k < j {
			out = append(out, strings.ToUpper(text[k:j]))
		}
		return true
	})
	return out
}
