package hints

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A marker is one annotation of a fixture: !@verb(args) in a comment.
type marker struct {
	line   int // 0-based line of the annotation
	target int // 0-based line it applies to; -1 for file-level verbs
	verb   string
	args   []markerArg
	text   string // as written, for messages
	todo   bool   // written "!@todo verb(...)": an expectation pfls does not meet yet
}

// A markerArg is one comma-separated argument: a sequence of words,
// strings and key=value options.
type markerArg []markerTok

type markerTok struct {
	kind byte // 'w' word, 's' string, 'o' option (key=val)
	key  string
	val  string
}

// fileVerbs apply to the whole fixture rather than to a line.
var fileVerbs = map[string]bool{
	"ignore": true, "procs": true, "noise": true, "profile": true,
	"maxlength": true, "allhints": true,
}

// lineVerbs apply to a line of code.
var lineVerbs = map[string]bool{
	"diag": true, "nodiag": true, "hint": true, "nohint": true,
	"action": true, "noaction": true, "estimate": true, "noestimate": true,
	"hover": true, "nohover": true,
	"loc": true, "def": true, "refs": true, "hovername": true, "rename": true,
	"complete": true, "signature": true, "symbol": true, "wsymbol": true,
}

// parseMarkers finds the annotations of src and the line each applies
// to. fixed tells the source form (fixed form also accepts C@ and *@ in
// column 1). Errors carry the 1-based line.
func parseMarkers(src string, fixed bool) ([]*marker, []string) {
	lines := strings.Split(src, "\n")
	var out []*marker
	var errs []string
	var pending []*marker // on comment lines, waiting for a code line
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		code, ms, perr := scanLine(l, fixed)
		for _, e := range perr {
			errs = append(errs, fmt.Sprintf("%d: %s", i+1, e))
		}
		for _, m := range ms {
			m.line = i
			if m.todo && (fileVerbs[m.verb] || m.verb == "loc") {
				errs = append(errs, fmt.Sprintf("%d: %s: todo applies to expectations, not to %s", i+1, m.text, m.verb))
				continue
			}
			if fileVerbs[m.verb] {
				m.target = -1
				out = append(out, m)
				continue
			}
			if !lineVerbs[m.verb] {
				errs = append(errs, fmt.Sprintf("%d: unknown marker verb %q in %s", i+1, m.verb, m.text))
				continue
			}
			if code {
				m.target = i
				out = append(out, m)
			} else {
				pending = append(pending, m)
			}
		}
		if code {
			for _, m := range pending {
				m.target = i
				out = append(out, m)
			}
			pending = nil
		}
	}
	for _, m := range pending {
		errs = append(errs, fmt.Sprintf("%d: %s applies to no line of code (none follows)", m.line+1, m.text))
	}
	return out, errs
}

// scanLine returns whether line l holds code (a statement or a
// directive, not only a comment) and the markers written in it.
func scanLine(l string, fixed bool) (bool, []*marker, []string) {
	commentAt := -1 // where the comment starts
	if fixed && l != "" && strings.ContainsRune("Cc*!", rune(l[0])) {
		commentAt = 0
	} else {
		commentAt = trailingComment(l, fixed)
	}
	code := strings.TrimSpace(l) != ""
	if commentAt >= 0 {
		before := strings.TrimSpace(l[:commentAt])
		code = before != "" || isDirective(l[commentAt+1:])
		if fixed && commentAt == 0 && l != "" && l[0] != '!' {
			// C or * in column 1: a comment (or directive) line.
			code = isDirective(l[1:])
		}
	}
	if commentAt < 0 {
		return code, nil, nil
	}
	var ms []*marker
	var errs []string
	rest := l[commentAt:]
	at := 0
	// A marker starts with "!@", or with "C@"/"*@" in column 1 of fixed form.
	if fixed && commentAt == 0 && len(rest) > 1 && rest[1] == '@' {
		m, n, err := parseMarker(rest[2:])
		if err != "" {
			errs = append(errs, err)
		} else {
			ms = append(ms, m)
		}
		at = 2 + n
	}
	for {
		k := strings.Index(rest[at:], "!@")
		if k < 0 {
			break
		}
		at += k + 2
		m, n, err := parseMarker(rest[at:])
		if err != "" {
			errs = append(errs, err)
			break
		}
		ms = append(ms, m)
		at += n
	}
	return code, ms, errs
}

// isDirective tells whether the text after a comment character is a
// directive sentinel (HPF$, CMF$, $OMP, ...).
func isDirective(s string) bool {
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	return i < len(s) && s[i] == '$'
}

// trailingComment is the offset of the "!" that starts a comment outside
// character constants, or -1.
func trailingComment(l string, fixed bool) int {
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '!':
			if fixed && i == 5 {
				continue // a continuation mark in column 6
			}
			return i
		}
	}
	return -1
}

