package complexity

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestRenameVarsAsSubst: renaming in one pass gives what substituting
// each name in turn gives, on every count, summary and span of the
// programs in the repository (guards, floors and unknowns as the engine
// makes them), renaming the unknowns and the formals of each, both to
// fresh names (as instantiation does) and crossing (A to B while B to A,
// through fresh names).
func TestRenameVarsAsSubst(t *testing.T) {
	var names []string
	for _, g := range []string{"../examples/*.f", "../examples/*.fcm", "testdata/*.f*", "../hints/testdata/programs/*.f*", "../hints/testdata/programs/*.hpf"} {
		m, _ := filepath.Glob(g)
		names = append(names, m...)
	}
	checked, guarded := 0, 0
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f := parser.Parse(filepath.Base(n), src, nil)
		for _, r := range NewEngine(Options{}).File(f) {
			polys := []Poly{r.Count, r.Summary, r.SpanCount}
			for _, st := range r.Statements {
				polys = append(polys, st.Count, st.Cost)
			}
			for _, p := range polys {
				vars := plainVars(p)
				if len(vars) == 0 {
					continue
				}
				ren := map[string]string{}
				for i, v := range vars {
					ren[v] = "\x00r" + vars[(i+1)%len(vars)] // a rotation, through fresh names
				}
				want := p
				ok := true
				for _, v := range vars {
					if want, ok = substGuarded(want, v, Var(ren[v])); !ok {
						break
					}
				}
				got, ok2 := renameVars(p, ren)
				if ok != ok2 || ok && !got.Equal(want) {
					t.Errorf("%s %s: %s\none pass: %s (%v)\none by one: %s (%v)", n, r.Unit.Name, p, got, ok2, want, ok)
				}
				checked++
				if isGuarded(p) {
					guarded++
				}
			}
		}
	}
	if checked < 100 || guarded < 10 {
		t.Errorf("only %d polynomials, %d guarded", checked, guarded)
	}
}

// BenchmarkComplexityTestDrivers analyses LAPACK's BLAS and CBLAS test
// drivers (c_dblat2.f and its kin: many calls to routines with unknowns
// in their summaries), from the corpus PFLS_CORPUS names.
func BenchmarkComplexityTestDrivers(b *testing.B) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		b.Skip("PFLS_CORPUS not set")
	}
	var names []string
	for _, g := range []string{"BLAS/TESTING/*.f", "CBLAS/testing/*.f"} {
		m, _ := filepath.Glob(filepath.Join(root, g))
		names = append(names, m...)
	}
	if len(names) == 0 {
		b.Skip("no test drivers under " + root)
	}
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
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			NewEngine(Options{}).File(f)
		}
	}
}
