package machine

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The figures of a feasibility study on a 2-core machine with Open MPI
// 4.1.4 (issue 6). The default model is trained on a machine of the same
// kind, so its curves must agree with them within a factor of 2.
const (
	figSmallBytes = 8       // a message of 8 B ...
	figSmallTime  = 0.3e-6  // ... takes about 0.3 µs at P = 2
	figLargeBytes = 1 << 20 // a message of 1 MiB ...
	figLargeTime  = 175e-6  // ... takes about 175 µs at P = 2
)

// TestDefaultMachine: the model inside pfls was made by pfls train, says
// so, and holds every pattern the training set measures.
func TestDefaultMachine(t *testing.T) {
	m := DefaultMachine()
	p := m.Provenance
	if m.Name != "default" || !strings.HasPrefix(p.Source, "pfls train") || !strings.Contains(p.MPI, "Open MPI") ||
		p.Host == "" || p.Cores == "" || p.Compiler == "" || p.Date == "" || p.Load == "" || len(p.Notes) == 0 {
		t.Errorf("provenance = %+v", p)
	}
	if got := m.Procs(); !reflect.DeepEqual(got, []int{2}) {
		t.Errorf("Procs() = %v, want [2] (no curve measured with more ranks than cores)", got)
	}
	for _, name := range TrainingPatterns {
		if n := len(m.Comm[2][name]); n < 1 || n > 4 {
			t.Errorf("P=2 %s: %d segments", name, n)
		}
	}
	for _, op := range []string{"add", "mul", "div", "pow", "load", "store", "intrinsic", "loop", "call"} {
		if v := m.Op(op); v <= 0 || v > 100e-9 {
			t.Errorf("Op(%q) = %g, want a few ns", op, v)
		}
	}
	// The per-iteration overhead may be 0: the kernels' references and
	// additions take all of the trip-count line's slope.
	if v, ok := m.Ops["iteration"]; !ok || v < 0 || v > 10e-9 {
		t.Errorf("iteration = %g (present %v)", v, ok)
	}
	if m.Op("div") <= m.Op("add") || m.Op("pow") <= m.Op("div") {
		t.Errorf("ops: add %g div %g pow %g", m.Op("add"), m.Op("div"), m.Op("pow"))
	}
	if len(m.Memory) < 3 || m.Memory[len(m.Memory)-1].Load <= m.Memory[0].Load {
		t.Errorf("memory levels %+v: want main memory slower than the first cache level", m.Memory)
	}
}

// TestDefaultModelFigures checks the default model against the figures
// of the feasibility study and the rules of extrapolation.
func TestDefaultModelFigures(t *testing.T) {
	m := DefaultMachine()
	at := func(pattern string, p int, b float64) float64 {
		t.Helper()
		v, err := m.CommTime(pattern, p, b)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	within2 := func(what string, got, want float64) {
		t.Helper()
		if got < want/2 || got > want*2 {
			t.Errorf("%s = %.4g, want %.4g within a factor of 2", what, got, want)
		}
	}
	within2("vector-shift P=2 8 B", at(PatternVectorShift, 2, figSmallBytes), figSmallTime)
	within2("vector-shift P=2 1 MiB", at(PatternVectorShift, 2, figLargeBytes), figLargeTime)
	// The eager/rendezvous switch: a step of 2x or more between 2 and 8 KiB.
	stepped := false
	c := m.Comm[2][PatternVectorShift]
	for i := 1; i < len(c); i++ {
		x := float64(c[i].From)
		if c[i].From >= 2048 && c[i].From <= 8192 && at(PatternVectorShift, 2, x) >= 2*at(PatternVectorShift, 2, x-0.001) {
			stepped = true
		}
	}
	if !stepped {
		t.Errorf("no eager/rendezvous step between 2 and 8 KiB: %+v", c)
	}
	// Extrapolation from P = 2: neighbour patterns do not grow, a
	// broadcast grows with log2 P, all-to-all with P-1.
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 0.01*want {
			t.Errorf("%s = %.4g, want %.4g", what, got, want)
		}
	}
	near("vector-shift P=16/P=2", at(PatternVectorShift, 16, 1024)/at(PatternVectorShift, 2, 1024), 1)
	near("broadcast P=16/P=2", at(PatternBroadcast, 16, 1024)/at(PatternBroadcast, 2, 1024), 4)
	near("alltoall P=16/P=2", at(PatternAllToAll, 16, 1024)/at(PatternAllToAll, 2, 1024), 15)
	// Every curve is non-decreasing in the size and in P.
	for _, name := range Patterns() {
		for _, p := range []int{2, 3, 4, 8, 16, 32} {
			prev := 0.0
			for b := 0.0; b <= 4<<20; b = b*1.3 + 1 {
				v := at(name, p, b)
				if v < prev {
					t.Fatalf("%s P=%d: time falls at %g B", name, p, b)
				}
				prev = v
				if p > 2 && v < at(name, p/2, b)*0.999 {
					t.Fatalf("%s: P=%d cheaper than P=%d at %g B", name, p, p/2, b)
				}
			}
		}
	}
}

