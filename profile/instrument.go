package profile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pfls/pfls/parser"
)

// Kind is what a counter or timer measures.
type Kind uint8

// The kinds of sites.
const (
	// Loop: the DO loop's iterations (its counter), entries and time.
	Loop Kind = iota
	// Arm: the times one branch of an IF construct or a CASE was taken,
	// or, on the line of its END IF or END SELECT, that a construct
	// without ELSE or CASE DEFAULT took none.
	Arm
	// Routine: the entries and the inclusive time of a program unit.
	Routine
	// MPICall: a CALL MPI_... statement; the MPI call recorder counts it.
	MPICall
)

// Site is one instrumented place of the program: its 1-based line in
// file File (an index into the instrumented files), the counters and the
// timer that measure it (0 when it has none).
type Site struct {
	Kind    Kind
	File    int
	Line    int
	EndLine int    // loops and routines: the line of their end
	Name    string // routine name, MPI routine (upper case)
	Count   int    // counter of iterations, branch entries or routine entries
	Entries int    // loops: counter of the loop's entries
	Timer   int
	// Arrays are the arrays a loop body assigns or an MPI call's buffers.
	Arrays []string
	// Leaf says a timed loop holds no other timed loop: its time is
	// charged to the arrays it writes.
	Leaf bool
	// Callees are the subroutines a loop body or a routine calls (upper
	// case): the report charges their MPI time to the loop.
	Callees []string
}

// Program is an instrumented copy of a program: the copies of its files
// with the counters, timers and line markers inserted, the generated
// module that holds them, and the table of sites.
type Program struct {
	Paths []string // the user's files, as given
	Texts []string // their instrumented copies
	// Plain are the copies built for the overhead's baseline: the files
	// with only MPI_INIT and MPI_FINALIZE renamed (the same text without
	// MPI).
	Plain    []string
	mains    []int // the timers of main programs, which pfls_fini stops
	Sites    []Site
	Counters int
	Timers   int
	MPI      bool // some file calls MPI
	OpenMP   bool // some file has OpenMP directives
	F08      bool // some file uses mpi_f08, which the recorder does not wrap
	// Skipped says which places could not be instrumented and why.
	Skipped []string
}

// lineMarkerBase separates the files in the line code the MPI call recorder
// records: code = file*lineMarkerBase + line.
const lineMarkerBase = 1000000

// edits are the lines inserted into one file, before and after physical
// lines (0-based), as statements without the leading indentation.
type edits struct {
	before, after map[int][]string
	replace       []replacement
	// plain are the replacements of the uninstrumented build: only
	// MPI_INIT and MPI_FINALIZE renamed, so that its run is timed.
	plain []replacement
}

// replacement is a piece of a statement rewritten: [from, to) of the
// file becomes text.
type replacement struct {
	from, to int
	text     string
}

// instrumenter holds the state of one instrumentation.
type instrumenter struct {
	p     *Program
	pure  map[string]bool // PURE and ELEMENTAL functions of the files
	f08   bool            // the file uses mpi_f08 (optional IERROR, derived-type handles)
	f     *parser.File
	file  int
	ed    edits
	omp   bool
	mains []int // timers of main programs, stopped by pfls_fini
}

// Instrument parses nothing itself: files are the parsed sources (in
// compilation order, paths the names to report). It returns the
// instrumented program; the files are not changed.
func Instrument(files []*parser.File, paths []string) *Program {
	p := &Program{Paths: paths}
	for _, f := range files {
		if hasOpenMP(f) {
			p.OpenMP = true
		}
	}
	pureFns := map[string]bool{}
	for _, f := range files {
		var visit func(u *parser.Unit)
		visit = func(u *parser.Unit) {
			if pure(u) {
				pureFns[strings.ToUpper(u.Name)] = true
			}
			for _, c := range u.Contains {
				visit(c)
			}
		}
		for _, u := range f.Units {
			visit(u)
		}
	}
	var mains []int
	for i, f := range files {
		in := &instrumenter{p: p, f: f, file: i, omp: p.OpenMP, pure: pureFns, f08: usesF08(f),
			ed: edits{before: map[int][]string{}, after: map[int][]string{}}}
		for _, u := range f.Units {
			in.unit(u)
		}
		mains = append(mains, in.mains...)
		p.F08 = p.F08 || in.f08
		p.Texts = append(p.Texts, in.render(in.ed.replace, true))
		p.Plain = append(p.Plain, in.render(in.ed.plain, false))
	}
	p.mains = mains
	return p
}

// usesF08 says a file USEs mpi_f08.
func usesF08(f *parser.File) bool {
	found := false
	var visit func(u *parser.Unit)
	visit = func(u *parser.Unit) {
		for _, s := range u.Body {
			if us, ok := s.(*parser.UseStmt); ok && us.Module != nil && strings.EqualFold(us.Module.Name, "mpi_f08") {
				found = true
			}
		}
		for _, c := range u.Contains {
			visit(c)
		}
	}
	for _, u := range f.Units {
		visit(u)
	}
	return found
}

func hasOpenMP(f *parser.File) bool {
	found := false
	var visit func(u *parser.Unit)
	visit = func(u *parser.Unit) {
		for _, s := range u.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				if d, ok := n.(*parser.Directive); ok && d.Sentinel == "OMP" {
					found = true
				}
				_, isStmt := n.(parser.Stmt)
				return isStmt && !found
			})
		}
		for _, c := range u.Contains {
			visit(c)
		}
	}
	for _, u := range f.Units {
		visit(u)
	}
	return found
}

func (in *instrumenter) counter() int { in.p.Counters++; return in.p.Counters }
func (in *instrumenter) timer() int   { in.p.Timers++; return in.p.Timers }

// line is the 0-based line of a position of unit u.
func (in *instrumenter) line(u *parser.Unit, p parser.Pos) int {
	return in.f.Lines.Line(u.Abs(p))
}

