// Package capability holds compiler capability profiles (what a
// compiler for distributed memory does by itself: one built in per
// dialect, Rice Fortran 77D for Fortran D, a typical HPF compiler for HPF,
// CM Fortran for CM Fortran; others as JSON files) and the findings drawn
// from partition's estimates where a profile leaves work to the
// programmer: seed 000's models (the pipeline model of its equations 1
// and 2) and seed 001's missing alignments and unused arrays. Messages
// name the profile and explain the models in words.
package capability

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// Profile says what a data-parallel compiler does for the programmer and
// what it does not (seed 000 §4). The file format is the JSON of its
// fields:
//
//	{"name": "Rice Fortran 77D",
//	 "messageVectorization": true,   // hoists messages out of loops when dependences allow
//	 "pipelineBlock": 8,              // coarse-grain pipelining in blocks of B iterations (0: none)
//	 "loopDistribution": false,       // splits loops into local and boundary iterations to overlap shifts
//	 "reorderIterations": false,      // moves code across loop iterations (earlier broadcasts)
//	 "interprocedural": false,        // transforms across procedure boundaries
//	 "collectives": true}             // emits a broadcast or reduction as one collective call
type Profile struct {
	Name                 string `json:"name"`
	MessageVectorization bool   `json:"messageVectorization"`
	PipelineBlock        int    `json:"pipelineBlock"`
	LoopDistribution     bool   `json:"loopDistribution"`
	ReorderIterations    bool   `json:"reorderIterations"`
	Interprocedural      bool   `json:"interprocedural"`
	Collectives          bool   `json:"collectives"`
}

// RiceFortranD is the Rice Fortran 77D compiler as seed 000 describes it
// (§4.1): it combines the elements a loop nest needs into one message when
// dependences allow, pipelines loop nests in blocks of B = 8 iterations
// (§2.2, ERLEBACHER), and sends broadcasts as one collective call (§5);
// it does not split loops into local and non-local iterations, move code
// of one iteration before the preceding one, or transform across
// procedures (§4.1).
func RiceFortranD() *Profile {
	return &Profile{Name: "Rice Fortran 77D", MessageVectorization: true, PipelineBlock: 8, Collectives: true}
}

// HPFCompiler is a typical HPF compiler of the 1990s. Sources: seed 000
// §1 (its findings for Fortran 77D carry over to HPF compilers, the two
// language models being alike) and §4.1 (moving code across iterations
// or procedures is "beyond the scope of any data-parallel compiler we are
// aware of"); the HPF 2.0 specification leaves communication to the
// compiler and gives reductions as intrinsics (SUM, MAXVAL, ...) and the
// HPF library, which compilers implement as collective calls; message
// vectorization (hoisting the elements a loop nest needs out of it) and
// aggregation (one message per pair of processors) are the baseline of
// HPF compilers (the Fortran D compiler's techniques, which dHPF, Rice's
// HPF compiler, inherited together with coarse-grain pipelining). Loop
// splitting for overlap is left to the programmer, as seed 000's red-black
// SOR (§4.1) shows it must be for Fortran 77D.
func HPFCompiler() *Profile {
	return &Profile{Name: "HPF", MessageVectorization: true, PipelineBlock: 8, Collectives: true}
}

// CMFortran is Thinking Machines' CM Fortran compiler. Sources: the CM
// Fortran Reference Manual and Programming Guide (Thinking Machines,
// 1991-1994): array operations run over all elements at once, and the
// data motion of an array statement (CSHIFT, EOSHIFT, sections) moves
// whole arrays over the NEWS grid or the router, so messages are
// vectorized by construction; reductions (SUM, MAXVAL, COUNT, ...) use
// the machine's global combine operations. A DO loop over array elements
// runs its iterations one after another, element by element: nothing is
// pipelined in blocks, loops are not split, and nothing moves across
// iterations or procedures.
func CMFortran() *Profile {
	return &Profile{Name: "CM Fortran", MessageVectorization: true, PipelineBlock: 0, Collectives: true}
}

// ProfileFor returns the built-in profile of a dialect as partition
// names them: "hpf", "cmf", "fortran-d"; Rice Fortran 77D, seed 000's
// compiler, for anything else.
func ProfileFor(dialect string) *Profile {
	switch dialect {
	case "hpf":
		return HPFCompiler()
	case "cmf":
		return CMFortran()
	}
	return RiceFortranD()
}

// Label names the profile in a message: "the HPF compiler profile".
func (p *Profile) Label() string {
	return "the " + p.Name + " compiler profile"
}

// unitProfiles chooses the profile of each unit's findings: prof when
// given, else the built-in one of the unit's dialect (from its directives,
// else the file's: the first unit with directives, or the file name's).
// The file's dialect is found once, so that a file of many units without
// directives is not walked once per unit.
func unitProfiles(f *parser.File, prof *Profile) func(u *parser.Unit) *Profile {
	if prof != nil {
		return func(*parser.Unit) *Profile { return prof }
	}
	fileDialect, found := "", false
	return func(u *parser.Unit) *Profile {
		if d := partition.Dialect(u); d != "" {
			return ProfileFor(d)
		}
		if !found {
			found = true
			fileDialect = f.Dialect
			for _, v := range f.Units {
				if d := partition.Dialect(v); d != "" {
					fileDialect = d
					break
				}
			}
		}
		return ProfileFor(fileDialect)
	}
}

// LoadProfile reads a capability profile file.
func LoadProfile(r io.Reader) (*Profile, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	p := RiceFortranD()
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("capability profile: %w", err)
	}
	if p.PipelineBlock < 0 {
		return nil, fmt.Errorf("capability profile: pipelineBlock %d is negative", p.PipelineBlock)
	}
	return p, nil
}

// Finding is a place where the source needs what the profile says the
// compiler will not do, with the estimate's numbers.
type Finding struct {
	Code     string // non-overlapped-broadcast, missing-align, ...
	Start    int    // byte range in the file
	End      int
	Severity string // "warning" or "information"
	Message  string
	Fix      *Fix // a quick fix, when one is safe
}

// Fix writes the directive Text at Offset. Edits are all the fix's
// edits in file order, that one included (a directive the new one
// replaces is removed by them).
type Fix struct {
	Title  string
	Offset int
	Text   string
	Edits  []Edit
}

