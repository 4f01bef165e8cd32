package complexity

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/internal/gen"
	"github.com/pfls/pfls/parser"
)

func unitsOf(t *testing.T, eng *Engine, name, src string) map[string]*UnitResult {
	t.Helper()
	f := parser.Parse(name, []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%v", errs)
	}
	out := map[string]*UnitResult{}
	for _, r := range eng.File(f) {
		out[r.Unit.Name] = r
	}
	return out
}

func TestUnstructured(t *testing.T) {
	// A loop written with GOTO: I runs from 1 to N in steps of 1, but the
	// model does not know the exit condition, so each test is a coin toss:
	// g1 = c1 + g2, g2 = c2 + 1/2 g3 + 1/2 exit, g3 = c3 + g2 (back edge).
	src := `      SUBROUTINE G(N)
      I = 1
   10 IF (I .GT. N) GOTO 20
      X = X + 1.0
      I = I + 1
      GOTO 10
   20 CONTINUE
      END
`
	r := unitsOf(t, NewEngine(Options{}), "g.f", src)["G"]
	// c: I=1 → 1; IF → I, N → 2; X=X+1.0 → 3; I=I+1 → 3; GOTO → 0; 20 CONTINUE → 0.
	// g(IF) = 2 + 1/2·g(20) + 1/2·(3 + 3 + 0 + g(IF)) → g(IF) = 2·(2 + 3) = 10... solved exactly:
	// g(IF) = 2 + 1/2·0 + 1/2·(6 + g(IF)) → 1/2 g = 5 → g = 10; total = 1 + 10 = 11.
	if got := r.Summary.String(); got != "11" {
		t.Errorf("GOTO loop: %s, want 11", got)
	}
	// A computed probability: IF (1 .GT. 2) is never true.
	src2 := "      SUBROUTINE H\n      IF (1 .GT. 2) GOTO 10\n      X = 1.0\n   10 CONTINUE\n      END\n"
	r2 := unitsOf(t, NewEngine(Options{}), "h.f", src2)["H"]
	if got := r2.Summary.String(); got != "1" || r2.Stats.IfComputed != 1 {
		t.Errorf("decided IF: %s, stats %+v", got, r2.Stats)
	}
}

func TestStatisticsAndUnknownRange(t *testing.T) {
	src := `      SUBROUTINE S(N)
      COMMON /C/ L
      READ (5, *) J1
      DO 10 I = 1, J1
         X = X + 1.0
   10 CONTINUE
      DO 20 I = 1, N + L
         IF (X .GT. 0.0) X = 0.0
   20 CONTINUE
      END
`
	r := unitsOf(t, NewEngine(Options{}), "s.f", src)["S"]
	if !r.Summary.Has("UNKNOWN_1") || len(r.Unknowns) != 1 || !strings.Contains(r.Unknowns[0], "UNKNOWN_1: the iterations of the DO I loop at line 4") {
		t.Errorf("summary %s (unknowns %q) lacks UNKNOWN_1 for a bound read from input", r.Summary, r.Unknowns)
	}
	st := r.Stats
	if st.RangeUnknown != 1 || st.RangeGuessed != 1 || st.VarUnknown != 1 || st.VarSymbolic != 2 || st.IfHalfHalf != 1 {
		t.Errorf("stats %+v", st)
	}
	if !strings.Contains(r.Summary.String(), "L") || !strings.Contains(r.Summary.String(), "N") {
		t.Errorf("COMMON and formal variables must stay symbolic: %s", r.Summary)
	}
}

func TestCallsAndRecursion(t *testing.T) {
	src := `      SUBROUTINE A(N)
      CALL B(2*N)
      X = F(N)
      END
      SUBROUTINE B(M)
      DO 10 I = 1, M
         Y = Y + 1.0
   10 CONTINUE
      END
      REAL FUNCTION F(K)
      F = K * 2.0
      END
      RECURSIVE SUBROUTINE R(N)
      IF (N .GT. 0) CALL R(N - 1)
      END
`
	eng := NewEngine(Options{})
	us := unitsOf(t, eng, "c.f", src)
	// B = 3M + 1; the call costs B at M = 2N, 6N + 1, and nothing for its
	// argument (seed 004 §4.4.2); X = F(N) pays X and F's summary
	// F = K*2.0, 3, and nothing for the argument N either.
	if got, want := us["A"].Summary.String(), "6*N + 5"; got != want {
		t.Errorf("A = %s, want %s", got, want)
	}
	found := false
	for _, n := range us["R"].Notes {
		if strings.Contains(n, "recursive call of R") {
			found = true
		}
	}
	if !found {
		t.Errorf("recursion not reported: %v", us["R"].Notes)
	}
}

