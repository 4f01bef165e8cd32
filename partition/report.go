package partition

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// LoopReport is everything pfls says about one loop: the estimate under
// the current distribution, the candidates ranked, the crossovers of the
// fastest candidates along one symbol with the ranges where each wins,
// the estimator's notes, and the noise policy ("about the same"). The
// command line, the editor's code actions and command, and the validation
// kit build one and only render it.
type LoopReport struct {
	File    *parser.File
	Unit    *parser.Unit
	Do      *parser.DoConstruct
	Line    int // 1-based line of the DO statement
	Procs   int
	Machine *machine.Machine

	Current  *Distribution
	Estimate *Estimate // under Current
	Ranked   []Ranked  // the candidates, fastest first (none without a template)

	// Symbol is the symbol crossovers are searched in ("" when there is
	// none or fewer than two candidates), from Lo to Hi; Shortlist holds
	// the distributions compared: the four fastest formats, each on its
	// fastest grid, and the current one.
	Symbol     string
	Lo, Hi     int64
	Shortlist  []*Distribution
	Crossovers []Crossover // by increasing Value

	Notes []string

	opt Options
}

// ReportOptions say what a report computes beyond the estimates.
type ReportOptions struct {
	// Vary is the symbol to search crossovers in ("" : the one the main
	// template's extents depend on).
	Vary string
	// Crossovers asks for the crossover search (the expensive part).
	Crossovers bool
}

// Shortlist sizes and the default search range of the crossovers: the
// range of N of seed 003's Figures 3 and 6 (8 to a few thousand), and
// eight times a value the user gave. The crossover search compares the
// four fastest (seed 003's figures compare two to four layouts); a plot
// shows every candidate (Sweeps), and it
// ends at three times the first crossover so both sides of it show.
const (
	shortlistLen    = 4
	crossoverLo     = 8
	crossoverHi     = 4096
	crossoverRoom   = 8 // search up to this many times a given value
	plotAroundCross = 3 // a plot ends at this many times the first crossover
)