// Edit replaces the bytes [Start, End) of the file with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Capabilities analyses every outermost loop of every unit of f under its
// current distribution and reports what the profile leaves to the
// programmer (seeds 000, 001 and 002). A nil profile chooses the built-in
// profile of each unit's dialect (ProfileFor).
func Capabilities(f *parser.File, prof *Profile, opt partition.Options) []Finding {
	if opt.Machine == nil {
		opt.Machine = machine.DefaultMachine()
	}
	var out []Finding
	profileOf := unitProfiles(f, prof)
	for _, u := range f.Units {
		if u.Scope == nil {
			continue
		}
		up := profileOf(u)
		key, keyed := unitKey(f, u, up, opt)
		if keyed {
			if fs, ok := unitFindings.get(key); ok {
				out = append(out, moved(fs, u.Base)...)
				continue
			}
		}
		fs := capabilitiesOf(f, u, up, opt)
		if keyed {
			unitFindings.put(key, fs, u)
		}
		out = append(out, fs...)
	}
	out = append(out, callsInLoops(f, profileOf, opt)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// capabilitiesOf is the findings of one top-level unit: its unused
// arrays and, where its loops are estimated, their findings.
func capabilitiesOf(f *parser.File, u *parser.Unit, up *Profile, opt partition.Options) []Finding {
	out := unusedArrays(f, u, opt)
	d := partition.FromUnit(u, opt.Procs, f.Dialect)
	if !estimated(d) {
		return out
	}
	uopt := opt
	uopt.PipelineBlock = estimatorBlock(up)
	ua := &unitLoops{f: f, u: u, d: d, opt: uopt}
	var ests []*partition.Estimate
	for _, s := range u.Body {
		if c, ok := s.(*parser.DoConstruct); ok {
			e := partition.EstimateLoop(f, u, c, d, uopt)
			ua.loops = append(ua.loops, c)
			ests = append(ests, e)
			ua.total += secs(e.Time)
		}
	}
	for i, c := range ua.loops {
		out = append(out, loopFindings(ua, c, ests[i], up)...)
	}
	return out
}

// estimatorBlock is the estimator's block size of coarse-grain
// pipelining (partition.Options.PipelineBlock) for a compiler profile.
// The two count differently: a profile's pipelineBlock 0 means the
// compiler does not pipeline in blocks, so a pipelined loop passes one
// element at a time (B = 1, as pipeline-granularity says), whereas the
// estimator's 0 means its default of 8.
func estimatorBlock(p *Profile) int {
	if p.PipelineBlock <= 0 {
		return 1
	}
	return p.PipelineBlock
}

// estimated reports whether Capabilities estimates the loops of a unit
// with the distribution d: one with a template or distributed arrays.
func estimated(d *partition.Distribution) bool {
	return d.Template != "" || anyDistributed(d)
}

// EstimatesLoops reports whether Capabilities estimates any loop of f on
// procs processors (a unit with a template or distributed arrays): only
// then do the program's other files (partition.Options.Others) matter to
// its findings.
func EstimatesLoops(f *parser.File, procs int) bool {
	for _, u := range f.Units {
		if u.Scope != nil && estimated(partition.FromUnit(u, procs, f.Dialect)) {
			return true
		}
	}
	return false
}

func anyDistributed(d *partition.Distribution) bool {
	for _, l := range d.Arrays {
		if l.Distributed() {
			return true
		}
	}
	return false
}

func lineRange(f *parser.File, off int) (int, int) {
	l := f.Lines.Line(off)
	start := f.Lines.LineStart(l)
	for start < len(f.Src) && (f.Src[start] == ' ' || f.Src[start] == '\t') {
		start++
	}
	return start, f.Lines.LineEnd(l)
}

func secs(p partition.Poly) float64 {
	v, _ := complexity.Seconds(p)
	return v
}

// HumanSeconds prints a time in seconds as a decimal with a fitting
// unit: 27.6 ms.
func HumanSeconds(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || a >= 1e15:
		// Past what digits can say (and not "NaN s" for an infinite time).
		return fmt.Sprintf("%.3g s", v)
	case a >= 1000:
		// Three significant digits, without an exponent: 599000 s.
		e := math.Pow(10, math.Floor(math.Log10(a))-2)
		return strconv.FormatFloat(math.Round(v/e)*e, 'f', 0, 64) + " s"
	case a >= 1:
		return fmt.Sprintf("%.3g s", v)
	case a >= 1e-3:
		return fmt.Sprintf("%.3g ms", v*1e3)
	case a >= 1e-6:
		return fmt.Sprintf("%.3g µs", v*1e6)
	case a >= 1e-9 || a == 0:
		return fmt.Sprintf("%.3g ns", v*1e9)
	}
	return fmt.Sprintf("%.3g ps", v*1e12)
}

// HumanCount prints a count with an SI prefix from 10⁴ on (the inlay
// labels' threshold): 999, 12.3 k, 1.05 M, 4.29 G.
func HumanCount(v float64) string {
	a := math.Abs(v)
	switch {
	case a < 1e4:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case a < 1e6:
		return fmt.Sprintf("%.3g k", v/1e3)
	case a < 1e9:
		return fmt.Sprintf("%.3g M", v/1e6)
	case a < 1e12:
		return fmt.Sprintf("%.3g G", v/1e9)
	case a < 1e15:
		return fmt.Sprintf("%.3g T", v/1e12)
	case a < 1e18:
		return fmt.Sprintf("%.3g P", v/1e15)
	case a < 1e21:
		return fmt.Sprintf("%.3g E", v/1e18)
	}
	return fmt.Sprintf("%.3g", v)
}

// CountText prints a count that may still depend on symbols: a number
// from 10⁴ on with an SI prefix, below that exactly (an expected count
// under a branch may be 1/2), or the polynomial, in parentheses when it has
// several terms (so that "(NPROCS - 1) × 16384 bytes" reads right).
func CountText(p partition.Poly) string {
	if v, ok := complexity.Seconds(p); ok && math.Abs(v) >= 1e4 {
		return HumanCount(v)
	}
	if len(p.Terms()) > 1 {
		return "(" + p.String() + ")"
	}
	return p.String()
}

// PolySeconds prints a time in seconds that may still depend on symbols:
// a number with a unit, or each term's coefficient as a decimal with a
// unit times its symbols, "68.5 ps·NLOC + 2.1 µs", never rational seconds.
func PolySeconds(p partition.Poly) string {
	if v, ok := complexity.Seconds(p); ok {
		return HumanSeconds(v)
	}
	var b strings.Builder
	for i, t := range p.Terms() {
		c, _ := t.Coef.Float64()
		switch {
		case i > 0 && c < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		b.WriteString(HumanSeconds(c))
		for _, f := range t.Factors {
			b.WriteString("·" + f.Name)
			if f.Exp != 1 {
				b.WriteString("^" + strconv.Itoa(f.Exp))
			}
		}
	}
	return b.String()
}

// unitLoops is a unit's outermost loops under its current distribution
// and their estimated total time, computed once for all its findings.
type unitLoops struct {
	f     *parser.File
	u     *parser.Unit
	d     *partition.Distribution
	opt   partition.Options
	loops []*parser.DoConstruct
	total float64
}

// totalWith is the estimated time of the unit's outermost loops under
// another distribution.
func (ua *unitLoops) totalWith(d *partition.Distribution) float64 {
	t := 0.0
	for _, c := range ua.loops {
		t += secs(partition.EstimateLoop(ua.f, ua.u, c, d, ua.opt).Time)
	}
	return t
}

func loopFindings(ua *unitLoops, c *parser.DoConstruct, e *partition.Estimate, prof *Profile) []Finding {
	f, u, d, opt := ua.f, ua.u, ua.d, ua.opt
	var out []Finding
	total := secs(e.Time)
	pct := func(t float64) string {
		if total <= 0 {
			return ""
		}
		return fmt.Sprintf(", %.0f%% of the loop's %s", 100*t/total, HumanSeconds(total))
	}
	written := map[string]bool{}
	for _, name := range partition.Written(c.Body, u.Scope) {
		written[name] = true
	}
	// non-overlapped-broadcast: every iteration of the outer loop waits
	// for values one processor computes in that iteration (seed 000,
	// DGEFA: "other processors have to wait for the pivot processor to
	// compute and broadcast the row-reduction factors"). A broadcast of
	// values every processor updated in parallel (the pivot row of a
	// row-distributed elimination) has no such serial phase to overlap.
	if !prof.ReorderIterations {
		var wait float64
		var arrays []string
		seen := map[string]bool{}
		for _, m := range e.Messages {
			if m.Pattern == "broadcast" && written[m.Array] && m.Loop != c && ownerComputes(c, u, d, m.Array) {
				wait += secs(m.Time)
				if !seen[m.Array] {
					seen[m.Array] = true
					arrays = append(arrays, m.Array)
				}
			}
		}
		if wait > 0 && c.Do.Var != nil {
			s, en := lineRange(f, u.Abs(c.Do.Pos()))
			out = append(out, Finding{Code: "non-overlapped-broadcast", Start: s, End: en, Severity: "warning",
				Message: fmt.Sprintf("each iteration of the %s loop waits while one processor computes and broadcasts values of %s; %s does not move a broadcast into the iteration before. Compute and broadcast the next step's values as soon as they are final (before the rest of this step's work), or distribute the other dimension. Estimated waiting: %s%s",
					c.Do.Var.Name, strings.Join(arrays, ", "), prof.Label(), HumanSeconds(wait), pct(wait))})
		}
	}
	perLoop := map[*parser.DoConstruct][]*partition.Message{}
	for _, m := range e.Messages {
		switch {
		case m.Relayout:
			out = append(out, missingAlign(ua, m)...)
		case m.Pipeline:
			// reported once per pipelined loop below
			perLoop[nil] = append(perLoop[nil], m)
		case m.Pattern == "element-shift":
			s, en := lineRange(f, m.Offset)
			why := "dependences keep this message inside the innermost loop"
			who := prof.Label() + " combines a loop's elements into one message only where dependences allow"
			if !prof.MessageVectorization {
				why = prof.Label() + " does not combine a loop's elements into one message"
				who = "one message for the whole loop needs the loop rewritten in array syntax or with its communication hoisted"
			}
			out = append(out, Finding{Code: "unvectorized-message", Start: s, End: en, Severity: "warning",
				Message: fmt.Sprintf("%s: %s, so %s messages of one element each are sent rather than one for the whole loop (%s): %s%s",
					m.Why, why, CountText(m.Count), who, HumanSeconds(secs(m.Time)), pct(secs(m.Time)))})
		case machine.VectorShift(m.Pattern) && !m.PointToPoint && m.Loop != nil && !prof.LoopDistribution && walksArray(m.Loop, m.Array):
			// (Only a loop whose index runs along the array has
			// iterations at block boundaries: a shift hoisted out of a
			// time loop, sent once before all its steps, gives that loop
			// nothing to split.)
			perLoop[m.Loop] = append(perLoop[m.Loop], m)
		}
	}
	for loop, ms := range perLoop {
		if loop == nil {
			out = append(out, pipelineFindings(f, u, d, ms, prof, opt)...)
			continue
		}
		if pipelinedIn(u, loop, e.Messages) {
			// A loop holding a pipelined sweep runs in the pipeline's
			// order: each processor's first block waits for its left
			// neighbour, its last local iterations (the ones the shift
			// feeds) come after all its interior work. The shift is
			// already behind that work; splitting hides nothing more.
			continue
		}
		var t float64
		for _, m := range ms {
			t += secs(m.Time)
		}
		s, en := lineRange(f, u.Abs(loop.Do.Pos()))
		out = append(out, Finding{Code: "loop-distribution", Start: s, End: en, Severity: "information",
			Message: fmt.Sprintf("the iterations of this loop at block boundaries wait for %d shift(s) from the neighbours, the others are local; %s does not split the loop. Split it into boundary and interior iterations and start the interior while the messages travel: up to %s to hide%s",
				len(ms), prof.Label(), HumanSeconds(t), pct(t))})
	}
	// fine-grain-loop: a partitioned loop whose work per processor is
	// below what its communication costs, by more than the machine's
	// run-to-run noise (closer than that, neither is known to be larger).
	// Messages that only a missing ALIGN causes are left out: missing-align
	// reports them with their own fix.
	comm := secs(e.Comm)
	for _, m := range e.Messages {
		if m.Relayout {
			comm -= secs(m.Time)
		}
	}
	if comp := secs(e.Compute); comm > 0 && comp < comm && !opt.Machine.AboutTheSame(comp, comm) && c.Do.Var != nil {
		s, en := lineRange(f, u.Abs(c.Do.Pos()))
		out = append(out, Finding{Code: "fine-grain-loop", Start: s, End: en, Severity: "warning",
			Message: fmt.Sprintf("the work each processor does in this loop (%s) is less than the communication it needs (%s) on %d processors; give each processor more work per message (coarser distribution, fewer processors, or fuse loops)",
				HumanSeconds(comp), HumanSeconds(comm), d.Procs)})
	}
	return out
}

// callsInLoops reports CALLs inside loops to procedures of the file that
// communicate: the messages are sent on every call, and a compiler that
// does not transform across procedures cannot combine them
// (beyond-compiler). A nil profile is chosen per calling unit.
func callsInLoops(f *parser.File, profileOf func(*parser.Unit) *Profile, opt partition.Options) []Finding {
	procs := map[string]*parser.Unit{}
	for _, u := range f.Units {
		if u.Kind == parser.UnitSubroutine && u.Scope != nil {
			procs[u.Name] = u
		}
	}
	// The subroutines called inside loops, from units whose compiler
	// does not transform across procedures: only their calls can be
	// findings (estimating every subroutine's body again doubled the
	// analysis of a file without calls).
	inLoops := map[string]bool{}
	for _, u := range f.Units {
		if u.Scope == nil || profileOf(u).Interprocedural {
			continue
		}
		for _, s := range u.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				if c, ok := n.(*parser.DoConstruct); ok {
					parser.Inspect(c, func(m parser.Node) bool {
						if x, ok := m.(*parser.CallStmt); ok && x.Name != nil {
							inLoops[x.Name.Name] = true
						}
						return true
					})
					return false
				}
				return true
			})
		}
	}
	// The communication of one call: the callee's body as a loop run once.
	perCall := map[string]float64{}
	for name, u := range procs {
		if !inLoops[name] {
			continue
		}
		d := partition.FromUnit(u, opt.Procs, f.Dialect)
		if !anyDistributed(d) {
			continue
		}
		one := &parser.Lit{Kind: parser.IntLit, Value: "1"}
		wrap := &parser.DoConstruct{Do: &parser.DoStmt{Var: &parser.Ident{Name: "$CALL"}, Lo: one, Hi: one}, Body: u.Body}
		o := opt
		o.PipelineBlock = estimatorBlock(profileOf(u))
		if t := secs(partition.EstimateLoop(f, u, wrap, d, o).Comm); t > 0 {
			perCall[name] = t
		}
	}
	if len(perCall) == 0 {
		return nil
	}
	var out []Finding
	for _, u := range f.Units {
		if u.Scope == nil {
			continue
		}
		up := profileOf(u)
		if up.Interprocedural {
			continue
		}
		var walk func(list []parser.Stmt, loops []*parser.DoConstruct)
		walk = func(list []parser.Stmt, loops []*parser.DoConstruct) {
			for _, s := range list {
				switch x := s.(type) {
				case *parser.DoConstruct:
					walk(x.Body, append(loops, x))
				case *parser.IfConstruct:
					for _, a := range x.Arms {
						walk(a.Body, loops)
					}
				case *parser.CallStmt:
					t, ok := perCall[x.Name.Name]
					if !ok || len(loops) == 0 {
						continue
					}
					calls := 1.0
					for _, l := range loops {
						d := l.Do
						if d.Lo == nil || d.Hi == nil {
							calls = math.NaN()
							break
						}
						lo, ok1 := parser.EvalInt(d.Lo, u.Scope)
						hi, ok2 := parser.EvalInt(d.Hi, u.Scope)
						step := int64(1)
						if d.Step != nil {
							step, _ = parser.EvalInt(d.Step, u.Scope)
						}
						if !ok1 || !ok2 || step == 0 {
							calls = math.NaN()
							break
						}
						calls *= math.Max(0, float64((hi-lo+step)/step))
					}
					s0, e0 := lineRange(f, u.Abs(x.Pos()))
					cost := "on every call"
					if !math.IsNaN(calls) {
						cost = fmt.Sprintf("%s times: %s of communication", HumanCount(calls), HumanSeconds(calls*t))
					}
					out = append(out, Finding{Code: "beyond-compiler", Start: s0, End: e0, Severity: "information",
						Message: fmt.Sprintf("%s communicates (%s per call) and is called inside a loop, %s; %s does not transform across procedures, so these messages are never combined. Move the loop into %s (or inline it) so that each message is sent once for the whole loop",
							x.Name.Name, HumanSeconds(t), cost, up.Label(), x.Name.Name)})
				}
			}
		}
		walk(u.Body, nil)
	}
	return out
}