// TestEngineReuse: after an edit inside one routine, only that routine and
// its callers are computed again.
func TestEngineReuse(t *testing.T) {
	src := `      SUBROUTINE TOP(N)
      CALL MID(N)
      END
      SUBROUTINE MID(N)
      CALL LEAF(N)
      END
      SUBROUTINE LEAF(N)
      DO 10 I = 1, N
         X = X + 1.0
   10 CONTINUE
      END
      SUBROUTINE OTHER(N)
      Y = 1.0
      END
`
	eng := NewEngine(Options{})
	f := parser.Parse("e.f", []byte(src), nil)
	eng.File(f)
	if eng.Stats.Computed != 4 {
		t.Fatalf("first pass computed %d units, want 4", eng.Stats.Computed)
	}
	eng.File(f)
	if eng.Stats.Computed != 0 || eng.Stats.Reused != 4 {
		t.Errorf("unchanged file: computed %d, reused %d", eng.Stats.Computed, eng.Stats.Reused)
	}
	// Change the leaf's body: LEAF, MID and TOP are computed again.
	i := strings.Index(src, "X + 1.0")
	nsrc := src[:i] + "X * 2.0 + 1.0" + src[i+len("X + 1.0"):]
	g := f.Reparse([]byte(nsrc), parser.Edit{Start: i, OldEnd: i + 7, NewEnd: i + 13})
	rs := eng.File(g)
	if eng.Stats.Computed != 3 || eng.Stats.Reused != 1 {
		t.Errorf("after editing LEAF: computed %d, reused %d; want 3 and 1", eng.Stats.Computed, eng.Stats.Reused)
	}
	// LEAF = 1 + 4N (N for the bound, X = X*2.0 + 1.0 costs 4); a call
	// costs its callee: MID = LEAF, TOP = MID.
	if got := rs[0].Summary.String(); got != "4*N + 1" {
		t.Errorf("TOP after the edit = %s, want 4*N + 1", got)
	}
}

func TestParseCostTable(t *testing.T) {
	text := `# a table that counts only memory traffic
[memory]
load 1
[index]
multi 1/2
[loop]
per-iteration 1
`
	table, err := ParseCostTable("mem.cost", text)
	if err != nil {
		t.Fatal(err)
	}
	r := unitsOf(t, NewEngine(Options{Cost: table}), "m.f", "      SUBROUTINE M(N, A)\n      REAL A(N,N)\n      DO 1 I = 1, N\n      A(I,I) = A(I,I) + 1.0\n    1 CONTINUE\n      END\n")["M"]
	// bound N: 1; per iteration: 1, plus A(I,I) twice at I, I, load 1
	// and multi 1/2 = 7/2 each; the operators cost nothing here.
	if got := r.Summary.String(); got != "8*N + 1" {
		t.Errorf("memory table: %s, want 8*N + 1", got)
	}
	for _, c := range []struct{ text, want string }{
		{"+ 1\n", "1:1: a row before any [section]"},
		{"[operation]\n+ 1 2\n", "2:1: row \"+\" has 2 costs"},
		{"[operation]\n+ x\n", "2:3: \"x\" is not a cost"},
		{"[nonsense]\n", "1:1: unknown section [nonsense]"},
		{"[operation]\nfoo 1\n", "2:1: unknown operation \"foo\""},
		{"[loop]\n  per-loop 1 2\n", "2:3: per-loop takes one cost"},
		{"[memory]\nload -1\n", "2:6: cost -1 is negative"},
	} {
		_, err := ParseCostTable("t", c.text)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want prefix %q", c.text, err, c.want)
		}
	}
}

