package hints

// TestMarkers runs the Fortran fixtures of testdata/markers through the
// hints producers (no JSON-RPC in between) and checks the expectations
// written in the fixtures' comments. It calls only the exported API, as
// the server does (it sits in package hints because imports_test.go lets
// hints import no package of its own).
//
// # Where a marker applies
//
// A marker is written in a comment: "!@verb(args)" anywhere a comment may
// stand, and in fixed form also "C@verb(args)" or "*@verb(args)" in
// column 1. A line may hold several markers. A marker on a line of code
// (a statement or a directive line, with the marker in its trailing
// comment) applies to that line. A marker on a line that is only a
// comment applies to the next line of code; blank and comment lines in
// between are skipped. A line marker that no line of code follows is an
// error. File-level markers (ignore, procs, noise, profile, maxlength,
// allhints) apply to the whole fixture wherever they are written.
//
// # Arguments
//
// Arguments are separated by commas; each is a word (letters, digits and
// _.+-:), a "string", or key=value (value a word or a string). In strings
// \" stands for a quote and every other byte for itself, so regexps are
// written as they are: "G\(BLOCK,BLOCK\)". Regexps match anywhere in
// the text (anchor them with ^ and $).
//
// # Line markers
//
//	!@diag(code, "regexp", severity)  a diagnostic with that code whose message matches,
//	                                 starting on the line; the regexp and the severity
//	                                 (error, warning, information, hint) may be left out
//	!@nodiag(code)                   no diagnostic with that code on the line
//	!@hint("regexp", tooltip="re")   an inlay hint on the line whose label (and tooltip) match
//	!@nohint                         no inlay hint on the line
//	!@action("title re", golden="name", kind="quickfix", preferred=true, detail="re")
//	                                 a code action offered on the line (quick fixes and
//	                                 loop actions, as the server asks for them); golden=
//	                                 applies its edits and compares the file with
//	                                 testdata/<dir>/name.golden (-update rewrites it)
//	!@noaction("title re")           no such code action on the line
//	!@estimate(faster "D(:,BLOCK)")  the "Estimate this loop" report of the loop on the
//	!@estimate(current "D(:,BLOCK)") line: the fastest candidate, or the current
//	!@estimate(report "regexp")      distribution (names compared exactly); the report
//	!@estimate(noreport "regexp")    matches, or does not match, the regexp
//	!@estimate(faster "D(:,CYCLIC)", over="D(:,BLOCK)", by="1.2-2")
//	                                 the fastest candidate, and the time of another
//	                                 candidate divided by its time lies in [1.2, 2]
//	!@estimate(beats "D(BLOCK,BLOCK)", over="D(CYCLIC,CYCLIC)", by="2-100")
//	                                 one candidate is faster than another (by= optional);
//	                                 a distribution written without a name, "(BLOCK,BLOCK)",
//	                                 matches it on any template (HPF names are pfls's choice)
//	!@estimate(scales "8-16")        the loop's time on 1 processor divided by its time on
//	                                 the fixture's processors lies in [8, 16]
//	!@noestimate                     the report says no DO loop starts on the line
//	!@hover("regexp"), !@nohover     the statement hover at the line's first statement
//	                                 character (after any label) matches, or is empty
//
// # Expectations pfls does not meet yet
//
// "!@todo verb(args)" states a correct expectation that pfls does not meet
// today; why="reason" may be added to its arguments. The test passes
// while the expectation fails and fails once it holds, so that whoever
// fixes pfls removes the todo. A diagnostic that pfls gives wrongly is
// listed with "!@todo nodiag(code)": it is then not unexpected; one given
// with the wrong message is covered by "!@todo diag(code, "right message")"
// on its line; an action offered wrongly is listed with "!@todo
// noaction(re)" and is exempt from the rules for actions. The golden file
// of a "!@todo action(..., golden=name)" holds the file as pfls should
// edit it, written by hand (-update leaves it alone). A fixture
// can so hold right and wrong expectations side by side (the programs of
// testdata/programs do). With -v the test logs each todo's current state.
//
// The editor features at a name (definition, references, hover, rename,
// completion, signature help, outline) have their own markers, described
// in marker_position_test.go.
//
// # File-level markers
//
//	!@ignore(code, ...)     diagnostics with these codes need no marker
//	!@procs(N)              processors for estimates and capability diagnostics (default 16)
//	!@noise(x)              the machine model's run-to-run noise (a fraction)
//	!@profile(key=value...) the capability profile: Rice Fortran 77D with these JSON fields changed
//	!@maxlength(N)          inlay labels cut to N characters (default 40)
//	!@allhints              every inlay hint must be expected by a !@hint
//
// # What is checked besides the markers
//
// Every diagnostic (parser diagnostics and capability diagnostics) must be
// expected by a !@diag, unless its code is ignored; so must every quick
// fix, by an !@action on its diagnostic's line. Inlay hints sit at the end
// of their line, sorted, one per line; asking for any one line, or for one
// kind, gives the same hints as the whole file filtered. On lines with
// !@action markers: at most one action is preferred, every edit leaves a
// file that parses when the fixture did, a "Distribute D(...)" action
// leaves a file whose loop report names D(...) as the current
// distribution, and a quick fix removes a capability diagnostic.
//
// Errors in the markers themselves fail the test with file:line.
//
// Fixtures in testdata/markers-known-wrong state what an expert expects
// where pfls is wrong today; they run only with -known-wrong (and fail).

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