// parseMarker parses "verb" or "verb(args)" at the start of s and
// returns the marker and the bytes used.
func parseMarker(s string) (*marker, int, string) {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	m := &marker{verb: s[:i]}
	if m.verb == "" {
		return nil, 0, fmt.Sprintf("marker without a verb: !@%s", s)
	}
	if m.verb == "todo" {
		// "!@todo verb(args)": the expectation that follows, not met yet.
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j == i || j >= len(s) || !isWordByte(s[j]) {
			return nil, 0, fmt.Sprintf("todo must prefix a marker: !@todo verb(...), not !@%s", s)
		}
		inner, n, err := parseMarker(s[j:])
		if err != "" {
			return nil, 0, err
		}
		if inner.todo {
			return nil, 0, fmt.Sprintf("todo twice in !@%s", s)
		}
		inner.todo = true
		inner.text = "!@todo " + strings.TrimPrefix(inner.text, "!@")
		return inner, j + n, ""
	}
	if i >= len(s) || s[i] != '(' {
		m.text = "!@" + m.verb
		return m, i, ""
	}
	i++
	arg := markerArg{}
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return nil, 0, fmt.Sprintf("unclosed marker: !@%s", s)
		}
		c := s[i]
		switch {
		case c == ')' || c == ',':
			switch {
			case len(arg) > 0:
				m.args = append(m.args, arg)
			case c == ',' || len(m.args) > 0:
				return nil, 0, fmt.Sprintf("empty argument in !@%s", s)
			}
			arg = markerArg{}
			i++
			if c == ')' {
				m.text = "!@" + s[:i]
				return m, i, ""
			}
		case c == '"':
			v, n, ok := markerString(s[i:])
			if !ok {
				return nil, 0, fmt.Sprintf("unterminated string in !@%s", s)
			}
			arg = append(arg, markerTok{kind: 's', val: v})
			i += n
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			w := s[i:j]
			i = j
			if i < len(s) && s[i] == '=' {
				i++
				switch {
				case i < len(s) && s[i] == '"':
					v, n, ok := markerString(s[i:])
					if !ok {
						return nil, 0, fmt.Sprintf("unterminated string in !@%s", s)
					}
					arg = append(arg, markerTok{kind: 'o', key: w, val: v})
					i += n
				default:
					j := i
					for j < len(s) && isWordByte(s[j]) {
						j++
					}
					if j == i {
						return nil, 0, fmt.Sprintf("%s= without a value in !@%s", w, s)
					}
					arg = append(arg, markerTok{kind: 'o', key: w, val: s[i:j]})
					i = j
				}
				continue
			}
			arg = append(arg, markerTok{kind: 'w', val: w})
		default:
			return nil, 0, fmt.Sprintf("unexpected %q in !@%s", c, s)
		}
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.+-:", c) >= 0
}

// markerString reads a "..." string at the start of s: \" stands for a
// quote, every other byte (backslashes too, as in regexps) stands for
// itself.
func markerString(s string) (string, int, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			b.WriteByte(s[i+1])
			i++
		case s[i] == '"':
			return b.String(), i + 1, true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", 0, false
}