// missingAlign reports an element-wise use of arrays laid out differently
// (seed 001 §4.1) and offers the ALIGN that removes it, with what the
// unit's loops save when target takes source's layout (estimated on the
// distribution, without parsing the fixed text again).
func missingAlign(ua *unitLoops, m *partition.Message) []Finding {
	f, u, d := ua.f, ua.u, ua.d
	s, en := lineRange(f, m.Offset)
	target, source := m.Target, m.Array
	if target == "" {
		return nil
	}
	msg := fmt.Sprintf("%s is not aligned with %s, so every element %s reads from %s travels (all-to-all, %s)",
		target, source, target, source, HumanSeconds(secs(m.Time)))
	fd := Finding{Code: "missing-align", Start: s, End: en, Severity: "warning", Message: msg}
	if fix := alignFix(f, u, d, target, source); fix != nil {
		fd.Fix = fix
		if aligned := d.AlignedWith(target, source); aligned != nil {
			before, after := ua.total, ua.totalWith(aligned)
			if before > after {
				fd.Message += fmt.Sprintf("; aligning it saves about %s (%s → %s)", HumanSeconds(before-after), HumanSeconds(before), HumanSeconds(after))
			}
		}
	}
	return []Finding{fd}
}

// Capabilities0 returns the estimated time of each outermost loop of f
// under its current distributions.
func Capabilities0(f *parser.File, opt partition.Options) []float64 {
	var out []float64
	for _, u := range f.Units {
		if u.Scope == nil {
			continue
		}
		d := partition.FromUnit(u, opt.Procs, f.Dialect)
		for _, s := range u.Body {
			if c, ok := s.(*parser.DoConstruct); ok {
				out = append(out, secs(partition.EstimateLoop(f, u, c, d, opt).Time))
			}
		}
	}
	return out
}

