package partition

import (
	"math/big"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// Tests of candidates.go written against the mutants that lived (issue
// 21, docs/mutation-partition.md).

// TestCandidatesOfTemplateRank: a DISTRIBUTE one format short of its
// template's rank (as the user types; the parser reports it) still gets
// the candidates of the template's rank, 8 for two dimensions (3·3 less
// the undistributed one), not the 2 of one dimension.
func TestCandidatesOfTemplateRank(t *testing.T) {
	f := parser.Parse("p.f", []byte("      PROGRAM P\n      REAL A(64,64)\n!HPF$ TEMPLATE T(64,64)\n!HPF$ ALIGN A(I,J) WITH T(I,J)\n!HPF$ DISTRIBUTE T(BLOCK)\n      END\n"), nil)
	cur, cands := Candidates(f.Units[0], 4, "")
	if cur.Name() != "T(BLOCK)" || len(cands) != 8 {
		t.Errorf("current %s, %d candidates, want T(BLOCK), 8", cur.Name(), len(cands))
	}
	for _, c := range cands {
		if len(c.Formats) != 2 {
			t.Errorf("candidate %s: %d formats, want 2", c.Name(), len(c.Formats))
		}
	}
}

// TestFormatsInAnyGrid: the shortlist holds one grid of each format: a
// distribution of the same template and formats on another grid is in
// it; other formats or another template are not.
func TestFormatsInAnyGrid(t *testing.T) {
	bb := &Distribution{Procs: 16, Template: "T", Formats: []string{"BLOCK", "BLOCK"}, Grid: []int{4, 4}}
	list := []*Distribution{bb}
	for _, c := range []struct {
		d    *Distribution
		want bool
	}{
		{&Distribution{Procs: 16, Template: "T", Formats: []string{"BLOCK", "BLOCK"}, Grid: []int{2, 8}}, true},
		{&Distribution{Procs: 16, Template: "T", Formats: []string{"BLOCK", "CYCLIC"}, Grid: []int{4, 4}}, false},
		{&Distribution{Procs: 16, Template: "U", Formats: []string{"BLOCK", "BLOCK"}, Grid: []int{4, 4}}, false},
	} {
		if got := formatsIn(list, c.d); got != c.want {
			t.Errorf("%s in [%s]: %v, want %v", c.d.Name(), bb.Name(), got, c.want)
		}
	}
}

// TestRankKeepsTies: candidates that cost the same (a loop touching no
// distributed array: every processor runs all of it) stay in the order
// given.
func TestRankKeepsTies(t *testing.T) {
	src := "      PROGRAM P\n      REAL A(64,64), S\n!HPF$ DISTRIBUTE A(BLOCK,BLOCK)\n      S = 0.0\n      DO 10 I = 1, 64\n         S = S + 1.0\n   10 CONTINUE\n      END\n"
	f := parser.Parse("p.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	_, cands := Candidates(u, 4, "")
	if len(cands) < 3 {
		t.Fatalf("%d candidates", len(cands))
	}
	ranked := Rank(f, u, firstLoop(t, u, 5, f), cands, Options{Machine: machine.DefaultMachine(), Procs: 4})
	for i, r := range ranked {
		if r.Dist != cands[i] {
			t.Errorf("rank %d: %s, want %s (the order given)", i, r.Dist.Name(), cands[i].Name())
		}
	}
}

// TestCrossoversRangeEnd: the crossover search covers its range up to
// hi, through a last step shorter than the geometric one, and never past
// it. On the paper's red-black example (the feasibility study's model,
// P = 16; the lattice of N = 8 mod 16) strips win at N = 536 and blocks
// at 584. Over 8 to 584 the scan reaches 584 only in its last,
// shortened step (from 536, whose next geometric point is 616), and
// reports strips giving way to blocks in (536, 584]; over 8 to 568 (where
// strips still win) nothing past 568 is reported.
func TestCrossoversRangeEnd(t *testing.T) {
	f, u := parseExample(t, "redblack.f")
	loop := firstLoop(t, u, 13, f)
	opt := Options{Machine: feasibilityModel(t), Procs: 16}
	cands := []*Distribution{WithFormats(u, 16, "G", []string{"BLOCK", "BLOCK"}, ""), WithFormats(u, 16, "G", []string{":", "BLOCK"}, "")}
	got := Crossovers(f, u, loop, cands, "N", 8, 584, opt)
	if len(got) == 0 {
		t.Fatal("over 8 to 584: no crossover")
	}
	if c := got[len(got)-1]; c.Below != "G(:,BLOCK)" || c.Above != "G(BLOCK,BLOCK)" || c.Value <= 536 || c.Value > 584 {
		t.Errorf("over 8 to 584: last crossover %v, want strips to blocks in (536, 584]", c)
	}
	for _, c := range Crossovers(f, u, loop, cands, "N", 8, 568, opt) {
		if c.Value > 568 {
			t.Errorf("over 8 to 568: %v past the range", c)
		}
	}
}

// TestCrossoverLatticeEdges: the lattice needs 32 points in the range
// (hi − lo over P), counted from lo, not 0: 512 values at P = 16 are
// enough, 100 from 1000 are not; the base is the first value at or above
// lo congruent to the given one: 100 from lo = 10 is 20 (90 = 5·16 + 10).
func TestCrossoverLatticeEdges(t *testing.T) {
	d := []*Distribution{{Procs: 16}}
	for _, c := range []struct {
		given      *big.Rat
		lo, hi     int64
		step, base int64
	}{
		{nil, 8, 8 + 512, 16, 8},
		{nil, 8, 8 + 511, 1, 8},
		{nil, 1000, 1100, 1, 1000},
		{big.NewRat(100, 1), 10, 4096, 16, 20},
	} {
		step, base := crossoverLattice(d, c.given, c.lo, c.hi)
		if step != c.step || base != c.base {
			t.Errorf("%d to %d, given %v: step %d from %d, want %d from %d", c.lo, c.hi, c.given, step, base, c.step, c.base)
		}
	}
}

// TestExtentSymbol: the symbol the main template's extents depend on is
// the first name of its bounds, each dimension's upper bound before its
// lower: N in T(0:N+1, M), M in T(100, 2:M), none in T(64, 64).
func TestExtentSymbol(t *testing.T) {
	for decl, want := range map[string]string{"0:N+1, M": "N", "100, 2:M": "M", "64, 64": ""} {
		u := parseUnit(t, "p.f", "      SUBROUTINE S(N, M)\n      INTEGER N, M\n!HPF$ TEMPLATE T("+decl+")\n!HPF$ DISTRIBUTE T(BLOCK, *)\n      END\n")
		if got := ExtentSymbol(u, &Distribution{Template: "T"}); got != want {
			t.Errorf("T(%s): %q, want %q", decl, got, want)
		}
	}
}
