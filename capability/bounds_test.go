package capability

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// TestBoundsInquiryLoops: a loop bounded by LBOUND/UBOUND (or SIZE) of an
// array of explicit shape gets the findings, with the same numbers, as
// the same loop with the bounds written out. Before, such a range was
// "not polynomial, estimated for one iteration": at N = 65,536 the loop
// got a fine-grain-loop warning that the written-out loop does not get
// (2.7 ns of work against 659 ns of shifts), and at N = 4,096 the warning
// gave 2.7 ns of work where there are 270 ns. Free form and fixed form.
func TestBoundsInquiryLoops(t *testing.T) {
	free := `program gaps
  implicit none
  integer, parameter :: n = NN
  real :: u(2,n), d(2,n)
  integer :: i
!hpf$ distribute u(*,block)
!hpf$ align d(k,j) with u(k,j)
  call random_number(u)
  do i = LO, HI
    d(1,i) = u(1,i+1) - u(1,i)
    d(2,i) = u(2,i+1) - u(2,i)
  end do
  print *, maxval(d)
end program gaps
`
	fixed := `      PROGRAM GAPS
      PARAMETER (N = NN)
      REAL U(2,N), D(2,N)
      DECOMPOSITION G(2,N)
      ALIGN U, D WITH G
      DISTRIBUTE G(:,BLOCK)
      DO 10 I = LO, HI
         D(1,I) = U(1,I+1) - U(1,I)
         D(2,I) = U(2,I+1) - U(2,I)
   10 CONTINUE
      PRINT *, D(1,1)
      END
`
	for _, c := range []struct {
		name, src, lo, hi, written string
		form                       parser.Form
	}{
		{"gaps.f90", free, "lbound(u,2)", "ubound(u,2) - 1", "1, n - 1", parser.Free},
		{"gaps.f90", free, "lbound(u, dim=2)", "size(u,2) - 1", "1, n - 1", parser.Free},
		{"gaps.f", fixed, "LBOUND(U,2)", "UBOUND(U,2) - 1", "1, N - 1", parser.Fixed},
	} {
		for _, n := range []string{"4096", "65536"} {
			run := func(bounds string) []Finding {
				src := strings.Replace(strings.Replace(c.src, "NN", n, 1), "LO, HI", bounds, 1)
				f := parser.Parse(c.name, []byte(src), &parser.Config{Form: c.form})
				if len(f.Errors()) > 0 {
					t.Fatalf("%s: %v\n%s", c.name, f.Errors(), src)
				}
				return Capabilities(f, nil, partition.Options{Procs: 16})
			}
			want, got := run(c.written), run(c.lo+", "+c.hi)
			if len(want) == 0 && n == "4096" {
				t.Errorf("%s N = %s: no finding with the bounds written out", c.name, n)
			}
			if len(got) != len(want) {
				t.Errorf("%s N = %s, DO I = %s, %s: %d findings, want %d: %v", c.name, n, c.lo, c.hi, len(got), len(want), got)
				continue
			}
			for i := range want {
				if got[i].Code != want[i].Code || got[i].Message != want[i].Message {
					t.Errorf("%s N = %s, DO I = %s, %s:\n got %s: %s\nwant %s: %s", c.name, n, c.lo, c.hi,
						got[i].Code, got[i].Message, want[i].Code, want[i].Message)
				}
			}
		}
	}
}
