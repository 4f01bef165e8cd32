package complexity

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pfls/pfls/parser"
)

// TestMutualRecursion: A calls B calls A. The result must not depend on
// which routine comes first, a call inside the cycle costs the unknown
// named after the cycle, and both units carry the note.
func TestMutualRecursion(t *testing.T) {
	a := "      SUBROUTINE A(N)\n      X = 1.0\n      IF (N .GT. 0) CALL B(N - 1)\n      END\n"
	b := "      SUBROUTINE B(M)\n      DO 10 I = 1, M\n      Y = Y + 1.0\n   10 CONTINUE\n      CALL A(M)\n      END\n"
	c := "      SUBROUTINE C(K)\n      CALL A(K)\n      END\n"
	summaries := func(src string) map[string]*UnitResult {
		return unitsOf(t, NewEngine(Options{}), "r.f", src)
	}
	ab, ba := summaries(a+b+c), summaries(c+b+a)
	for _, name := range []string{"A", "B", "C"} {
		if ab[name].Summary.String() != ba[name].Summary.String() {
			t.Errorf("%s: %s in one order, %s in the other", name, ab[name].Summary, ba[name].Summary)
		}
	}
	if !ab["A"].Summary.Has("RECURSION_A_B") || !ab["B"].Summary.Has("RECURSION_A_B") {
		t.Errorf("A = %s, B = %s: want the unknown RECURSION_A_B", ab["A"].Summary, ab["B"].Summary)
	}
	if !hasNote(ab["A"].Notes, "recursive call of B (cycle of calls: A, B)") || !hasNote(ab["B"].Notes, "recursive call of A (cycle of calls: A, B)") {
		t.Errorf("notes: A %q, B %q", ab["A"].Notes, ab["B"].Notes)
	}
	// C is outside the cycle: it pays A's summary, unknown included.
	if !ab["C"].Summary.Has("RECURSION_A_B") {
		t.Errorf("C = %s", ab["C"].Summary)
	}
	// Across files and in either order of analysis.
	fa := parser.Parse("a.f", []byte(a), nil)
	fb := parser.Parse("b.f", []byte(b), nil)
	e1, e2 := NewEngine(Options{}), NewEngine(Options{})
	r1 := e1.Analyze(fa, fb)
	r2 := e2.Analyze(fb, fa)
	if r1["a.f"][0].Summary.String() != r2["a.f"][0].Summary.String() || r1["b.f"][0].Summary.String() != r2["b.f"][0].Summary.String() {
		t.Errorf("order of files: A %s / %s, B %s / %s", r1["a.f"][0].Summary, r2["a.f"][0].Summary, r1["b.f"][0].Summary, r2["b.f"][0].Summary)
	}
	// Reused from the cache, the notes stay.
	again := e1.File(fa)
	if e1.Stats.Reused == 0 || !hasNote(again[0].Notes, "recursive call of B") {
		t.Errorf("reused %d, notes %q", e1.Stats.Reused, again[0].Notes)
	}
	// Breaking the cycle invalidates the cached results.
	fb2 := parser.Parse("b.f", []byte(strings.Replace(b, "      CALL A(M)\n", "", 1)), nil)
	r3 := e1.Analyze(fa, fb2)
	if r3["a.f"][0].Summary.Has("RECURSION_A_B") || hasNote(r3["a.f"][0].Notes, "recursive") {
		t.Errorf("after the cycle is broken: A = %s, notes %q", r3["a.f"][0].Summary, r3["a.f"][0].Notes)
	}
}