// TestMarkerSyntax: where markers apply, and the errors in markers that
// fail a fixture with their line.
func TestMarkerSyntax(t *testing.T) {
	type want struct {
		verb   string
		target int // 1-based; 0 for file-level
	}
	for _, c := range []struct {
		name  string
		src   string
		fixed bool
		want  []want
		errs  []string // substrings of the errors, in order
	}{
		{"trailing and next code line", "C@hint(\"a\")\nC plain comment\n\n      X = 1 !@nodiag(syntax)\n", true,
			[]want{{"nodiag", 4}, {"hint", 4}}, nil},
		{"directive lines are code", "!HPF$ DISTRIBUTE T(BLOCK) !@nodiag(x)\nCHPF$ ALIGN A WITH T\n*@nohint\n      END\n", true,
			[]want{{"nodiag", 1}, {"nohint", 4}}, nil},
		{"free form", "! comment !@hint(\"x\")\n!$omp parallel do !@nohint\n  x = 1\n", false,
			[]want{{"nohint", 2}, {"hint", 2}}, nil},
		{"file-level", "!@ignore(syntax, undeclared)\n", false, []want{{"ignore", 0}}, nil},
		{"strings", "      X = 'don''t !@' !@hint(\"a\\\"b\", tooltip=\"c\")\n", true, []want{{"hint", 1}}, nil},
		{"continuation mark in column 6", "      X = 1 +\n     !  2 !@nohint\n", true, []want{{"nohint", 2}}, nil},
		{"unknown verb", "      X = 1 !@bogus(1)\n", true, nil, []string{"1: unknown marker verb \"bogus\""}},
		{"no code after", "      X = 1\nC@diag(syntax)\n", true, nil, []string{"2: !@diag(syntax) applies to no line of code"}},
		{"unclosed", "      X = 1 !@diag(syntax\n", true, nil, []string{"1: unclosed marker"}},
		{"unterminated string", "      X = 1 !@hint(\"abc)\n", true, nil, []string{"1: unterminated string"}},
		{"todo", "  x = 1 !@todo diag(syntax) !@todo  nohint\n", false, []want{{"diag", 1}, {"nohint", 1}}, nil},
		{"todo without a marker", "  x = 1 !@todo(x)\n", false, nil, []string{"1: todo must prefix a marker"}},
		{"todo twice", "  x = 1 !@todo todo nohint\n", false, nil, []string{"1: todo twice"}},
		{"todo of a file verb", "  x = 1 !@todo procs(2)\n", false, nil, []string{"1: !@todo procs(2): todo applies to expectations"}},
	} {
		ms, errs := parseMarkers(c.src, c.fixed)
		if len(errs) != len(c.errs) {
			t.Errorf("%s: errors %q, want %q", c.name, errs, c.errs)
			continue
		}
		for i, e := range c.errs {
			if !strings.Contains(errs[i], e) {
				t.Errorf("%s: error %q, want %q", c.name, errs[i], e)
			}
		}
		var got []want
		for _, m := range ms {
			got = append(got, want{m.verb, m.target + 1})
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: markers %v, want %v", c.name, got, c.want)
		}
	}
	// Arguments that parse but do not fit their verb.
	for _, c := range []struct{ src, err string }{
		{`!@diag(code, "(")`, "bad regexp"},
		{`!@diag("code")`, "must be a word"},
		{`!@nodiag(a, b)`, "takes 1 argument"},
		{`!@hint("a", golden="x")`, "no option golden="},
		{`!@estimate(fastest "D(BLOCK)")`, "unknown \"fastest\""},
		{`!@estimate("D(BLOCK)")`, "estimate takes one of"},
		{`!@action("a", preferred=maybe)`, "want true or false"},
		{`!@action("a", golden="../x")`, "plain file name"},
		{`!@procs(0)`, "positive integer"},
		{`!@profile(interprocedural)`, "key=value options only"},
		{`!@nohint("x")`, "takes 0 argument"},
		{`!@diag(syntax, why="x")`, "why= belongs to a !@todo marker"},
		{`!@estimate(faster "D(BLOCK)", by="2-3")`, "go together"},
		{`!@estimate(current "D(BLOCK)", over="D(CYCLIC)", by="2-3")`, "go together"},
		{`!@estimate(faster "D(BLOCK)", over="D(CYCLIC)", by="3")`, "want a ratio range"},
		{`!@estimate(faster "D(BLOCK)", over="D(CYCLIC)", by="3-2")`, "want a ratio range"},
		{`!@estimate(beats "D(BLOCK)")`, "needs over="},
		{`!@estimate(scales "16")`, "want a speed-up range"},
	} {
		ms, errs := parseMarkers("  x = 1 "+c.src+"\n", false)
		if len(errs) != 0 || len(ms) != 1 {
			t.Errorf("%s: %v %v", c.src, ms, errs)
			continue
		}
		fx := &fixture{goldens: map[string]bool{}}
		if _, err := fx.compile(ms[0]); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.err)
		}
	}
	// A golden file named twice.
	fx := &fixture{goldens: map[string]bool{}}
	ms, _ := parseMarkers("  x = 1 !@action(\"a\", golden=\"g\") !@action(\"b\", golden=\"g\")\n", false)
	if _, err := fx.compile(ms[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.compile(ms[1]); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("golden used twice: %v", err)
	}
}

// tbRecorder collects the failures of a fixture run instead of failing
// the test, so that a test can check what the runner reports.
type tbRecorder struct {
	testing.TB
	errs []string
}

func (r *tbRecorder) Helper()                   {}
func (r *tbRecorder) Logf(string, ...any)       {}
func (r *tbRecorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }
func (r *tbRecorder) Failed() bool              { return len(r.errs) > 0 }
func (r *tbRecorder) Fatal(a ...any)            { r.errs = append(r.errs, fmt.Sprint(a...)); runtime.Goexit() }
func (r *tbRecorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); runtime.Goexit() }