// ReportsAt builds the reports of the loops starting on a 1-based line
// (parser.LoopsAt; line 0: every outermost loop). The symbol values of
// opt are checked against each loop's unit (CheckValues).
func ReportsAt(f *parser.File, line int, opt Options, ro ReportOptions) ([]*LoopReport, error) {
	var out []*LoopReport
	for _, l := range parser.LoopsAt(f, line) {
		r, err := NewReport(f, l, opt, ro)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// NewReport estimates one loop under its current distribution and every
// candidate, and (ReportOptions.Crossovers) finds the crossovers. The
// error says why the values or the varied symbol make no sense for the
// loop's unit.
func NewReport(f *parser.File, l parser.Loop, opt Options, ro ReportOptions) (*LoopReport, error) {
	if opt.Machine == nil {
		opt.Machine = machine.DefaultMachine()
	}
	if err := CheckValues(l.Unit, opt.Values); err != nil {
		return nil, err
	}
	vary := strings.ToUpper(ro.Vary)
	if vary != "" && !occurs(l.Unit, vary) {
		return nil, fmt.Errorf("--vary %s: %s does not occur in %s; the estimate would not change with it", vary, vary, unitName(l.Unit))
	}
	r := &LoopReport{File: f, Unit: l.Unit, Do: l.Do, Line: l.Line(f), Procs: opt.Procs, Machine: opt.Machine, opt: opt}
	current, cands := Candidates(l.Unit, opt.Procs, f.Dialect)
	if current.Template == "" && hasOmpLoop(l.Do) {
		// No data distribution, but the loop's work is shared among
		// threads: not "replicated".
		c := *current
		c.label = "shared memory (OpenMP threads)"
		if len(commSizeVars(l.Unit)) > 0 {
			c.label = "MPI processes, OpenMP threads in each"
		}
		current = &c
	}
	r.Current = current
	r.Estimate = EstimateLoop(f, l.Unit, l.Do, current, opt)
	r.Notes = append(append([]string(nil), r.Estimate.Notes...), extrapolation(opt.Machine, opt.Procs)...)
	r.Notes = append(r.Notes, arrangementNotes(l.Unit, opt.Procs)...)
	if len(cands) > 0 {
		r.Ranked = Rank(f, l.Unit, l.Do, cands, opt)
	}
	for _, c := range r.Ranked {
		// One grid of each format, its fastest (see formatsIn).
		if len(r.Shortlist) < shortlistLen && !formatsIn(r.Shortlist, c.Dist) {
			r.Shortlist = append(r.Shortlist, c.Dist)
		}
	}
	if len(r.Shortlist) > 0 && !containsDist(r.Shortlist, current) {
		r.Shortlist = append(r.Shortlist, current)
	}
	symbol := vary
	if symbol == "" {
		symbol = ExtentSymbol(l.Unit, current)
	}
	if symbol == "" || len(cands) < 2 {
		return r, nil
	}
	r.Symbol, r.Lo, r.Hi = symbol, crossoverLo, crossoverHi
	if v, ok := opt.Values[symbol]; ok && v.IsInt() && v.Num().IsInt64() && v.Num().Int64() <= (1<<40) && v.Num().Int64()*crossoverRoom > r.Hi {
		r.Hi = v.Num().Int64() * crossoverRoom
	}
	if ro.Crossovers {
		r.Crossovers = Crossovers(f, l.Unit, l.Do, r.Shortlist, symbol, r.Lo, r.Hi, opt)
	}
	return r, nil
}

// extrapolation says when the processor count lies outside the counts
// the machine model's communication curves were measured at: the times
// then come from the nearest measured curve, scaled by how each
// pattern's algorithm grows (Machine.CommTime), not from a measurement.
func extrapolation(m *machine.Machine, procs int) []string {
	var counts []int
	for _, p := range m.Procs() {
		if p >= 2 {
			counts = append(counts, p)
		}
	}
	if procs < 2 || len(counts) == 0 || (procs >= counts[0] && procs <= counts[len(counts)-1]) {
		return nil
	}
	measured := fmt.Sprintf("P = %d only", counts[0])
	if len(counts) > 1 {
		var s []string
		for _, p := range counts {
			s = append(s, fmt.Sprint(p))
		}
		measured = "P = " + strings.Join(s, ", ")
	}
	return []string{fmt.Sprintf("the machine model's communication was measured at %s; at %d processors its times are extrapolated, "+
		"not measured (tree collectives grow as log P, messages to every processor as P - 1, messages to neighbours stay the same): "+
		"run pfls train on the target machine for measured ones", measured, procs)}
}

func unitName(u *parser.Unit) string {
	if u.Name == "" {
		return "the main program"
	}
	return u.Name
}

func containsDist(ds []*Distribution, d *Distribution) bool {
	for _, x := range ds {
		if x.Name() == d.Name() {
			return true
		}
	}
	return false
}

// AboutTheSame reports whether two estimates are closer than the
// machine's run-to-run noise, so that neither is known to be faster.
// Estimates that still depend on a symbol are never about the same.
func (r *LoopReport) AboutTheSame(a, b *Estimate) bool {
	ta, okA := complexity.Seconds(a.Time)
	tb, okB := complexity.Seconds(b.Time)
	return okA && okB && r.Machine.AboutTheSame(ta, tb)
}

// Candidate is the estimate under the candidate distribution named name
// (Distribution.Name), or nil.
func (r *LoopReport) Candidate(name string) *Estimate {
	for _, c := range r.Ranked {
		if c.Dist.Name() == name {
			return c.Est
		}
	}
	return nil
}

// Names lists the candidates' names, fastest first.
func (r *LoopReport) Names() []string {
	var out []string
	for _, c := range r.Ranked {
		out = append(out, c.Dist.Name())
	}
	return out
}

// From is where the range of crossover i's Below starts: the previous
// crossover's value, or ok false for the first (Below wins from the
// bottom of the range searched).
func (r *LoopReport) From(i int) (from int64, ok bool) {
	if i <= 0 || i >= len(r.Crossovers) {
		return 0, false
	}
	return r.Crossovers[i-1].Value, true
}

// Sweep is one distribution's estimated time at a range of values of the
// report's symbol, for a plot.
type Sweep struct {
	Name string
	X, Y []float64
}

// PlotHi is where a plot of the report ends: around the first crossover
// of the current distribution, where the curves part (as in seed 003's
// Figures 3 and 6), else at the end of the range searched.
func (r *LoopReport) PlotHi() int64 {
	for _, c := range r.Crossovers {
		if c.Below == r.Current.Name() || c.Above == r.Current.Name() {
			return min(r.Hi, plotAroundCross*c.Value)
		}
	}
	return r.Hi
}

// Sweeps estimates every candidate (and the current distribution when it
// is not one) at up to sweepPoints values of the report's symbol from Lo
// to hi (nil without a symbol): a plot's legend shows them all. The
// values are spaced geometrically when the range spans more than a
// decade, as the plot's axes are then logarithmic, and evenly otherwise.
func (r *LoopReport) Sweeps(hi int64) []Sweep {
	if r.Symbol == "" {
		return nil
	}
	var dists []*Distribution
	for _, c := range r.Ranked {
		dists = append(dists, c.Dist)
	}
	if len(dists) > 0 && !containsDist(dists, r.Current) {
		dists = append(dists, r.Current)
	}
	ns := sweepValues(r.Lo, hi)
	var out []Sweep
	for _, d := range dists {
		s := Sweep{Name: d.Name()}
		dd := d.at(r.Unit, r.File.Dialect)
		for _, n := range ns {
			o := r.opt
			o.Values = withValue(r.opt.Values, r.Symbol, n)
			if t, ok := complexity.Seconds(EstimateLoop(r.File, r.Unit, r.Do, dd, o).Time); ok {
				s.X = append(s.X, float64(n))
				s.Y = append(s.Y, t)
			}
		}
		out = append(out, s)
	}
	return out
}

// sweepPoints is how many values a sweep samples at most.
const sweepPoints = 65

// sweepValues are the integers a sweep samples from lo to hi, both
// included: geometric steps when hi > 10 lo (a log axis shows them
// evenly, and small-N crossovers get as many points as large ones),
// else even steps; no value twice.
func sweepValues(lo, hi int64) []int64 {
	if lo < 1 {
		lo = 1
	}
	if hi <= lo {
		return []int64{lo}
	}
	var out []int64
	add := func(n int64) {
		if len(out) == 0 || n > out[len(out)-1] {
			out = append(out, n)
		}
	}
	if hi > 10*lo {
		ratio := math.Log(float64(hi) / float64(lo))
		for i := 0; i < sweepPoints; i++ {
			add(int64(math.Round(float64(lo) * math.Exp(ratio*float64(i)/(sweepPoints-1)))))
		}
	} else {
		for n := lo; n <= hi; n += (hi-lo)/(sweepPoints-1) + 1 {
			add(n)
		}
	}
	if out[len(out)-1] != hi {
		if out[len(out)-1] > hi {
			out = out[:len(out)-1]
		}
		add(hi)
	}
	return out
}

// CheckValues refuses a negative value for a symbol that sizes an array
// (it occurs in the upper bound of a dimension) or bounds a DO loop's
// trip count: a negative extent makes no sense, and the estimate of such
// a program would be a negative time.
func CheckValues(u *parser.Unit, values map[string]*big.Rat) error {
	var names []string
	for k, v := range values {
		if v.Sign() < 0 {
			names = append(names, k)
		}
	}
	if len(names) == 0 || u.Scope == nil {
		return nil
	}
	sort.Strings(names)
	for _, name := range names {
		uses := func(x parser.Expr) bool {
			found := false
			parser.Inspect(x, func(n parser.Node) bool {
				if id, ok := n.(*parser.Ident); ok && strings.EqualFold(id.Name, name) {
					found = true
				}
				return !found
			})
			return found
		}
		for _, sname := range u.Scope.Names() {
			sym := u.Scope.Syms[sname]
			for _, d := range sym.Dims {
				if d.Upper != nil && uses(d.Upper) {
					return fmt.Errorf("%s=%s: %s sizes array %s, and an extent cannot be negative", name, values[name].RatString(), name, sname)
				}
			}
		}
		var loop string
		for _, s := range u.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				if d, ok := n.(*parser.DoStmt); ok && loop == "" && d.Var != nil && uses(d.Hi) {
					loop = d.Var.Name
				}
				return loop == ""
			})
		}
		if loop != "" {
			return fmt.Errorf("%s=%s: %s bounds the %s loop, and a trip count cannot be negative", name, values[name].RatString(), name, loop)
		}
	}
	return nil
}

