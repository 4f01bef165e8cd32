package complexity

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// arrayExprDecls declares the arrays of TestArrayExprCounts: A is
// 100×30, B2 30×20, V and W 100 elements, L 30, X assumed-shape.
const arrayExprDecls = `  integer, parameter :: n = 100, m = 30, k = 20
  real :: a(n,m), b2(m,k), c(n,k), v(n), w(n), y(n), s, x(:)
  logical :: l(m), ok
  integer :: i, j, ipos(1), cnt, iv(n)
`

// TestArrayExprCounts: the array expressions inside transformational
// intrinsics cost every element, in the all-one table: a section element
// (load 1, second dimension 1, subscripts), the elementwise operators on
// it, and the reduction's own operation on every element (SUM +, PRODUCT
// *, MAXVAL and MAXLOC a MAX, COUNT +, ANY and ALL a logical operator,
// DOT_PRODUCT and MATMUL a multiply-add). Each count is written as the
// product of its factors, worked out by hand.
func TestArrayExprCounts(t *testing.T) {
	cases := []struct{ stmt, want string }{
		// HPF Jacobi's convergence test at N = 512: 510² elements of
		// (2 + 2 + 1 subtract + 0 ABS) + 1 MAX, the four sections'
		// bounds NN-1 once (4), and ERR.
		{"err = maxval(abs(unew(2:nn-1,2:nn-1) - u(2:nn-1,2:nn-1)))", "1560605"}, // 510*510*6 + 4 + 1
		// The section copy, for comparison: 510² × (2 + 2) + 4.
		{"u(2:nn-1,2:nn-1) = unew(2:nn-1,2:nn-1)", "1040404"},
		{"s = sum(a)", "9001"},                    // 3000*(2+1) + 1
		{"s = sum(a(1:n:2,:))", "4501"},           // 50*30*(2+1) + 1
		{"s = sum(a(n:1:-3,2:m))", "2960"},        // 34*29*(2 + 1) + 1 unary minus once + 1
		{"s = sum(a, mask=a > 0.0)", "15001"},     // 3000*(2+2+0 rel+1) + 1
		{"s = sum(a, a > 0.0)", "15001"},          // MASK by position (logical)
		{"s = product(v)", "201"},                 // 100*(1+1) + 1
		{"s = minval(v, mask=v /= 0.0)", "301"},   // 100*(1+1+1) + 1
		{"cnt = count(a > 0.0)", "9001"},          // 3000*(2+0+1) + 1
		{"ok = any(v > w)", "301"},                // 100*(1+1+0+1) + 1
		{"ok = all(v > 0.0)", "201"},              // 100*(1+0+1) + 1
		{"if (any(a < 0.0)) s = 1.0", "18001/2"},  // 3000*3 + 1/2 (the assignment, half the time)
		{"l = all(a > 0.0, dim=1)", "9030"},       // 30 stores + 3000*(2+0+1)
		{"y = sum(a, dim=2)", "9100"},             // 100 stores + 3000*(2+1)
		{"s = dot_product(v, w)", "401"},          // 100*(1+1+1+1) + 1
		{"ipos = maxloc(v)", "201"},               // 1 store + 100*(1+1)
		{"ipos = maxloc(v, mask=v > 0.0)", "301"}, // 1 store + 100*(1+1+0+1)
		// FINDLOC compares every element with VALUE (a relational
		// operator, 0 in the all-one table), VALUE evaluated once.
		{"ipos = findloc(v, 0.0)", "101"},             // 1 store + 100*(1+0)
		{"ipos = findloc(v, s, mask=v > 0.0)", "202"}, // 1 store + 1 S + 100*(1+0+1+0)
		{"ipos = findloc(v, s, back=.true.)", "102"},  // 1 store + 1 S + 100*(1+0)
		// REDUCE applies OPERATION (a function of its own, not in view
		// here: nothing) to every element.
		{"s = reduce(v, plus)", "101"},               // 1 store + 100*1
		{"y = reduce(a, plus, dim=2)", "6100"},       // 100 stores + 3000*2 (TestReduceOperation: PLUS in view)
		{"iv = findloc(a, 1.0, 2)", "6100"},          // DIM=2 by position: 100 stores + 3000*(2+0)
		{"iv(1:m) = findloc(a, 1.0, dim=1)", "6030"}, // DIM=1: 30 stores + 3000*(2+0)
		{"c = matmul(a, b2)", "364000"},              // 100*30*20*(2+2+1+1) + 2000 stores of 2
		{"y = matmul(a, b2(:,1))", "18100"},          // 100*30*(2+2+1+1) + 100 stores of 1
		{"s = sum(transpose(a))", "12001"},           // 3000*(2 + 1 TRANSPOSE + 1) + 1
		{"v = v / sum(v)", "500"},                    // 100*(1+1+1) + once 100*(1+1)
		{"where (v > sum(v)/n) v = 0.0", "500"},      // mask 100*(1+0+1) + 200 once, body 100*1
		{"s = s + sum(a(:,j)**2)", "503"},            // 1+1+1 + 100*(1 J + 2 + 1 ** + 1 +)
		{"s = sum(sum(a, dim=1))", "9031"},           // 3000*(2+1) + 30*(0+1) + 1
		{"s = sum(x)", "2*UNKNOWN_1 + 1"},            // assumed shape: an unknown count
		// Fortran 2008's bit and parity reductions: IAND, IOR, IEOR and
		// .NEQV. on every element.
		{"cnt = iall(iv)", "201"},                 // 100*(1+1) + 1
		{"cnt = iany(iv)", "201"},                 // 100*(1+1) + 1
		{"cnt = iparity(iv, mask=iv > 0)", "301"}, // 100*(1+1+1+0) + 1
		{"ok = parity(l)", "61"},                  // 30*(1+1) + 1
		{"l = parity(a > 0.0, dim=1)", "9030"},    // 30 stores + 3000*(2+0+1)
		// I/O lists: an array item stands for its elements (F2018 12.6.3).
		{"print *, a", "6000"},               // 3000*2
		{"print *, v(1:n:2)*2.0", "100"},     // 50*(1+1)
		{"write (6,*) s, v", "101"},          // 1 + 100*1
		{"print *, sum(a, dim=2)", "9000"},   // the reduction once: 3000*(2+1)
		{"print *, (v(i), i = 1, n)", "200"}, // the implied DO, as before: 100*(1+1 I)
		// Nested reductions in an array assignment: the inner one is paid
		// once, as part of the outer one, not once more (it was
		// subtracted from every element: -680,800 for two MATMULs).
		{"y = y + sum(sum(a, dim=1))", "9330"}, // 100*(1+1+1) + 3000*(2+1) + 30*(0+1)
		// 100*30*100 multiply-adds of (2 + 3 TRANSPOSE + 1 + 1), then
		// 100*100*20 of (0 + 2 + 1 + 1), and 2000 stores of 2.
		{"c = matmul(matmul(a, transpose(a)), c)", "2904000"},
		// A reduction in a section's bound is paid once, with the
		// bounds, not twice: an unknown count of stores of 1, and
		// MAXVAL's 100*(1+1) once (it was -199*UNKNOWN_1 + 400).
		{"v(1:maxval(iv)) = 0.0", "UNKNOWN_1 + 200"},
		// Inside a reduction, likewise: an unknown count of (load 1 +
		// add 1), MAXVAL's 200 once, the store of S (it was
		// -198*UNKNOWN_1 + 401).
		{"s = sum(v(1:maxval(iv)))", "2*UNKNOWN_1 + 201"},
	}
	for _, c := range cases {
		src := "subroutine t(x)\n" + arrayExprDecls +
			"  integer, parameter :: nn = 512\n  real :: u(nn,nn), unew(nn,nn), err\n  j = 1\n" +
			"  " + c.stmt + "\nend subroutine\n"
		f := parseSrc(t, src)
		r := NewEngine(Options{}).File(f)[0]
		var got string
		for _, st := range r.Statements {
			if f.Lines.Line(r.Unit.Abs(st.Stmt.Pos())) == strings.Count(src[:strings.Index(src, c.stmt)], "\n") {
				got = st.Cost.String()
			}
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.stmt, got, c.want)
		}
	}
}

