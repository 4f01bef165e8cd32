package complexity

import (
	"math/big"
	"os"
	"strings"
	"testing"
)

// TestCOLLCPieces: without the report's convention COLLC's count splits
// on IL, JL (the parities of two stepped loops), I2 and J2; written
// through floors it has at most MaxPieces pieces, the report's
// polynomial is the large piece at even IL and JL, and every piece
// equals the reference interpreter where it holds.
func TestCOLLCPieces(t *testing.T) {
	src, err := os.ReadFile("testdata/collc.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parseFile(t, "testdata/collc.f")
	r := summaryOf(t, NewEngine(Options{}), f, "COLLC")
	for _, n := range r.Notes {
		if strings.Contains(n, "too large") {
			t.Errorf("note %q", n)
		}
	}
	if len(r.Pieces) == 0 || len(r.Pieces) > MaxPieces {
		t.Fatalf("%d pieces", len(r.Pieces))
	}
	// Every piece is exact; the large one is written through floors.
	const large = "376*FLOOR(IL/2).FLOOR(JL/2) + 60*I2.J2 + 124*FLOOR(IL/2) + 112*FLOOR(JL/2) + 4*J2 + 103"
	lp := LargePiece(r.Pieces)
	if got := lp.Cost.String(); got != large || WhenString(lp.When, false) != "IL >= 2, JL >= 2, I2 >= 1, J2 >= 1" {
		t.Errorf("large piece %s for %s, want %s for IL >= 2, JL >= 2, I2 >= 1, J2 >= 1", got, WhenString(lp.When, false), large)
	}
	// The polynomial shown is that piece where IL and JL are even, the
	// floors then IL/2 and JL/2: the report's polynomial, with its
	// condition.
	if got, when := r.Summary.String(), WhenString(r.When, false); got != "60*I2.J2 + 94*IL.JL + 62*IL + 4*J2 + 56*JL + 103" || when != "IL >= 2, JL >= 2, I2 >= 1, J2 >= 1, IL even, JL even" {
		t.Errorf("summary %s for %s", got, when)
	}
	var pts []map[string]int64
	for il := int64(-2); il <= 9; il++ {
		for jl := int64(-2); jl <= 9; jl++ {
			for _, ij := range [][2]int64{{-1, 3}, {0, 0}, {1, 1}, {2, 5}, {4, -2}, {7, 3}} {
				pts = append(pts, map[string]int64{"IL": il, "JL": jl, "I2": ij[0], "J2": ij[1]})
			}
		}
	}
	n := checkPieces(t, r, string(src), pts)
	t.Logf("COLLC: %d pieces, %d points equal the interpreter", len(r.Pieces), n)
}

// TestCOLLCLoopPieces: the pieces of COLLC's loops are disjoint, cover
// every point, agree with the loop's count, and none is empty (a
// congruence that no value of a short range meets, IL = 2 with IL odd,
// is dropped).
func TestCOLLCLoopPieces(t *testing.T) {
	f := parseFile(t, "testdata/collc.f")
	r := summaryOf(t, NewEngine(Options{}), f, "COLLC")
	for _, s := range r.Statements {
		if len(s.Pieces) == 0 {
			continue
		}
		used := make([]bool, len(s.Pieces))
		for n := int64(0); n < 16*16*4; n++ {
			il, jl, ij := n%16-3, n/16%16-3, [][2]int64{{-1, 3}, {0, 0}, {3, 2}, {2, -1}}[n/256]
			env := map[string]*big.Rat{"IL": big.NewRat(il, 1), "JL": big.NewRat(jl, 1), "I2": big.NewRat(ij[0], 1), "J2": big.NewRat(ij[1], 1)}
			want := EvalGuarded(s.Count, env)
			holds := 0
			for k, p := range s.Pieces {
				in := true
				for _, c := range p.When {
					in = in && c.Holds(env)
				}
				if !in {
					continue
				}
				holds++
				used[k] = true
				if got := EvalGuarded(p.Cost, env); !got.Equal(want) {
					t.Errorf("line %d at IL=%d JL=%d: piece %s gives %s, count %s", f.Lines.Line(r.Unit.Abs(s.Stmt.Pos()))+1, il, jl, WhenString(p.When, false), got, want)
				}
			}
			if holds != 1 {
				t.Fatalf("line %d at IL=%d JL=%d: %d pieces hold", f.Lines.Line(r.Unit.Abs(s.Stmt.Pos()))+1, il, jl, holds)
			}
		}
		for k, u := range used {
			if !u {
				t.Errorf("line %d: piece %s holds nowhere", f.Lines.Line(r.Unit.Abs(s.Stmt.Pos()))+1, WhenString(s.Pieces[k].When, false))
			}
		}
	}
}