// alignFix writes the ALIGN of target with source in the file's dialect,
// in the case of the unit's directives (lowerCase):
// target takes source's own mapping. The new directive aligns target as
// source is aligned (with the template, decomposition or array source's
// ALIGN names, with its subscripts) or, when source is distributed
// directly or laid out by CM Fortran's default, with source itself. It
// goes on a new line after target's declaration and after the
// declaration of what it names (a DECOMPOSITION or TEMPLATE written after
// the arrays). An array may be the alignee of one ALIGN and may not be
// both aligned and distributed (HPF 2.0 §3.4: "An object-name mentioned
// as an alignee may not appear as a distributee"), and the mapping a
// compiler keeps is the one the file states last; so target's own
// DISTRIBUTE, ALIGN or CM Fortran LAYOUT goes: the whole directive when target is its only
// name, else target's name from its list. No fix is offered where that
// cannot be written safely.
func alignFix(f *parser.File, u *parser.Unit, d *partition.Distribution, target, source string) *Fix {
	sc := u.Scope
	sym := sc.Lookup(target)
	src := sc.Lookup(source)
	if sym == nil || src == nil || sym.Rank() == 0 || sym.Rank() != src.Rank() {
		return nil
	}
	dialect := partition.Dialect(u)
	with, subs, withSubs, ok := alignWith(f, u, d, source, dialect)
	if !ok || with == target {
		return nil
	}
	var text string
	switch dialect {
	case "fortran-d":
		if ws := sc.Lookup(with); ws == nil || ws.Dist == nil {
			return nil // Fortran D aligns arrays with decompositions only
		}
		text = "      ALIGN " + target + subs + " WITH " + with + withSubs + "\n"
	case "hpf":
		if subs == "" {
			text = "!HPF$ ALIGN WITH " + with + withSubs + " :: " + target + "\n"
		} else {
			text = "!HPF$ ALIGN " + target + subs + " WITH " + with + withSubs + "\n"
		}
	default: // CM Fortran, and files without directives
		if subs == "" {
			return nil
		}
		text = "CMF$ ALIGN " + target + subs + " WITH " + with + withSubs + "\n"
	}
	if f.Form == parser.Free {
		text = strings.TrimLeft(text, " ")
		if strings.HasPrefix(text, "CMF$") {
			text = "!" + text
		}
	}
	if lowerCase(f, u, sym) {
		text = strings.ToLower(text)
	}
	if !fitsLastColumn(f, text) {
		return nil
	}
	// Arrays aligned with target follow it; an alignment with an array
	// aligned with another array is not followed further (CM Fortran
	// resolves one step), so then no fix.
	if ws := sc.Lookup(with); ws == nil || ws.Dist == nil {
		for _, name := range sc.Names() {
			if o := sc.Syms[name]; o.Align != nil && o.Align.Target != nil && o.Align.Target.Name == target {
				return nil
			}
		}
	}
	// After the declarations of target and of what the ALIGN names.
	declEnd := -1
	for _, name := range []string{target, with} {
		s := sc.Syms[name]
		if s == nil {
			continue // declared in a host: before this unit
		}
		end := u.Abs(s.Decl)
		for _, st := range u.Body {
			if st.Pos() <= s.Decl && s.Decl < st.End() {
				end = u.Abs(st.End())
			}
		}
		declEnd = max(declEnd, end)
	}
	at := f.Lines.LineStart(f.Lines.Line(declEnd) + 1)
	// target's own mapping goes.
	var removals []Edit
	for _, st := range u.Body {
		dir, isDir := st.(*parser.Directive)
		if !isDir {
			continue
		}
		var names []*parser.Ident
		switch spec := dir.Spec.(type) {
		case *parser.AlignSpec:
			names = spec.Alignees
		case *parser.DistributeSpec:
			names = spec.Targets
		case *parser.LayoutSpec:
			for _, one := range append([]*parser.LayoutSpec{spec}, spec.More...) {
				names = append(names, one.Target)
			}
		default:
			continue
		}
		for k, n := range names {
			if n.Name != target {
				continue
			}
			e, ok := removeName(f, u, dir, names, k)
			if !ok {
				return nil
			}
			removals = append(removals, e)
		}
	}
	edits := []Edit{{Start: at, End: at, Text: text}}
	for _, r := range removals {
		if r.Start <= at && at <= r.End && r.Text == "" && (r.End == len(f.Src) || f.Src[r.End-1] == '\n') &&
			(r.Start == 0 || f.Src[r.Start-1] == '\n') {
			// The new line takes the place of the removed directive.
			edits[0] = Edit{Start: r.Start, End: r.End, Text: text}
			continue
		}
		edits = append(edits, r)
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	for i := 1; i < len(edits); i++ {
		if edits[i].Start < edits[i-1].End {
			return nil
		}
	}
	title := "Insert " + strings.TrimSpace(strings.TrimPrefix(text, "!"))
	if len(removals) > 0 {
		title += " (in place of " + target + "'s own mapping)"
	}
	return &Fix{Title: title, Offset: edits[0].Start, Text: text, Edits: edits}
}

// fitsLastColumn reports whether every line of text ends by the file's
// last column: 72 (or the configured line length) in fixed form, 132 in
// free form. Past it a fixed-form compiler drops the rest of the line (an
// ALIGN cut inside its subscripts), and a directive line cannot be
// continued safely in every dialect, so no fix is offered then (as the
// Distribute actions, hints/actions.go).
func fitsLastColumn(f *parser.File, text string) bool {
	limit := 132
	if f.Form == parser.Fixed {
		limit = 72
		if f.Config != nil && f.Config.LineLength != 0 {
			limit = f.Config.LineLength
		}
	}
	if limit < 0 {
		return true
	}
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if utf8.RuneCountInString(strings.TrimRight(l, " \t\r")) > limit {
			return false
		}
	}
	return true
}