// BenchmarkComplexity20000 computes the complexity of a generated
// 20,000-line file from scratch (target: at most 50 ms). cpu-ms/op is
// the process's CPU time per operation, steadier than the wall time on a
// shared machine.
func BenchmarkComplexity20000(b *testing.B) {
	f := parser.Parse("gen.f", []byte(complexitySource(200)), nil)
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		NewEngine(Options{}).File(f)
	}
	cpu.Stop()
}

// complexitySource is the file of BenchmarkComplexity20000 with the
// given number of routines (100 lines each).
func complexitySource(routines int) string {
	var sb strings.Builder
	for r := 0; r < routines; r++ {
		sb.WriteString("      SUBROUTINE S" + itoa(r) + "(A, B, N, M)\n      INTEGER N, M\n      REAL A(N,M), B(N,M), S, T\n      COMMON /C/ S, T\n")
		for l := 0; l < 9; l++ {
			lbl := itoa(100 + 10*l)
			sb.WriteString("      DO " + lbl + " J = 1, M\n         DO " + lbl + " I = 2, N - 1\n")
			sb.WriteString("            A(I,J) = 0.25 * (B(I-1,J) + B(I+1,J)\n     &               + B(I,MAX(J-1,1)) + B(I,MIN(J+1,M)))\n")
			sb.WriteString("            IF (A(I,J) .GT. S) THEN\n               S = A(I,J)\n            ELSE\n               T = T + A(I,J) * 2.0E0 - 1.5\n            END IF\n")
			sb.WriteString("  " + lbl + "    CONTINUE\n")
		}
		sb.WriteString("      RETURN\n      END\n")
	}
	return sb.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

// TestEngineReuseComparesAllPieces: an edit of the callee that changes
// only a piece not shown (N ≤ -1 here; the summary shown is the piece for
// large N) still recomputes its callers, whose counts hold every piece.
func TestEngineReuseComparesAllPieces(t *testing.T) {
	src := `      SUBROUTINE TOP(N)
      CALL LEAF(N)
      END
      SUBROUTINE LEAF(N)
      DO 10 I = 1, N
         X = X + 1.0
   10 CONTINUE
      DO 20 J = 1, -N
         Y = 1.0
   20 CONTINUE
      END
`
	eng := NewEngine(Options{})
	f := parser.Parse("p.f", []byte(src), nil)
	before := eng.File(f)
	i := strings.Index(src, "Y = 1.0") + 4
	nsrc := src[:i] + "Z" + src[i+3:]
	g := f.Reparse([]byte(nsrc), parser.Edit{Start: i, OldEnd: i + 3, NewEnd: i + 1})
	rs := eng.File(g)
	if rs[1].Summary.String() != before[1].Summary.String() || rs[1].Count.Equal(before[1].Count) {
		t.Fatalf("the edit should change LEAF's count (%s → %s) and not its summary (%s → %s)",
			before[1].Count, rs[1].Count, before[1].Summary, rs[1].Summary)
	}
	if eng.Stats.Computed != 2 {
		t.Errorf("after editing a hidden piece of LEAF: computed %d units, want 2", eng.Stats.Computed)
	}
	if !rs[0].Count.Equal(rs[1].Count) {
		t.Errorf("TOP's count %s, LEAF's %s", rs[0].Count, rs[1].Count)
	}
}

// BenchmarkComplexityCorpus computes the complexity of the first 60
// Fortran files of $PFLS_CORPUS (LAPACK's source) in one pass, from
// scratch: real routines, less alike than the generated file's. It
// skips without the corpus.
func BenchmarkComplexityCorpus(b *testing.B) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		b.Skip("PFLS_CORPUS not set")
	}
	var names []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() && strings.HasSuffix(p, ".f") {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	names = names[:min(len(names), 60)]
	var files []*parser.File
	var size int64
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(src))
		files = append(files, parser.Parse(filepath.Base(n), src, nil))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	cpu := gen.StartCPU(b)
	for i := 0; i < b.N; i++ {
		NewEngine(Options{}).Analyze(files...)
	}
	cpu.Stop()
}
