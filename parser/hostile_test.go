package parser

import (
	"strconv"
	"strings"
	"testing"
)

// Hostile inputs: one test per family of input that once crashed, hung or
// ran away. Each asserts a clear diagnostic and that the rest of the file
// is still analysed.

// errorsMatching returns the messages of f's errors containing sub.
func errorsMatching(f *File, sub string) []string {
	var out []string
	for _, e := range f.Errors() {
		if strings.Contains(e.Msg, sub) {
			out = append(out, e.Msg)
		}
	}
	return out
}

// TestHalfTypedStatements parses statements cut short as they are while
// being typed; each must give a syntax error, not a panic, and leave the
// following routine's symbols alone.
func TestHalfTypedStatements(t *testing.T) {
	for _, stmt := range []string{
		"CALL", "CALL (X)", "ENTRY", "ENTRY (X)", "ASSIGN", "ASSIGN 10 TO", "X =", "DO 10 I = 1,", "DO I =",
		"IF (X", "IF (X) ", "IF (X) THEN", "ELSE IF (", "SELECT CASE (", "FORALL", "FORALL (", "WHERE (",
		"GO TO (", "READ (", "COMMON /", "PARAMETER (N", "DATA X /", "EQUIVALENCE (", "INCLUDE",
	} {
		for _, form := range []string{"t.f", "t.f90"} {
			src := "      SUBROUTINE A(X)\n      " + stmt + "\n      END\n      SUBROUTINE B(Y)\n      Y = 1\n      END\n"
			f := Parse(form, []byte(src), nil)
			if len(f.Units) != 2 {
				t.Errorf("%s %q: %d units, want 2", form, stmt, len(f.Units))
				continue
			}
			if len(f.Errors()) == 0 {
				t.Errorf("%s %q: no error", form, stmt)
			}
			if f.Units[1].Scope.Lookup("Y") == nil {
				t.Errorf("%s %q: the next routine lost its symbols", form, stmt)
			}
		}
	}
}

// TestFailureBoundary makes resolving (and, separately, nesting) one unit
// fail, and checks that the failure becomes one internal-error diagnostic
// on that unit's header while the other units keep their symbols and
// diagnostics.
func TestFailureBoundary(t *testing.T) {
	src := "      SUBROUTINE A\n      IMPLICIT NONE\n      X = 1\n      END\n" +
		"      SUBROUTINE B\n      Y = 2\n      END\n" +
		"      SUBROUTINE C\n      Z = 3\n      END\n"
	for _, stage := range []string{"resolve", "blocks"} {
		t.Run(stage, func(t *testing.T) {
			saved := strictPanics
			strictPanics = false
			testHook = func(s string, u *Unit) {
				if s == stage && u.Name == "B" {
					panic("boom")
				}
			}
			defer func() { strictPanics, testHook = saved, nil }()
			f := Parse("t.f", []byte(src), nil)
			if len(f.Units) != 3 {
				t.Fatalf("%d units, want 3", len(f.Units))
			}
			var internal []Error
			for _, e := range f.Errors() {
				if e.Code == "internal" {
					internal = append(internal, e)
				}
			}
			if len(internal) != 1 || !strings.Contains(internal[0].Msg, "subroutine B") || !strings.Contains(internal[0].Msg, "boom") {
				t.Fatalf("internal errors %v, want one naming subroutine B", internal)
			}
			if at := int(internal[0].Pos); at != strings.Index(src, "SUBROUTINE B") {
				t.Errorf("internal error at %d, want the header of B at %d", at, strings.Index(src, "SUBROUTINE B"))
			}
			if len(errorsMatching(f, "X is not declared")) != 1 {
				t.Errorf("unit A lost its diagnostic: %v", f.Errors())
			}
			if f.Units[2].Scope.Lookup("Z") == nil || f.Units[0].Scope.Lookup("X") == nil {
				t.Error("units A and C lost their symbols")
			}
			if stage == "blocks" && f.Units[1].Scope.Lookup("Y") == nil {
				t.Error("unit B lost its statements when nesting failed")
			}
		})
	}
}

