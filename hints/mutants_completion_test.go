package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestIsNameByte: the letters, digits and underscore, at the edges of
// their ASCII ranges, and the bytes just outside them.
func TestIsNameByte(t *testing.T) {
	for _, c := range []byte("AZaz09_") {
		if !isNameByte(c) {
			t.Errorf("isNameByte(%q) = false", c)
		}
	}
	for _, c := range []byte("@[`{/:$ ") {
		if isNameByte(c) {
			t.Errorf("isNameByte(%q) = true", c)
		}
	}
}

// TestDirectiveAt: a "!" sentinel may follow blanks; a fixed-form one
// (C, *, CMF$) counts in column 1 only.
func TestDirectiveAt(t *testing.T) {
	for _, c := range []struct {
		line    string
		dialect string
		after   int
	}{
		{"  !hpf$ dis", "HPF", 7},
		{"CHPF$ ALIGN", "HPF", 5},
		{"  CHPF$ ALIGN", "", 0},
		{"cmf$ layout", "CMF", 4},
		{"*$omp parallel", "OMP", 5},
		{"  x = 1", "", 0},
	} {
		if d, after := directiveAt(c.line); d != c.dialect || after != c.after {
			t.Errorf("directiveAt(%q) = %q, %d, want %q, %d", c.line, d, after, c.dialect, c.after)
		}
	}
}

// TestIsComment: in fixed form a C, * or ! in column 1 makes the line a
// comment; in free form only a "!" outside strings does.
func TestIsComment(t *testing.T) {
	fixed := parser.Parse("x.f", []byte("      END\n"), nil)
	free := parser.Parse("x.f90", []byte("end\n"), nil)
	for _, c := range []struct {
		f    *parser.File
		text string
		want bool
	}{
		{fixed, "C a comment", true},
		{fixed, "*", true},
		{fixed, "      CALL S", false},
		{free, "call s", false},
		{free, "call s ! x", true},
		{free, "print *, 'a ! b", true}, // inside a string
	} {
		if got := isComment(c.f, c.text); got != c.want {
			t.Errorf("isComment(%v, %q) = %v", c.f.Form, c.text, got)
		}
	}
}

// TestCompleteAtFileStart: at offset 0 the statement keywords are offered.
func TestCompleteAtFileStart(t *testing.T) {
	f := parser.Parse("x.f90", []byte("\nend\n"), nil)
	items, start := Complete(f, 0, nil)
	found := false
	for _, it := range items {
		found = found || it.Label == "PROGRAM" && it.Kind == "keyword"
	}
	if start != 0 || !found {
		t.Errorf("Complete at 0: start %d, %d items, PROGRAM offered %v", start, len(items), found)
	}
}

// TestStatementText: the text of the statement up to the cursor ("@"),
// from its first line: free-form continuations from the first line of
// the file, at most 20 lines back; fixed-form continuation marks in
// column 6 (not blank, not 0, nothing in columns 1-5), a line of the
// mark alone; columns 1 to 6 blanked.
func TestStatementText(t *testing.T) {
	long := "x = 0 + &\n" + strings.Repeat("1 + &\n", 21) + "2@"
	for _, c := range []struct{ name, src, want string }{
		{"f.f90", "x = sum(a, &\n  b, @", "x = sum(a, b,"},
		{"f.f90", long, strings.Repeat("1 + ", 20) + "2"},
		{"f.f", "      X = SUM(A,\n     &  B, @", "      X = SUM(A,        B, "},
		{"f.f", "      X = SUM(A,\n     &\n     &B@", "      X = SUM(A,      B"},
		{"f.f", "      X = 1\n     0  Y@", "        Y"},
		{"f.f", "      X = 1\n   10 Y@", "      Y"},
		{"f.f", "      X = 1\n      Y@", "      Y"},
		{"f.f", "      @X = 1", ""},
		{"f.f", "     &X = 1@", "      X = 1"},
	} {
		src := strings.Replace(c.src, "@", "", 1)
		f := parser.Parse(c.name, []byte(src), nil)
		if got := statementText(f, strings.Index(c.src, "@")); got != c.want {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}

// TestCompleteCaseAndOrder: the names in scope come first, sorted (X is
// implicitly declared; the main program's name is not offered); a
// prefix in lower case (z, the last letter, too) gives lower-case
// labels.
func TestCompleteCaseAndOrder(t *testing.T) {
	src := "program p\n  real :: zeta, beta, alpha\n  x = 1\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	items, _ := Complete(f, strings.Index(src, "x ="), nil)
	var names []string
	for _, it := range items[:4] {
		names = append(names, it.Label)
	}
	if got := strings.Join(names, " "); got != "ALPHA BETA X ZETA" {
		t.Errorf("first names %q", got)
	}
	src2 := "program p\n  real :: zeta\n  x = z\nend program p\n"
	f = parser.Parse("p.f90", []byte(src2), nil)
	items, start := Complete(f, strings.Index(src2, "z\n")+1, nil)
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
	}
	if got := strings.Join(labels, " "); got != "z zeta" || start != strings.Index(src2, "z\n") {
		t.Errorf("after z: %+v from %d", items, start)
	}
}