var (
	update     = flag.Bool("update", false, "rewrite the golden files of the marker and rename tests")
	knownWrong = flag.Bool("known-wrong", false, "run the fixtures of testdata/markers-known-wrong (cases pfls gets wrong today)")
)

func TestMarkers(t *testing.T) {
	runMarkerDir(t, filepath.Join("testdata", "markers"))
}

func TestMarkersKnownWrong(t *testing.T) {
	if !*knownWrong {
		t.Skip("known-wrong fixtures run with -known-wrong")
	}
	runMarkerDir(t, filepath.Join("testdata", "markers-known-wrong"))
}

// TestMarkerPrograms runs the realistic-program suite of
// testdata/programs: programs written as users write them, with an
// expert's expectations; those pfls does not meet yet are !@todo markers
// (see testdata/programs/README.md).
func TestMarkerPrograms(t *testing.T) {
	dir := filepath.Join("testdata", "programs")
	counts := runMarkerDir(t, dir)
	if len(counts) == 0 {
		return // -run chose other fixtures
	}
	// README.md's table has a row per program with its counts.
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(string(readme), "\n") {
		if cells := strings.Split(l, "|"); len(cells) > 6 {
			rows[strings.TrimSpace(cells[1])] = cells
		}
	}
	// The last row totals the others.
	if cells, ok := rows[fmt.Sprintf("**%d programs**", len(counts))]; !ok {
		t.Errorf("README.md has no row **%d programs**", len(counts))
	} else {
		all, todo := 0, 0
		for _, c := range counts {
			all, todo = all+c.all, todo+c.todo
		}
		if got, want := strings.TrimSpace(cells[4])+"/"+strings.TrimSpace(cells[5]), fmt.Sprintf("**%d**/**%d**", all-todo, todo); got != want {
			t.Errorf("README.md's total row says %s met/todo, the fixtures have %s", got, want)
		}
	}
	for name, c := range counts {
		cells, ok := rows[name]
		if !ok {
			t.Errorf("%s: no row in README.md", name)
			continue
		}
		met, todo := strings.TrimSpace(cells[4]), strings.TrimSpace(cells[5])
		if met != strconv.Itoa(c.all-c.todo) || todo != strconv.Itoa(c.todo) {
			t.Errorf("%s: README.md says %s met and %s todo, the fixture has %d and %d", name, met, todo, c.all-c.todo, c.todo)
		}
	}
}

// fixtureExts are the extensions of Fortran fixtures.
var fixtureExts = map[string]bool{".f": true, ".f90": true, ".hpf": true, ".fcm": true, ".F": true}

// runMarkerDir runs the fixtures of dir and returns their expectations
// counted, when every fixture ran.
func runMarkerDir(t *testing.T, dir string) map[string]markerCounts {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n, ran := 0, 0
	used := map[string]bool{}
	var count markerCounts
	byName := map[string]markerCounts{}
	for _, e := range ents {
		if e.IsDir() || !fixtureExts[filepath.Ext(e.Name())] {
			continue
		}
		n++
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			ran++
			gs, c := runFixture(t, dir, name)
			for g := range gs {
				used[g+".golden"] = true
			}
			count.all += c.all
			count.todo += c.todo
			byName[name] = c
		})
	}
	t.Logf("%s: %d fixtures, %d expectations, %d of them todo", dir, ran, count.all, count.todo)
	if n == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	for _, e := range ents {
		if ran < n {
			break // -run chose some fixtures only
		}
		if strings.HasSuffix(e.Name(), ".golden") && !used[e.Name()] {
			t.Errorf("%s: no marker uses this golden file", filepath.Join(dir, e.Name()))
		}
	}
	if ran < n {
		return nil
	}
	return byName
}

// fixture is one Fortran file under test with its markers.
type fixture struct {
	t       testing.TB
	dir     string
	name    string
	src     []byte
	f       *parser.File
	eng     *complexity.Engine
	exps    []*expect
	ignore  map[string]bool
	opt     EstimateOptions
	prof    *capability.Profile
	inlay   InlayOptions
	all     bool // every hint expected
	goldens map[string]bool
}

// expect is a checked marker: its arguments validated and compiled.
type expect struct {
	m          *marker
	code       string         // diag, nodiag
	re         *regexp.Regexp // diag, hint, action, noaction, estimate report/noreport, hover
	tooltip    *regexp.Regexp // hint
	detail     *regexp.Regexp // action
	severity   string         // diag
	golden     string         // action
	actionKind *string        // action kind=
	preferred  *bool          // action
	mode       string         // estimate: faster, current, report, noreport
	dist       string         // estimate faster/current
	name       string         // the name the position features start at: NAME or NAME#k
	labels     []string       // loc (its label), def, refs: location labels
	newName    string         // rename
	errRe      *regexp.Regexp // rename error=
	itemKind   string         // complete kind=, symbol kind
	active     int            // signature active=
	over       string         // estimate faster: the distribution it beats
	byLo, byHi float64        // estimate over=: the range of time(over)/time(dist); scales: of the speed-up
	why        string         // todo: why pfls does not meet it yet
	missed     bool           // todo: the check failed, as it should until pfls is fixed
}