// occurs reports whether a name is used anywhere in a unit: its header,
// declarations or statements.
func occurs(u *parser.Unit, name string) bool {
	found := false
	look := func(n parser.Node) bool {
		if id, ok := n.(*parser.Ident); ok && strings.EqualFold(id.Name, name) {
			found = true
		}
		return !found
	}
	if u.Header != nil {
		parser.Inspect(u.Header, look)
	}
	for _, s := range u.Body {
		if found {
			break
		}
		parser.Inspect(s, look)
	}
	return found
}

// hasOmpLoop reports whether the loop c or a loop inside it is an
// OpenMP worksharing loop.
func hasOmpLoop(c *parser.DoConstruct) bool {
	found := false
	parser.Inspect(c, func(n parser.Node) bool {
		if d, ok := n.(*parser.DoConstruct); ok && ompOf(d) != nil {
			found = true
		}
		return !found
	})
	return found
}

// arrangementNotes say when a PROCESSORS arrangement of the unit holds
// another number of processors than the estimate's: the arrays are then
// spread over the estimate's processors, in a grid factored as evenly as
// possible (processorGrid), not over the arrangement.
func arrangementNotes(u *parser.Unit, procs int) []string {
	var out []string
	for _, name := range u.Scope.Names() {
		sym := u.Scope.Syms[name]
		if sym == nil || sym.Kind != parser.SymProcessors {
			continue
		}
		a := arrangementOf(sym, u.Scope)
		if !a.known || a.total == int64(procs) {
			continue
		}
		var shape []string
		for i, e := range a.extents {
			if a.over[i] {
				shape = append(shape, fmt.Sprint("more than ", e))
				continue
			}
			shape = append(shape, fmt.Sprint(e))
		}
		give := fmt.Sprintf("; give %d processors to estimate on %s", a.total, name)
		if a.tooLarge {
			give = ""
		}
		out = append(out, fmt.Sprintf("PROCESSORS %s(%s) holds %s processors, but the estimate is for %d: the arrays are spread over the %d processors (a grid as even as they allow), not over %s%s",
			name, strings.Join(shape, ","), a, procs, procs, name, give))
	}
	return out
}
