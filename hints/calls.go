package hints

import (
	"sort"

	"github.com/pfls/pfls/parser"
)

// CallItem is a procedure or main program in a call hierarchy: its
// whole extent and its name in the header.
type CallItem struct {
	File             *parser.File
	Name             string
	Kind             string // "program", "subroutine", "function", ...
	Detail           string // the header: SUBROUTINE S(A, N)
	Start, End       int
	SelStart, SelEnd int
}

// CallEdge is one caller or callee of an item with the places of the
// calls, which lie in the caller's file.
type CallEdge struct {
	Item  CallItem
	Sites []Location
}

// PrepareCalls returns the procedures the name at off of f denotes: a
// procedure named in a CALL, a function reference, a header or an END
// line, defined in f or in others. Nil elsewhere, and for procedures the
// files do not define (external libraries) or intrinsics.
func PrepareCalls(f *parser.File, off int, others []*parser.File) []CallItem {
	w := newWorkspace(f, others)
	_, items := w.callTargets(f, off)
	return items
}

func (w *workspace) callTargets(f *parser.File, off int) (bindKey, []CallItem) {
	at := w.refAt(f, off)
	if at == nil || at.key.kind != bindProc {
		return bindKey{}, nil
	}
	var items []CallItem
	for _, ua := range w.procs[at.key.name] {
		items = append(items, callItem(ua.f, ua.u))
	}
	return at.key, items
}

func callItem(f *parser.File, u *parser.Unit) CallItem {
	s, e := unitExtent(u)
	it := CallItem{File: f, Name: u.Name, Kind: u.Kind.String(), Start: s, End: e, SelStart: s, SelEnd: s}
	if u.Header != nil {
		sel := headerLoc(f, u)
		it.SelStart, it.SelEnd = sel.Start, sel.End
	}
	if it.Name == "" {
		it.Name = "(main program)"
	}
	if h, ok := u.Header.(*parser.SubprogramStmt); ok {
		it.Detail = signature(h)
	}
	return it
}

// IncomingCalls returns the units that call the procedure whose header
// name (or a reference to which) is at off of f, with their call sites,
// across f and others. A call is a CALL statement or a function
// reference; an EXTERNAL or interface line is not.
func IncomingCalls(f *parser.File, off int, others []*parser.File) []CallEdge {
	w := newWorkspace(f, others)
	key, items := w.callTargets(f, off)
	if items == nil {
		return nil
	}
	w.loadFor(key, key.name)
	sites := map[*parser.File]map[int]bool{}
	byUnit := map[*parser.Unit]*CallEdge{}
	var order []*parser.Unit
	for _, r := range w.refs {
		if r.key != key || r.role != rolePlain {
			continue
		}
		if sites[r.file] == nil {
			sites[r.file] = callSites(r.file)
		}
		if !sites[r.file][r.start] {
			continue
		}
		e := byUnit[r.unit]
		if e == nil {
			e = &CallEdge{Item: callItem(r.file, r.unit)}
			byUnit[r.unit] = e
			order = append(order, r.unit)
		}
		e.Sites = append(e.Sites, Location{r.file, r.start, r.end})
	}
	out := make([]CallEdge, 0, len(order))
	for _, u := range order {
		out = append(out, *byUnit[u])
	}
	sortEdges(out)
	return out
}

// OutgoingCalls returns the procedures that the unit named at off of f
// calls and that f or others define, with the call sites in that unit
// (its contained procedures' calls are theirs).
func OutgoingCalls(f *parser.File, off int, others []*parser.File) []CallEdge {
	w := newWorkspace(f, others)
	_, items := w.callTargets(f, off)
	if len(items) == 0 {
		return nil
	}
	it := items[0]
	w.load(it.File)
	var unit *parser.Unit
	for _, ua := range w.procs[it.Name] {
		if ua.f == it.File && headerLoc(ua.f, ua.u).Start == it.SelStart {
			unit = ua.u
		}
	}
	sites := callSites(it.File)
	byName := map[string]*CallEdge{}
	var order []string
	for _, r := range w.refs {
		if r.file != it.File || r.unit != unit || r.key.kind != bindProc || r.role != rolePlain || !sites[r.start] {
			continue
		}
		e := byName[r.key.name]
		if e == nil {
			callees := w.procs[r.key.name]
			if len(callees) == 0 {
				continue
			}
			e = &CallEdge{Item: callItem(callees[0].f, callees[0].u)}
			byName[r.key.name] = e
			order = append(order, r.key.name)
		}
		e.Sites = append(e.Sites, Location{r.file, r.start, r.end})
	}
	out := make([]CallEdge, 0, len(order))
	for _, n := range order {
		out = append(out, *byName[n])
	}
	sortEdges(out)
	return out
}

func sortEdges(es []CallEdge) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].Item, es[j].Item
		if a.File.Name != b.File.Name {
			return a.File.Name < b.File.Name
		}
		return a.Start < b.Start
	})
}

// callSites returns the absolute offsets of the names of f that are
// called: the procedure of a CALL statement, the function of a function
// reference.
func callSites(f *parser.File) map[int]bool {
	out := map[int]bool{}
	allUnits(f, func(u *parser.Unit) {
		for _, st := range ownStmts(u) {
			parser.Inspect(st, func(n parser.Node) bool {
				switch x := n.(type) {
				case *parser.CallStmt:
					if x.Proc == nil && x.Name != nil {
						out[u.Abs(x.Name.Pos())] = true
					}
				case *parser.Call:
					if id, ok := x.Fun.(*parser.Ident); ok {
						out[u.Abs(id.Pos())] = true
					}
				}
				return true
			})
		}
	})
	return out
}
