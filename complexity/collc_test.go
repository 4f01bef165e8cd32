package complexity

import (
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