// lowerCase reports whether the unit's directives are written in lower
// case (the first one's keyword: "!hpf$ distribute"), or, in a unit
// without directives, the statement declaring sym: the fix writes its
// directive as the user writes them.
func lowerCase(f *parser.File, u *parser.Unit, sym *parser.Symbol) bool {
	at := -1
	for _, st := range u.Body {
		if d, ok := st.(*parser.Directive); ok {
			at = u.Abs(d.KeyPos)
			break
		}
	}
	if at < 0 {
		for _, st := range u.Body {
			if b, ok := st.(interface{ Base() *parser.StmtBase }); ok && st.Pos() <= sym.Decl && sym.Decl < st.End() {
				at = u.Abs(b.Base().KeyPos)
			}
		}
	}
	if at < 0 || at >= len(f.Src) {
		return false
	}
	end := at
	for end < len(f.Src) && ('a' <= f.Src[end] && f.Src[end] <= 'z' || 'A' <= f.Src[end] && f.Src[end] <= 'Z') {
		end++
	}
	w := string(f.Src[at:end])
	return w != "" && w == strings.ToLower(w)
}

// alignWith finds what an array aligned like source is aligned with: the
// template, decomposition or array that source's ALIGN names, with the
// subscripts written there (copied from the source text), or source
// itself when it is distributed directly or laid out by CM Fortran. An
// alignment with an array that is itself aligned is followed to the
// ultimate target when it is the identity (the same dummies in the same
// order on both sides, or none); any other chain gets no fix. subs and
// withSubs are "" when the ALIGN has none.
func alignWith(f *parser.File, u *parser.Unit, d *partition.Distribution, source, dialect string) (with, subs, withSubs string, ok bool) {
	sc := u.Scope
	cur := source
	for range 16 {
		cs := sc.Lookup(cur)
		if cs == nil {
			return "", "", "", false
		}
		dummies := "(" + strings.Join([]string{"I", "J", "K", "L", "M", "N", "O"}[:min(cs.Rank(), 7)], ",") + ")"
		if cs.Rank() > 7 {
			return "", "", "", false
		}
		if cs.Dist != nil {
			return cur, dummies, dummies, true
		}
		if cs.Align == nil {
			if l := d.Arrays[cur]; dialect != "fortran-d" && dialect != "hpf" && l != nil && l.Distributed() {
				return cur, dummies, dummies, true // CM Fortran's layout
			}
			return "", "", "", false
		}
		spec := cs.Align
		if spec.Target == nil {
			return "", "", "", false
		}
		var own []parser.Expr
		if spec.HasSubs {
			own = spec.Subs
		}
		for k, a := range spec.Alignees {
			if a.Name == cur && k < len(spec.AligneeSubs) && spec.AligneeSubs[k] != nil {
				own = spec.AligneeSubs[k]
			}
		}
		var tsubs []parser.Expr
		if spec.HasTarget {
			tsubs = spec.TargetSubs
		}
		if ts := sc.Lookup(spec.Target.Name); ts != nil && ts.Dist != nil {
			a, ok1 := subsText(f, u, own)
			b, ok2 := subsText(f, u, tsubs)
			if !ok1 || !ok2 {
				return "", "", "", false
			}
			return spec.Target.Name, a, b, true
		}
		if !identity(own, tsubs) {
			return "", "", "", false
		}
		cur = spec.Target.Name
	}
	return "", "", "", false
}

