package complexity

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pfls/pfls/parser"
)

// dumpResults prints everything a unit's result shows: costs, counts,
// pieces with their conditions, notes, and each statement's.
func dumpResults(rs []*UnitResult) string {
	var b strings.Builder
	pieces := func(ps []Piece) {
		for _, p := range ps {
			fmt.Fprintf(&b, "  piece %s when %s\n", p.Cost, WhenString(p.When, false))
		}
	}
	for _, r := range rs {
		fmt.Fprintf(&b, "%s: %s when %s | count %s | span %s | %v\n", unitName(r.Unit), r.Summary, WhenString(r.When, false), r.Count, r.Span, r.Notes)
		pieces(r.Pieces)
		for _, s := range r.Statements {
			fmt.Fprintf(&b, " %d %s: %s when %s | count %s | span %s | %v | %v\n", s.Stmt.Pos(), s.Kind, s.Cost, WhenString(s.When, false), s.Count, s.Span, s.Stats, s.Notes)
			pieces(s.Pieces)
		}
	}
	return b.String()
}

// TestMemoSameResults: a pass that remembers loop sums and shown forms
// (memo.go) gives every unit exactly the result of a pass that computes
// each afresh, over the examples, the realistic programs, the model's
// test data, the generated benchmark file and, with $PFLS_CORPUS set,
// that corpus's first 40 files.
func TestMemoSameResults(t *testing.T) {
	var names []string
	for _, g := range []string{"../examples/*.f", "../examples/*.fcm", "testdata/*.f*", "../hints/testdata/programs/*.f*", "../hints/testdata/programs/*.hpf"} {
		m, _ := filepath.Glob(g)
		names = append(names, m...)
	}
	if root := os.Getenv("PFLS_CORPUS"); root != "" {
		var corpus []string
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() && strings.HasSuffix(p, ".f") {
				corpus = append(corpus, p)
			}
			return nil
		})
		sort.Strings(corpus)
		names = append(names, corpus[:min(len(corpus), 40)]...)
	}
	if len(names) < 20 {
		t.Fatalf("only %d files", len(names))
	}
	srcs := map[string][]byte{"gen.f": []byte(complexitySource(20))}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		srcs[n] = b
	}
	hits := -1
	for n, src := range srcs {
		f := parser.Parse(filepath.Base(n), src, nil)
		with := NewEngine(Options{})
		got := dumpResults(with.File(f))
		without := NewEngine(Options{})
		without.noMemo = true
		want := dumpResults(without.File(f))
		if got != want {
			t.Errorf("%s: with the memo\n%s\nwithout\n%s", n, got, want)
		}
		p := with.begin(t.Context(), f)
		ep := engineProcs{p, nil, nil, map[string]string{}, new([]string)}
		for _, u := range f.Units {
			analyzeUnit(f, u, with.cost, nil, ep)
		}
		if n == "gen.f" {
			hits = ep.memo().hits
		}
	}
	// gen.f is 20 routines of the same 9 loops: every routine after the
	// first finds each of its loops' sums and shown forms remembered.
	if hits < 19*9 {
		t.Errorf("%d results given again in gen.f", hits)
	}
}

// TestConcurrentEngines: engines of different documents run at once in the
// server; each gives the result it gives alone (run with -race as well:
// the fresh-name counter was a plain global).
func TestConcurrentEngines(t *testing.T) {
	names, _ := filepath.Glob("../hints/testdata/programs/*.f*")
	if len(names) < 10 {
		t.Fatalf("only %d files", len(names))
	}
	files := make([]*parser.File, len(names))
	want := make([]string, len(names))
	for i, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = parser.Parse(filepath.Base(n), src, nil)
		want[i] = dumpResults(NewEngine(Options{}).File(files[i]))
	}
	errs := make(chan string, 4*len(files))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, f := range files {
				if got := dumpResults(NewEngine(Options{}).File(f)); got != want[i] {
					errs <- names[i]
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for n := range errs {
		t.Errorf("%s: a concurrent analysis differs from the one alone", n)
	}
}

// TestSpanNamesUnknownsAsWork: the span pass names an unknown as the work
// pass did. Here the work has UNKNOWN_1 for the elements of X(1:N) (N read)
// and UNKNOWN_2 for the trips of DO I; the span prices the section as one
// element, so it made only the loop's unknown and called it UNKNOWN_1:
// "span 40*UNKNOWN_1 + 13" beside "work 2*UNKNOWN_1 + 40*UNKNOWN_2 + 11",
// one name for two things.
func TestSpanNamesUnknownsAsWork(t *testing.T) {
	const src = `program p
  integer :: n, i, k
  real :: x(1000), y(1000)
  read *, n
  x(1:n) = 0.0
  do k = 1, 10
    do i = 2, n
      y(i) = x(i)
    end do
  end do
end program p
`
	f := parser.Parse("sp.f90", []byte(src), nil)
	res := NewEngine(Options{}).File(f)
	if len(res) != 1 {
		t.Fatalf("%d units", len(res))
	}
	r := res[0]
	meaning := map[string]string{}
	for _, n := range r.Unknowns {
		name, what, _ := strings.Cut(n, ": ")
		meaning[name] = what
	}
	if !r.HasSpan || len(r.Span.Vars()) == 0 {
		t.Fatalf("span %s (has %v): want one with the loop's unknown", r.Span, r.HasSpan)
	}
	for _, v := range r.Span.Vars() {
		if !strings.HasPrefix(meaning[v], "the iterations of the DO I loop at line 7") {
			t.Errorf("span %s: %s stands for %q, want the DO I loop's trips (unknowns %q)", r.Span, v, meaning[v], r.Unknowns)
		}
		if !r.Summary.Has(v) {
			t.Errorf("span %s names %s, which the work %s lacks", r.Span, v, r.Summary)
		}
	}
}