func parseSrc(t *testing.T, src string) *parser.File {
	t.Helper()
	f := parser.Parse("t.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%v", errs)
	}
	return f
}

// TestReductionMatchesArrayAssignment is a property test: a reduction
// of a random elementwise expression X over sections (steps, negative
// steps, whole arrays) with a random MASK costs what the array
// assignments T(sec) = X and L(sec) = MASK cost per element, times the
// number of elements (counted here from the sections), plus one
// operation of the reduction per element (1 in the all-one table), plus
// the scalar on the left.
func TestReductionMatchesArrayAssignment(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	const n, m = 40, 30
	// section returns a random section of extent ext in a dimension of
	// size size.
	section := func(ext, size int) string {
		steps := []int{1, 1, 2, 3, -1, -2}
		for {
			st := steps[rng.Intn(len(steps))]
			lo := 1 + rng.Intn(size)
			hi := lo + (ext-1)*st
			if hi < 1 || hi > size {
				continue
			}
			if st == 1 && lo == 1 && hi == size && rng.Intn(2) == 0 {
				return ":"
			}
			if st == 1 {
				return fmt.Sprintf("%d:%d", lo, hi)
			}
			return fmt.Sprintf("%d:%d:%d", lo, hi, st)
		}
	}
	for iter := 0; iter < 300; iter++ {
		r1, r2 := 1+rng.Intn(n), 1+rng.Intn(m)
		ref := func(name string) string {
			return fmt.Sprintf("%s(%s,%s)", name, section(r1, n), section(r2, m))
		}
		var gen func(depth int) string
		gen = func(depth int) string {
			if depth == 0 || rng.Intn(4) == 0 {
				switch rng.Intn(5) {
				case 0:
					return "s2"
				case 1:
					return "2.5"
				}
				return ref([]string{"p", "q"}[rng.Intn(2)])
			}
			switch rng.Intn(7) {
			case 0:
				return "abs(" + gen(depth-1) + ")"
			case 1:
				return "sqrt(" + gen(depth-1) + ")"
			case 2:
				return "-(" + gen(depth-1) + ")"
			case 3:
				return "max(" + gen(depth-1) + ", " + gen(depth-1) + ")"
			}
			return "(" + gen(depth-1) + []string{" + ", " - ", " * ", " / "}[rng.Intn(4)] + gen(depth-1) + ")"
		}
		x := ref("p") + " * " + gen(3) // at least one section: X is an array
		mask := ""
		if rng.Intn(2) == 0 {
			mask = ref("q") + " > " + gen(2)
		}
		red := []string{"SUM", "PRODUCT", "MAXVAL", "MINVAL"}[rng.Intn(4)]
		tsec := ref("t")
		lsec := ref("l")
		call := red + "(" + x + ")"
		if mask != "" {
			call = red + "(" + x + ", mask=" + mask + ")"
		}
		maskStmt := lsec + " = .true."
		if mask != "" {
			maskStmt = lsec + " = " + mask
		}
		src := fmt.Sprintf(`subroutine r
  integer, parameter :: n = %d, m = %d
  real :: p(n,m), q(n,m), t(n,m), s, s2
  logical :: l(n,m)
  s = %s
  %s = %s
  %s = 0.0
  %s
  %s = .true.
end subroutine
`, n, m, call, tsec, x, tsec, maskStmt, lsec)
		f := parseSrc(t, src)
		r := NewEngine(Options{}).File(f)[0]
		var cost []*big.Rat
		for _, st := range r.Statements {
			v, ok := st.Cost.Value()
			if !ok {
				t.Fatalf("%s: cost %s is not a number", src, st.Cost)
			}
			cost = append(cost, v)
		}
		if len(cost) != 5 {
			t.Fatalf("%d statements in\n%s", len(cost), src)
		}
		e := big.NewRat(int64(r1*r2), 1)
		// want = 1 + (T=X − T=0) + (L=MASK − L=.TRUE.) + E·1
		want := new(big.Rat).Sub(cost[1], cost[2])
		want.Add(want, new(big.Rat).Sub(cost[3], cost[4]))
		want.Add(want, e)
		want.Add(want, big.NewRat(1, 1))
		if cost[0].Cmp(want) != 0 {
			t.Fatalf("%s costs %s, want %s (the array assignments' per-element costs over %d elements)", "s = "+call, cost[0].RatString(), want.RatString(), r1*r2)
		}
	}
}