func (fx *fixture) errorf(line int, format string, args ...any) {
	fx.t.Helper()
	fx.t.Errorf("%s:%d: %s", filepath.Join(fx.dir, fx.name), line+1, fmt.Sprintf(format, args...))
}

// miss reports that expectation e does not hold: a failure, or for a
// !@todo marker the state it is expected to be in (logged with -v).
func (fx *fixture) miss(e *expect, line int, format string, args ...any) {
	fx.t.Helper()
	if !e.todo() {
		fx.errorf(line, format, args...)
		return
	}
	e.missed = true
	fx.t.Logf("%s:%d: todo (%s): %s", filepath.Join(fx.dir, fx.name), line+1, e.why, fmt.Sprintf(format, args...))
}

func (e *expect) todo() bool { return e.m.todo }

// checkTodos fails the !@todo expectations that hold: pfls has been
// fixed, and the marker should lose its todo.
func (fx *fixture) checkTodos() {
	for _, e := range fx.exps {
		if e.todo() && e.golden != "" {
			if _, err := os.Stat(filepath.Join(fx.dir, e.golden+".golden")); err != nil {
				fx.errorf(e.m.line, "%s: the golden file of a todo is written by hand: %v", e.m.text, err)
				continue
			}
		}
		if e.todo() && !e.missed {
			fx.errorf(e.m.line, "%s holds now: remove the todo", e.m.text)
		}
	}
}

// markerCounts are the expectations of the fixtures run, for the log.
type markerCounts struct{ all, todo int }

// runFixture checks one fixture and returns the golden files it names
// and its expectations counted.
func runFixture(t testing.TB, dir, name string) (goldens map[string]bool, count markerCounts) {
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{t: t, dir: dir, name: name, src: src, ignore: map[string]bool{},
		goldens: map[string]bool{}, inlay: DefaultInlayOptions()}
	defer func() { // also after t.Fatal
		goldens = fx.goldens
		for _, e := range fx.exps {
			if e.m.verb != "loc" {
				count.all++
				if e.todo() {
					count.todo++
				}
			}
		}
	}()
	fx.f = parser.Parse(name, src, nil)
	fx.eng = complexity.NewEngine(complexity.Options{})
	ms, errs := parseMarkers(string(src), fx.f.Form == parser.Fixed)
	for _, e := range errs {
		t.Errorf("%s:%s", filepath.Join(dir, name), e)
	}
	settings := EstimateSettings{Procs: 16}
	noise := -1.0
	var profile []string
	for _, m := range ms {
		e, err := fx.compile(m)
		if err != nil {
			fx.errorf(m.line, "%s: %v", m.text, err)
			continue
		}
		switch m.verb {
		case "ignore":
			for _, a := range m.args {
				fx.ignore[a[0].val] = true
			}
		case "procs":
			settings.Procs, _ = strconv.Atoi(m.args[0][0].val)
		case "noise":
			noise, _ = strconv.ParseFloat(m.args[0][0].val, 64)
		case "maxlength":
			fx.inlay.MaxLength, _ = strconv.Atoi(m.args[0][0].val)
		case "allhints":
			fx.all = true
		case "profile":
			for _, a := range m.args {
				profile = append(profile, fmt.Sprintf("%q: %s", a[0].key, jsonValue(a[0].val)))
			}
		default:
			fx.exps = append(fx.exps, e)
		}
	}
	if t.Failed() {
		return fx.goldens, count // the markers are wrong: checking them would only add noise
	}
	fx.opt = settings.Options(nil)
	if noise >= 0 {
		m := *fx.opt.Machine
		m.Noise = noise
		fx.opt.Machine = &m
	}
	if len(profile) > 0 {
		p, err := capability.LoadProfile(strings.NewReader("{" + strings.Join(profile, ", ") + "}"))
		if err != nil {
			t.Fatalf("%s: !@profile: %v", name, err)
		}
		fx.prof = p
	}
	fx.checkDiagnostics()
	fx.checkHints()
	fx.checkHover()
	fx.checkActions()
	fx.checkEstimates()
	fx.checkPositions()
	fx.checkTodos()
	return fx.goldens, count
}

// jsonValue writes a marker value as JSON: true, false and numbers as
// they are, anything else as a string.
func jsonValue(v string) string {
	if v == "true" || v == "false" {
		return v
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return v
	}
	return strconv.Quote(v)
}

