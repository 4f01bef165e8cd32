package partition

import (
	"fmt"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// movedMessages estimates the loop on line 7 of a program whose
// DISTRIBUTE line is dist and whose loop body is body, on 4 processors.
func movedMessages(t *testing.T, dist, body string) []string {
	t.Helper()
	src := `      PROGRAM M
      REAL A(100, 200), B(200, 100), C(100, 200), V(100)
      INTEGER K
` + dist + `
      A = 1.0
      C = 0.0
      DO 10 K = 1, 10
` + body + `
   10 CONTINUE
      END
`
	f := parser.Parse("m.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := EstimateLoop(f, u, firstLoop(t, u, 7, f), FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	var got []string
	for _, m := range e.Messages {
		got = append(got, fmt.Sprintf("%s %s %s x %s", m.Pattern, m.Array, m.Count, m.Bytes))
	}
	return got
}

// CSHIFT and EOSHIFT along a BLOCK dimension send |shift| planes of the
// local block to the neighbour, along a CYCLIC one every local element,
// along an undistributed one nothing; TRANSPOSE is an all-to-all of 1/P²
// of the array per pair; SPREAD of a distributed section broadcasts each
// processor's share of it, and is not a reduction.
func TestDataMovingIntrinsics(t *testing.T) {
	for _, c := range []struct {
		name, dist, body string
		want             []string
	}{
		// A(100, 200) by columns: a plane along dimension 2 is 100
		// elements; 2 of them.
		{"cshift block", "!HPF$ DISTRIBUTE (*, BLOCK) :: A, C", "         C = CSHIFT(A, 2, 2)",
			[]string{"open-shift A 10 x 800"}},
		{"eoshift block dim keyword", "!HPF$ DISTRIBUTE (*, BLOCK) :: A, C", "         C = EOSHIFT(A, -1, DIM=2)",
			[]string{"open-shift A 10 x 400"}},
		// Along the undistributed dimension the shift is local.
		{"cshift local dim", "!HPF$ DISTRIBUTE (*, BLOCK) :: A, C", "         C = CSHIFT(A, 1, 1)", nil},
		// CYCLIC: every local element (100 x 50) moves.
		{"cshift cyclic", "!HPF$ DISTRIBUTE (*, CYCLIC) :: A, C", "         C = CSHIFT(A, 1, 2)",
			[]string{"vector-shift A 10 x 20000"}},
		// 100 x 200 elements of 4 bytes over 16 pairs.
		{"transpose", "!HPF$ DISTRIBUTE (*, BLOCK) :: A, B", "         B = TRANSPOSE(A)",
			[]string{"alltoall A 10 x 5000"}},
		// Column K of A (100 elements) held by one processor, spread along
		// the columns: a broadcast of 400 bytes per step, no reduction.
		{"spread", "!HPF$ DISTRIBUTE (*, BLOCK) :: A, C", "         C = C + SPREAD(A(:, K), 2, 200)",
			[]string{"broadcast A 10 x 400"}},
		// Row K spread along the rows: each processor holds 50 of its
		// 200 elements.
		{"spread row", "!HPF$ DISTRIBUTE (*, BLOCK) :: A, C", "         C = C + SPREAD(A(K, :), 1, 100)",
			[]string{"broadcast A 10 x 200"}},
	} {
		got := movedMessages(t, c.dist, c.body)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: messages %v, want %v", c.name, got, c.want)
		}
	}
}
