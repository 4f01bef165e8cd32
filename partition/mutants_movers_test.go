package partition

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// Tests of movers.go written against the mutants that lived (issue 21,
// docs/mutation-partition.md).

// moverMessages is movedMessages with declarations added (decl) and each
// message's target and reason: the loop DO K = 1, 10 around body, on 4
// processors.
func moverMessages(t *testing.T, decl, dist, body string) []string {
	t.Helper()
	src := "      PROGRAM M\n      REAL A(100, 200), B(200, 100), C(100, 200), V(100)\n      INTEGER K\n" + decl + dist +
		"\n      A = 1.0\n      C = 0.0\n      DO 10 K = 1, 10\n" + body + "\n   10 CONTINUE\n      END\n"
	f := parser.Parse("m.f", []byte(src), nil)
	u := f.Units[0]
	var loop *parser.DoConstruct
	for _, s := range u.Body {
		if x, ok := s.(*parser.DoConstruct); ok {
			loop = x
		}
	}
	if loop == nil {
		t.Fatalf("no loop in %s", src)
	}
	e := EstimateLoop(f, u, loop, FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	var got []string
	for _, m := range e.Messages {
		got = append(got, fmt.Sprintf("%s %s %s x %s -> %q: %s", m.Pattern, m.Array, m.Count, m.Bytes, m.Target, m.Why))
	}
	return got
}

func TestMoversByHand(t *testing.T) {
	const byCols = "!HPF$ DISTRIBUTE (*, BLOCK) :: A, C"
	for _, c := range []struct {
		name, decl, dist, body string
		want                   []string
	}{
		// A(100, 200) by rows on 4: a plane along dimension 1 is a row
		// of the local block, 200 elements, 800 bytes (strided: the
		// first dimension).
		{"cshift along dimension 1", "", "!HPF$ DISTRIBUTE (BLOCK, *) :: A, C", "         C = CSHIFT(A, 1, 1)",
			[]string{`open-shift-strided A 10 x 800 -> "C": CSHIFT(A, 1, 1) moves 1 plane(s) to the neighbour along dimension 1`}},
		// DIM past the rank (as the user types): nothing priced.
		{"cshift past the rank", "", byCols, "         C = CSHIFT(A, 1, 3)", nil},
		// A shift of 60 columns where each processor holds 50 sends the
		// whole local block: 50 x 100 x 4 bytes.
		{"shift past the block", "", byCols, "         C = CSHIFT(A, 60, 2)",
			[]string{`open-shift A 10 x 20000 -> "C": CSHIFT(A, 60, 2) moves 60 plane(s) to the neighbour along dimension 2`}},
		{"cyclic reason", "", "!HPF$ DISTRIBUTE (*, CYCLIC) :: A, C", "         C = CSHIFT(A, 1, 2)",
			[]string{`vector-shift A 10 x 20000 -> "C": CSHIFT(A, 1, 2) along a CYCLIC dimension moves every local element`}},
		// A scalar result: the shift has no array target; the sum is
		// combined (4 bytes, a REAL).
		{"scalar target", "      REAL S\n", byCols, "         S = SUM(CSHIFT(A, 2, 2))",
			[]string{`open-shift A 10 x 800 -> "": CSHIFT(A, 2, 2) moves 2 plane(s) to the neighbour along dimension 2`,
				`reduction-broadcast A 10 x 4 -> "": SUM(...A...) combines the shares of every processor`}},
		// Declared INTRINSIC, CSHIFT is still the intrinsic.
		{"declared intrinsic", "      INTRINSIC CSHIFT\n", byCols, "         C = CSHIFT(A, 2, 2)",
			[]string{`open-shift A 10 x 800 -> "C": CSHIFT(A, 2, 2) moves 2 plane(s) to the neighbour along dimension 2`}},
		// An array named TRANSPOSE indexed by a vector: no all-to-all.
		{"array named transpose", "      REAL TRANSPOSE(100)\n      INTEGER IV(100)\n", "!HPF$ DISTRIBUTE (BLOCK) :: IV, V", "         V = TRANSPOSE(IV)", nil},
		// SPREAD of one element is no movement of a distributed array:
		// the element is sent by its owner to all (4 bytes).
		{"spread of an element", "", byCols, "         V = SPREAD(A(1, K), 1, 100)",
			[]string{`broadcast A 10 x 4 -> "": V is computed from A by its owner and sent to all`}},
		// Three subscripts of a two-dimensional A (as the user types).
		{"section past the rank", "", byCols, "         C = C + SPREAD(A(:, K, 1), 2, 200)", nil},
	} {
		if got := moverMessages(t, c.decl, c.dist, c.body); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: messages\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
