package partition

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// messagesOf estimates the loop on the line and lists its messages as
// "pattern array count x bytes", sorted.
func messagesOf(t *testing.T, src string, line, procs int) []string {
	t.Helper()
	f := parser.Parse("t.hpf", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, procs, ""), Options{Machine: machine.DefaultMachine(), Procs: procs})
	var out []string
	for _, m := range e.Messages {
		out = append(out, fmt.Sprintf("%s %s %s x %s", m.Pattern, m.Array, m.Count, m.Bytes))
	}
	sort.Strings(out)
	return out
}

// A scalar private to the iterations of a partitioned loop (HPF's NEW)
// is computed by the owner that runs the iteration, the owner of X(I):
// its reads of W(I-1) and W(I+1) cross the block boundaries as they would
// in X(I) = W(I-1) + W(I+1), one element from each neighbour.
func TestPrivateScalarReadsAtHome(t *testing.T) {
	const head = `program p
  integer, parameter :: n = 400
  real :: x(n), w(0:n+1), tmp
  integer :: i
!hpf$ template t(0:n+1)
!hpf$ align x(i) with t(i)
!hpf$ align w(i) with t(i)
!hpf$ distribute t(block)
!hpf$ independent, new(tmp)
  do i = 1, n
`
	viaTmp := head + "    tmp = w(i-1) + w(i+1)\n    x(i) = tmp / 2.0\n  end do\nend program p\n"
	direct := head + "    x(i) = (w(i-1) + w(i+1)) / 2.0\n  end do\nend program p\n"
	want := []string{"open-shift W 1 x 4", "open-shift W 1 x 4"}
	for name, src := range map[string]string{"through TMP": viaTmp, "direct": direct} {
		if got := messagesOf(t, src, 10, 4); strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s: messages %q, want %q", name, got, want)
		}
	}
	// A private scalar reading the element the iteration owns sends nothing.
	own := head + "    tmp = w(i) * 2.0\n    x(i) = tmp\n  end do\nend program p\n"
	if got := messagesOf(t, own, 10, 4); len(got) != 0 {
		t.Errorf("TMP = W(I): messages %q, want none", got)
	}
}

// A shift by one along a CYCLIC(64) dimension crosses a processor
// boundary only at the first element of each block: Y(I) on T(I+1) reads
// X(I) on T(I), so the loop I = 1, 4095 (template 2..4096 of 0:4097,
// 65 blocks of 64 on 16 processors) needs on each processor one element
// for each of its blocks that start inside the range: processor 0 holds
// blocks 0, 16, 32, 48, 64, of which 16, 32, 48 and 64 start at template
// 64·b, i = 64·b - 1 in range; every other processor also holds four
// such blocks. 4 elements of 4 bytes in one message from the processor
// before, not the 256 elements a CYCLIC(1) shift moves.
func TestBlockCyclicShiftBytes(t *testing.T) {
	const src = `program p
  integer, parameter :: n = 4096
  real :: x(n), y(n)
  integer :: i
!hpf$ processors procs(16)
!hpf$ template t(0:n+1)
!hpf$ align x(i) with t(i)
!hpf$ align y(i) with t(i+1)
!hpf$ distribute t(FORMAT) onto procs
  do i = 1, n - 1
    y(i) = x(i) * 2.0
  end do
end program p
`
	for _, c := range []struct{ format, want string }{
		{"cyclic(64)", "vector-shift X 1 x 16"},
		{"cyclic", "vector-shift X 1 x 1024"}, // 256 elements: all of them
		{"cyclic(1)", "vector-shift X 1 x 1024"},
	} {
		got := messagesOf(t, strings.Replace(src, "FORMAT", c.format, 1), 10, 16)
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%s: messages %q, want %q", c.format, got, c.want)
		}
	}
}