// subsText is the source text of a subscript list, in parentheses ("" for
// none), when it is written on one line.
func subsText(f *parser.File, u *parser.Unit, subs []parser.Expr) (string, bool) {
	if len(subs) == 0 {
		return "", true
	}
	a, b := u.Abs(subs[0].Pos()), u.Abs(subs[len(subs)-1].End())
	if a < 0 || b > len(f.Src) || a >= b || strings.ContainsAny(string(f.Src[a:b]), "\n&!") {
		return "", false
	}
	return "(" + strings.ToUpper(string(f.Src[a:b])) + ")", true
}

// identity reports whether an ALIGN's subscripts map every index to
// itself: none on either side, or the same distinct dummies in the same
// order.
func identity(own, target []parser.Expr) bool {
	if len(own) == 0 && len(target) == 0 {
		return true
	}
	if len(own) != len(target) {
		return false
	}
	seen := map[string]bool{}
	for i := range own {
		a, ok1 := own[i].(*parser.Ident)
		b, ok2 := target[i].(*parser.Ident)
		if !ok1 || !ok2 || a.Name != b.Name || seen[a.Name] {
			return false
		}
		seen[a.Name] = true
	}
	return true
}

// removeName is the edit that takes names[k] out of a mapping directive:
// the whole directive (its lines) when it is the only name, else the name
// (with an alignee's own subscripts) and one comma next to it, on its line.
func removeName(f *parser.File, u *parser.Unit, dir *parser.Directive, names []*parser.Ident, k int) (Edit, bool) {
	src := f.Src
	if len(names) == 1 {
		first := f.Lines.Line(u.Abs(dir.From))
		last := f.Lines.Line(max(u.Abs(dir.To)-1, u.Abs(dir.From)))
		return Edit{Start: f.Lines.LineStart(first), End: f.Lines.LineStart(last + 1)}, true
	}
	// itemEnd is the end of names[i] with the subscripts written after it.
	itemEnd := func(i int) int {
		e := u.Abs(names[i].End())
		j := e
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j < len(src) && src[j] == '(' {
			depth := 0
			for ; j < len(src) && src[j] != '\n'; j++ {
				switch src[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
				if depth == 0 {
					return j + 1
				}
			}
			return -1
		}
		return e
	}
	var e Edit
	if k > 0 {
		e = Edit{Start: itemEnd(k - 1), End: itemEnd(k)}
	} else {
		e = Edit{Start: u.Abs(names[0].Pos()), End: u.Abs(names[1].Pos())}
	}
	if e.Start < 0 || e.End <= e.Start || e.End > len(src) {
		return Edit{}, false
	}
	cut := string(src[e.Start:e.End])
	commas, depth := 0, 0
	for _, c := range cut {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				commas++
			}
		}
	}
	if strings.ContainsAny(cut, "\n!&") || commas != 1 {
		return Edit{}, false
	}
	return e, true
}

// unusedArrays reports arrays declared but never read or written (seed
// 001 §4.2), with the memory they take on each processor.
func unusedArrays(f *parser.File, u *parser.Unit, opt partition.Options) []Finding {
	var out []Finding
	d := partition.FromUnit(u, opt.Procs, f.Dialect)
	for _, name := range u.Scope.Names() {
		sym := u.Scope.Syms[name]
		if sym.Kind != parser.SymVariable || sym.Rank() == 0 || sym.Used || sym.Dummy || sym.InCommon || sym.Included != "" {
			continue
		}
		// Counted in floating point: the product of large extents does
		// not fit an int64 (it wrapped around, to a negative size).
		elems := 1.0
		known := true
		for _, e := range partition.Extents(sym, u.Scope) {
			if !e.Known {
				known = false
				break
			}
			elems *= math.Max(float64(e.Upper)-float64(e.Lower)+1, 0)
		}
		size := partition.TypeSize(sym.Type)
		where := "is never read or written"
		if known {
			bytes := elems * float64(size)
			if l := d.Arrays[name]; l != nil && l.Distributed() {
				p := 1
				for _, df := range l.Dims {
					p *= df.Procs
				}
				bytes /= float64(p)
			}
			where += fmt.Sprintf("; it takes %s per processor", humanBytes(bytes))
		}
		at := u.Abs(sym.Decl)
		out = append(out, Finding{Code: "unused-array", Start: at, End: at + len(name), Severity: "information",
			Message: fmt.Sprintf("array %s %s", name, where)})
	}
	return out
}

func humanBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.3g MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.3g KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f bytes", b)
}

// PipelineModel holds the coefficients of seed 000's pipeline model
// (equation 1): N1 the extent of the pipelined (distributed) dimension,
// N2 the units of work per processor (the other dimensions), m0 bytes per
// unit, and the fixed and per-unit costs of a stage, a send, a receive and
// the transfer.
type PipelineModel struct {
	P                int
	N1, N2           float64
	M0               float64
	ClStage, CfStage float64
	ClSovhd, CfSovhd float64
	ClRovhd, CfRovhd float64
	ClComm, CfComm   float64
}

func lin(cl, cf, b float64) float64 { return cl*b + cf }

// TPipe is equation (1): (P−2)(T_stage + T_comm) + T_stage +
// (N2/B − 1)(T_sovhd + T_rovhd + T_stage) + T_comm + T_stage.
func (pm PipelineModel) TPipe(b float64) float64 {
	stage := pm.ClStage*b*pm.N1/float64(pm.P) + pm.CfStage
	comm := lin(pm.ClComm, pm.CfComm, b)
	so := lin(pm.ClSovhd, pm.CfSovhd, b)
	ro := lin(pm.ClRovhd, pm.CfRovhd, b)
	return float64(pm.P-2)*(stage+comm) + stage + (pm.N2/b-1)*(so+ro+stage) + comm + stage
}

// BOpt is equation (2), the continuous minimum of TPipe; ok is false
// when the denominator is not positive.
func (pm PipelineModel) BOpt() (float64, bool) {
	den := float64(pm.P-1)*(pm.ClStage*pm.N1/float64(pm.P)+pm.ClComm) - pm.ClRovhd - pm.ClSovhd
	if den <= 0 {
		return 0, false
	}
	return math.Sqrt(pm.N2 * (pm.CfStage + pm.CfRovhd + pm.CfSovhd) / den), true
}

// BestBlock searches the integer block sizes 1..N2 for the smallest
// TPipe: the machine's communication costs are piecewise linear, so the
// continuous optimum of each interval of continuity is compared at its
// integer neighbours, which an exhaustive search over B does exactly.
func (pm PipelineModel) BestBlock(cost func(b float64) PipelineModel) (int, float64) {
	best, bestT := 1, math.Inf(1)
	try := func(b int) {
		if t := cost(float64(b)).TPipe(float64(b)); t < bestT {
			best, bestT = b, t
		}
	}
	// Every B up to 4096, then geometric steps (2%) up to N2: the
	// optimum lies where stages are short, and a huge N2 must not make
	// this run for ever.
	n2 := int(math.Min(pm.N2, 1<<40))
	for b := 1; b <= n2 && b <= 4096; b++ {
		try(b)
	}
	for b := 4096; b < n2; b += b / 50 {
		try(b)
	}
	if n2 > 4096 {
		try(n2)
	}
	return best, bestT
}

// stmtAt finds the simple statement of u that starts at the absolute offset.
func stmtAt(u *parser.Unit, off int) parser.Stmt {
	var found parser.Stmt
	for _, s := range u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			if a, ok := n.(*parser.AssignStmt); ok && u.Abs(a.Pos()) == off {
				found = a
			}
			return found == nil
		})
	}
	return found
}

func pipelineFindings(f *parser.File, u *parser.Unit, d *partition.Distribution, ms []*partition.Message, prof *Profile, opt partition.Options) []Finding {
	var out []Finding
	done := map[string]bool{}
	for _, m := range ms {
		l := d.Arrays[m.Array]
		if l == nil || done[m.Array] {
			continue
		}
		done[m.Array] = true
		// The pipelined dimension is the distributed one; N2 is the product
		// of the others' extents.
		n1, n2 := 0.0, 1.0
		p := 1
		for i, df := range l.Dims {
			if i >= len(l.Extents) || !l.Extents[i].Known {
				return nil
			}
			ext := float64(l.Extents[i].Upper - l.Extents[i].Lower + 1)
			if df.Procs > 1 {
				n1, p = ext, df.Procs
			} else {
				n2 *= ext
			}
		}
		if n1 == 0 || p < 2 {
			continue
		}
		elem := float64(partition.TypeSize(u.Scope.TypeOf(m.Array)))
		// Per-element stage cost: the pipelined statement priced with the
		// machine's operation times, plus the loop overhead per iteration.
		mach := opt.Machine
		clStage := mach.Op("iteration")
		if st := stmtAt(u, m.Offset); st != nil {
			clStage += partition.StmtSeconds(u, st, mach)
		} else {
			// The statement is not found: price the stage of seed 000's
			// example, the forward substitution of ERLEBACHER (its Figure
			// 2, examples/tridvpk.f): F(I,J,K) = (F(I,J,K) −
			// A(K)·F(I,J,K−1))·B(K), four loads, two multiplications and
			// one subtraction per element.
			clStage += 4*mach.Op("load") + 2*mach.Op("mul") + mach.Op("add")
		}
		model := func(b float64) PipelineModel {
			bytes := elem * b
			t1, _ := mach.CommTime("vector-shift", p, bytes)
			t2, _ := mach.CommTime("vector-shift", p, bytes+elem)
			cl := (t2 - t1) // per unit of B
			cf := t1 - cl*b
			if cf < 0 {
				cf = 0
			}
			// The training set times a whole shift (send and receive);
			// seed 000 measures the send and receive overheads apart
			// (its footnote 3 takes C_f,sovhd ≈ T_sovhd, C_f,rovhd ≈
			// T_rovhd). Without that split the fixed part of a call is
			// shared evenly: half to each side.
			return PipelineModel{P: p, N1: n1, N2: n2, M0: elem, ClStage: clStage,
				ClComm: cl, CfComm: cf, CfSovhd: cf / 2, CfRovhd: cf / 2}
		}
		b0 := float64(prof.PipelineBlock)
		if b0 <= 0 {
			b0 = 1
		}
		tDefault := model(b0).TPipe(b0)
		best, tBest := model(1).BestBlock(model)
		cont, _ := model(float64(best)).BOpt()
		s, en := lineRange(f, m.Offset)
		if m.Loop != nil {
			s, en = lineRange(f, u.Abs(m.Loop.Do.Pos()))
		}
		// The model in words: larger blocks send fewer messages but make
		// the processors further down the pipeline wait longer to start.
		how := fmt.Sprintf("%s pipelines this loop nest across the distributed dimension of %s in blocks of B = %d", prof.Label(), m.Array, int(b0))
		if prof.PipelineBlock <= 0 {
			how = fmt.Sprintf("%s does not pipeline loops in blocks, so this loop nest passes one element at a time (B = 1) across the distributed dimension of %s", prof.Label(), m.Array)
		}
		out = append(out, Finding{Code: "pipeline-granularity", Start: s, End: en, Severity: "information",
			Message: fmt.Sprintf("%s; the pipeline model (larger blocks send fewer messages, but the last processor starts later and the pipeline drains longer) predicts %s at B = %d and %s at B_opt = %d, the best block size (the smooth optimum on its interval is %.1f); block the loop by hand to choose B",
				how, HumanSeconds(tDefault), int(b0), HumanSeconds(tBest), best, cont)})
	}
	return out
}