// genDoc returns a generated document of a few routines.
func genDoc(i int) string {
	var b strings.Builder
	for r := 0; r < 3; r++ {
		fmt.Fprintf(&b, "      SUBROUTINE S%d_%d(N, M)\n      REAL A(N, M)\n      DO 10 J = 1, M + %d\n      DO 10 I = 1, N\n      A(I, J) = A(I, J) * %d.0 + 1.0\n   10 CONTINUE\n", i, r, i, r)
		if r > 0 {
			fmt.Fprintf(&b, "      CALL S%d_%d(N, M)\n", i, r-1)
		}
		b.WriteString("      END\n")
	}
	return b.String()
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestOpenClose2000: opening (analysing) and closing (removing) 2,000
// documents leaves the cache as it was. With -short, 400: CI runs it
// under -race -short, where one goroutine gains nothing from the race
// detector and 2,000 took 219 s on the loaded 2-core machine (the
// package's tests 413 s, near go test's 10-minute limit).
func TestOpenClose2000(t *testing.T) {
	docs := 2000
	if testing.Short() {
		docs = 400
	}
	eng := NewEngine(Options{})
	keep := parser.Parse("keep.f", []byte(genDoc(-1)), nil)
	eng.File(keep)
	baseBytes, baseEntries := eng.CacheBytes()
	heap0 := liveHeap()
	peak := int64(0)
	for i := 0; i < docs; i++ {
		name := fmt.Sprintf("doc%d.f", i)
		f := parser.Parse(name, []byte(genDoc(i)), nil)
		rs := eng.File(f)
		if len(rs) != 3 || rs[2].Summary.IsZero() {
			t.Fatalf("%s: %d results", name, len(rs))
		}
		b, _ := eng.CacheBytes()
		peak = max(peak, b)
		eng.RemoveFile(name)
	}
	b, n := eng.CacheBytes()
	heap1 := liveHeap()
	t.Logf("cache %d bytes in %d entries before, peak %d, after %d bytes in %d entries; live heap %d KB before, %d KB after", baseBytes, baseEntries, peak, b, n, heap0>>10, heap1>>10)
	if b != baseBytes || n != baseEntries {
		t.Errorf("cache %d bytes, %d entries after closing everything; want %d, %d", b, n, baseBytes, baseEntries)
	}
	if heap1 > 2*heap0+4<<20 {
		t.Errorf("live heap grew from %d KB to %d KB", heap0>>10, heap1>>10)
	}
	eng.mu.Lock()
	files := len(eng.files)
	eng.mu.Unlock()
	if files != 1 {
		t.Errorf("%d files kept, want 1", files)
	}
}

// TestCacheBudget: with a small budget the cache evicts the least
// recently used results, and results stay right. With -short (CI's -race
// run, where 200 documents took 131 s on the loaded 2-core machine), 50
// documents: their 150 results of about 5 KB each still overflow the
// 64 KB budget (13 results) many times over.
func TestCacheBudget(t *testing.T) {
	const budget = 64 << 10
	n := 200
	if testing.Short() {
		n = 50
	}
	small, big := NewEngine(Options{CacheBytes: budget}), NewEngine(Options{})
	var docs []*parser.File
	for i := 0; i < n; i++ {
		docs = append(docs, parser.Parse(fmt.Sprintf("d%d.f", i), []byte(genDoc(i)), nil))
	}
	for round := 0; round < 2; round++ {
		for _, f := range docs {
			rs, want := small.File(f), big.File(f)
			for k := range rs {
				if !rs[k].Summary.Equal(want[k].Summary) {
					t.Fatalf("%s unit %d: %s, want %s", f.Name, k, rs[k].Summary, want[k].Summary)
				}
			}
			if b, _ := small.CacheBytes(); b > budget {
				t.Fatalf("cache at %d bytes, budget %d", b, budget)
			}
		}
	}
	// The most recent document is still cached.
	small.File(docs[len(docs)-1])
	if small.Stats.Computed != 0 {
		t.Errorf("the most recent document was computed again (%d units)", small.Stats.Computed)
	}
	if _, got := big.CacheBytes(); got != 3*n {
		t.Errorf("the default budget keeps %d results, want all %d", got, 3*n)
	}
	if _, got := small.CacheBytes(); got >= 3*n/4 {
		t.Errorf("the small budget keeps %d of %d results: nothing was evicted", got, 3*n)
	}
}

// TestConcurrentAnalysis runs analyses of different and of the same
// documents at once (run it with -race) and compares them with one at a
// time.
func TestConcurrentAnalysis(t *testing.T) {
	var docs []*parser.File
	for i := 0; i < 8; i++ {
		docs = append(docs, parser.Parse(fmt.Sprintf("c%d.f", i), []byte(genDoc(i)+strings.Replace(genDoc(i+100), "S", "T", -1)), nil))
	}
	want := map[string]string{}
	seq := NewEngine(Options{})
	for _, f := range docs {
		want[f.Name] = summaryText(seq.File(f))
	}
	eng := NewEngine(Options{CacheBytes: 16 << 10}) // small: evictions race too
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				f := docs[(g+k)%len(docs)]
				var got string
				if k%3 == 0 {
					rs, err := eng.AnalyzeCtx(context.Background(), f)
					if err != nil {
						errs <- err.Error()
					}
					got = summaryText(rs[f.Name])
				} else {
					got = summaryText(eng.File(f))
				}
				if got != want[f.Name] {
					errs <- fmt.Sprintf("%s: %s, want %s", f.Name, got, want[f.Name])
				}
				if k%7 == 6 {
					eng.RemoveFile(f.Name)
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func summaryText(rs []*UnitResult) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Unit.Name+"="+r.Summary.String())
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// countdown is a context that is cancelled after its Err has been asked
// a given number of times: a deterministic stand-in for a request
// cancelled while its analysis runs.
type countdown struct {
	context.Context
	mu   sync.Mutex
	left int
}

func (c *countdown) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

func TestCancellation(t *testing.T) {
	// Cancelled before it starts: nothing is computed.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	eng := NewEngine(Options{})
	f := parser.Parse("g.f", []byte(genDoc(1)), nil)
	if rs, err := eng.FileCtx(ctx, f); err != context.Canceled || len(rs) != 0 {
		t.Errorf("cancelled context: %d results, error %v", len(rs), err)
	}
	// Cancelled inside one long unit: the knot of jumps checks while it
	// eliminates, and the statement walk checks every 64 statements.
	for _, src := range []string{spaghetti(150, 3), nestedIfs(3000)} {
		k := parser.Parse("k.f", []byte(src), nil)
		start := time.Now()
		rs, err := eng.FileCtx(&countdown{Context: context.Background(), left: 3}, k)
		if err != context.Canceled {
			t.Errorf("cancelled inside a unit: %d results, error %v", len(rs), err)
		}
		t.Logf("stopped after %v", time.Since(start))
		// The engine is still usable, and nothing half-done was cached.
		rs = eng.File(k)
		if len(rs) != 1 || rs[0].Summary.IsZero() || eng.Stats.Computed != 1 {
			t.Errorf("after the cancellation: %d results, computed %d", len(rs), eng.Stats.Computed)
		}
	}
}

// nestedIfs returns a routine of n IF blocks in a row.
func nestedIfs(n int) string {
	var b strings.Builder
	b.WriteString("      SUBROUTINE F(N)\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "      IF (N .GT. %d) THEN\n      X = X + 1.0\n      END IF\n", i)
	}
	b.WriteString("      END\n")
	return b.String()
}

// TestSolveCancellation: the elimination of a knot of jumps calls its
// check while it works and stops with the check's error.
func TestSolveCancellation(t *testing.T) {
	f := parser.Parse("k.f", []byte(spaghetti(150, 3)), nil)
	u := f.Units[0]
	n := len(u.Body)
	p := make([][]*big.Rat, n)
	c := make([]Poly, n)
	for i := range p {
		p[i] = make([]*big.Rat, n)
		c[i] = Int(1)
		p[i][(i*7+1)%n] = big.NewRat(1, 2)
		p[i][(i+1)%n] = big.NewRat(1, 3)
	}
	calls := 0
	_, err := expectedCost(p, c, func() error {
		calls++
		if calls == 2 {
			return context.Canceled
		}
		return nil
	})
	if err != context.Canceled || calls != 2 {
		t.Errorf("error %v after %d checks", err, calls)
	}
}
