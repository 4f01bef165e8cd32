package complexity

import (
	"math/big"
	"os"
	"testing"

	"github.com/pfls/pfls/parser"
)

// checkPieces compares every piece of a count, and the guarded count
// itself, with the reference interpreter at each point.
func checkPieces(t *testing.T, res *UnitResult, src string, points []map[string]int64) int {
	t.Helper()
	u := res.Unit
	m := &unitModel{u: u, f: res.File, sc: u.Scope, cost: AllOne(), keep: map[string]bool{}, res: &UnitResult{}}
	units := map[string]*unitModel{}
	for _, v := range res.File.Units {
		if v.Scope != nil {
			units[v.Name] = &unitModel{u: v, f: res.File, sc: v.Scope, cost: AllOne(), keep: map[string]bool{}, res: &UnitResult{}}
		}
	}
	checked := 0
	for _, pt := range points {
		in := &interp{m: m, units: units}
		vals := map[string]int64{}
		env := map[string]*big.Rat{}
		for k, v := range pt {
			vals[k] = v
			env[k] = big.NewRat(v, 1)
		}
		want := in.list(u.Body, vals)
		got, ok := EvalGuarded(res.Count, env).Value()
		if !ok || got.Cmp(want) != 0 {
			t.Fatalf("at %v: count %v, interpreter %s\n%s", pt, EvalGuarded(res.Count, env), want.RatString(), src)
		}
		// The piece that holds at the point gives the same number.
		found := 0
		pieces := res.Pieces
		if pieces == nil {
			pieces = []Piece{{When: res.When, Cost: res.Summary}}
		}
		for _, p := range pieces {
			holds := true
			for _, c := range p.When {
				holds = holds && c.Holds(env)
			}
			if !holds {
				continue
			}
			found++
			v, ok := EvalGuarded(p.Cost, env).Value()
			if !ok || v.Cmp(want) != 0 {
				t.Fatalf("at %v: piece %s: %s = %v, interpreter %s\n%s", pt, WhenString(p.When, false), p.Cost, EvalGuarded(p.Cost, env), want.RatString(), src)
			}
		}
		if found != 1 && (res.Pieces != nil || res.When != nil) {
			t.Fatalf("at %v: %d pieces hold (want 1): %v when %v\n%s", pt, found, res.Pieces, res.When, src)
		}
		checked++
	}
	return checked
}

func TestSUB2PiecesEqualBruteForce(t *testing.T) {
	src, err := os.ReadFile("../examples/sub2.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("sub2.f", src, nil)
	res := NewEngine(Options{}).File(f)[0]
	var pts []map[string]int64
	for m := int64(1); m <= 200; m++ {
		pts = append(pts, map[string]int64{"M": m})
	}
	checkPieces(t, res, string(src), pts)
	for m, want := range map[int64]int64{20: 14497, 100: 702817} {
		got, _ := EvalGuarded(res.Count, map[string]*big.Rat{"M": big.NewRat(m, 1)}).Value()
		if got.Cmp(big.NewRat(want, 1)) != 0 {
			t.Errorf("M = %d: %s, want %d", m, got.RatString(), want)
		}
	}
	for _, p := range res.Pieces {
		t.Logf("%s: %s", WhenString(p.When, false), p.Cost)
	}
	// The report's convention keeps the report's polynomial.
	pips := NewEngine(Options{Pips: true}).File(f)[0]
	if got := pips.Summary.String(); got != "57/2*M^2 + 195/2*M + 1" {
		t.Errorf("--pips summary %s", got)
	}
}