// tooLarge returns the messages of f's too-large diagnostics.
func tooLarge(f *File) []string {
	var out []string
	for _, e := range f.Errors() {
		if e.Code == "too-large" {
			out = append(out, e.Msg)
		}
	}
	return out
}

// TestDeepNesting: 10,000 nested DO loops once took 12 GB in the analyses
// after the parser. Past MaxConstructDepth the loops are plain statements
// with one diagnostic, and the tree is no deeper than the limit.
func TestDeepNesting(t *testing.T) {
	for _, labelled := range []bool{false, true} {
		n := 10000
		var b strings.Builder
		b.WriteString("      PROGRAM P\n")
		for i := 0; i < n; i++ {
			if labelled {
				b.WriteString("      DO 10 I = 1, N\n")
			} else {
				b.WriteString("      DO I = 1, N\n")
			}
		}
		b.WriteString("      X = X + 1\n")
		if labelled {
			b.WriteString("   10 CONTINUE\n")
		} else {
			for i := 0; i < n; i++ {
				b.WriteString("      END DO\n")
			}
		}
		b.WriteString("      Y = 2\n      END\n")
		f := Parse("t.f", []byte(b.String()), nil)
		msgs := tooLarge(f)
		if len(msgs) != 1 || !strings.Contains(msgs[0], "nested more than 256 deep") {
			t.Errorf("labelled %v: too-large diagnostics %q, want one about nesting", labelled, msgs)
		}
		if errs := f.Errors(); len(errs) != 1 {
			t.Errorf("labelled %v: %d errors, want only the nesting one: %v", labelled, len(errs), errs[:min(len(errs), 3)])
		}
		depth := 0
		body := f.Units[0].Body
		for len(body) > 0 {
			d, ok := body[0].(*DoConstruct)
			if !ok {
				break
			}
			depth++
			body = d.Body
		}
		if depth != MaxConstructDepth {
			t.Errorf("labelled %v: loops nested %d deep, want %d", labelled, depth, MaxConstructDepth)
		}
		// The statement after the loops is outside them.
		if last := f.Units[0].Body[len(f.Units[0].Body)-1]; last.Base().Keyword == "DO" {
			t.Errorf("labelled %v: Y = 2 was swallowed by the loops", labelled)
		}
	}
}

// TestLongLineOfStatements: one line of many ";"-separated statements
// was quadratic to read (each statement scanned the rest of the line).
// It now reads in linear time; BenchmarkSemicolons measures it.
func TestLongLineOfStatements(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  *Config
	}{{"t.f90", nil}, {"t.f", &Config{LineLength: -1}}} {
		src := "      program p\n      " + strings.Repeat("x=1;", 300000) + "\n      end\n"
		f := Parse(c.name, []byte(src), c.cfg)
		if errs := f.Errors(); len(errs) != 0 {
			t.Errorf("%s: errors: %v", c.name, errs[:min(3, len(errs))])
		}
		if n := f.Units[0].stmts; n != 300002 {
			t.Errorf("%s: %d statements, want 300002", c.name, n)
		}
	}
}

// TestLongStatement: a statement past MaxStatementBytes and an expression
// of more than MaxExprOperands operands are each one bad statement with a
// diagnostic; the statement after them is read.
func TestLongStatement(t *testing.T) {
	for _, c := range []struct{ stmt, want string }{
		{"x = 1" + strings.Repeat(" + 1", MaxStatementBytes/4), "a statement of more than"},
		{"x = 1" + strings.Repeat("+1", MaxExprOperands), "an expression of more than"},
	} {
		src := "program p\n" + c.stmt + "\ny = 2\nend\n"
		f := Parse("t.f90", []byte(src), nil)
		msgs := tooLarge(f)
		if len(msgs) != 1 || !strings.Contains(msgs[0], c.want) {
			t.Errorf("too-large diagnostics %q, want one containing %q", msgs, c.want)
		}
		if f.Units[0].Scope.Lookup("Y") == nil {
			t.Error("the statement after the long one was not read")
		}
	}
}