// startsLine reports whether nothing but blanks precede position p on its
// line, so that a line inserted before it runs just before the statement.
func (in *instrumenter) startsLine(u *parser.Unit, p parser.Pos) bool {
	off := u.Abs(p)
	start := in.f.Lines.LineStart(in.f.Lines.Line(off))
	return strings.TrimSpace(string(in.f.Src[start:off])) == "" || in.labelOnly(in.f.Src[start:off])
}

// labelOnly says a line's text before a statement is its label.
func (in *instrumenter) labelOnly(b []byte) bool {
	s := strings.TrimSpace(string(b))
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// endsLine reports whether nothing but blanks or a comment follow the
// statement ending at p (exclusive) on its line.
func (in *instrumenter) endsLine(u *parser.Unit, p parser.Pos) bool {
	off := u.Abs(p)
	l := in.f.Lines.Line(max(off-1, 0))
	end := in.f.Lines.LineEnd(l)
	if in.f.Form == parser.Fixed {
		// Columns 73 on are not Fortran (sequence numbers, annotations).
		end = min(end, max(off, in.f.Lines.LineStart(l)+72))
	}
	if off > end {
		return false
	}
	rest := strings.TrimSpace(string(in.f.Src[off:end]))
	return rest == "" || strings.HasPrefix(rest, "!")
}

func (in *instrumenter) before(u *parser.Unit, p parser.Pos, stmts ...string) bool {
	if !in.startsLine(u, p) {
		return false
	}
	l := in.line(u, p)
	in.ed.before[l] = append(in.ed.before[l], stmts...)
	return true
}

// beforeJump inserts stmts before the statement at p like before, for
// statements that a GO TO to its label must run too (a loop's entry
// counters and timer, a RETURN's or the END's stop of the timer): the
// label moves to a CONTINUE that opens the inserted lines. A label that
// ends a DO loop stays, since the statement it is on must remain the
// loop's last; so does one on a statement before which nothing is
// inserted.
func (in *instrumenter) beforeJump(ctx *walkCtx, p parser.Pos, stmts ...string) bool {
	u := ctx.unit
	if !in.startsLine(u, p) {
		return false
	}
	l := in.f.Lines.Line(u.Abs(p))
	start := in.f.Lines.LineStart(l)
	text := string(in.f.Src[start:in.f.Lines.LineEnd(l)])
	from := len(text) - len(strings.TrimLeft(text, " \t"))
	to := from
	for to < len(text) && text[to] >= '0' && text[to] <= '9' {
		to++
	}
	if to == from || to == len(text) || text[to] != ' ' && text[to] != '\t' {
		return in.before(u, p, stmts...) // no label
	}
	label := 0
	fmt.Sscan(text[from:to], &label)
	if label == 0 || ctx.doEnds[label] {
		return in.before(u, p, stmts...)
	}
	in.ed.replace = append(in.ed.replace, replacement{start + from, start + to, strings.Repeat(" ", to-from)})
	return in.before(u, p, append([]string{fmt.Sprintf("%d continue", label)}, stmts...)...)
}

func (in *instrumenter) after(u *parser.Unit, end parser.Pos, stmts ...string) bool {
	if !in.endsLine(u, end) {
		return false
	}
	l := in.f.Lines.Line(max(u.Abs(end)-1, 0))
	in.ed.after[l] = append(in.ed.after[l], stmts...)
	return true
}

func (in *instrumenter) skip(u *parser.Unit, p parser.Pos, what string) {
	in.p.Skipped = append(in.p.Skipped, fmt.Sprintf("%s:%d: %s", in.p.Paths[in.file], in.line(u, p)+1, what))
}

func incr(k int) string { return fmt.Sprintf("pfls_c(%d)=pfls_c(%d)+1", k, k) }

// count is the increment of counter k, atomic where OpenMP threads may
// run it at the same time.
func (in *instrumenter) count(k int) []string {
	if in.omp {
		return []string{"!$omp atomic", incr(k)}
	}
	return []string{incr(k)}
}

// unit instruments one program unit and its contained procedures.
func (in *instrumenter) unit(u *parser.Unit) {
	switch u.Kind {
	case parser.UnitMain, parser.UnitSubroutine, parser.UnitFunction:
		in.routine(u)
	}
	for _, c := range u.Contains {
		in.unit(c)
	}
}

func (in *instrumenter) routine(u *parser.Unit) {
	if pure(u) {
		// A PURE or ELEMENTAL procedure may not change the counters.
		in.skip(u, u.Header.Pos(), "PURE or ELEMENTAL "+u.Kind.String()+" "+u.Name+" not instrumented (it may not change the counters)")
		return
	}
	// USE the counters' module right after the header (or before the
	// first statement of a main program without PROGRAM).
	useOK := false
	if u.Header != nil {
		useOK = in.after(u, u.Header.End(), "use pfls_prof")
	} else if len(u.Body) > 0 {
		useOK = in.before(u, u.Body[0].Pos(), "use pfls_prof")
	}
	if !useOK {
		at := parser.Pos(0)
		if u.Header != nil {
			at = u.Header.Pos()
		}
		in.skip(u, at, "unit "+u.Name+" not instrumented (its header shares a line)")
		return
	}
	main := u.Kind == parser.UnitMain
	first := -1
	end := len(u.Body)
	for i, s := range u.Body {
		if sm, ok := s.(*parser.SimpleStmt); ok && sm.Keyword == "CONTAINS" {
			end = i
			break
		}
		if first < 0 && executable(u, s) {
			first = i
		}
	}
	site := Site{Kind: Routine, File: in.file, Name: u.Name}
	if u.Header != nil {
		site.Line = in.line(u, u.Header.Pos()) + 1
	} else if len(u.Body) > 0 {
		site.Line = in.line(u, u.Body[0].Pos()) + 1
	}
	if u.EndStmt != nil {
		site.EndLine = in.line(u, u.EndStmt.Pos()) + 1
	}
	if first >= 0 && first < end {
		site.Count = in.counter()
		site.Timer = in.timer()
		entry := append(in.count(site.Count), fmt.Sprintf("call pfls_go(%d)", site.Timer))
		if main {
			entry = append([]string{"call pfls_start()"}, entry...)
		}
		in.before(u, u.Body[first].Pos(), entry...)
		site.Callees = callees(u.Body[first:end])
		ctx := &walkCtx{unit: u, routineTimer: site.Timer, main: main, labels: labelsOf(u.Body), doEnds: doEndsOf(u.Body)}
		in.stmts(ctx, u.Body[first:end], nil)
		stop := fmt.Sprintf("call pfls_end(%d)", site.Timer)
		var closeAt parser.Stmt = u.EndStmt
		if end < len(u.Body) {
			closeAt = u.Body[end]
		}
		tail := []string{stop}
		if main {
			tail = append(tail, "call pfls_fini()")
			in.mains = append(in.mains, site.Timer)
		}
		if ctx.exitLabel != 0 {
			tail[0] = fmt.Sprintf("%d %s", ctx.exitLabel, tail[0])
		}
		if closeAt == nil || !in.beforeJump(ctx, closeAt.Pos(), tail...) {
			in.skip(u, u.Body[first].Pos(), "end of unit "+u.Name+" not instrumented")
		}
	}
	in.p.Sites = append(in.p.Sites, site)
}

// pure says a procedure is PURE, or ELEMENTAL and not IMPURE.
func pure(u *parser.Unit) bool {
	h, ok := u.Header.(*parser.SubprogramStmt)
	if !ok {
		return false
	}
	p, e, i := false, false, false
	for _, w := range h.Prefix {
		switch strings.ToUpper(w) {
		case "PURE":
			p = true
		case "ELEMENTAL":
			e = true
		case "IMPURE":
			i = true
		}
	}
	return p || e && !i
}

// walkCtx is what the statement walk knows of where it is.
type walkCtx struct {
	unit         *parser.Unit
	routineTimer int
	main         bool
	// exitLabel is the label of the routine's closing lines, which an
	// IF (...) RETURN jumps to instead of returning (0: none yet).
	exitLabel int
	labels    map[int]bool // the labels the unit uses
	doEnds    map[int]bool // the labels that end DO loops
	// concurrent counts the DO CONCURRENT constructs around the walk,
	// where no procedure that is not PURE may be called (F2018 C1139).
	concurrent int
}

// executable says whether a statement of a unit's body is executable
// (the first one gets the routine's entry counter).
func executable(u *parser.Unit, s parser.Stmt) bool {
	switch x := s.(type) {
	case *parser.UseStmt, *parser.ImplicitStmt, *parser.TypeDecl, *parser.DimensionStmt,
		*parser.ParameterStmt, *parser.CommonStmt, *parser.EquivalenceStmt, *parser.DataStmt,
		*parser.DerivedTypeStmt, *parser.InterfaceStmt, *parser.ProcedureStmt, *parser.NameListStmt,
		*parser.FormatStmt, *parser.IncludeStmt, *parser.CppStmt, *parser.EntryStmt, *parser.BadStmt:
		return false
	case *parser.Directive:
		return x.Sentinel == "OMP" && !strings.Contains(x.Name, "THREADPRIVATE") && !strings.Contains(x.Name, "DECLARE")
	case *parser.Block:
		switch h := x.Head.(type) {
		case *parser.DerivedTypeStmt, *parser.InterfaceStmt:
			return false
		case *parser.SimpleStmt:
			switch h.Keyword {
			case "ENUM", "STRUCTURE", "UNION", "MAP":
				return false // declarations: ENUM, BIND(C) and DEC structures
			}
		}
		return true
	case *parser.SimpleStmt:
		switch x.Keyword {
		case "SEQUENCE", "IMPORT", "PRIVATE", "PUBLIC", "CONTAINS":
			return false
		}
		return true
	case *parser.AssignStmt:
		// A statement function A(X) = ... of a name that is no array
		// (for a CHARACTER name, nor a substring A(I:J)).
		if c, ok := x.LHS.(*parser.Call); ok {
			if id, ok := c.Fun.(*parser.Ident); ok && u.Scope != nil {
				substring := false
				for _, a := range c.Args {
					if _, ok := a.(*parser.Triplet); ok {
						substring = true
					}
				}
				if sym := u.Scope.Lookup(id.Name); sym == nil || len(sym.Dims) == 0 && !substring {
					return false
				}
			}
		}
		return true
	}
	return true
}

// stmts instruments a statement list; enclosing is the innermost DO
// around it (nil at the top of a routine). It returns whether a timed
// loop is inside.
func (in *instrumenter) stmts(ctx *walkCtx, list []parser.Stmt, enclosing *parser.DoConstruct) bool {
	timed := false
	for _, s := range list {
		if in.stmt(ctx, s, enclosing) {
			timed = true
		}
	}
	return timed
}

func (in *instrumenter) stmt(ctx *walkCtx, s parser.Stmt, enclosing *parser.DoConstruct) bool {
	u := ctx.unit
	switch x := s.(type) {
	case *parser.DoConstruct:
		if x.Do.Concurrent != nil {
			ctx.concurrent++
			defer func() { ctx.concurrent-- }()
		}
		return in.loop(ctx, x, enclosing)
	case *parser.IfConstruct:
		timed := false
		for _, arm := range x.Arms {
			in.arm(ctx, arm)
			if in.stmts(ctx, arm.Body, enclosing) {
				timed = true
			}
		}
		if _, isElse := x.Arms[len(x.Arms)-1].Head.(*parser.SimpleStmt); !isElse {
			in.fallThrough(ctx, x.EndStmt, "else")
		}
		return timed
	case *parser.Block:
		if sel, ok := x.Head.(*parser.SelectStmt); ok {
			timed := false
			hasDefault := false
			for _, arm := range x.Arms {
				if caseDefault(arm.Head) {
					hasDefault = true
				}
				in.arm(ctx, arm)
				if in.stmts(ctx, arm.Body, enclosing) {
					timed = true
				}
			}
			if !hasDefault {
				in.fallThrough(ctx, x.EndStmt, defaultArm(sel))
			}
			return timed
		}
		switch x.Head.(type) {
		case *parser.WhereStmt, *parser.ForallStmt, *parser.DerivedTypeStmt, *parser.InterfaceStmt:
			return false
		}
		return in.stmts(ctx, x.Body, enclosing)
	case *parser.CallStmt:
		in.mpiCall(ctx, x, x)
	case *parser.IfStmt:
		switch t := x.Then.(type) {
		case *parser.CallStmt:
			in.mpiCall(ctx, t, x)
		case *parser.SimpleStmt:
			if t.Keyword == "RETURN" && len(t.Args) == 0 {
				in.returnToExit(ctx, t)
			}
		}
	case *parser.SimpleStmt:
		switch x.Keyword {
		case "RETURN":
			if !in.beforeJump(ctx, x.Pos(), fmt.Sprintf("call pfls_end(%d)", ctx.routineTimer)) {
				in.skip(u, x.Pos(), "RETURN shares a line: the routine's time is not stopped there")
			}
		case "STOP", "ERRORSTOP":
			// The counters are written first: ERROR STOP ends the program
			// with an error, which may not run the exit handlers (nor does
			// an MPI program have one).
			if ctx.concurrent > 0 {
				in.skip(u, x.Pos(), "STOP in a DO CONCURRENT, which may call no procedure that is not PURE: the counters are not written there")
				break
			}
			in.beforeJump(ctx, x.Pos(), fmt.Sprintf("call pfls_end(%d)", ctx.routineTimer), "call pfls_fini()")
		}
	}
	return false
}

// returnToExit rewrites the RETURN of a logical IF into a jump to the
// routine's closing lines, which stop its timer and return, so that the
// time of such calls is counted too.
func (in *instrumenter) returnToExit(ctx *walkCtx, t *parser.SimpleStmt) {
	u := ctx.unit
	if ctx.exitLabel == 0 {
		for l := 99001; l < 99999; l++ {
			if !ctx.labels[l] {
				ctx.exitLabel = l
				break
			}
		}
	}
	text := fmt.Sprintf("GO TO %d", ctx.exitLabel)
	from, to := u.Abs(t.Pos()), u.Abs(t.End())
	if in.f.Form == parser.Fixed {
		// The statement must stay inside column 72.
		l := in.f.Lines.Line(to)
		if to-in.f.Lines.LineStart(l)+len(text)-(to-from) > 72 {
			in.skip(u, t.Pos(), "IF (...) RETURN near column 72: the routine's time is not stopped there")
			return
		}
	}
	in.ed.replace = append(in.ed.replace, replacement{from, to, text})
}

// labelsOf collects the statement labels of a unit's body.
func labelsOf(body []parser.Stmt) map[int]bool {
	set := map[int]bool{}
	for _, s := range body {
		parser.Inspect(s, func(n parser.Node) bool {
			st, ok := n.(parser.Stmt)
			if ok && st.Base() != nil && st.Base().Label != 0 {
				set[st.Base().Label] = true
			}
			return ok
		})
	}
	return set
}

// doEndsOf collects the terminal labels of a unit's DO loops.
func doEndsOf(body []parser.Stmt) map[int]bool {
	set := map[int]bool{}
	for _, s := range body {
		parser.Inspect(s, func(n parser.Node) bool {
			if d, ok := n.(*parser.DoConstruct); ok && d.Do.EndLabel != 0 {
				set[d.Do.EndLabel] = true
			}
			_, isStmt := n.(parser.Stmt)
			return isStmt
		})
	}
	return set
}

// arm counts the entries of one branch: a line after its head.
func (in *instrumenter) arm(ctx *walkCtx, arm *parser.IfArm) {
	u := ctx.unit
	k := in.counter()
	if !in.after(u, arm.Head.End(), in.count(k)...) {
		in.skip(u, arm.Head.Pos(), "branch shares a line with its first statement: not counted")
		return
	}
	in.p.Sites = append(in.p.Sites, Site{Kind: Arm, File: in.file, Line: in.line(u, arm.Head.Pos()) + 1, Count: k})
}

// caseDefault says an arm's head is CASE DEFAULT, CLASS DEFAULT (SELECT
// TYPE) or RANK DEFAULT (SELECT RANK), which the parser may give as a
// CASE or as a statement of keyword CASEDEFAULT or CLASSDEFAULT.
func caseDefault(s parser.Stmt) bool {
	switch h := s.(type) {
	case *parser.CaseStmt:
		return h.Default
	case *parser.SimpleStmt:
		return h.Keyword == "CASEDEFAULT" || h.Keyword == "CLASSDEFAULT"
	}
	return false
}

// defaultArm is the head of the arm that a SELECT construct takes when
// none of its others is: CASE DEFAULT, but CLASS DEFAULT in a SELECT
// TYPE and RANK DEFAULT in a SELECT RANK, which have no CASE.
func defaultArm(s *parser.SelectStmt) string {
	switch s.Keyword {
	case "SELECTTYPE":
		return "class default"
	case "SELECTRANK":
		return "rank default"
	}
	return "case default"
}

// fallThrough counts the times a construct without ELSE (or CASE
// DEFAULT) takes none of its branches: an arm with that head and a
// counter goes before its end, on whose line the count is reported. With
// the arms' counts it gives the branch frequencies of the whole construct.
func (in *instrumenter) fallThrough(ctx *walkCtx, end parser.Stmt, head string) {
	u := ctx.unit
	if end == nil {
		return
	}
	k := in.counter()
	if !in.before(u, end.Pos(), append([]string{head}, in.count(k)...)...) {
		in.skip(u, end.Pos(), "end of a branch construct shares a line: its fall-through is not counted")
		return
	}
	in.p.Sites = append(in.p.Sites, Site{Kind: Arm, File: in.file, Line: in.line(u, end.Pos()) + 1, Count: k})
}

// mpiCall marks the current line before a CALL MPI_... (inside stmt,
// which may be a logical IF) so that the MPI call recorder can record it, and
// writes the counters before MPI_FINALIZE.
func (in *instrumenter) mpiCall(ctx *walkCtx, c *parser.CallStmt, stmt parser.Stmt) {
	if c.Name == nil || !strings.HasPrefix(strings.ToUpper(c.Name.Name), "MPI_") {
		return
	}
	u := ctx.unit
	name := strings.ToUpper(c.Name.Name)
	in.p.MPI = true
	line := in.line(u, stmt.Pos()) + 1
	ins := []string{fmt.Sprintf("pfls_line=%d", in.file*lineMarkerBase+line)}
	if name == "MPI_FINALIZE" {
		if ctx.main {
			ins = append(ins, fmt.Sprintf("call pfls_end(%d)", ctx.routineTimer))
		}
		if !in.f08 {
			ins = append(ins, "call pfl_mark()") // the timed span ends before the counters are written
		}
		ins = append(ins, "call pfls_fini()")
	}
	if !in.beforeJump(ctx, stmt.Pos(), ins...) {
		in.skip(u, stmt.Pos(), name+" shares a line: its calls are recorded on another line")
		return
	}
	if !wrapped[name] && !local[name] {
		in.skip(u, stmt.Pos(), name+" is not recorded (its time counts as computation)")
	}
	if wrapped[name] && in.f08 {
		in.skip(u, stmt.Pos(), name+" is not recorded: the file uses mpi_f08, whose bindings the recorder does not wrap")
	}
	if wrapped[name] && !in.f08 {
		// CALL MPI_SEND becomes CALL PFL_SEND, the library's wrapper:
		// the same length, so no line grows.
		at := u.Abs(c.Name.Pos())
		if at+4 <= len(in.f.Src) && strings.EqualFold(string(in.f.Src[at:at+4]), "MPI_") {
			pfl := "PFL_"
			if i, ok := statusArg[name]; ok && i < len(c.Args) && (isIdent(c.Args[i], "MPI_STATUS_IGNORE") || isIdent(c.Args[i], "MPI_STATUSES_IGNORE")) {
				// The wrapper reads the status for the bytes received:
				// PFI_ passes the library one of its own instead.
				pfl = "PFI_"
			}
			if in.f.Src[at] == 'm' {
				pfl = strings.ToLower(pfl)
			}
			r := replacement{at, at + 4, pfl}
			in.ed.replace = append(in.ed.replace, r)
			if name == "MPI_INIT" || name == "MPI_INIT_THREAD" || name == "MPI_FINALIZE" {
				in.ed.plain = append(in.ed.plain, r)
			}
		}
	}
	site := Site{Kind: MPICall, File: in.file, Line: line, Name: name}
	for _, i := range bufferArgs[name] {
		if i < len(c.Args) {
			if id := baseName(c.Args[i]); id != "" {
				site.Arrays = append(site.Arrays, id)
			}
		}
	}
	in.p.Sites = append(in.p.Sites, site)
}

// wrapped are the MPI routines the library (pmpi/pfls-pmpi.c) records;
// their calls are renamed PFL_... in the instrumented copy.
var wrapped = map[string]bool{
	"MPI_INIT": true, "MPI_INIT_THREAD": true, "MPI_FINALIZE": true,
	"MPI_SEND": true, "MPI_SSEND": true, "MPI_RECV": true, "MPI_SENDRECV": true, "MPI_SENDRECV_REPLACE": true,
	"MPI_ISEND": true, "MPI_IRECV": true, "MPI_WAIT": true, "MPI_WAITALL": true,
	"MPI_BCAST": true, "MPI_REDUCE": true, "MPI_ALLREDUCE": true, "MPI_BARRIER": true,
	"MPI_ALLTOALL": true, "MPI_ALLGATHER": true, "MPI_GATHER": true, "MPI_SCATTER": true,
}

// statusArg are the positions of the status arguments of the receives
// and waits the library records: it reads the count received there.
var statusArg = map[string]int{"MPI_RECV": 6, "MPI_SENDRECV": 11, "MPI_SENDRECV_REPLACE": 8, "MPI_WAIT": 1, "MPI_WAITALL": 2}

// isIdent says x is the name given (any case).
func isIdent(x parser.Expr, name string) bool {
	id, ok := x.(*parser.Ident)
	return ok && strings.EqualFold(id.Name, name)
}

// local are MPI routines that do not communicate and need no record.
var local = map[string]bool{
	"MPI_COMM_RANK": true, "MPI_COMM_SIZE": true, "MPI_TYPE_COMMIT": true, "MPI_TYPE_FREE": true,
	"MPI_TYPE_VECTOR": true, "MPI_TYPE_CONTIGUOUS": true, "MPI_CART_COORDS": true, "MPI_CART_SHIFT": true,
	"MPI_CART_RANK": true, "MPI_ABORT": true, "MPI_GET_PROCESSOR_NAME": true, "MPI_INITIALIZED": true,
	"MPI_FINALIZED": true, "MPI_COMM_FREE": true, "MPI_GET_COUNT": true, "MPI_OP_CREATE": true, "MPI_OP_FREE": true,
}

// bufferArgs are the positions of the data buffers of the MPI routines
// whose messages are charged to arrays.
var bufferArgs = map[string][]int{
	"MPI_SEND": {0}, "MPI_SSEND": {0}, "MPI_BSEND": {0}, "MPI_RSEND": {0}, "MPI_ISEND": {0},
	"MPI_RECV": {0}, "MPI_IRECV": {0}, "MPI_SENDRECV": {0, 5}, "MPI_SENDRECV_REPLACE": {0},
	"MPI_BCAST": {0}, "MPI_REDUCE": {0, 1}, "MPI_ALLREDUCE": {0, 1}, "MPI_ALLTOALL": {0, 3},
	"MPI_ALLGATHER": {0, 3}, "MPI_GATHER": {0, 3}, "MPI_SCATTER": {0, 3},
}

// baseName is the variable an actual argument designates: A for A,
// A(I,J) or A%B(1).
func baseName(x parser.Expr) string {
	for {
		switch e := x.(type) {
		case *parser.Ident:
			return strings.ToUpper(e.Name)
		case *parser.Call:
			x = e.Fun
		case *parser.Component:
			x = e.X
		default:
			return ""
		}
	}
}

// loop instruments a DO construct: entries and time around it, the
// iteration counter as the first statement of its body.
func (in *instrumenter) loop(ctx *walkCtx, d *parser.DoConstruct, enclosing *parser.DoConstruct) bool {
	u := ctx.unit
	site := Site{Kind: Loop, File: in.file, Line: in.line(u, d.Do.Pos()) + 1, EndLine: in.line(u, d.End()-1) + 1}
	site.Count = in.counter()
	// A loop left only through its end runs its trip count, which is
	// added up before it starts, so the body stays as it was; other
	// loops count in their body.
	trips := ""
	if !jumpsOut(d) {
		trips = in.tripCount(u, d)
	}
	if trips == "" && !in.after(u, d.Do.End(), in.count(site.Count)...) {
		in.skip(u, d.Do.Pos(), "DO shares its line with other statements: not counted")
		in.p.Counters--
		return in.stmts(ctx, d.Body, d)
	}
	site.Entries = in.counter()
	shared := enclosing != nil && d.Do.EndLabel != 0 && d.Do.EndLabel == enclosing.Do.EndLabel
	parallel, worksharing := false, false
	for _, dir := range d.Directives {
		if dir.Sentinel == "OMP" && strings.Contains(dir.Name, "PARALLEL") {
			parallel = true
		}
		if dir.Sentinel == "OMP" && (dir.Name == "DO" || strings.HasPrefix(dir.Name, "DO ")) {
			worksharing = true
		}
	}
	// Only the outermost loops of a routine are timed: a clock read on
	// every entry of an inner loop costs more than short loops run
	// (seed 002's statistics are about the outer, parallel loops).
	timed := enclosing == nil && !shared && !jumpsOut(d) && (!in.omp || parallel)
	pre := []string{incr(site.Entries)}
	if trips != "" {
		pre = append(pre, fmt.Sprintf("pfls_c(%d)=pfls_c(%d)+%s", site.Count, site.Count, trips))
	}
	if in.omp {
		// OpenMP threads may run this at the same time: inside a loop
		// they share, or in a PARALLEL region around the loop (the walk
		// does not see those regions).
		var atomic []string
		for _, p := range pre {
			atomic = append(atomic, "!$omp atomic", p)
		}
		pre = atomic
		if worksharing {
			// Before !$OMP DO every thread of the team arrives, but the
			// loop runs once among them: one thread counts it.
			pre = append(append([]string{"!$omp single"}, pre...), "!$omp end single nowait")
		}
	}
	if timed {
		site.Timer = in.timer()
		pre = append(pre, fmt.Sprintf("call pfls_go(%d)", site.Timer))
	}
	if !in.beforeJump(ctx, d.Pos(), pre...) {
		in.skip(u, d.Pos(), "DO is not the first statement of its line: entries not counted")
		site.Entries = 0
		if trips != "" {
			site.Count = 0
		}
		if timed {
			in.p.Timers--
			site.Timer, timed = 0, false
		}
	}
	if timed {
		if l, ok := in.ompEnd(u, d); ok {
			// After the loop's !$OMP END PARALLEL DO, which must follow it.
			in.ed.after[l] = append(in.ed.after[l], fmt.Sprintf("call pfls_end(%d)", site.Timer))
		} else if !in.after(u, d.End(), fmt.Sprintf("call pfls_end(%d)", site.Timer)) {
			in.skip(u, d.End(), "loop end shares a line: the loop's time is not measured")
			site.Timer = 0
			timed = false
		}
	}
	site.Callees = callees(d.Body)
	inner := in.stmts(ctx, d.Body, d)
	site.Leaf = timed && !inner
	if site.Leaf {
		site.Arrays = written(u, d.Body)
	}
	in.p.Sites = append(in.p.Sites, site)
	return timed || inner
}

// ompEnd finds the !$OMP END ... directive line right after a loop that
// carries an OpenMP directive (0-based), if there is one.
func (in *instrumenter) ompEnd(u *parser.Unit, d *parser.DoConstruct) (int, bool) {
	if !insideOMP(d) {
		return 0, false
	}
	l := in.f.Lines.Line(max(u.Abs(d.End())-1, 0)) + 1
	for ; l < in.f.Lines.LineCount(); l++ {
		text := strings.ToUpper(strings.TrimSpace(string(in.f.Src[in.f.Lines.LineStart(l):in.f.Lines.LineEnd(l)])))
		if text == "" {
			continue
		}
		if len(text) > 5 && strings.Contains("!C*", text[:1]) && strings.HasPrefix(text[1:], "$OMP") &&
			strings.HasPrefix(strings.TrimSpace(text[5:]), "END") {
			return l, true
		}
		break
	}
	return 0, false
}

// tripCount is Fortran's iteration count of a counted DO loop,
// MAX(INT((hi - lo + step) / step), 0), as Fortran text over the loop's
// own bound expressions, or "" when the loop is not a counted loop of an
// INTEGER variable or a bound could have side effects when evaluated
// again (a call of a function that is not intrinsic or PURE) or spans
// lines.
func (in *instrumenter) tripCount(u *parser.Unit, d *parser.DoConstruct) string {
	do := d.Do
	if do.Var == nil || do.Lo == nil || do.Hi == nil || do.While != nil || do.Concurrent != nil || u.Scope == nil {
		return ""
	}
	if t := u.Scope.TypeOf(do.Var.Name); !strings.HasPrefix(strings.ToUpper(t), "INTEGER") {
		return ""
	}
	text := func(x parser.Expr) string {
		if x == nil || !in.sideEffectFree(u, x) {
			return ""
		}
		t := string(in.f.Src[u.Abs(x.Pos()):u.Abs(x.End())])
		if strings.ContainsAny(t, "\n!&") {
			return ""
		}
		return strings.TrimSpace(t)
	}
	lo, hi := text(do.Lo), text(do.Hi)
	if lo == "" || hi == "" {
		return ""
	}
	if do.Step == nil {
		return fmt.Sprintf("max(0,int((%s)-(%s)+1,8))", hi, lo)
	}
	step := text(do.Step)
	if step == "" {
		return ""
	}
	return fmt.Sprintf("max(0,int(((%s)-(%s)+(%s))/(%s),8))", hi, lo, step, step)
}

// sideEffectFree says an expression may be evaluated once more: it calls
// no function other than intrinsics and the PURE ones of the program.
func (in *instrumenter) sideEffectFree(u *parser.Unit, x parser.Expr) bool {
	ok := true
	parser.Inspect(x, func(n parser.Node) bool {
		c, isCall := n.(*parser.Call)
		if !isCall {
			return ok
		}
		id, isIdent := c.Fun.(*parser.Ident)
		if !isIdent {
			return ok // a component's array element
		}
		name := strings.ToUpper(id.Name)
		if sym := u.Scope.Lookup(name); sym != nil && len(sym.Dims) > 0 {
			return ok
		}
		if !parser.IsIntrinsic(name) && !in.pure[name] {
			ok = false
		}
		return ok
	})
	return ok
}

// insideOMP says a loop nest has an OpenMP directive on the given loop
// (the enclosing one of some loop) — the walk keeps no further context:
// with OpenMP, loops inside parallel loops are counted atomically and not
// timed.
func insideOMP(d *parser.DoConstruct) bool {
	if d == nil {
		return false
	}
	for _, dir := range d.Directives {
		if dir.Sentinel == "OMP" {
			return true
		}
	}
	return false
}

// jumpsOut says whether control may leave the loop other than through
// its end: a GO TO (except to its own terminal label), an arithmetic IF,
// RETURN, STOP, a named EXIT or an EXIT of this loop, a CYCLE of another
// loop.
func jumpsOut(d *parser.DoConstruct) bool {
	out := false
	var walk func(list []parser.Stmt, depth int)
	var one func(s parser.Stmt, depth int)
	one = func(s parser.Stmt, depth int) {
		switch x := s.(type) {
		case *parser.GotoStmt:
			if x.Assigned || x.X != nil || len(x.Labels) != 1 || x.Labels[0].Value != fmt.Sprint(d.Do.EndLabel) || d.Do.EndLabel == 0 {
				out = true
			}
		case *parser.ArithIfStmt:
			out = true
		case *parser.SimpleStmt:
			switch x.Keyword {
			case "RETURN", "STOP", "ERRORSTOP":
				out = true
			case "EXIT":
				if len(x.Args) > 0 || depth == 0 {
					out = true
				}
			case "CYCLE":
				// CYCLE of an enclosing loop leaves this one early.
				if len(x.Args) > 0 && !(d.Do.Construct != nil && baseName(x.Args[0]) == strings.ToUpper(d.Do.Construct.Name)) {
					out = true
				}
			}
		case *parser.IfStmt:
			one(x.Then, depth)
		case *parser.DoConstruct:
			walk(x.Body, depth+1)
		case *parser.IfConstruct:
			for _, a := range x.Arms {
				walk(a.Body, depth)
			}
		case *parser.Block:
			walk(x.Body, depth)
			for _, a := range x.Arms {
				walk(a.Body, depth)
			}
		}
	}
	walk = func(list []parser.Stmt, depth int) {
		for _, s := range list {
			one(s, depth)
		}
	}
	walk(d.Body, 0)
	return out
}

// callees lists the subroutines CALLed in a statement list (sorted).
func callees(body []parser.Stmt) []string {
	set := map[string]bool{}
	for _, s := range body {
		parser.Inspect(s, func(n parser.Node) bool {
			if c, ok := n.(*parser.CallStmt); ok && c.Name != nil && c.Proc == nil {
				set[strings.ToUpper(c.Name.Name)] = true
			}
			_, isStmt := n.(parser.Stmt)
			return isStmt
		})
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// written lists the arrays a loop body assigns to (sorted).
func written(u *parser.Unit, body []parser.Stmt) []string {
	set := map[string]bool{}
	for _, s := range body {
		parser.Inspect(s, func(n parser.Node) bool {
			a, ok := n.(*parser.AssignStmt)
			if !ok {
				_, isStmt := n.(parser.Stmt)
				return isStmt
			}
			name := baseName(a.LHS)
			if name == "" || u.Scope == nil {
				return false
			}
			if sym := u.Scope.Lookup(name); sym != nil && len(sym.Dims) > 0 {
				set[name] = true
			}
			return false
		})
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// render writes the file with the replacements rep and, with inserts,
// the inserted lines: fixed form in columns 7 on (directives in column
// 1), free form indented by two.
func (in *instrumenter) render(rep []replacement, inserts bool) string {
	src := in.f.Src
	rep = append([]replacement(nil), rep...)
	sort.Slice(rep, func(i, j int) bool { return rep[i].from < rep[j].from })
	indent := "      "
	if in.f.Form == parser.Free {
		indent = "  "
	}
	put := func(b *strings.Builder, stmts []string) {
		for _, s := range stmts {
			switch {
			case strings.HasPrefix(s, "!$"):
				b.WriteString(s + "\n")
			case s[0] >= '0' && s[0] <= '9' && in.f.Form == parser.Fixed:
				label, rest, _ := strings.Cut(s, " ")
				fmt.Fprintf(b, "%-5s %s\n", label, rest)
			default:
				b.WriteString(wrap(indent+s, in.f.Form) + "\n")
			}
		}
	}
	var b strings.Builder
	before, after := in.ed.before, in.ed.after
	if !inserts {
		before, after = nil, nil
	}
	for i, n := 0, in.f.Lines.LineCount(); i < n; i++ {
		start, end := in.f.Lines.LineStart(i), len(src)
		if i+1 < n {
			end = in.f.Lines.LineStart(i + 1)
		}
		if start >= len(src) && len(before[i]) == 0 {
			continue
		}
		put(&b, before[i])
		at := start
		for len(rep) > 0 && rep[0].from < end {
			b.Write(src[at:rep[0].from])
			b.WriteString(rep[0].text)
			at = rep[0].to
			rep = rep[1:]
		}
		line := src[at:end]
		b.Write(line)
		if a := after[i]; len(a) > 0 {
			if len(line) == 0 || line[len(line)-1] != '\n' {
				b.WriteString("\n")
			}
			put(&b, a)
		}
	}
	return b.String()
}

// fortranString is s as a Fortran character constant, continued over
// lines of at most 60 characters of it.
func fortranString(s string) string {
	s = strings.ReplaceAll(s, "'", "''")
	var parts []string
	for len(s) > 60 {
		cut := 60
		if s[cut-1] == '\'' && s[cut] == '\'' {
			cut++ // keep a doubled quote together
		}
		parts = append(parts, "'"+s[:cut]+"'")
		s = s[cut:]
	}
	parts = append(parts, "'"+s+"'")
	return strings.Join(parts, " // &\n    ")
}

// wrap continues a generated statement over lines: fixed form keeps
// columns 7 to 72 (continuation mark in column 6), free form breaks past
// column 100 with "&" at both ends.
func wrap(line string, form parser.Form) string {
	width, chunk, next := 100, 100, "&\n  &"
	if form == parser.Fixed {
		width, chunk, next = 72, 66, "\n     &"
	}
	if len(line) <= width {
		return line
	}
	out := line[:width]
	for rest := line[width:]; rest != ""; {
		n := min(len(rest), chunk)
		out += next + rest[:n]
		rest = rest[n:]
	}
	return out
}

// Module is the generated Fortran module pfls_prof.f90: the counters and
// timers, and pfls_fini, which writes them to DIR/pfls-prof.RANK.cnt
// (rank from the MPI call recorder; 0 without MPI).
func (p *Program) Module(dir string) string {
	return module(p.Counters, p.Timers, p.mains, dir, !p.MPI)
}

// atExit makes pfls_start register pfls_fini with the C library's
// atexit, so that a program without MPI that ends in a STOP pfls could
// not instrument (IF (...) STOP) still writes its counters. MPI programs
// write them before MPI_FINALIZE (under SMPI the program's copies are
// gone by the time exit handlers run).
func module(counters, timers int, mains []int, dir string, atExit bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `! Generated by pfls profile: the counters and timers of the instrumented program.
module pfls_prof
  use iso_c_binding, only: c_int, c_funptr, c_funloc
  implicit none
  integer, parameter :: pfls_nc = %d, pfls_nt = %d
  integer(8) :: pfls_c(pfls_nc) = 0
  integer(8) :: pfls_t0(pfls_nt) = 0, pfls_tt(pfls_nt) = 0
  integer(c_int), bind(C, name="pfls_line") :: pfls_line = 0
  integer(c_int), bind(C, name="pfls_rank") :: pfls_rank = 0
  logical, save :: pfls_done = .false.
  character(len=*), parameter :: pfls_dir = %s
  logical, parameter :: pfls_atexit = %s
  interface
    function pfls_c_atexit(f) bind(C, name='atexit') result(r)
      import :: c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int) :: r
    end function pfls_c_atexit
  end interface
contains
  subroutine pfls_exit() bind(C)
    call pfls_fini()
  end subroutine pfls_exit
  subroutine pfls_start()
    integer(c_int) :: r
    if (pfls_atexit) r = pfls_c_atexit(c_funloc(pfls_exit))
  end subroutine pfls_start
  subroutine pfls_go(k)
    integer, intent(in) :: k
    call system_clock(pfls_t0(k))
  end subroutine pfls_go
  subroutine pfls_end(k)
    integer, intent(in) :: k
    integer(8) :: t
    if (pfls_t0(k) == 0) return
    call system_clock(t)
    pfls_tt(k) = pfls_tt(k) + (t - pfls_t0(k))
    pfls_t0(k) = 0
  end subroutine pfls_end
  subroutine pfls_fini()
    integer :: u, k
    integer(8) :: rate
    character(len=40) :: name
    if (pfls_done) return
    pfls_done = .true.
`, max(counters, 1), max(timers, 1), fortranString(dir), map[bool]string{true: ".true.", false: ".false."}[atExit])
	for _, m := range mains {
		fmt.Fprintf(&b, "    call pfls_end(%d)\n", m)
	}
	b.WriteString(`    call system_clock(count_rate=rate)
    write (name, '(a,i0,a)') '/pfls-prof.', pfls_rank, '.cnt'
    open (newunit=u, file=pfls_dir//trim(name), status='replace', action='write')
    write (u, '(a,i0)') 'rate ', rate
    do k = 1, pfls_nc
      if (pfls_c(k) /= 0) write (u, '(a,i0,1x,i0)') 'c ', k, pfls_c(k)
    end do
    do k = 1, pfls_nt
      if (pfls_tt(k) /= 0) write (u, '(a,i0,1x,i0)') 't ', k, pfls_tt(k)
    end do
    close (u)
  end subroutine pfls_fini
end module pfls_prof
`)
	return b.String()
}
