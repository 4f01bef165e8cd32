package complexity

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// The typing simulation: every line of some real Fortran files cut at
// every token boundary (the rest of the file kept, as while typing), and
// every token deleted once. The model must analyse each variant without
// a panic: an "internal error" note, which the engine's recover writes,
// fails the test too. Variants the parser itself panics on are counted
// and skipped (the parser has its own fuzz and corpus tests).

// tokenBounds returns the offsets in line where a token starts or ends:
// runs of letters, digits, '_' and '.', or one other non-blank byte.
func tokenBounds(line string) [][2]int {
	var toks [][2]int
	word := func(c byte) bool {
		return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case word(c):
			j := i
			for j < len(line) && word(line[j]) {
				j++
			}
			toks = append(toks, [2]int{i, j})
			i = j
		default:
			toks = append(toks, [2]int{i, i + 1})
			i++
		}
	}
	return toks
}

// halfTyped returns the variants of src: each line cut after each token,
// and each token deleted.
func halfTyped(src string) []string {
	lines := strings.SplitAfter(src, "\n")
	var out []string
	for i, ln := range lines {
		body := strings.TrimRight(ln, "\n")
		rest := strings.Join(lines[i+1:], "")
		head := strings.Join(lines[:i], "")
		for _, t := range tokenBounds(body) {
			out = append(out, head+body[:t[1]]+"\n"+rest)
			out = append(out, head+body[:t[0]]+body[t[1]:]+"\n"+rest)
		}
	}
	return out
}

type variantOutcome struct {
	parserPanics int
	modelErrors  []string
}

// analyseVariant parses and analyses one variant, reporting a parser
// panic and any model failure.
func analyseVariant(name, src string, out *variantOutcome) {
	var f *parser.File
	func() {
		defer func() {
			if r := recover(); r != nil {
				out.parserPanics++
				f = nil
			}
		}()
		f = parser.Parse(name, []byte(src), nil)
	}()
	if f == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			out.modelErrors = append(out.modelErrors, fmt.Sprintf("%s: panic escaped the engine: %v\n%s\n%s", name, r, debug.Stack(), src))
		}
	}()
	for _, rs := range NewEngine(Options{}).Analyze(f) {
		for _, r := range rs {
			for _, n := range r.Notes {
				if strings.Contains(n, "internal error") {
					out.modelErrors = append(out.modelErrors, fmt.Sprintf("%s: %s\n%s", name, n, src))
				}
			}
		}
	}
}

// typingSources are the real files the simulation cuts: the examples,
// the model's test data, and with $PFLS_CORPUS set the first
// $PFLS_TYPING_FILES (default 20) Fortran files of that corpus.
func typingSources(t *testing.T) map[string]string {
	srcs := map[string]string{}
	var names []string
	for _, g := range []string{"../examples/*.f", "testdata/*.f"} {
		m, _ := filepath.Glob(g)
		names = append(names, m...)
	}
	if root := os.Getenv("PFLS_CORPUS"); root != "" {
		limit := 20
		fmt.Sscan(os.Getenv("PFLS_TYPING_FILES"), &limit)
		var corpus []string
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() && strings.HasSuffix(strings.ToLower(p), ".f") {
				corpus = append(corpus, p)
			}
			return nil
		})
		sort.Strings(corpus)
		if len(corpus) > limit {
			corpus = corpus[:limit]
		}
		names = append(names, corpus...)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		srcs[n] = string(b)
	}
	return srcs
}

func TestTypingSimulation(t *testing.T) {
	var out variantOutcome
	variants := 0
	srcs := typingSources(t)
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		vs := halfTyped(srcs[n])
		if testing.Short() && len(vs) > 400 {
			vs = vs[:400]
		}
		for _, v := range vs {
			variants++
			analyseVariant(filepath.Base(n), v, &out)
			if len(out.modelErrors) > 5 {
				break
			}
		}
	}
	t.Logf("%d files, %d half-typed variants, %d parser panics skipped, %d model failures", len(srcs), variants, out.parserPanics, len(out.modelErrors))
	for _, e := range out.modelErrors {
		t.Error(e)
	}
	if variants < 1000 {
		t.Errorf("only %d variants: the simulation lost its sources", variants)
	}
}

// TestHalfTypedStatements analyses statements begun but not finished,
// each alone in a routine.
func TestHalfTypedStatements(t *testing.T) {
	stmts := []string{"FORALL", "FORALL (", "FORALL (I=", "FORALL (I=1:N)", "FORALL (I=1:N) A(I) =",
		"CALL", "CALL (", "ENTRY", "DO", "DO I", "DO I =", "DO 10 I = 1,", "DO WHILE", "DO WHILE (",
		"IF", "IF (", "IF (X) GOTO", "GOTO", "GOTO (", "GO TO (10, 20) ", "ASSIGN 10 TO", "SELECT CASE",
		"SELECT CASE (", "CASE", "WHERE", "WHERE (", "READ", "READ (", "WRITE (*,*) (A(I), I=", "X = F(",
		"X = ", "A(I) = B(I) ** ", "X = (/ (I, I=1, /)", "ALLOCATE (", "PARAMETER (K=", "PARAMETER (K=J+1, J=K+1)"}
	var out variantOutcome
	for _, s := range stmts {
		for _, form := range []string{"fixed", "free"} {
			src := "      SUBROUTINE S(N)\n      REAL A(N), B(N)\n      " + s + "\n      X = 1\n   10 CONTINUE\n   20 CONTINUE\n      END\n"
			name := "s.f"
			if form == "free" {
				src = "subroutine s(n)\nreal a(n), b(n)\n" + s + "\nx = 1\n10 continue\n20 continue\nend\n"
				name = "s.f90"
			}
			analyseVariant(name, src, &out)
		}
	}
	for _, e := range out.modelErrors {
		t.Error(e)
	}
}

// TestPanicStaysInItsUnit: a panic while analysing one unit becomes an
// internal-error note and an unknown cost on that unit; the other units,
// its caller included, keep their results.
func TestPanicStaysInItsUnit(t *testing.T) {
	src := "      SUBROUTINE A(N)\n      CALL B(N)\n      X = 1.0\n      END\n" +
		"      SUBROUTINE B(M)\n      Y = 2.0\n      END\n" +
		"      SUBROUTINE C(K)\n      DO 10 I = 1, K\n      Z = Z + 1.0\n   10 CONTINUE\n      END\n"
	eng := NewEngine(Options{})
	eng.analyze = func(f *parser.File, u *parser.Unit, c *CostTable, keep []string, p procTable) *UnitResult {
		if u.Name == "B" {
			var m map[string]int
			//lint:ignore SA5000 the panic is what this test is about
			m["boom"]++ // a nil map: the kind of bug the boundary is for
		}
		return analyzeUnit(f, u, c, keep, p)
	}
	us := unitsOf(t, eng, "p.f", src)
	b := us["B"]
	if !b.Summary.Equal(Var(Unanalysed)) || len(b.Notes) == 0 || !strings.Contains(b.Notes[0], "internal error analysing B: assignment to entry in nil map") {
		t.Errorf("B = %s, notes %q", b.Summary, b.Notes)
	}
	// A pays its statement and the unknown cost of B. A CALL costs the
	// callee's summary alone (report §4.4.2, DESIGN §5: no charge for the
	// arguments), so CALL B(N) is UNANALYSED and X = 1.0 pays X (1).
	if got := us["A"].Summary.String(); got != "UNANALYSED + 1" {
		t.Errorf("A = %s", got)
	}
	if got := us["C"].Summary.String(); got != "3*K + 1" {
		t.Errorf("C = %s", got)
	}
}
