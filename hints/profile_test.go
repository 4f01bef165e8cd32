package hints

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

const profiledSrc = `program p
  integer, parameter :: n = 1000
  real :: a(n), s
  integer :: i, k
  do k = 1, 10
     do i = 1, n
        a(i) = i * 0.5
     end do
  end do
  s = sum(a)
  print *, s
end program p
`

// TestProfileHover: a profiled DO loop's hover gives its measured time
// per execution and rank beside the estimate on the profile's processor
// count, with the difference in percent, and its measured trip count; a
// loop that was not timed says so; a line the profile does not know has
// no hover.
func TestProfileHover(t *testing.T) {
	f := parser.Parse("/work/p.f90", []byte(profiledSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":2,"lines":[
		{"path":"/work/p.f90","line":5,"count":20,"time":0.004,"calls":0,"bytes":0,"entries":2},
		{"path":"/work/p.f90","line":6,"count":20000,"time":0,"calls":0,"bytes":0,"entries":20}],
		"arrays":[],"timeline":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	off := func(line int) int { return f.Lines.LineStart(line-1) + 4 }
	o := EstimateSettings{Procs: 16}.Options(nil)
	h := ProfileHover(f, off(5), prof, o)
	m := regexp.MustCompile(`measured ([0-9.]+ [mµ]?s) · predicted ([0-9.]+ [mµn]?s) \(([-+][0-9]+)%\) per execution of the loop`).FindStringSubmatch(h)
	if m == nil {
		t.Fatalf("hover:\n%s", h)
	}
	if m[1] != "2 ms" {
		t.Errorf("measured %s, want 2 ms (0.004 s over 2 executions)", m[1])
	}
	pred, ok := predicted(f, 5, 2, o)
	if !ok {
		t.Fatal("no estimate")
	}
	if want := fmt.Sprintf("%+.0f", 100*(0.002-pred)/pred); m[3] != want {
		t.Errorf("difference %s%%, want %s%% (predicted %g s)", m[3], want, pred)
	}
	if !strings.Contains(h, "trip count 10 (measured: 20 iterations in 2 executions)") || !strings.Contains(h, "2 ranks") {
		t.Errorf("hover:\n%s", h)
	}
	h = ProfileHover(f, off(6), prof, o)
	if !strings.Contains(h, "not timed") || !strings.Contains(h, "trip count 1000 (measured: 20000 iterations in 20 executions)") {
		t.Errorf("inner loop hover:\n%s", h)
	}
	if h := ProfileHover(f, off(10), prof, o); h != "" {
		t.Errorf("unmeasured line: %q", h)
	}
	// Another folder, the same base name: still found when it is the only one.
	g := parser.Parse("/elsewhere/p.f90", []byte(profiledSrc), nil)
	if h := ProfileHover(g, off(5), prof, o); !strings.Contains(h, "trip count 10") {
		t.Errorf("by base name: %q", h)
	}
	if _, err := ParseProfile([]byte(`{"ranks":0}`)); err == nil {
		t.Error("a profile without ranks was accepted")
	}
}