func TestDefaultMachineIsACopy(t *testing.T) {
	m := DefaultMachine()
	before, _ := m.CommTime(PatternBroadcast, 4, 100)
	add := m.Op("add")
	m.Ops["add"] = 1
	m.Comm[2][PatternBroadcast][0].A = 1
	m.Memory[0].Load = 1
	delete(m.Comm, 2)
	m.Provenance.Source = "changed"
	m.Provenance.Notes[0] = "changed"
	n := DefaultMachine()
	if n.Op("add") != add || n.Provenance.Source == "changed" || len(n.Comm) != 1 || n.Memory[0].Load == 1 || n.Provenance.Notes[0] == "changed" {
		t.Errorf("a change to one copy reached the next")
	}
	if after, _ := n.CommTime(PatternBroadcast, 4, 100); after != before {
		t.Errorf("curve changed: %g, want %g", after, before)
	}
}

func TestMachineJSONRoundTrip(t *testing.T) {
	m := DefaultMachine()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := LoadMachine(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, back) {
		t.Errorf("round trip changed the model")
	}
}

// testCurve has the two kinds of step: up in a, and up in b.
var testCurve = Curve{
	{From: 0, To: 100, A: 1, B: 0.01},   // 1 .. 2 (exclusive)
	{From: 100, To: 1000, A: 3, B: 0},   // 3 flat: a step of 1 at 100
	{From: 1000, To: 0, A: 1, B: 0.005}, // 6 at 1000: a step of 3
}

func TestCurveTime(t *testing.T) {
	for _, tc := range []struct{ bytes, want float64 }{
		{0, 1}, {50, 1.5}, {99.5, 1.995},
		{100, 3}, {500, 3}, {999.9, 3},
		{1000, 6}, {3000, 16}, {1 << 20, 1 + 0.005*(1<<20)},
	} {
		if got := testCurve.Time(tc.bytes); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Time(%g) = %g, want %g", tc.bytes, got, tc.want)
		}
	}
	if got := (Curve{}).Time(10); got != 0 {
		t.Errorf("empty curve: %g", got)
	}
}

func flat(a float64) Curve { return Curve{{From: 0, To: 0, A: a}} }

// testMachine is trained at P = 4 and 8 with flat curves, so the
// interpolation and extrapolation rules can be checked by hand.
func testMachine() *Machine {
	m := &Machine{Name: "test", Comm: map[int]map[string]Curve{
		1: {PatternBroadcast: flat(100)},
		4: {PatternBroadcast: flat(2), PatternAllToAll: flat(3), PatternVectorShift: flat(1), "ring": flat(7)},
		8: {PatternBroadcast: flat(6), PatternAllToAll: flat(14), PatternVectorShift: flat(4), "ring": flat(9)},
	}}
	if err := m.Validate(); err != nil {
		panic(err)
	}
	return m
}

