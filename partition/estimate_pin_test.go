package partition

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
)

// The estimator's breakdown of the examples pinned: every message by
// pattern, count and bytes, and the computation and communication times
// against values worked out here from the built-in machine model's own
// numbers (operation times, memory levels, curves), within 1%.

func near(got, want float64) bool { return math.Abs(got-want) <= 0.01*math.Abs(want) }

func secs(t *testing.T, p complexity.Poly) float64 {
	t.Helper()
	v, ok := complexity.Seconds(p)
	if !ok {
		t.Fatalf("%v is not a number", p)
	}
	return v
}

// messageList is the messages as sorted "pattern count×bytes" lines.
func messageList(t *testing.T, e *Estimate) []string {
	var out []string
	for _, m := range e.Messages {
		out = append(out, fmt.Sprintf("%s %g×%g", m.Pattern, secs(t, m.Count), secs(t, m.Bytes)))
	}
	sort.Strings(out)
	return out
}

func commTime(t *testing.T, m *machine.Machine, pattern string, bytes float64) float64 {
	t.Helper()
	v, err := m.CommTime(pattern, 16, bytes)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// chainedBcast is the price of one broadcast of a loop that sends one
// every iteration (msgTime): the tree's start-up, the broadcast at 0
// bytes, and the bytes once at the point-to-point rate, the vector
// shift's curve above its own start-up.
func chainedBcast(t *testing.T, m *machine.Machine, procs int, bytes float64) float64 {
	t.Helper()
	b0, err1 := m.CommTime("broadcast", procs, 0)
	v0, err2 := m.CommTime("vector-shift", procs, 0)
	v, err3 := m.CommTime("vector-shift", procs, bytes)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	return b0 - v0 + v
}

// busiest is the most iterations of DO J = lo, hi, 2 that one processor
// owns when 0:N+1 is divided into blocks among procs processors.
func busiest(lo, hi, n, procs int) int {
	b := (n + 2 + procs - 1) / procs
	most := 0
	for p := 0; p < procs; p++ {
		c := 0
		for j := lo; j <= hi; j += 2 {
			if j >= p*b && j < (p+1)*b {
				c++
			}
		}
		most = max(most, c)
	}
	return most
}

func TestRedblackPinned(t *testing.T) {
	const n, ncycle = 512, 100
	f, u := parseExample(t, "redblack.f")
	loop := firstLoop(t, u, 13, f)
	m := machine.DefaultMachine()
	opt := Options{Machine: m, Procs: 16}

	// One statement: 4 additions and 2 multiplications of REALs, 6
	// element references (5 reads, 1 store) of 4 bytes in an innermost
	// loop of step 2 (strided): 3 streams (columns J-1, J, J+1), the
	// other 3 reuse. The local part of VAL is 514*514*4/16 bytes either
	// way. Memory and arithmetic overlap: the larger of the two.
	bytes := 514.0 * 514 * 4 / 16
	l0, s0 := m.Access(0)
	first := (l0 + s0) / 2
	l1, s1 := m.Access(bytes)
	level := (l1 + s1) / 2
	stream := math.Max(m.Op("load.strided"), first) + math.Max(level-first, 0)*0.5
	reuse := math.Min(m.Op("load.reuse.strided"), stream)
	mem := 3*stream + 3*reuse
	arith := 4*m.Op("add") + 2*m.Op("mul")
	stmt := math.Max(mem, arith)
	loopOv := m.Op("loop")
	nest := func(js, is int) float64 { return float64(js)*(float64(is)*stmt+loopOv) + loopOv }

	sweeps := [4][2]int{{1, 1}, {2, 2}, {1, 2}, {2, 1}} // first J, first I
	for _, c := range []struct {
		name     string
		dims     []string
		pj, pi   int // processors along J and along I
		messages []string
	}{
		{"strips", []string{":", "BLOCK"}, 16, 1, []string{
			"open-shift 100×1024", "open-shift 100×1024", "open-shift 100×1024", "open-shift 100×1024",
			"open-shift 100×1024", "open-shift 100×1024", "open-shift 100×1024", "open-shift 100×1024"}},
		{"blocks", []string{"BLOCK", "BLOCK"}, 4, 4, []string{
			"open-shift 100×260", "open-shift 100×260", "open-shift 100×260", "open-shift 100×260",
			"open-shift 100×260", "open-shift 100×260", "open-shift 100×260", "open-shift 100×260",
			"open-shift-strided 100×260", "open-shift-strided 100×260", "open-shift-strided 100×260", "open-shift-strided 100×260",
			"open-shift-strided 100×260", "open-shift-strided 100×260", "open-shift-strided 100×260", "open-shift-strided 100×260"}},
	} {
		e := EstimateLoop(f, u, loop, WithFormats(u, 16, "G", c.dims, ""), opt)
		if got := messageList(t, e); strings.Join(got, "; ") != strings.Join(c.messages, "; ") {
			t.Errorf("%s: messages\n%s\nwant\n%s", c.name, strings.Join(got, "; "), strings.Join(c.messages, "; "))
		}
		compute := loopOv
		for _, s := range sweeps {
			compute += ncycle * nest(busiest(s[0], n, n, c.pj), busiest(s[1], n, n, c.pi))
		}
		if got := secs(t, e.Compute); !near(got, compute) {
			t.Errorf("%s: computation %g s, want %g", c.name, got, compute)
		}
		comm := 0.0
		for _, msg := range c.messages {
			var pat string
			var cnt, b float64
			fmt.Sscanf(strings.Replace(msg, "×", " ", 1), "%s %g %g", &pat, &cnt, &b)
			comm += cnt * commTime(t, m, pat, b)
		}
		if got := secs(t, e.Comm); !near(got, comm) {
			t.Errorf("%s: communication %g s, want %g", c.name, got, comm)
		}
		if got := secs(t, e.Time); !near(got, comm+compute) {
			t.Errorf("%s: time %g s, want %g", c.name, got, comm+compute)
		}
	}
}

func TestDgefaPinned(t *testing.T) {
	const n = 1024
	f, u := parseExample(t, "dgefa.f")
	loop := firstLoop(t, u, 12, f)
	m := machine.DefaultMachine()
	e := EstimateLoop(f, u, loop, WithFormats(u, 16, "D", []string{":", "CYCLIC"}, ""), Options{Machine: m, Procs: 16})
	// Per step K: the pivot row L (an INTEGER) broadcast by the owner of
	// column K; inside the IF (taken half the time) the column of factors
	// A(K+1:N,K) (at most 1023 DOUBLEs). The pivot T is not sent: only
	// the owner of column K uses it (the swap) before the next swap sets
	// it again. Each is a broadcast of every step (chainedBcast); L and
	// the column do not travel as one, since only one is under the IF.
	byWhy := map[string]string{}
	for _, msg := range e.Messages {
		for _, w := range []string{"L is", "T is", "A(I,K)"} {
			if strings.HasPrefix(msg.Why, w) {
				byWhy[w] = fmt.Sprintf("%s %g×%g", msg.Pattern, secs(t, msg.Count), secs(t, msg.Bytes))
			}
		}
	}
	want := map[string]string{
		"L is":   fmt.Sprintf("broadcast %d×4", n-1),
		"A(I,K)": fmt.Sprintf("broadcast %g×%d", float64(n-1)/2, (n-1)*8),
	}
	if fmt.Sprint(byWhy) != fmt.Sprint(want) || len(e.Messages) != 2 {
		t.Errorf("messages %v (%d in all), want %v", byWhy, len(e.Messages), want)
	}
	comm := float64(n-1) * chainedBcast(t, m, 16, 4)
	colK := 0.0
	for k := 1; k < n; k++ {
		colK += chainedBcast(t, m, 16, float64(8*(n-k)))
	}
	// The column shrinks with K: each step's broadcast at its own size,
	// half of the steps.
	comm += colK / 2
	if got := secs(t, e.Comm); !near(got, comm) {
		t.Errorf("communication %g s, want %g", got, comm)
	}
}
