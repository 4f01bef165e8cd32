package partition

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// TestGridChoices: the factorizations of P kept as grids, both a, b >= 2:
// the two squarest pairs and the extreme pair, each both ways round.
func TestGridChoices(t *testing.T) {
	for p, want := range map[int]string{
		2:     "[]",
		4:     "[[2 2]]",
		8:     "[[2 4] [4 2]]",
		12:    "[[2 6] [3 4] [4 3] [6 2]]",
		16:    "[[2 8] [4 4] [8 2]]",
		7:     "[]",
		1024:  "[[2 512] [16 64] [32 32] [64 16] [512 2]]",
		2048:  "[[2 1024] [16 128] [32 64] [64 32] [128 16] [1024 2]]",
		65536: "[[2 32768] [128 512] [256 256] [512 128] [32768 2]]",
	} {
		if got := fmt.Sprint(GridChoices(p)); got != want {
			t.Errorf("P = %d: %s, want %s", p, got, want)
		}
	}
}

// longStencil is a five-point stencil on an array three times longer
// along its first dimension (M = 3N) than along its second.
const longStencil = `      PROGRAM LONG
      PARAMETER (N = 256, M = 3*N)
      REAL U(M,N), V(M,N)
!HPF$ DISTRIBUTE (BLOCK,BLOCK) :: U, V
      DO 10 J = 2, N-1
         DO 10 I = 2, M-1
            V(I,J) = 0.25*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
   10 CONTINUE
      END
`

// shiftMachine is a machine of p processors with free computation whose
// every message, a neighbour shift contiguous or strided or any other
// pattern, takes a + b a byte.
func shiftMachine(p int, a, b float64) *machine.Machine {
	ops := map[string]float64{}
	for _, op := range []string{"add", "sub", "mul", "div", "compare", "load", "store", "loop", "iteration", "intrinsic", "logical", "load.reuse"} {
		ops[op] = 1e-18
	}
	comm := map[string]machine.Curve{}
	for _, pat := range machine.Patterns() {
		comm[pat] = machine.Curve{{A: a, B: b}}
	}
	return &machine.Machine{Ops: ops, Comm: map[int]map[string]machine.Curve{p: comm}}
}

// TestGridCandidatesLongArray: on U(M,N) with M = 3N, P = 16, a grid of
// a x b processors (a along M) sends each processor two messages of
// N/b elements (the rows cut by dimension 1) and two of M/a = 3N/a (the
// columns cut by dimension 2), 4 bytes an element; with shifts of a + b
// a byte and free computation:
//
//	8x2:       4a + 4(2 N/2 + 2 3N/8) b = 4a +  7Nb
//	4x4:       4a + 4(2 N/4 + 2 3N/4) b = 4a +  8Nb
//	2x8:       4a + 4(2 N/8 + 2 3N/2) b = 4a + 13Nb
//	(BLOCK,:): 2a + 4(2 N) b            = 2a +  8Nb
//	(:,BLOCK): 2a + 4(2 3N) b           = 2a + 24Nb
//
// So 8x2, a grid the even factorization (4x4) is not, is the fastest
// once Nb > 2a (the two more start-ups pay for N bytes fewer), and
// (BLOCK,:) below: with a = 100 µs and b = 1 µs, from N = 200.
func TestGridCandidatesLongArray(t *testing.T) {
	const a, b = 100e-6, 1e-6
	f, u := parseOne(t, "long.f", longStencil)
	loop := firstLoop(t, u, 5, f)
	m := shiftMachine(16, a, b)
	_, cands := Candidates(u, 16, f.Dialect)
	names := map[string]bool{}
	for _, d := range cands {
		names[d.Name()] = true
	}
	for _, want := range []string{"U(BLOCK,BLOCK)", "U(BLOCK,BLOCK) on 2x8", "U(BLOCK,BLOCK) on 8x2", "U(CYCLIC,BLOCK) on 8x2", "U(:,BLOCK)"} {
		if !names[want] {
			t.Errorf("no candidate %s among %v", want, names)
		}
	}
	if len(cands) != 16 {
		t.Errorf("%d candidates, want 16: the 8 formats, and the 4 with two distributed dimensions on 2x8 and 8x2 too", len(cands))
	}
	for _, c := range []struct {
		n           int64
		first, next string
	}{{256, "U(BLOCK,BLOCK) on 8x2", "U(BLOCK,:)"}, {128, "U(BLOCK,:)", "U(BLOCK,BLOCK) on 8x2"}} {
		opt := Options{Machine: m, Procs: 16, Values: map[string]*big.Rat{"N": big.NewRat(c.n, 1)}}
		// M is a PARAMETER of N: the candidates at this N.
		var at []*Distribution
		for _, d := range cands {
			at = append(at, d.at(u, f.Dialect))
		}
		ranked := Rank(f, u, loop, at, opt)
		if ranked[0].Dist.Name() != c.first || ranked[1].Dist.Name() != c.next {
			t.Errorf("N = %d: %s then %s first; want %s then %s", c.n, ranked[0].Dist.Name(), ranked[1].Dist.Name(), c.first, c.next)
		}
		n := float64(c.n)
		want := map[string]float64{
			"U(BLOCK,BLOCK) on 8x2": 4*a + 7*n*b,
			"U(BLOCK,BLOCK)":        4*a + 8*n*b,
			"U(BLOCK,BLOCK) on 2x8": 4*a + 13*n*b,
			"U(BLOCK,:)":            2*a + 8*n*b,
			"U(:,BLOCK)":            2*a + 24*n*b,
		}
		for _, r := range ranked {
			w, ok := want[r.Dist.Name()]
			if !ok {
				continue
			}
			// Within 2%: the loop leaves out the first and last row
			// and column (N - 2 of N).
			if got := secs(t, r.Est.Time); math.Abs(got-w) > 0.02*w {
				t.Errorf("N = %d: %s %g s, want %g s", c.n, r.Dist.Name(), got, w)
			}
		}
	}
}

// BenchmarkRankGrids ranks every candidate of a two-dimensional stencil
// (redblack.f's sweep) and of a three-dimensional one (the kit's
// ERLEBACHER) at P = 16, 1,024 and 65,536, the grids included; the
// metric cands is how many candidates are ranked.
func BenchmarkRankGrids(b *testing.B) {
	for _, c := range []struct {
		name, path string
		line       int
	}{
		{"redblack", "../examples/redblack.f", 13},
		{"erlebacher", "../validation/fortrand/erlebacher.f", 15},
	} {
		src, err := os.ReadFile(c.path)
		if err != nil {
			b.Fatal(err)
		}
		f := parser.Parse(c.name, src, nil)
		for _, p := range []int{16, 1024, 65536} {
			b.Run(fmt.Sprintf("%s/P=%d", c.name, p), func(b *testing.B) {
				var u *parser.Unit
				var loop *parser.DoConstruct
				for _, l := range parser.LoopsAt(f, c.line) {
					u, loop = l.Unit, l.Do
				}
				if loop == nil {
					b.Fatalf("no loop on line %d", c.line)
				}
				_, cands := Candidates(u, p, f.Dialect)
				opt := Options{Machine: machine.DefaultMachine(), Procs: p}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					Rank(f, u, loop, cands, opt)
				}
				b.ReportMetric(float64(len(cands)), "cands")
			})
		}
	}
}