func TestCommTimeRules(t *testing.T) {
	m := testMachine()
	l := math.Log2
	for _, tc := range []struct {
		pattern string
		procs   int
		want    float64
	}{
		// trained counts
		{PatternBroadcast, 4, 2}, {PatternBroadcast, 8, 6}, {PatternAllToAll, 8, 14},
		// between: linear in log2 P
		{PatternVectorShift, 6, 1 + 3*(l(6)-2)}, {PatternBroadcast, 5, 2 + 4*(l(5)-2)},
		// beyond the largest: tree, all-to-all, neighbour rules
		{PatternBroadcast, 16, 6 * 4.0 / 3}, {PatternBroadcast, 64, 6 * 6.0 / 3},
		{PatternAllToAll, 16, 14 * 15.0 / 7}, {PatternVectorShift, 1024, 4}, {"ring", 64, 9},
		// below the smallest (P = 1 curves are not used)
		{PatternBroadcast, 2, 2 * 1.0 / 2}, {PatternAllToAll, 2, 3 * 1.0 / 3},
		{PatternVectorShift, 2, 1}, {PatternBroadcast, 3, 2 * l(3) / 2},
		// one processor does not communicate
		{PatternBroadcast, 1, 0}, {PatternExchange, 1, 0},
	} {
		got, err := m.CommTime(tc.pattern, tc.procs, 64)
		if err != nil {
			t.Errorf("CommTime(%s, %d): %v", tc.pattern, tc.procs, err)
			continue
		}
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("CommTime(%s, %d) = %g, want %g", tc.pattern, tc.procs, got, tc.want)
		}
	}
}

func TestCommTimeSegments(t *testing.T) {
	m := &Machine{Comm: map[int]map[string]Curve{2: {PatternExchange: testCurve}}}
	for _, tc := range []struct{ bytes, want float64 }{{0, 1}, {99, 1.99}, {100, 3}, {1000, 6}, {2000, 11}} {
		got, err := m.CommTime(PatternExchange, 2, tc.bytes)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("CommTime(exchange, 2, %g) = %g, %v; want %g", tc.bytes, got, err, tc.want)
		}
	}
}

func TestCommTimeErrors(t *testing.T) {
	m := testMachine()
	for _, tc := range []struct {
		pattern string
		procs   int
		bytes   float64
		want    string
	}{
		{"gather", 4, 8, `unknown communication pattern "gather" (known: element-shift, vector-shift, exchange, broadcast, reduction-broadcast, alltoall)`},
		{"gather", 1, 8, `unknown communication pattern "gather" (known: element-shift, vector-shift, exchange, broadcast, reduction-broadcast, alltoall)`},
		{PatternExchange, 4, 8, `machine model "test" has no curve for communication pattern "exchange"`},
		{PatternBroadcast, 0, 8, `communication "broadcast" on 0 processors: the processor count must be at least 1`},
		{PatternBroadcast, 4, -1, `communication "broadcast": message size -1 bytes must be a non-negative number`},
		{PatternBroadcast, 4, math.NaN(), `communication "broadcast": message size NaN bytes must be a non-negative number`},
		{PatternBroadcast, 4, math.Inf(1), `communication "broadcast": message size +Inf bytes must be a non-negative number`},
	} {
		_, err := m.CommTime(tc.pattern, tc.procs, tc.bytes)
		if err == nil || err.Error() != tc.want {
			t.Errorf("CommTime(%q, %d, %g) error = %v\nwant %s", tc.pattern, tc.procs, tc.bytes, err, tc.want)
		}
	}
	if _, err := (&Machine{}).CommTime(PatternAllToAll, 2, 1); err == nil ||
		err.Error() != `machine model (unnamed) has no curve for communication pattern "alltoall"` {
		t.Errorf("empty model: %v", err)
	}
}