// TestArrayExprSymbolic: a reduction over a whole array declared with
// the routine's arguments is a polynomial in them, and the span of a
// reduction is one element and one operation.
func TestArrayExprSymbolic(t *testing.T) {
	f := parseSrc(t, `subroutine s(a, n, m, r)
  integer n, m
  real a(n,m), r
  r = sum(a) + maxval(abs(a(2:n-1,:)), mask=a(2:n-1,:) > 0.0)
end subroutine
`)
	r := NewEngine(Options{}).File(f)[0]
	// SUM: N·M × (2 + 1); MAXVAL: (N-2)·M × (2 the element + 0 ABS, the
	// mask's 2 + 0, and 1 MAX) = 5·(N-2)·M, and the two sections' N-1
	// once (a load of N and a subtraction each, 4); the + and R: 2.
	if got, want := r.Summary.String(), "8*M.N - 10*M + 6"; got != want {
		t.Errorf("work %s, want %s", got, want)
	}
	// One element of each: 3 + 5 and the bounds' 4, and 2.
	if got, want := r.Span.String(), "14"; !r.HasSpan || got != want {
		t.Errorf("span %s (has %v), want %s", got, r.HasSpan, want)
	}
}

// TestReduceOperation: REDUCE pays its OPERATION's count on every
// element when the function's body is in view: PLUS costs 4 (X, Y, the
// +, the result's store), so REDUCE over 50 elements is 50*(1 + 4) and
// the store of S 1.
func TestReduceOperation(t *testing.T) {
	src := `module mm
contains
  pure real function plus(x, y)
    real, intent(in) :: x, y
    plus = x + y
  end function
  subroutine t(v)
    real :: v(50), s
    s = reduce(v, plus)
  end subroutine
end module
`
	f := parseSrc(t, src)
	got := map[string]string{}
	for _, r := range NewEngine(Options{}).File(f) {
		got[r.Unit.Name] = r.Summary.String()
	}
	if got["PLUS"] != "4" || got["T"] != "251" {
		t.Errorf("PLUS %s, T %s; want 4 and 251", got["PLUS"], got["T"])
	}
}