// compile validates a marker's arguments.
func (fx *fixture) compile(m *marker) (*expect, error) {
	e := &expect{m: m}
	var pos []markerArg
	opts := map[string]string{}
	for _, a := range m.args {
		if len(a) == 1 && a[0].kind == 'o' {
			if _, dup := opts[a[0].key]; dup {
				return nil, fmt.Errorf("%s= given twice", a[0].key)
			}
			opts[a[0].key] = a[0].val
			continue
		}
		for _, tok := range a {
			if tok.kind == 'o' {
				return nil, fmt.Errorf("option %s= must be an argument of its own", tok.key)
			}
		}
		pos = append(pos, a)
	}
	if v, ok := opts["why"]; ok {
		if !m.todo {
			return nil, fmt.Errorf("why= belongs to a !@todo marker")
		}
		e.why = v
		delete(opts, "why")
	}
	allow := func(min, max int, keys ...string) error {
		if len(pos) < min || len(pos) > max {
			if min == max {
				return fmt.Errorf("%s takes %d argument(s), not %d", m.verb, min, len(pos))
			}
			return fmt.Errorf("%s takes %d to %d arguments, not %d", m.verb, min, max, len(pos))
		}
	next:
		for k := range opts {
			for _, ok := range keys {
				if k == ok {
					continue next
				}
			}
			return fmt.Errorf("%s has no option %s=", m.verb, k)
		}
		return nil
	}
	word := func(i int) (string, error) {
		if len(pos[i]) != 1 || pos[i][0].kind != 'w' {
			return "", fmt.Errorf("argument %d of %s must be a word", i+1, m.verb)
		}
		return pos[i][0].val, nil
	}
	re := func(s string) (*regexp.Regexp, error) {
		r, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("bad regexp: %v", err)
		}
		return r, nil
	}
	str := func(i int) (*regexp.Regexp, error) {
		if len(pos[i]) != 1 || pos[i][0].kind != 's' {
			return nil, fmt.Errorf("argument %d of %s must be a \"string\"", i+1, m.verb)
		}
		return re(pos[i][0].val)
	}
	var err error
	switch m.verb {
	case "diag":
		if err = allow(1, 3); err != nil {
			return nil, err
		}
		if e.code, err = word(0); err != nil {
			return nil, err
		}
		if len(pos) > 1 {
			if e.re, err = str(1); err != nil {
				return nil, err
			}
		}
		if len(pos) > 2 {
			if e.severity, err = word(2); err != nil {
				return nil, err
			}
			switch e.severity {
			case "error", "warning", "information", "hint":
			default:
				return nil, fmt.Errorf("unknown severity %q", e.severity)
			}
		}
	case "nodiag":
		if err = allow(1, 1); err != nil {
			return nil, err
		}
		e.code, err = word(0)
	case "hint", "action", "noaction", "hover":
		keys := map[string][]string{"hint": {"tooltip"}, "action": {"golden", "kind", "preferred", "detail"}}[m.verb]
		if err = allow(1, 1, keys...); err != nil {
			return nil, err
		}
		if e.re, err = str(0); err != nil {
			return nil, err
		}
		if v, ok := opts["tooltip"]; ok {
			if e.tooltip, err = re(v); err != nil {
				return nil, err
			}
		}
		if v, ok := opts["golden"]; ok {
			if v == "" || strings.ContainsAny(v, `/\`) {
				return nil, fmt.Errorf("golden=%q: want a plain file name", v)
			}
			if fx.goldens[v] {
				return nil, fmt.Errorf("golden=%q is used twice", v)
			}
			fx.goldens[v] = true
			e.golden = v
		}
		if v, ok := opts["detail"]; ok {
			if e.detail, err = re(v); err != nil {
				return nil, err
			}
		}
		if v, ok := opts["kind"]; ok {
			e.actionKind = &v
		}
		if v, ok := opts["preferred"]; ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, fmt.Errorf("preferred=%s: want true or false", v)
			}
			e.preferred = &b
		}
	case "estimate":
		if err = allow(1, 1, "over", "by"); err != nil {
			return nil, err
		}
		a := pos[0]
		if len(a) != 2 || a[0].kind != 'w' || a[1].kind != 's' {
			return nil, fmt.Errorf(`estimate takes one of faster "D", current "D", beats "D", report "re", noreport "re"`)
		}
		e.mode = a[0].val
		switch e.mode {
		case "faster", "current", "beats":
			e.dist = a[1].val
			over, hasOver := opts["over"]
			by, hasBy := opts["by"]
			switch {
			case e.mode == "beats" && !hasOver:
				return nil, fmt.Errorf(`estimate: beats "D" needs over="D2"`)
			case e.mode == "faster" && hasOver != hasBy, e.mode == "current" && (hasOver || hasBy):
				return nil, fmt.Errorf(`estimate: over="D" and by="lo-hi" go together, with faster`)
			}
			e.over = over
			e.byLo, e.byHi = 1, math.Inf(1)
			if hasBy {
				lo, hi, ok := strings.Cut(by, "-")
				var err1, err2 error
				e.byLo, err1 = strconv.ParseFloat(lo, 64)
				e.byHi, err2 = strconv.ParseFloat(hi, 64)
				if !ok || err1 != nil || err2 != nil || e.byLo < 1 || e.byHi < e.byLo {
					return nil, fmt.Errorf(`estimate: by=%q: want a ratio range "lo-hi" with 1 ≤ lo ≤ hi`, by)
				}
			}
		case "report", "noreport":
			e.re, err = re(a[1].val)
		case "scales":
			lo, hi, ok := strings.Cut(a[1].val, "-")
			var err1, err2 error
			e.byLo, err1 = strconv.ParseFloat(lo, 64)
			e.byHi, err2 = strconv.ParseFloat(hi, 64)
			if !ok || err1 != nil || err2 != nil || e.byLo <= 0 || e.byHi < e.byLo {
				return nil, fmt.Errorf(`estimate: scales %q: want a speed-up range "lo-hi"`, a[1].val)
			}
		default:
			return nil, fmt.Errorf("estimate: unknown %q (want faster, current, beats, report, noreport or scales)", e.mode)
		}
	case "loc", "def", "refs", "hovername", "rename", "complete", "signature", "symbol", "wsymbol":
		if err = fx.compilePosition(e, pos, opts); err != nil {
			return nil, err
		}
	case "nohint", "noestimate", "nohover", "allhints":
		err = allow(0, 0)
	case "ignore":
		if err = allow(1, 99); err != nil {
			return nil, err
		}
		for i := range pos {
			if _, err = word(i); err != nil {
				return nil, err
			}
		}
	case "procs", "maxlength":
		if err = allow(1, 1); err != nil {
			return nil, err
		}
		var w string
		if w, err = word(0); err != nil {
			return nil, err
		}
		if n, err := strconv.Atoi(w); err != nil || n < 1 {
			return nil, fmt.Errorf("%s(%s): want a positive integer", m.verb, w)
		}
	case "noise":
		if err = allow(1, 1); err != nil {
			return nil, err
		}
		var w string
		if w, err = word(0); err != nil {
			return nil, err
		}
		if x, err := strconv.ParseFloat(w, 64); err != nil || x < 0 {
			return nil, fmt.Errorf("noise(%s): want a fraction ≥ 0", w)
		}
	case "profile":
		if len(pos) > 0 || len(opts) == 0 {
			return nil, fmt.Errorf("profile takes key=value options only")
		}
	default:
		return nil, fmt.Errorf("unknown verb %q", m.verb)
	}
	return e, err
}

// on returns the expectations with one of the verbs, by target line.
func (fx *fixture) on(verbs ...string) map[int][]*expect {
	out := map[int][]*expect{}
	for _, e := range fx.exps {
		for _, v := range verbs {
			if e.m.verb == v {
				out[e.m.target] = append(out[e.m.target], e)
			}
		}
	}
	return out
}

func (fx *fixture) line(off int) int { return fx.f.Lines.Line(off) }

func (fx *fixture) checkDiagnostics() {
	ds := append(Diagnostics(fx.f), CapabilityDiagnostics(fx.f, fx.opt, fx.prof)...)
	byLine := map[int][]*Diagnostic{}
	for i := range ds {
		d := &ds[i]
		byLine[fx.line(d.Start)] = append(byLine[fx.line(d.Start)], d)
	}
	used := map[*Diagnostic]bool{}
	exps := fx.on("diag", "nodiag")
	for line, es := range exps {
		// The todo markers last: a met expectation takes its diagnostic
		// first.
		sort.SliceStable(es, func(i, j int) bool { return !es[i].todo() && es[j].todo() })
		for _, e := range es {
			if e.m.verb == "nodiag" {
				for _, d := range byLine[line] {
					if d.Code == e.code {
						fx.miss(e, line, "%s, but there is: %s", e.m.text, d.Message)
						if e.todo() {
							used[d] = true // listed as wrong: not unexpected
						}
					}
				}
				continue
			}
			var found bool
			for _, d := range byLine[line] {
				if !used[d] && d.Code == e.code && (e.re == nil || e.re.MatchString(d.Message)) &&
					(e.severity == "" || e.severity == d.Severity.String()) {
					used[d], found = true, true
					break
				}
			}
			if !found {
				fx.miss(e, line, "%s not found; the line has:%s", e.m.text, listDiags(byLine[line]))
				if e.todo() {
					// A diagnostic of the code with the wrong message or
					// severity is the one the todo is about.
					for _, d := range byLine[line] {
						if !used[d] && d.Code == e.code {
							used[d] = true
							break
						}
					}
				}
			}
		}
	}
	for i := range ds {
		if d := &ds[i]; !used[d] && !fx.ignore[d.Code] {
			fx.errorf(fx.line(d.Start), "unexpected %s %s: %s", d.Severity, d.Code, d.Message)
		}
	}
}

func listDiags(ds []*Diagnostic) string {
	if len(ds) == 0 {
		return " no diagnostic"
	}
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "\n\t%s %s: %s", d.Severity, d.Code, d.Message)
	}
	return b.String()
}

// lineStart and lineLimit bound line k: [start, limit) holds its offsets
// including the end of the line.
func (fx *fixture) lineStart(k int) int { return fx.f.Lines.LineStart(k) }
func (fx *fixture) lineLimit(k int) int {
	if k+1 < fx.f.Lines.LineCount() {
		return fx.f.Lines.LineStart(k + 1)
	}
	return len(fx.src) + 1
}

func (fx *fixture) checkHints() {
	f := fx.f
	hs := InlayHints(f, fx.eng, 0, len(f.Src)+1, fx.inlay)
	for i, h := range hs {
		l := fx.line(h.Offset)
		if h.Offset != f.Lines.LineEnd(l) {
			fx.errorf(l, "hint %q is not at the end of its line", h.Label)
		}
		if i > 0 && hs[i-1].Offset >= h.Offset {
			fx.errorf(l, "hints not sorted or two on one line: %q, %q", hs[i-1].Label, h.Label)
		}
		if h.Kind != "loop" && h.Kind != "unit" {
			fx.errorf(l, "hint %q of kind %q", h.Label, h.Kind)
		}
	}
	// A range or a kind gives the whole file's hints filtered.
	filter := func(keep func(InlayHint) bool) []InlayHint {
		var out []InlayHint
		for _, h := range hs {
			if keep(h) {
				out = append(out, h)
			}
		}
		return out
	}
	same := func(a, b []InlayHint) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
	for k := 0; k < f.Lines.LineCount(); k++ {
		from, to := fx.lineStart(k), fx.lineLimit(k)
		want := filter(func(h InlayHint) bool { return h.Offset >= from && h.Offset < to })
		if got := InlayHints(f, fx.eng, from, to, fx.inlay); !same(got, want) {
			fx.errorf(k, "hints asked for this line: %v, the whole file's: %v", got, want)
		}
	}
	for _, kind := range []string{"loop", "unit"} {
		o := fx.inlay
		o.Loops, o.Units = kind == "loop", kind == "unit"
		want := filter(func(h InlayHint) bool { return h.Kind == kind })
		if got := InlayHints(f, fx.eng, 0, len(f.Src)+1, o); !same(got, want) {
			fx.t.Errorf("%s: %s hints only: %v, want %v", fx.name, kind, got, want)
		}
	}
	byLine := map[int][]int{}
	for i, h := range hs {
		byLine[fx.line(h.Offset)] = append(byLine[fx.line(h.Offset)], i)
	}
	used := map[int]bool{}
	for line, es := range fx.on("hint", "nohint") {
		for _, e := range es {
			if e.m.verb == "nohint" {
				for _, i := range byLine[line] {
					fx.miss(e, line, "!@nohint, but there is the hint %q", hs[i].Label)
				}
				continue
			}
			found := false
			for _, i := range byLine[line] {
				if !used[i] && e.re.MatchString(hs[i].Label) && (e.tooltip == nil || e.tooltip.MatchString(hs[i].Tooltip)) {
					used[i], found = true, true
					break
				}
			}
			if !found {
				var have []string
				for _, i := range byLine[line] {
					have = append(have, fmt.Sprintf("%q (tooltip %q)", hs[i].Label, hs[i].Tooltip))
				}
				fx.miss(e, line, "%s not found; the line has: %s", e.m.text, strings.Join(have, ", "))
			}
		}
	}
	if fx.all {
		for i, h := range hs {
			if !used[i] {
				fx.errorf(fx.line(h.Offset), "unexpected hint %q (the fixture says !@allhints)", h.Label)
			}
		}
	}
}

// stmtStart is the offset of the first statement character of line k:
// after blanks and a label.
func (fx *fixture) stmtStart(k int) int {
	i, end := fx.lineStart(k), fx.f.Lines.LineEnd(k)
	skip := func(set string) {
		for i < end && strings.IndexByte(set, fx.src[i]) >= 0 {
			i++
		}
	}
	skip(" \t")
	skip("0123456789")
	skip(" \t")
	return i
}

func (fx *fixture) checkHover() {
	for line, es := range fx.on("hover", "nohover") {
		h := StatementHover(fx.f, fx.eng, fx.stmtStart(line))
		for _, e := range es {
			switch {
			case e.m.verb == "nohover" && h != "":
				fx.miss(e, line, "!@nohover, but the hover is %q", h)
			case e.m.verb == "hover" && !e.re.MatchString(h):
				fx.miss(e, line, "%s: the hover is %q", e.m.text, h)
			}
		}
	}
}

// actionsAt are the code actions of line k, asked for as the server does.
func (fx *fixture) actionsAt(f *parser.File, k int) []CodeAction {
	from, to := f.Lines.LineStart(k), f.Lines.LineEnd(k)
	return append(QuickFixes(f, from, to, fx.opt, fx.prof), LoopActions(f, from, fx.opt)...)
}

func applyMarkerEdits(src []byte, edits []TextEdit) []byte {
	es := append([]TextEdit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start > es[j].Start })
	out := append([]byte(nil), src...)
	for _, e := range es {
		out = append(out[:e.Start], append([]byte(e.Text), out[e.End:]...)...)
	}
	return out
}

// shifted maps an offset of the old text through the edits.
func shifted(off int, edits []TextEdit) int {
	d := 0
	for _, e := range edits {
		if e.End <= off {
			d += len(e.Text) - (e.End - e.Start)
		}
	}
	return off + d
}

var distributeTitle = regexp.MustCompile(`^Distribute (.*?): `)

func (fx *fixture) checkActions() {
	f := fx.f
	caps := CapabilityDiagnostics(f, fx.opt, fx.prof)
	lines := map[int]bool{}
	for _, d := range caps {
		lines[fx.line(d.Start)] = true
	}
	exps := fx.on("action", "noaction")
	for l := range exps {
		lines[l] = true
	}
	fixes := 0
	var sorted []int
	for l := range lines {
		sorted = append(sorted, l)
	}
	sort.Ints(sorted)
	for _, line := range sorted {
		acts := fx.actionsAt(f, line)
		used := map[int]bool{}
		wrong := map[int]bool{} // listed by a !@todo noaction
		for _, e := range exps[line] {
			found := -1
			for i, a := range acts {
				if !used[i] && e.re.MatchString(a.Title) {
					found = i
					break
				}
			}
			if e.m.verb == "noaction" {
				if found >= 0 {
					fx.miss(e, line, "%s, but there is %q", e.m.text, acts[found].Title)
				}
				for i, a := range acts {
					if e.todo() && e.re.MatchString(a.Title) {
						used[i], wrong[i] = true, true // listed as wrong: not unexpected
					}
				}
				continue
			}
			if found < 0 {
				var have []string
				for _, a := range acts {
					have = append(have, strconv.Quote(a.Title))
				}
				fx.miss(e, line, "%s not found; the line has: %s", e.m.text, strings.Join(have, ", "))
				continue
			}
			used[found] = true
			a := acts[found]
			if e.actionKind != nil && a.Kind != *e.actionKind {
				fx.miss(e, line, "%s: kind %q", e.m.text, a.Kind)
			}
			if e.detail != nil && !e.detail.MatchString(a.Detail) {
				fx.miss(e, line, "%s: detail %q", e.m.text, a.Detail)
			}
			if e.preferred != nil && a.Preferred != *e.preferred {
				fx.miss(e, line, "%s: preferred is %v", e.m.text, a.Preferred)
			}
			if e.golden != "" {
				fx.golden(line, e, applyMarkerEdits(fx.src, a.Edits))
			}
		}
		preferred := 0
		for i, a := range acts {
			if a.Kind == "quickfix" {
				fixes++
				if !used[i] {
					fx.errorf(line, "unexpected quick fix %q", a.Title)
				}
			}
			if wrong[i] {
				continue // an action that should not be offered at all
			}
			if a.Preferred {
				preferred++
			}
			fx.checkAction(line, a, caps)
		}
		if preferred > 1 {
			fx.errorf(line, "%d preferred actions", preferred)
		}
	}
	if all := QuickFixes(f, 0, len(f.Src), fx.opt, fx.prof); len(all) != fixes {
		fx.t.Errorf("%s: %d quick fixes in the whole file, %d on the lines of capability diagnostics", fx.name, len(all), fixes)
	}
}

// checkAction checks what every action on a line must satisfy.
func (fx *fixture) checkAction(line int, a CodeAction, caps []Diagnostic) {
	if a.Command != "" {
		if a.Command != EstimateCommand || len(a.Args) != 1 || a.Args[0] != line+1 {
			fx.errorf(line, "action %q runs %s %v", a.Title, a.Command, a.Args)
		}
	}
	if len(a.Edits) == 0 {
		if a.Command == "" {
			fx.errorf(line, "action %q neither edits nor runs a command", a.Title)
		}
		return
	}
	nsrc := applyMarkerEdits(fx.src, a.Edits)
	g := parser.Parse(fx.name, nsrc, nil)
	if len(fx.f.Errors()) == 0 && len(g.Errors()) > 0 {
		fx.errorf(line, "action %q leaves errors: %v", a.Title, g.Errors())
		return
	}
	if m := distributeTitle.FindStringSubmatch(a.Title); m != nil {
		nline := g.Lines.Line(shifted(fx.lineStart(line), a.Edits))
		text, err := EstimateLoopText(g, nline+1, fx.opt)
		if cur, _ := reportDists(text); err != nil || cur != m[1] {
			fx.errorf(line, "after %q, the loop's distribution is %q (%v)", a.Title, cur, err)
		}
	}
	if a.Kind == "quickfix" {
		// The fix removes a diagnostic of its line (others may appear
		// elsewhere: aligned arrays can reveal a shift).
		codes := func(f *parser.File, k int, ds []Diagnostic) map[string]int {
			out := map[string]int{}
			for _, d := range ds {
				if f.Lines.Line(d.Start) == k {
					out[d.Code]++
				}
			}
			return out
		}
		before := codes(fx.f, line, caps)
		after := codes(g, g.Lines.Line(shifted(fx.lineStart(line), a.Edits)), CapabilityDiagnostics(g, fx.opt, fx.prof))
		removed := false
		for c, n := range before {
			removed = removed || after[c] < n
		}
		if !removed {
			fx.errorf(line, "quick fix %q leaves the line's diagnostics %v (before: %v)", a.Title, after, before)
		}
	}
}

func (fx *fixture) golden(line int, e *expect, got []byte) {
	path := filepath.Join(fx.dir, e.golden+".golden")
	if e.todo() {
		// The golden file of a todo holds what pfls should write: it is
		// written by hand, never by -update.
		if want, err := os.ReadFile(path); err == nil && !bytes.Equal(got, want) {
			fx.miss(e, line, "%s: the edited file differs from %s:\n%s", e.m.text, path, firstDiff(want, got))
		}
		return
	}
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			fx.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		fx.errorf(line, "%s: %v (run go test ./hints -run Marker -update)", e.m.text, err)
		return
	}
	if !bytes.Equal(got, want) {
		fx.errorf(line, "%s: the edited file differs from %s:\n%s", e.m.text, path, firstDiff(want, got))
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d: want %q\n         got  %q", i+1, a, b)
		}
	}
	return ""
}

var (
	reportCurrent = regexp.MustCompile(`^Loop at line \d+ on \d+ processors, (.*?): `)
	reportFirst   = regexp.MustCompile(`\nCandidates, fastest first:\n- (.*?): `)
)

// sameDist compares a distribution of a report with one of a marker; a
// marker's "(BLOCK,BLOCK)" without a name stands for any template's.
func sameDist(got, want string) bool {
	if strings.HasPrefix(want, "(") {
		if i := strings.IndexByte(got, '('); i >= 0 {
			got = got[i:]
		}
	}
	return got == want
}

// reportRatio is time(slow)/time(fast) read from the candidates of a
// report; false when either is missing or not a number of seconds.
func reportRatio(text, slow, fast string) (float64, bool) {
	ts, ok1 := reportTime(text, slow)
	tf, ok2 := reportTime(text, fast)
	if !ok1 || !ok2 || tf <= 0 {
		return 0, false
	}
	return ts / tf, true
}

var secondsUnit = map[string]float64{"s": 1, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}

var reportCurrentRe = regexp.MustCompile(`^Loop at line \d+ on \d+ processors, .*?: ([0-9.e+-]+) (s|ms|µs|ns) \(communication`)

// reportCurrentTime is the time of the current distribution in a report.
func reportCurrentTime(text string) (float64, bool) {
	m := reportCurrentRe.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v * secondsUnit[m[2]], err == nil
}

// reportTime is the time of candidate d in a report.
func reportTime(text, d string) (float64, bool) {
	name := regexp.QuoteMeta(d)
	if strings.HasPrefix(d, "(") {
		name = `\w*` + name
	}
	m := regexp.MustCompile(`\n- ` + name + `: ([0-9.e+-]+) (s|ms|µs|ns) `).FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v * secondsUnit[m[2]], err == nil
}

// reportDists reads the current distribution and the fastest candidate
// from an "Estimate this loop" report.
func reportDists(text string) (current, fastest string) {
	if m := reportCurrent.FindStringSubmatch(text); m != nil {
		current = m[1]
	}
	if m := reportFirst.FindStringSubmatch(text); m != nil {
		fastest = m[1]
	}
	return current, fastest
}

func (fx *fixture) checkEstimates() {
	for line, es := range fx.on("estimate", "noestimate") {
		text, err := EstimateLoopText(fx.f, line+1, fx.opt)
		cur, fast := reportDists(text)
		for _, e := range es {
			if e.m.verb == "noestimate" {
				if err == nil || !strings.Contains(err.Error(), "no DO loop") {
					fx.miss(e, line, "!@noestimate, but the report is %q (%v)", text, err)
				}
				continue
			}
			if err != nil {
				// Also for a todo: a marker on a line without a loop is
				// misplaced, not a defect of pfls.
				fx.errorf(line, "%s: %v", e.m.text, err)
				continue
			}
			var bad bool
			switch e.mode {
			case "current":
				bad = !sameDist(cur, e.dist)
			case "faster":
				bad = !sameDist(fast, e.dist)
				fallthrough
			case "beats":
				if !bad && e.over != "" {
					r, ok := reportRatio(text, e.over, e.dist)
					if !ok || r < e.byLo || r > e.byHi || e.mode == "beats" && r <= 1 {
						fx.miss(e, line, "%s: %s takes %.3g× the time of %s (%v); the report is:\n%s", e.m.text, e.over, r, e.dist, ok, text)
						continue
					}
				}
			case "scales":
				o := fx.opt
				o.Procs = 1
				one, err1 := EstimateLoopText(fx.f, line+1, o)
				t1, ok1 := reportCurrentTime(one)
				tp, ok2 := reportCurrentTime(text)
				if err1 != nil || !ok1 || !ok2 || tp <= 0 || t1/tp < e.byLo || t1/tp > e.byHi {
					fx.miss(e, line, "%s: %v at 1 processor, %v at %d (speed-up %.3g); the report is:\n%s", e.m.text, t1, tp, fx.opt.Procs, t1/tp, text)
				}
				continue
			case "report":
				bad = !e.re.MatchString(text)
			case "noreport":
				bad = e.re.MatchString(text)
			}
			if bad {
				fx.miss(e, line, "%s; the report is:\n%s", e.m.text, text)
			}
		}
	}
}