func TestLoadMachineErrors(t *testing.T) {
	seg := func(s string) string { return `{"comm": {"2": {"broadcast": [` + s + `]}}}` }
	for _, tc := range []struct{ in, want string }{
		{``, `machine model: empty input`},
		{`{"name": "x",}`, `machine model: invalid JSON at byte 14: invalid character '}' looking for beginning of object key string`},
		{`{"name": "x"} {}`, `machine model: unexpected data after the model at byte 15`},
		{`{"nmae": "x"}`, `machine model: json: unknown field "nmae"`},
		{`{"ops": {"add": "fast"}}`, `machine model: json: cannot unmarshal string into Go struct field Machine.ops of type float64`},
		{`{"ops": {"add": -1e-9}}`, `machine model: op "add": time -1e-09 must be a non-negative number of seconds`},
		{`{"comm": {"two": {}}}`, `machine model: json: cannot unmarshal number two into Go struct field Machine.comm of type int`},
		{`{"comm": {"0": {}}}`, `machine model: comm: processor count 0 must be at least 1`},
		{seg(``), `machine model: pattern "broadcast" at P=2: no segments`},
		{seg(`{"from": 8, "to": 0, "a": 1, "b": 0}`), `machine model: pattern "broadcast" at P=2: segment 0: from = 8, the first segment must start at 0`},
		{seg(`{"from": 0, "to": 100, "a": 1, "b": 0}, {"from": 300, "to": 0, "a": 1, "b": 0}, {"from": 100, "to": 300, "a": 1, "b": 0}`),
			`machine model: pattern "broadcast" at P=2: segment 1: from = 300 does not continue segment 0, which ends at 100`},
		{seg(`{"from": 0, "to": 300, "a": 1, "b": 0}, {"from": 300, "to": 0, "a": 1, "b": 0}, {"from": 100, "to": 300, "a": 1, "b": 0}`),
			`machine model: pattern "broadcast" at P=2: segment 1: to = 0 (unbounded) is allowed on the last segment only`},
		{seg(`{"from": 0, "to": 300, "a": 1, "b": 0}, {"from": 300, "to": 500, "a": 1, "b": 0}, {"from": 100, "to": 0, "a": 1, "b": 0}`),
			`machine model: pattern "broadcast" at P=2: segment 2: from = 100 comes after from = 300: segments must be sorted`},
		{seg(`{"from": 0, "to": 300, "a": 1, "b": 0}, {"from": 300, "to": 200, "a": 1, "b": 0}, {"from": 200, "to": 0, "a": 1, "b": 0}`),
			`machine model: pattern "broadcast" at P=2: segment 1: to = 200 must be greater than from = 300`},
		{seg(`{"from": 0, "to": 300, "a": 1, "b": 0}`), `machine model: pattern "broadcast" at P=2: segment 0: to = 300, the last segment must be unbounded (to = 0)`},
		{seg(`{"from": 0, "to": -3, "a": 1, "b": 0}`), `machine model: pattern "broadcast" at P=2: segment 0: to = -3 is negative`},
		{seg(`{"from": 0, "to": 100, "a": 1, "b": 0}, {"from": 100, "to": 0, "a": -2e-6, "b": 1}`),
			`machine model: pattern "broadcast" at P=2: segment 1: a = -2e-06 must be a non-negative number`},
		{seg(`{"from": 0, "to": 0, "a": 1, "b": -0.5}`), `machine model: pattern "broadcast" at P=2: segment 0: b = -0.5 must be a non-negative number`},
		{seg(`{"from": 0, "to": 4032, "a": 1e-6, "b": 1e-9}, {"from": 4032, "to": 0, "a": 1e-6, "b": 1e-10}`),
			`machine model: pattern "broadcast" at P=2: segment 1: time falls at 4032 bytes from 5.032e-06 s to 1.4032e-06 s (steps may only go up)`},
	} {
		m, err := LoadMachine(strings.NewReader(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("LoadMachine(%s):\n got %v\nwant %s", tc.in, err, tc.want)
		}
		if err != nil && m != nil {
			t.Errorf("LoadMachine(%s) returned a model with an error", tc.in)
		}
	}
}

func TestLoadMachineAccepts(t *testing.T) {
	// A continuous curve written with rounded decimals, an extra pattern
	// and a P = 1 entry are all fine.
	in := `{"name": "hand", "provenance": {"source": "by hand"}, "ops": {"add": 1e-9},
	  "comm": {"1": {"broadcast": [{"from": 0, "to": 0, "a": 0, "b": 0}]},
	           "2": {"ring": [{"from": 0, "to": 3, "a": 0.1, "b": 0.1}, {"from": 3, "to": 0, "a": 0.3999999999, "b": 0}]}}}`
	m, err := LoadMachine(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := m.CommTime("ring", 2, 5); err != nil || math.Abs(got-0.3999999999) > 1e-15 {
		t.Errorf("CommTime(ring) = %g, %v", got, err)
	}
	if !reflect.DeepEqual(m.Procs(), []int{1, 2}) || m.Provenance.Source != "by hand" {
		t.Errorf("loaded %+v", m)
	}
}

func TestOpFallback(t *testing.T) {
	m := &Machine{Ops: map[string]float64{"add": 1, "add.double": 2, "intrinsic": 5, "intrinsic.sqrt": 3}}
	for _, tc := range []struct {
		name string
		want float64
	}{
		{"add", 1}, {"add.double", 2}, {"add.real", 1}, {"add.double.vector", 2},
		{"intrinsic.sqrt", 3}, {"intrinsic.exp", 5}, {"mul", 0}, {"mul.double", 0}, {"", 0}, {".", 0},
	} {
		if got := m.Op(tc.name); got != tc.want {
			t.Errorf("Op(%q) = %g, want %g", tc.name, got, tc.want)
		}
	}
	if got := (&Machine{}).Op("add"); got != 0 {
		t.Errorf("nil ops: %g", got)
	}
}

func TestAccessAndFallback(t *testing.T) {
	m := &Machine{Ops: map[string]float64{"load": 1e-9, "store": 2e-9}}
	if l, s := m.Access(1 << 30); l != 1e-9 || s != 2e-9 {
		t.Errorf("Access without levels = %g, %g", l, s)
	}
	m.Memory = []MemoryLevel{{Bytes: 1000, Load: 1, Store: 2}, {Bytes: 2000, Load: 3, Store: 4}}
	for _, c := range []struct {
		bytes float64
		load  float64
	}{{10, 1}, {1000, 1}, {1001, 3}, {1e9, 3}} {
		if l, _ := m.Access(c.bytes); l != c.load {
			t.Errorf("Access(%g) load = %g, want %g", c.bytes, l, c.load)
		}
	}
	m.Memory[1].Bytes = 500
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "memory level 1") {
		t.Errorf("Validate of unsorted levels = %v", err)
	}
	// A model without the open-shift curves prices them as vector shifts.
	m = DefaultMachine()
	for _, p := range []string{PatternOpenShift, PatternOpenShiftStrided, PatternHalo2, PatternHalo4} {
		delete(m.Comm[2], p)
	}
	want, _ := m.CommTime(PatternVectorShift, 4, 4096)
	for _, p := range []string{PatternOpenShift, PatternOpenShiftStrided, PatternHalo2, PatternHalo4} {
		got, err := m.CommTime(p, 4, 4096)
		if err != nil || got != want {
			t.Errorf("CommTime(%s) = %g, %v; want the vector-shift time %g", p, got, err, want)
		}
	}
}

// TestLoadMachineWrapsErrors: a caller can tell a JSON syntax error from
// a model that breaks the rules.
func TestLoadMachineWrapsErrors(t *testing.T) {
	_, err := LoadMachine(strings.NewReader(`{"ops": {"add": 1e-9,}}`))
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("syntax error not wrapped: %v", err)
	}
	_, err = LoadMachine(strings.NewReader(`{"ops": {"add": "fast"}}`))
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		t.Errorf("type error not wrapped: %v", err)
	}
}