// recordFixture runs the fixture src and returns its failures; more
// holds other files of its folder (golden files) by name.
func recordFixture(t *testing.T, name, src string, more ...string) []string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(more); i += 2 {
		if err := os.WriteFile(filepath.Join(dir, more[i]), []byte(more[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &tbRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runFixture(r, dir, name)
	}()
	<-done
	return r.errs
}

// TestMarkerTodo: a !@todo expectation passes while pfls misses it and
// fails once it holds; a wrong diagnostic listed by !@todo nodiag is not
// unexpected.
func TestMarkerTodo(t *testing.T) {
	missed := `program p
  x = = 1  !@todo nodiag(syntax)
  y = 2  !@todo diag(syntax, why="a made-up expectation")
  z = = 2  !@todo diag(syntax, "^no such message$")
  !@todo estimate(faster "D(BLOCK)")
  !@estimate(scales "0.9-1.1")
  do i = 1, 10
  end do
end program p
`
	if errs := recordFixture(t, "missed.f90", missed); len(errs) != 0 {
		t.Errorf("todo expectations that do not hold: failures %q", errs)
	}
	held := `program p
  x = = 1  !@todo diag(syntax)
  y = 2  !@todo nodiag(syntax)
  !@todo noestimate
  y = 3
end program p
`
	errs := recordFixture(t, "held.f90", held)
	want := []string{":2: !@todo diag(syntax) holds now", ":3: !@todo nodiag(syntax) holds now", ":4: !@todo noestimate holds now"}
	if len(errs) != len(want) {
		t.Fatalf("todo expectations that hold: failures %q, want %d", errs, len(want))
	}
	for i, w := range want {
		if !strings.Contains(errs[i], w) {
			t.Errorf("failure %q, want %q", errs[i], w)
		}
	}
	// Without todo, the same expectations fail.
	plain := strings.ReplaceAll(missed, "!@todo ", "!@")
	plain = strings.ReplaceAll(plain, `, why="a made-up expectation"`, "")
	if errs := recordFixture(t, "plain.f90", plain); len(errs) != 6 {
		t.Errorf("the expectations without todo: failures %q, want 6 (nodiag, 2 diag, estimate, 2 unexpected syntax)", errs)
	}
}

// TestMarkerTodoGolden: the golden file of a todo action is what pfls
// should write; the todo holds once the edit matches it.
func TestMarkerTodoGolden(t *testing.T) {
	src := `C@ignore(loop-distribution, fine-grain-loop)
      PROGRAM P
      PARAMETER (N = 64)
      REAL A(N), B(N)
      DECOMPOSITION D(N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK)
C@todo action("^Distribute D\(CYCLIC\)", golden="g")
      DO 10 I = 2, N
         A(I) = B(I-1)
   10 CONTINUE
      END
`
	edited := strings.Replace(src, "DISTRIBUTE D(BLOCK)", "DISTRIBUTE D(CYCLIC)", 1)
	if errs := recordFixture(t, "p.f", src, "g.golden", strings.ToLower(edited)); len(errs) != 0 {
		t.Errorf("a todo action whose edit differs from its golden file: failures %q", errs)
	}
	errs := recordFixture(t, "p.f", src, "g.golden", edited)
	if len(errs) != 1 || !strings.Contains(errs[0], "holds now") {
		t.Errorf("a todo action whose edit matches its golden file: failures %q, want one that holds", errs)
	}
	errs = recordFixture(t, "p.f", src)
	if len(errs) != 1 || !strings.Contains(errs[0], "written by hand") {
		t.Errorf("a todo action without its golden file: failures %q", errs)
	}
}

// TestReportRatio reads candidate times from a loop report.
func TestReportRatio(t *testing.T) {
	text := "Loop at line 3 on 16 processors, D(BLOCK): 2 ms (communication 1 ms, computation 1 ms)\nCandidates, fastest first:\n- D(CYCLIC): 500 µs (communication 0 ns)\n- D(BLOCK): 2 ms (communication 1 ms)"
	if r, ok := reportRatio(text, "D(BLOCK)", "D(CYCLIC)"); !ok || r != 4 {
		t.Errorf("ratio %v %v, want 4", r, ok)
	}
	if r, ok := reportRatio(text, "(BLOCK)", "(CYCLIC)"); !ok || r != 4 {
		t.Errorf("ratio without names %v %v, want 4", r, ok)
	}
	if !sameDist("D(BLOCK)", "(BLOCK)") || sameDist("D(BLOCK)", "E(BLOCK)") || sameDist("D(BLOCK)", "(CYCLIC)") {
		t.Error("sameDist")
	}
	if v, ok := reportCurrentTime(text); !ok || v != 2e-3 {
		t.Errorf("current time %v %v, want 2 ms", v, ok)
	}
	if _, ok := reportRatio(text, "D(:,BLOCK)", "D(CYCLIC)"); ok {
		t.Error("a candidate not in the report has a time")
	}
}