// TestFileTooLarge: a file past MaxFileBytes gets one diagnostic and no
// tree (a 100 MB file once took 5.3 GB).
func TestFileTooLarge(t *testing.T) {
	src := []byte(strings.Repeat("      X = 1\n", MaxFileBytes/12+1))
	f := Parse("t.f", src, nil)
	msgs := tooLarge(f)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "the file has") {
		t.Errorf("too-large diagnostics %q, want one about the file", msgs)
	}
	if len(f.Units) != 1 || f.Units[0].Len != len(src) || len(f.Units[0].Body) != 0 {
		t.Errorf("want one empty unit covering the file")
	}
	g := f.Reparse(append([]byte("C\n"), src...), Edit{Start: 0, OldEnd: 0, NewEnd: 2})
	if len(tooLarge(g)) != 1 {
		t.Error("an edit of the large file lost its diagnostic")
	}
}

// TestParameterCycles: PARAMETERs defined through each other have no
// value (they once overflowed the stack in the complexity model), and a
// chain whose every link uses the one before twice evaluates in linear
// time.
func TestParameterCycles(t *testing.T) {
	f := Parse("t.f", []byte("      PROGRAM P\n      PARAMETER (K = J + 1)\n      PARAMETER (J = K + K)\n      REAL A(K)\n      END\n"), nil)
	sc := f.Units[0].Scope
	if v, ok := EvalInt(&Ident{Name: "K"}, sc); ok {
		t.Errorf("K = %d; want no value for a PARAMETER defined through itself", v)
	}
	var b strings.Builder
	b.WriteString("      PROGRAM P\n      PARAMETER (K0 = 1)\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("      PARAMETER (K" + itoa(i) + " = K" + itoa(i-1) + " + K" + itoa(i-1) + ")\n")
	}
	b.WriteString("      END\n")
	f = Parse("t.f", []byte(b.String()), nil)
	if v, ok := EvalInt(&Ident{Name: "K40"}, f.Units[0].Scope); !ok || v != 1<<40 {
		t.Errorf("K40 = %d, %v; want 2**40", v, ok)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestPreprocessorBudgets: the preprocessor state is copied at each of
// its lines, so 40,000 nested #ifdefs or 20,000 macros were quadratic.
// Past MaxCppDepth the text inside is skipped, past MaxCppDefines new
// macros are ignored, each with one diagnostic; the code around is read.
func TestPreprocessorBudgets(t *testing.T) {
	n := 5000
	nested := "      PROGRAM P\n" + strings.Repeat("#ifndef X\n", n) + "      INNER = 1\n" + strings.Repeat("#endif\n", n) + "      OUTER = 2\n      END\n"
	var defs strings.Builder
	defs.WriteString("      PROGRAM P\n")
	for i := 0; i < 3000; i++ {
		defs.WriteString("#define M" + strconv.Itoa(i) + " 1\n")
	}
	defs.WriteString("#ifdef M1000\n      EARLY = 1\n#endif\n#ifdef M2000\n      LATE = 1\n#endif\n      OUTER = 2\n      END\n")
	for _, c := range []struct {
		name, src, want, in, out string
	}{
		{"nested #ifndef", nested, "#if nested more than 256 deep", "OUTER", "INNER"},
		{"many macros", defs.String(), "more than 1024 macros", "EARLY", "LATE"},
	} {
		f := Parse("t.F", []byte(c.src), nil)
		msgs := tooLarge(f)
		if len(msgs) != 1 || !strings.Contains(msgs[0], c.want) {
			t.Errorf("%s: too-large diagnostics %q, want one containing %q", c.name, msgs, c.want)
		}
		if errs := f.Errors(); len(errs) != 1 {
			t.Errorf("%s: %d errors, want 1: %v", c.name, len(errs), errs[:min(3, len(errs))])
		}
		sc := f.Units[0].Scope
		if sc.Lookup(c.in) == nil || sc.Lookup(c.out) != nil {
			t.Errorf("%s: want %s read and %s skipped", c.name, c.in, c.out)
		}
	}
}
