package hints

import (
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// EstimateSettings are the editor's settings for estimates
// (pfls.estimate.procs, .machine, .values), as plain data.
type EstimateSettings struct {
	Procs   int                `json:"procs"`   // processors (default 16)
	Machine string             `json:"machine"` // machine model file ("" : the model inside pfls)
	Values  map[string]float64 `json:"values"`  // values of symbols and PARAMETERs
	// Others is not a setting: the program's other files that the
	// server sees (the open documents, the closed files defining what
	// the file calls), whose procedures the estimator follows calls into.
	Others []*parser.File `json:"-"`
}

// EstimateOptions are the resolved settings: the machine model loaded.
type EstimateOptions struct {
	Procs   int
	Machine *machine.Machine
	Values  map[string]*big.Rat
	Others  []*parser.File // the program's other files (EstimateSettings.Others)
}

// sharedDefault is the built-in model, loaded once: the capability
// findings are cached by the machine's identity, so a fresh copy per
// request would make every request miss the cache. Analyses only read
// the model, as they read a model loaded from a file.
var sharedDefault = sync.OnceValue(machine.DefaultMachine)

// Options converts the settings; m is the loaded model (nil: the default).
func (s EstimateSettings) Options(m *machine.Machine) EstimateOptions {
	o := EstimateOptions{Procs: s.Procs, Machine: m, Values: map[string]*big.Rat{}, Others: s.Others}
	if o.Procs < 1 {
		o.Procs = 16
	}
	if o.Procs > partition.MaxProcs {
		o.Procs = partition.MaxProcs
	}
	if o.Machine == nil {
		o.Machine = sharedDefault()
	}
	for k, v := range s.Values {
		if r := new(big.Rat).SetFloat64(v); r != nil {
			o.Values[strings.ToUpper(k)] = r
		}
	}
	return o
}

// CodeAction is an action offered on a line: an edit of the file, or a
// command the server runs (Command with Args).
type CodeAction struct {
	Title     string // short: at most about 60 characters
	Detail    string // what the title leaves out: the comparison behind it
	Kind      string // "refactor.rewrite", "quickfix" or "source"
	Edits     []TextEdit
	Command   string
	Args      []any
	Preferred bool
}

// EstimateCommand is the command that estimates a loop.
const EstimateCommand = "pfls.estimateLoop"

// report builds the report of the loop whose DO statement starts on a
// 1-based line (the first such loop), or nil.
func report(f *parser.File, line int, o EstimateOptions, ro partition.ReportOptions) (*partition.LoopReport, error) {
	loops := parser.LoopsAt(f, line)
	if len(loops) == 0 {
		return nil, nil
	}
	return partition.NewReport(f, loops[0], partitionOptions(o), ro)
}

// fmtSeconds prints a time as a decimal with a unit, also where it still
// depends on symbols (each coefficient with its unit).
func fmtSeconds(p partition.Poly) string {
	return capability.PolySeconds(p)
}

// LoopActions returns the actions on the DO line at off: "Estimate this
// loop", and one rewrite of the distribution per candidate, titled with
// its estimated time and the change against the current one ("Distribute
// G(:,BLOCK): 2.19 ms, -14%"; the detail names the current distribution
// and its time), the fastest preferred when it beats the current one.
func LoopActions(f *parser.File, off int, o EstimateOptions) []CodeAction {
	loops := parser.LoopsAt(f, f.Lines.Line(off)+1)
	if len(loops) == 0 {
		return nil
	}
	out := []CodeAction{{Title: "Estimate this loop", Kind: "source", Command: EstimateCommand, Args: []any{loops[0].Line(f)},
		Detail: "the loop's run time under each candidate distribution"}}
	r, err := partition.NewReport(f, loops[0], partitionOptions(o), partition.ReportOptions{})
	if err != nil || r.Current.Template == "" {
		return out // the command says what is wrong with the values
	}
	current, cur := r.Current, r.Estimate
	curT, curOK := complexity.Seconds(cur.Time)
	first := true
	m := newMover(r.Unit, current, loops[0].Do)
	moved, left := m.changed()
	// The title names the template the edit rewrites: the current one,
	// or, when the loop uses only arrays distributed alike on lines of
	// their own, the first of those.
	named := func(d *partition.Distribution) string {
		return m.named() + d.Name()[len(d.Template):]
	}
	for _, c := range r.Ranked {
		if c.Dist.Name() == current.Name() {
			continue
		}
		edits, note, ok := distributeEdits(f, r.Unit, m, c.Dist, f.Dialect)
		if !ok {
			continue
		}
		title := fmt.Sprintf("Distribute %s: %s", named(c.Dist), fmtSeconds(c.Est.Time))
		detail := fmt.Sprintf("%s: %s; %s now: %s", named(c.Dist), fmtSeconds(c.Est.Time), named(current), fmtSeconds(cur.Time))
		t, ok := complexity.Seconds(c.Est.Time)
		same := false
		switch {
		case r.AboutTheSame(c.Est, cur):
			// Closer than the machine's run-to-run noise: neither is
			// faster, so do not prefer one.
			same = true
			title += ", within noise"
			detail += fmt.Sprintf(" (about the same as %s: the difference is within the machine's run-to-run noise of %.0f%%)",
				named(current), 100*r.Machine.Noise)
		case ok && curOK && curT > 0:
			pct := fmt.Sprintf("%+.0f%%", 100*(t-curT)/curT)
			title += ", " + pct
			detail += fmt.Sprintf(" (%s vs %s)", pct, named(current))
		}
		if len(moved) > 0 {
			detail += ". " + movedText(moved, left)
		}
		if note != "" {
			detail += ". Note: " + note
		}
		out = append(out, CodeAction{Title: title, Detail: detail, Kind: "refactor.rewrite", Edits: edits,
			Preferred: first && ok && curOK && t < curT && !same})
		first = false
	}
	return out
}

// distributeEdits rewrites the distribution of the current template in
// the file's dialect: Fortran D DISTRIBUTE statements, !HPF$ DISTRIBUTE
// directives, or a CMF$ LAYOUT line. It edits what the user wrote as
// little as it can: only the distribution formats change, in the
// directive's own case and spacing, with ONTO, the targets and trailing
// comments kept. Every DISTRIBUTE whose targets the edit moves is
// rewritten (the arrays the loop uses and those that must move with
// them: see mover); a DISTRIBUTE that also names targets the candidate
// leaves alone is split in two, the others keeping their distribution.
// note says what the user should know about the edit (an arrangement
// that no longer fits), or is empty.
func distributeEdits(f *parser.File, u *parser.Unit, m *mover, to *partition.Distribution, dialect string) (edits []TextEdit, note string, ok bool) {
	var layout *parser.Directive
	var dirs []*parser.Directive
	for _, s := range u.Body {
		d, ok := s.(*parser.Directive)
		if !ok {
			continue
		}
		switch spec := d.Spec.(type) {
		case *parser.DistributeSpec:
			// DISTRIBUTE only: a REDISTRIBUTE is an executable change
			// at its place, not the layout the loop starts with.
			if (d.Sentinel == "" || d.Sentinel == "HPF") && strings.EqualFold(d.Name, "DISTRIBUTE") {
				for _, t := range spec.Targets {
					if m.moves(t.Name) {
						dirs = append(dirs, d)
						break
					}
				}
			}
		case *parser.LayoutSpec:
			if spec.Target.Name == m.current.Template {
				layout = d
			}
		}
	}
	// A candidate on a grid the edited directives would not give (2x8
	// where the even factorization is 4x4, or 4x4 where ONTO names a 2x8
	// arrangement): HPF declares a PROCESSORS arrangement of that shape
	// for ONTO; Fortran D and CM Fortran have no way to say it.
	grid := len(to.Grid) >= 2 && !slices.Equal(to.Grid, partition.WithFormats(u, to.Procs, to.Template, to.Formats, dialect).Grid)
	if grid && (len(dirs) == 0 || dirs[0].Sentinel != "HPF") {
		return nil, "", false
	}
	if len(dirs) > 0 {
		var notes []string
		onto, decl := "", ""
		if grid {
			onto, decl = arrangementFor(f, u, dirs[0], to.Grid)
		}
		for _, d := range dirs {
			es, n, ok := rewriteDistribute(f, u, m, d, to, onto)
			if !ok {
				return nil, "", false
			}
			edits = append(edits, es...)
			if n != "" {
				notes = append(notes, n)
			}
		}
		if decl != "" {
			// Before the first DISTRIBUTE rewritten; one insertion there
			// (a split's new directive goes there too).
			at := f.Lines.LineStart(f.Lines.Line(u.Abs(dirs[0].From)))
			merged := false
			for i, e := range edits {
				if e.Start == at && e.End == at {
					edits[i].Text = decl + e.Text
					merged = true
				}
			}
			if !merged {
				edits = append(edits, TextEdit{f, at, at, decl})
			}
		}
		return edits, strings.Join(notes, "; "), fits(f, edits)
	}
	if dialect == "cmf" || layout != nil {
		edits, note, ok := layoutEdits(f, u, m, to)
		return edits, note, ok && fits(f, edits)
	}
	return nil, "", false
}

// fits reports whether the lines the edits touch or insert stay within
// the last column (72 in fixed form, 132 in free form), or no wider than
// they were: a directive line cannot be continued safely, so an action
// that would push one past it is not offered.
func fits(f *parser.File, edits []TextEdit) bool {
	limit := lineLimit(f)
	if limit < 0 {
		return true
	}
	lines := map[int]bool{}
	for _, e := range edits {
		lines[f.Lines.Line(e.Start)] = true
	}
	for l := range lines {
		start, end := f.Lines.LineStart(l), f.Lines.LineEnd(l)
		var in []TextEdit
		for _, e := range edits {
			if e.Start >= start && e.Start <= end && e.End <= end {
				in = append(in, e)
			}
		}
		old := strings.TrimRight(string(f.Src[start:end]), "\r\n")
		for _, line := range strings.Split(applyEditsAt(f.Src, start, end, in), "\n") {
			if w := width(strings.TrimRight(line, "\r")); w > limit && w > width(old) {
				return false
			}
		}
	}
	return true
}

// mover decides which names an edit moves: those the candidate moves
// (the current template, the arrays and templates distributed identically,
// which partition aligns) that belong to the loop's group. The group is
// the arrays the loop references and those that must move with them
// (HPF 2.0's data mapping): aligned with them by ALIGN, directly or through a
// template, or named with them in one DISTRIBUTE. An array distributed
// alike on a line of its own is not in it: its layout does not enter the
// loop's estimate, so the edit leaves it (and the loops using it, which
// were not priced) as they are, and the title's time still describes
// the edited program.
type mover struct {
	u       *parser.Unit
	current *partition.Distribution
	group   map[string]bool
}

func newMover(u *parser.Unit, current *partition.Distribution, loop *parser.DoConstruct) *mover {
	links := map[string][]string{}
	link := func(a, b string) {
		links[a] = append(links[a], b)
		links[b] = append(links[b], a)
	}
	for name, sym := range u.Scope.Syms {
		if sym.Align != nil && sym.Align.Target != nil {
			link(name, sym.Align.Target.Name)
		}
	}
	for _, s := range u.Body {
		if d, ok := s.(*parser.Directive); ok {
			if spec, ok := d.Spec.(*parser.DistributeSpec); ok {
				for _, t := range spec.Targets[min(1, len(spec.Targets)):] {
					link(spec.Targets[0].Name, t.Name)
				}
			}
		}
	}
	group := map[string]bool{}
	var add func(name string)
	add = func(name string) {
		if group[name] {
			return
		}
		group[name] = true
		for _, o := range links[name] {
			add(o)
		}
	}
	parser.Inspect(loop, func(n parser.Node) bool {
		if id, ok := n.(*parser.Ident); ok && current.Arrays[id.Name] != nil {
			add(id.Name)
		}
		return true
	})
	return &mover{u, current, group}
}

// moves reports whether the edit changes the distribution of name, a
// target of a DISTRIBUTE or LAYOUT or an array.
func (m *mover) moves(name string) bool {
	return m.group[name] && candidateMoves(m.u, m.current, name)
}

// named is the template the edit rewrites: the current template when it
// moves, otherwise the first directly distributed name that moves.
func (m *mover) named() string {
	if m.moves(m.current.Template) {
		return m.current.Template
	}
	for _, direct := range []bool{true, false} {
		for _, name := range m.u.Scope.Names() {
			if (!direct || m.u.Scope.Syms[name].Dist != nil) && m.moves(name) {
				return name
			}
		}
	}
	return m.current.Template
}

// changed is the arrays whose distribution the edit changes, and those
// the candidate moves that the edit leaves (not used by the loop).
func (m *mover) changed() (moved, left []string) {
	for _, name := range partitionNames(m.current) {
		if !candidateMoves(m.u, m.current, name) {
			continue
		}
		if m.group[name] {
			moved = append(moved, name)
		} else {
			left = append(left, name)
		}
	}
	return moved, left
}

// movedText says which arrays the edit changes, and which distributed
// alike it leaves because the loop does not use them.
func movedText(moved, left []string) string {
	t := "The edit changes " + strings.Join(moved, ", ")
	switch len(left) {
	case 0:
	case 1:
		t += fmt.Sprintf("; %s, distributed alike but not used by this loop, keeps its distribution", left[0])
	default:
		t += fmt.Sprintf("; %s, distributed alike but not used by this loop, keep theirs", strings.Join(left, ", "))
	}
	return t
}

// partitionNames is the arrays of a distribution, sorted.
func partitionNames(d *partition.Distribution) []string {
	out := make([]string, 0, len(d.Arrays))
	for name, l := range d.Arrays {
		if !l.Replicated {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// candidateMoves reports whether the candidate distribution of the
// current template changes the distribution of name, a target of a
// DISTRIBUTE: the template itself, an array distributed identically
// (partition aligns those), or a template that arrays aligned with the
// current template are aligned with.
func candidateMoves(u *parser.Unit, current *partition.Distribution, name string) bool {
	if name == current.Template {
		return true
	}
	if l := current.Arrays[name]; l != nil {
		return l.Template == current.Template
	}
	for _, l := range current.Arrays {
		if sym := u.Scope.Lookup(l.Array); sym != nil && sym.Align != nil && sym.Align.Target != nil && sym.Align.Target.Name == name {
			return l.Template == current.Template
		}
	}
	return false
}

// caseStyle returns a function that writes a keyword in the case of the
// word at off: lower case, capitalised or upper case.
func caseStyle(src []byte, off int) func(string) string {
	end := off
	for end < len(src) && isLetter(src[end]) {
		end++
	}
	w := string(src[off:end])
	switch {
	case w != "" && w == strings.ToLower(w):
		return strings.ToLower
	case len(w) > 1 && w[1:] == strings.ToLower(w[1:]):
		return func(s string) string { return s[:1] + strings.ToLower(s[1:]) }
	}
	return func(s string) string { return s }
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

// formatEnd is the end of a distribution format's text in the source, or
// -1 when the text is not the format written in one piece.
func formatEnd(src []byte, u *parser.Unit, fm *parser.DistFormat) int {
	at := u.Abs(fm.Pos)
	if fm.Kind == "*" || fm.Kind == ":" {
		if at < len(src) && src[at] == fm.Kind[0] {
			return at + 1
		}
		return -1
	}
	end := at
	for end < len(src) && isLetter(src[end]) {
		end++
	}
	if !strings.EqualFold(string(src[at:end]), fm.Kind) {
		return -1
	}
	if fm.Arg != nil {
		end = u.Abs(fm.Arg.End())
		for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
			end++
		}
		if end >= len(src) || src[end] != ')' {
			return -1
		}
		end++
	}
	return end
}

// rewriteDistribute edits one DISTRIBUTE whose targets the candidate
// moves (some or all of them).
//
// onto, when not empty, is the arrangement the candidate's grid needs
// (arrangementFor): ONTO names it, in place of an ONTO written or after
// the formats.
func rewriteDistribute(f *parser.File, u *parser.Unit, m *mover, d *parser.Directive, to *partition.Distribution, onto string) ([]TextEdit, string, bool) {
	src := f.Src
	spec := d.Spec.(*parser.DistributeSpec)
	if len(spec.Formats) != len(to.Formats) {
		return nil, "", false
	}
	style := caseStyle(src, u.Abs(d.KeyPos))
	// The body's edits, as offsets into the file.
	var body []TextEdit
	distributed := 0
	for i, fm := range spec.Formats {
		want := to.Formats[i]
		if want != ":" {
			distributed++
		}
		if sameFormat(fm, want, u.Scope) {
			continue
		}
		end := formatEnd(src, u, fm)
		if end < 0 {
			return nil, "", false
		}
		text := style(want)
		if want == ":" && d.Sentinel == "HPF" {
			text = "*" // HPF writes an undistributed dimension as *
		}
		body = append(body, TextEdit{f, u.Abs(fm.Pos), end, text})
	}
	// ONTO stays while the arrangement has one dimension per distributed
	// dimension (HPF 2.0 §3.3); otherwise it goes, with a note.
	note := ""
	if onto != "" {
		text := " " + style("ONTO") + " " + onto
		if spec.Onto != nil {
			start, end, ok := ontoSpan(src, u, spec.Onto)
			if !ok {
				return nil, "", false
			}
			body = append(body, TextEdit{f, start, end, text})
			name := string(src[u.Abs(spec.Onto.Pos()):u.Abs(spec.Onto.End())])
			if !strings.EqualFold(name, onto) && !ontoUsedElsewhere(u, m, d, spec) {
				note = fmt.Sprintf("%s is then declared but unused", name)
			}
		} else {
			// After the parenthesis closing the formats.
			if len(spec.Formats) == 0 {
				return nil, "", false
			}
			end := formatEnd(src, u, spec.Formats[len(spec.Formats)-1])
			for end >= 0 && end < len(src) && (src[end] == ' ' || src[end] == '\t') {
				end++
			}
			if end < 0 || end >= len(src) || src[end] != ')' {
				return nil, "", false
			}
			body = append(body, TextEdit{f, end + 1, end + 1, text})
		}
	} else if spec.Onto != nil {
		sym := u.Scope.Lookup(spec.Onto.Name)
		if sym != nil && sym.Rank() != distributed {
			start, end, ok := ontoSpan(src, u, spec.Onto)
			if !ok {
				return nil, "", false
			}
			body = append(body, TextEdit{f, start, end, ""})
			name := string(src[u.Abs(spec.Onto.Pos()):u.Abs(spec.Onto.End())])
			note = fmt.Sprintf("%s is a processor arrangement of %d dimension(s) and %s distributes %d, so ONTO %s is dropped (HPF needs one arrangement dimension per distributed dimension) and the compiler lays the %d processors out itself; declare a PROCESSORS arrangement of %d dimension(s) to choose them",
				name, sym.Rank(), to.Name(), distributed, name, to.Procs, distributed)
			if !ontoUsedElsewhere(u, m, d, spec) {
				note += fmt.Sprintf("; %s is then declared but unused", name)
			}
		}
	}
	var moving, staying []*parser.Ident
	for _, t := range spec.Targets {
		if m.moves(t.Name) {
			moving = append(moving, t)
		} else {
			staying = append(staying, t)
		}
	}
	if len(staying) == 0 {
		return body, note, true
	}
	// Split: the original keeps the other targets (and its comment); a
	// new directive on the line before takes the moved ones.
	first, last := spec.Targets[0], spec.Targets[len(spec.Targets)-1]
	lstart, lend := u.Abs(first.Pos()), u.Abs(last.End())
	list := string(src[lstart:lend])
	sep := ","
	if strings.Contains(list, ", ") {
		sep = ", "
	}
	names := func(ids []*parser.Ident) string {
		var out []string
		for _, id := range ids {
			out = append(out, string(src[u.Abs(id.Pos()):u.Abs(id.End())]))
		}
		return strings.Join(out, sep)
	}
	keep := TextEdit{f, lstart, lend, names(staying)}
	lineStart := f.Lines.LineStart(f.Lines.Line(u.Abs(d.From)))
	stmt := string(src[lineStart:u.Abs(d.To)])
	if strings.ContainsAny(stmt, "\n&") || lstart < u.Abs(d.KeyPos) {
		return nil, "", false // continued over lines: not split
	}
	moved := applyEditsAt(src, lineStart, u.Abs(d.To), append(body, TextEdit{f, lstart, lend, names(moving)}))
	// The new directive goes first, so that the template keeps its place
	// as the first written (partition names the distribution after it).
	split := fmt.Sprintf("%s keeps its distribution: the DISTRIBUTE is split in two", names(staying))
	if note != "" {
		split += "; " + note
	}
	return []TextEdit{{f, lineStart, lineStart, moved + "\n"}, keep}, split, true
}

// arrangementFor names the PROCESSORS arrangement of a grid's shape for
// ONTO (P8X2 for 8 x 2), in the case of the DISTRIBUTE d, and the
// directive line that declares it, in d's sentinel and spacing (empty
// when an arrangement of that name and shape is declared already). A
// name taken by anything else gets a suffix (P8X2_2).
func arrangementFor(f *parser.File, u *parser.Unit, d *parser.Directive, grid []int) (name, decl string) {
	src := f.Src
	style := caseStyle(src, u.Abs(d.KeyPos))
	dims := make([]string, len(grid))
	for i, g := range grid {
		dims[i] = fmt.Sprint(g)
	}
	base := "P" + strings.Join(dims, "X")
	for i := 1; ; i++ {
		name = base
		if i > 1 {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		sym := u.Scope.Lookup(name)
		if sym == nil {
			break
		}
		if sym.Kind == parser.SymProcessors && sameShape(sym, u.Scope, grid) {
			return style(name), ""
		}
	}
	lineStart := f.Lines.LineStart(f.Lines.Line(u.Abs(d.From)))
	prefix := string(src[lineStart:u.Abs(d.KeyPos)])
	return style(name), prefix + style("PROCESSORS") + " " + style(name) + "(" + strings.Join(dims, ",") + ")\n"
}

// sameShape reports whether a PROCESSORS arrangement's extents are the
// grid's, each from 1.
func sameShape(sym *parser.Symbol, sc *parser.Scope, grid []int) bool {
	if len(sym.Dims) != len(grid) {
		return false
	}
	for i, d := range sym.Dims {
		lo := int64(1)
		if d.Lower != nil {
			v, ok := parser.EvalInt(d.Lower, sc)
			if !ok {
				return false
			}
			lo = v
		}
		hi, ok := int64(0), d.Upper != nil
		if ok {
			hi, ok = parser.EvalInt(d.Upper, sc)
		}
		if !ok || hi-lo+1 != int64(grid[i]) {
			return false
		}
	}
	return true
}

// ontoUsedElsewhere reports whether the arrangement d names in ONTO
// stays in use after the edit: by the targets a split leaves on d, or by
// another DISTRIBUTE.
func ontoUsedElsewhere(u *parser.Unit, m *mover, d *parser.Directive, spec *parser.DistributeSpec) bool {
	for _, t := range spec.Targets {
		if !m.moves(t.Name) {
			return true
		}
	}
	for _, s := range u.Body {
		o, ok := s.(*parser.Directive)
		if !ok || o == d {
			continue
		}
		if sp, ok := o.Spec.(*parser.DistributeSpec); ok && sp.Onto != nil && sp.Onto.Name == spec.Onto.Name {
			return true
		}
	}
	return false
}

// sameFormat reports whether a written format is the candidate's.
func sameFormat(fm *parser.DistFormat, want string, sc *parser.Scope) bool {
	switch fm.Kind {
	case "*", ":":
		return want == ":"
	}
	if fm.Arg == nil {
		return fm.Kind == want
	}
	v, ok := parser.EvalInt(fm.Arg, sc)
	return ok && fmt.Sprintf("%s(%d)", fm.Kind, v) == want
}

// ontoSpan is the text " ONTO P" (with a section P(...) if written) to
// remove from a DISTRIBUTE, when it stands on one line.
func ontoSpan(src []byte, u *parser.Unit, onto *parser.Ident) (int, int, bool) {
	end := u.Abs(onto.End())
	i := end
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i < len(src) && src[i] == '(' {
		depth := 0
		for ; i < len(src) && src[i] != '\n'; i++ {
			if src[i] == '(' {
				depth++
			} else if src[i] == ')' {
				depth--
				if depth == 0 {
					end = i + 1
					break
				}
			}
		}
	}
	start := u.Abs(onto.Pos())
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start < 4 || !strings.EqualFold(string(src[start-4:start]), "ONTO") {
		return 0, 0, false
	}
	start -= 4
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	return start, end, true
}

// applyEditsAt applies edits inside [from, to) of src and returns that
// span's new text.
func applyEditsAt(src []byte, from, to int, edits []TextEdit) string {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	var b strings.Builder
	at := from
	for _, e := range edits {
		if e.Start < at || e.End > to {
			continue
		}
		b.Write(src[at:e.Start])
		b.WriteString(e.Text)
		at = e.End
	}
	b.Write(src[at:to])
	return b.String()
}

// layoutEdits writes CM Fortran's LAYOUT of the arrays the candidate
// moves (the current array and those of its shape in the same layout;
// arrays under CMF$ ALIGN follow their target): the dimensions of
// existing LAYOUT lines replaced inside their parentheses (case, other
// arrays and comments kept), and one new LAYOUT line for the arrays that
// have none, after the last of their declarations.
func layoutEdits(f *parser.File, u *parser.Unit, m *mover, to *partition.Distribution) ([]TextEdit, string, bool) {
	dims := make([]string, len(to.Formats))
	for i, fm := range to.Formats {
		switch fm {
		case ":":
			dims[i] = ":SERIAL"
		case "BLOCK":
			dims[i] = ":NEWS"
		default:
			return nil, "", false // CM Fortran has no cyclic layout
		}
	}
	src := f.Src
	var edits []TextEdit
	laid := map[string]bool{}
	prefix, style := "", func(s string) string { return s }
	for _, st := range u.Body {
		d, ok := st.(*parser.Directive)
		if !ok || d.Sentinel != "CMF" {
			continue
		}
		if prefix == "" {
			ls := f.Lines.LineStart(f.Lines.Line(u.Abs(d.From)))
			prefix = string(src[ls:u.Abs(d.KeyPos)])
			style = caseStyle(src, u.Abs(d.KeyPos))
		}
		spec, ok := d.Spec.(*parser.LayoutSpec)
		if !ok {
			continue
		}
		dstyle := caseStyle(src, u.Abs(d.KeyPos))
		for _, one := range append([]*parser.LayoutSpec{spec}, spec.More...) {
			if one.Target == nil || !m.moves(one.Target.Name) {
				continue
			}
			laid[one.Target.Name] = true
			open := u.Abs(one.Target.End())
			for open < u.Abs(d.To) && (src[open] == ' ' || src[open] == '\t') {
				open++
			}
			if open >= u.Abs(d.To) || src[open] != '(' {
				return nil, "", false
			}
			end := open
			for end < u.Abs(d.To) && src[end] != ')' {
				end++
			}
			if end >= u.Abs(d.To) {
				return nil, "", false
			}
			sep := ","
			if strings.Contains(string(src[open:end]), ", ") {
				sep = ", "
			}
			written := make([]string, len(dims))
			for i := range dims {
				written[i] = dstyle(dims[i])
			}
			if text := strings.Join(written, sep); text != string(src[open+1:end]) {
				edits = append(edits, TextEdit{f, open + 1, end, text})
			}
		}
	}
	// The arrays that move and have no LAYOUT line yet.
	var names []string
	declEnd := -1
	for _, name := range u.Scope.Names() {
		sym := u.Scope.Syms[name]
		if laid[name] || sym.Kind != parser.SymVariable || sym.Rank() != len(dims) || sym.Align != nil || !m.moves(name) {
			continue
		}
		names = append(names, name)
		end := u.Abs(sym.Decl)
		for _, s := range u.Body {
			if s.Pos() <= sym.Decl && sym.Decl < s.End() {
				end = u.Abs(s.End())
			}
		}
		if end > declEnd {
			declEnd = end
		}
	}
	if len(names) > 0 {
		sort.Slice(names, func(i, j int) bool { // the template first, then as declared
			if (names[i] == m.current.Template) != (names[j] == m.current.Template) {
				return names[i] == m.current.Template
			}
			return u.Scope.Syms[names[i]].Decl < u.Scope.Syms[names[j]].Decl
		})
		var parts []string
		for _, n := range names {
			written := make([]string, len(dims))
			for i := range dims {
				written[i] = style(dims[i])
			}
			parts = append(parts, style(n)+"("+strings.Join(written, ", ")+")")
		}
		if prefix == "" {
			// No CMF$ line yet: write it in the case of the template's
			// declaration.
			if sym := u.Scope.Lookup(m.current.Template); sym != nil {
				for _, s := range u.Body {
					if b, ok := s.(interface{ Base() *parser.StmtBase }); ok && s.Pos() <= sym.Decl && sym.Decl < s.End() {
						style = caseStyle(src, u.Abs(b.Base().KeyPos))
					}
				}
			}
			prefix = style("CMF$") + "  "
			if f.Form == parser.Free {
				prefix = "!" + style("CMF$") + " "
			}
		}
		at := f.Lines.LineStart(f.Lines.Line(declEnd) + 1)
		text := prefix + style("LAYOUT") + " " + strings.Join(parts, ", ") + "\n"
		if width(text) > lineLimit(f) {
			// Past the last column: one LAYOUT line per array.
			text = ""
			for _, p := range parts {
				text += prefix + style("LAYOUT") + " " + p + "\n"
			}
		}
		edits = append(edits, TextEdit{f, at, at, text})
	}
	if len(edits) == 0 {
		return nil, "", false
	}
	return edits, "", true
}

// bytesText prints a message size exactly (the number of bytes), a
// symbolic one in parentheses when it has several terms.
func bytesText(p partition.Poly) string {
	if len(p.Terms()) > 1 {
		return "(" + p.String() + ")"
	}
	return p.String()
}

// EstimateLoopText is the report of the "Estimate this loop" command for
// the loop on a line (1-based): the current distribution's times and
// breakdown, and the candidates.
func EstimateLoopText(f *parser.File, line int, o EstimateOptions) (string, error) {
	if line < 1 || line > f.Lines.LineCount() {
		return "", fmt.Errorf("line %d is outside %s", line, f.Name)
	}
	r, err := report(f, line, o, partition.ReportOptions{})
	if err != nil {
		return "", fmt.Errorf("%s:%d: %w", f.Name, line, err)
	}
	if r == nil {
		return "", fmt.Errorf("%s:%d: no DO loop starts on this line", f.Name, line)
	}
	cur := r.Estimate
	var b strings.Builder
	fmt.Fprintf(&b, "Loop at line %d on %d processors, %s: %s (communication %s, computation %s)",
		line, o.Procs, r.Current.Name(), fmtSeconds(cur.Time), fmtSeconds(cur.Comm), fmtSeconds(cur.Compute))
	for _, m := range cur.Messages {
		fmt.Fprintf(&b, "\n- %s of %s: %s × %s bytes, %s (%s)", m.Pattern, m.Array, capability.CountText(m.Count), bytesText(m.Bytes), fmtSeconds(m.Time), m.Why)
	}
	if len(r.Ranked) > 0 {
		b.WriteString("\nCandidates, fastest first:")
		for _, c := range r.Ranked {
			fmt.Fprintf(&b, "\n- %s: %s (communication %s)", c.Dist.Name(), fmtSeconds(c.Est.Time), fmtSeconds(c.Est.Comm))
		}
	}
	for _, n := range r.Notes {
		b.WriteString("\nNote: " + n)
	}
	return b.String(), nil
}
