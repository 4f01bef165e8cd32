package partition

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestArrangementTooLarge: the size of a PROCESSORS arrangement is the
// product of its extents, saturated where it passes what an int64 holds
// and called too large past the estimator's MaxProcs, never wrapped
// around: PROCESSORS P(40000,40000,40000,40000,40000) holds 1.024·10²³
// processors, which wrapped to 2,123,646,838,278,979,584; P(65536,65536,
// 65536,65536) wrapped to 0 and P(100000) was past MaxProcs, and both got
// no note at all. The estimate's note says so, and the grid is never
// taken from such an arrangement.
func TestArrangementTooLarge(t *testing.T) {
	for _, c := range []struct {
		shape, want string // want: the note's count; "" for no note
	}{
		{"4,4", ""},
		{"4,8", "holds 32 processors"},
		{"100000", "holds 100000 (too large: the estimator takes at most 65536) processors"},
		{"65536,65536", "holds 4294967296 (too large: the estimator takes at most 65536) processors"},
		{"65536,65536,65536,65536", "holds more than 9223372036854775807 (too large: the estimator takes at most 65536) processors"},
		{"40000,40000,40000,40000,40000", "holds more than 9223372036854775807 (too large"},
		{"0:65535,-65536:-1,65536,65536", "holds more than 9223372036854775807 (too large"},
		// One dimension of 2^63 processors: its extent does not fit an
		// int64 either (it wrapped to -9223372036854775808 in the note).
		{"0:9223372036854775807", "Q(more than 9223372036854775807) holds more than 9223372036854775807 (too large"},
		{"-9223372036854775806:0", "Q(9223372036854775807) holds 9223372036854775807 (too large"},
		{"-9223372036854775807:0", "Q(more than 9223372036854775807) holds more than"},
	} {
		dims := strings.Count(c.shape, ",") + 1
		src := "program p\n  integer, parameter :: n = 64\n  real :: a(" + strings.Repeat("n,", dims-1) + "n)\n" +
			"!hpf$ processors q(" + c.shape + ")\n" +
			"!hpf$ distribute a(" + strings.Repeat("block,", dims-1) + "block) onto q\n" +
			"  integer :: i\n  do i = 1, n\n    a(" + strings.Repeat("i,", dims-1) + "i) = 1.0\n  end do\nend program p\n"
		f := parser.Parse("p.f90", []byte(src), nil)
		for _, e := range f.Errors() {
			if e.Severity == parser.SevError {
				t.Fatalf("%s: %v", c.shape, f.Errors())
			}
		}
		rs, err := ReportsAt(f, 7, Options{Procs: 16}, ReportOptions{})
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: %v %v", c.shape, rs, err)
		}
		note := ""
		for _, n := range rs[0].Notes {
			if strings.HasPrefix(n, "PROCESSORS Q(") {
				note = n
			}
		}
		if c.want == "" && note != "" || !strings.Contains(note, c.want) {
			t.Errorf("P(%s): note %q, want %q", c.shape, note, c.want)
		}
		if strings.Contains(c.want, "too large") && strings.Contains(note, "give ") {
			t.Errorf("P(%s): %q asks for the arrangement's processors", c.shape, note)
		}
		// The grid is the even factorization of the 16 processors, not
		// the arrangement.
		grid := processorGrid(16, dims, &parser.Ident{Name: "Q"}, f.Units[0].Scope)
		prod := 1
		for _, g := range grid {
			prod *= g
		}
		if prod != 16 {
			t.Errorf("P(%s): grid %v on 16 processors", c.shape, grid)
		}
	}
}