// ownerComputes reports whether loop c computes values of array (not
// only copies them) in a statement that one processor runs alone: an
// assignment to the array whose subscripts in every distributed
// dimension stay fixed within an iteration of c (DGEFA's A(I,K) =
// -A(I,K)/A(K,K) over I, with columns distributed: all on the owner of
// column K). The other processors wait for that work before the
// broadcast of its result. An assignment whose distributed subscript
// runs over an inner loop, a FORALL index or a section is divided among
// the owners, and a plain copy (the row swap A(K,:) = A(P,:)) computes
// nothing.
func ownerComputes(c *parser.DoConstruct, u *parser.Unit, d *partition.Distribution, array string) bool {
	l := d.Arrays[array]
	if l == nil {
		return false
	}
	isArray := func(name string) bool {
		if u.Scope == nil {
			return false
		}
		sym := u.Scope.Lookup(strings.ToUpper(name))
		return sym != nil && len(sym.Dims) > 0
	}
	copies := func(x parser.Expr) bool {
		for {
			p, ok := x.(*parser.Paren)
			if !ok {
				break
			}
			x = p.X
		}
		switch r := x.(type) {
		case *parser.Ident, *parser.Lit:
			return true
		case *parser.Call:
			id, ok := r.Fun.(*parser.Ident)
			return ok && isArray(id.Name)
		}
		return false
	}
	mentions := func(x parser.Expr, vars []string) bool {
		found := false
		parser.Inspect(x, func(n parser.Node) bool {
			if id, ok := n.(*parser.Ident); ok {
				for _, v := range vars {
					if strings.EqualFold(id.Name, v) {
						found = true
					}
				}
			}
			return !found
		})
		return found
	}
	serial := func(a *parser.AssignStmt, vars []string) bool {
		ref, ok := a.LHS.(*parser.Call)
		if !ok {
			return false // the whole array: divided among its owners
		}
		id, ok := ref.Fun.(*parser.Ident)
		if !ok || !strings.EqualFold(id.Name, array) || copies(a.RHS) {
			return false
		}
		for i, dim := range l.Dims {
			if dim.Procs <= 1 || i >= len(ref.Args) {
				continue
			}
			if _, ok := ref.Args[i].(*parser.Triplet); ok || mentions(ref.Args[i], vars) {
				return false
			}
		}
		return true
	}
	found := false
	var walk func(list []parser.Stmt, vars []string)
	var stmt func(s parser.Stmt, vars []string)
	stmt = func(s parser.Stmt, vars []string) {
		switch x := s.(type) {
		case *parser.AssignStmt:
			found = found || serial(x, vars)
		case *parser.DoConstruct:
			v := vars
			if x.Do.Var != nil {
				v = append(append([]string(nil), vars...), x.Do.Var.Name)
			}
			walk(x.Body, v)
		case *parser.IfStmt:
			stmt(x.Then, vars)
		case *parser.WhereStmt:
			stmt(x.Body, vars)
		case *parser.ForallStmt:
			v := append([]string(nil), vars...)
			if x.Header != nil {
				for _, sp := range x.Header.Specs {
					if sp.Var != nil {
						v = append(v, sp.Var.Name)
					}
				}
			}
			stmt(x.Body, v)
		case *parser.IfConstruct:
			for _, arm := range x.Arms {
				walk(arm.Body, vars)
			}
		case *parser.Block:
			v := vars
			if f, ok := x.Head.(*parser.ForallStmt); ok && f.Header != nil {
				v = append([]string(nil), vars...)
				for _, sp := range f.Header.Specs {
					if sp.Var != nil {
						v = append(v, sp.Var.Name)
					}
				}
			}
			walk(x.Body, v)
			for _, arm := range x.Arms {
				walk(arm.Body, v)
			}
		}
	}
	walk = func(list []parser.Stmt, vars []string) {
		for _, s := range list {
			stmt(s, vars)
		}
	}
	walk(c.Body, nil)
	return found
}

// pipelinedIn reports whether a pipelined message (Message.Pipeline) is
// needed by a statement inside loop.
func pipelinedIn(u *parser.Unit, loop *parser.DoConstruct, ms []*partition.Message) bool {
	from, to := u.Abs(loop.Pos()), u.Abs(loop.End())
	for _, m := range ms {
		if m.Pipeline && m.Offset >= from && m.Offset < to {
			return true
		}
	}
	return false
}

// walksArray reports whether the index of a loop appears in a subscript
// of a reference to the array inside the loop.
func walksArray(c *parser.DoConstruct, array string) bool {
	if c.Do.Var == nil {
		return false
	}
	idx := c.Do.Var.Name
	found := false
	for _, s := range c.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			if found {
				return false
			}
			call, ok := n.(*parser.Call)
			if !ok {
				return true
			}
			if id, ok := call.Fun.(*parser.Ident); !ok || !strings.EqualFold(id.Name, array) {
				return true
			}
			for _, a := range call.Args {
				parser.Inspect(a, func(n parser.Node) bool {
					if id, ok := n.(*parser.Ident); ok && strings.EqualFold(id.Name, idx) {
						found = true
					}
					return !found
				})
			}
			return !found
		})
	}
	return found
}
