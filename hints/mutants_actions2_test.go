package hints

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// TestLoopActionsPercent: the change a Distribute action's title and
// detail give is the candidate's time against the current one's, in
// percent of the current: checked against the two times the detail
// prints (3 significant digits, so within a point and 1%).
func TestLoopActionsPercent(t *testing.T) {
	src, err := os.ReadFile("../examples/redblack.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("redblack.f", src, nil)
	m := machine.DefaultMachine()
	m.Noise = 0
	acts := LoopActions(f, strings.Index(string(src), "      DO 100 KC"), EstimateSettings{Procs: 16}.Options(m))
	if len(acts) < 3 {
		t.Fatalf("actions %+v", acts)
	}
	re := regexp.MustCompile(`^.+?: ([0-9.]+) (ms|µs|s); .+? now: ([0-9.]+) (ms|µs|s) \(([-+][0-9]+)% vs `)
	unit := map[string]float64{"s": 1, "ms": 1e-3, "µs": 1e-6}
	for _, a := range acts[1:] {
		g := re.FindStringSubmatch(a.Detail)
		if g == nil {
			t.Errorf("detail %q", a.Detail)
			continue
		}
		cand, _ := strconv.ParseFloat(g[1], 64)
		cur, _ := strconv.ParseFloat(g[3], 64)
		cand, cur = cand*unit[g[2]], cur*unit[g[4]]
		pct, _ := strconv.Atoi(g[5])
		want := 100 * (cand - cur) / cur
		if math.Abs(float64(pct)-want) > 1+math.Abs(want)/100 {
			t.Errorf("%q: %d%%, want about %.1f%%", a.Detail, pct, want)
		}
		if !strings.HasSuffix(a.Title, ", "+g[5]+"%") {
			t.Errorf("title %q without the detail's %s%%", a.Title, g[5])
		}
	}
}
