package partition

// OpenMP loops on the cores of one shared-memory node. A loop that an
// !$OMP PARALLEL DO (or an !$OMP DO inside a PARALLEL region) governs is
// shared among threads — the --procs count, which for OpenMP code is the
// number of threads — and costs, per execution:
//
//	max(the busiest thread's iterations, the loop's main-memory traffic / bandwidth)
//	+ fork and join of the region (PARALLEL DO)   or   the barrier at the end (DO without NOWAIT)
//	+ the REDUCTION clauses' combining
//	+ the chunks a DYNAMIC or GUIDED schedule hands the busiest thread
//
// with the overheads and the bandwidths of the machine model's
// shared-memory section (machine.SharedMemory). The busiest thread's
// iterations are counted exactly per schedule (STATIC blocks as libgomp
// cuts them, STATIC,k chunks dealt round-robin, DYNAMIC,k and GUIDED
// chunks taken greedily by the first free thread), with each iteration
// weighed by its own time, so triangular loops show their imbalance; where
// the bounds depend on an enclosing loop's index (LU's J = K+1, N) the
// shares are weighed over that loop's iterations. Every term is named in
// the estimate's notes.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// ompLimit bounds the iterations weighed one by one, and apart from them
// the chunks dealt one by one (each over all iterations of an enclosing
// loop): past either a thread's share is the even one.
const ompLimit = 1 << 22

// ompSchedule kinds.
const (
	schedStatic  = "static"
	schedDynamic = "dynamic"
	schedGuided  = "guided"
)

// ompInfo is what an OpenMP loop directive says.
type ompInfo struct {
	dir        *parser.Directive
	parallel   bool   // PARALLEL DO: a region of its own
	kind       string // static, dynamic, guided
	chunk      int64  // 0: none given
	chunkX     parser.Expr
	nowait     bool
	collapse   int
	reductions []ompReduction
	sched      string // the schedule as written, for the report
}

type ompReduction struct {
	op   string
	vars []string
}

// ompOf returns the OpenMP worksharing directive of a loop, or nil.
func ompOf(c *parser.DoConstruct) *ompInfo {
	for _, d := range c.Directives {
		if d.Sentinel != "OMP" {
			continue
		}
		switch d.Name {
		case "DO", "DO SIMD", "PARALLEL DO", "PARALLEL DO SIMD", "PARALLEL LOOP", "LOOP":
		default:
			continue
		}
		o := &ompInfo{dir: d, parallel: strings.HasPrefix(d.Name, "PARALLEL"), kind: schedStatic, collapse: 1, sched: "static (the default)"}
		cs, _ := d.Spec.(*parser.ClauseSpec)
		if cs == nil {
			return o
		}
		for _, cl := range cs.Clauses {
			switch cl.Name {
			case "SCHEDULE":
				if len(cl.Args) == 0 {
					continue
				}
				kind := strings.ToLower(parser.ExprString(cl.Args[0]))
				if i := strings.LastIndexByte(kind, ':'); i >= 0 {
					kind = strings.TrimSpace(kind[i+1:]) // monotonic:dynamic
				}
				switch kind {
				case schedDynamic, schedGuided:
					o.kind = kind
				default: // static, auto, runtime: priced as static
					o.kind = schedStatic
				}
				o.sched = kind
				if len(cl.Args) > 1 {
					o.chunkX = cl.Args[1] // a number once ompLoop has the scope
					if v, ok := parser.EvalInt(cl.Args[1], nil); ok && v > 0 {
						o.chunk = v
					}
					o.sched += "," + parser.ExprString(cl.Args[1])
				}
				switch kind {
				case schedStatic, schedDynamic, schedGuided:
				case "auto", "runtime":
					o.sched += " (priced as static)"
				default:
					o.sched += " (not an OpenMP schedule: static, dynamic, guided, auto or runtime; priced as static)"
				}
			case "NOWAIT":
				o.nowait = true
			case "COLLAPSE":
				if len(cl.Args) == 1 {
					if v, ok := parser.EvalInt(cl.Args[0], nil); ok && v >= 1 && v <= 8 {
						o.collapse = int(v)
					}
				}
			case "REDUCTION":
				r := ompReduction{op: cl.Op}
				for _, a := range cl.Args {
					if id := rootIdent(a); id != nil {
						r.vars = append(r.vars, id.Name)
					}
				}
				o.reductions = append(o.reductions, r)
			}
		}
		return o
	}
	return nil
}

// ompEnclosed reports whether a loop runs inside an enclosing OpenMP
// worksharing loop: nested parallelism is off by default, so it runs on
// the one thread that executes that iteration.
func ompEnclosed(loops []loopInfo) bool {
	for _, l := range loops {
		if ompOf(l.do) != nil {
			return true
		}
	}
	return false
}

// ompRegion tells where an !$OMP DO (or BARRIER) stands: inside a
// PARALLEL region of its unit (the innermost one's directive is given),
// outside every region of a unit that has some (it then runs on one
// thread), or in a unit without regions (an orphaned DO, assumed called
// from inside a region).
func (e *est) ompRegion(at parser.Pos) (inside, unitHasRegions bool, region *parser.Directive) {
	var open []*parser.Directive
	for _, s := range e.u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			d, ok := n.(*parser.Directive)
			if !ok || d.Sentinel != "OMP" {
				return true
			}
			switch d.Name {
			case "PARALLEL", "PARALLEL SECTIONS", "PARALLEL WORKSHARE":
				unitHasRegions = true
				if d.Pos() < at {
					open = append(open, d)
				}
			case "END PARALLEL", "END PARALLEL SECTIONS", "END PARALLEL WORKSHARE":
				if d.Pos() < at && len(open) > 0 {
					open = open[:len(open)-1]
				}
			}
			return true
		})
	}
	if len(open) > 0 {
		return true, unitHasRegions, open[len(open)-1]
	}
	return false, unitHasRegions, nil
}

// ompCall is where a callee's call was made, for its orphaned OpenMP
// directives (an !$OMP DO binds to the team of the region the call is
// made in, OpenMP 5.2 11.5): known, inside a PARALLEL region (of team
// threads) or outside every one; where names the place for the notes.
// The zero value is a unit estimated for itself: not known.
type ompCall struct {
	known, inside bool
	team          int
	where         string
}

// ompCallAt is where a call made at position at of the unit stands: in
// one of its PARALLEL regions, outside every region (the main program,
// or a unit with regions estimated for itself), or where the unit's own
// call stands (in a region of the caller's or outside them all).
func (e *est) ompCallAt(at parser.Pos, loops []loopInfo) ompCall {
	inside, regions, region := e.ompRegion(at)
	switch {
	case inside:
		return ompCall{known: true, inside: true, team: e.ompTeam(region, loops),
			where: fmt.Sprintf("the PARALLEL region at line %d of %s", e.line(region), unitName(e.u))}
	case regions && !e.called.known || e.u.Kind == parser.UnitMain:
		return ompCall{known: true, where: fmt.Sprintf("line %d of %s, outside every PARALLEL region", e.f.Lines.Line(e.u.Abs(at))+1, unitName(e.u))}
	}
	// Outside the unit's own regions, a call is where the unit's own
	// call is: in the caller's region, if it was made in one.
	return e.called
}

// ompTeam is the thread count of a PARALLEL construct: its NUM_THREADS
// clause where that is a positive whole number (a constant, a PARAMETER or
// a --set value), else --procs; in a hybrid program (hybridTeam) the
// team of each process. A team other than --procs is noted.
func (e *est) ompTeam(d *parser.Directive, loops []loopInfo) int {
	t := max(e.opt.Procs, 1)
	if h, ok := e.hybridTeam(); ok {
		t = h
	}
	if d == nil {
		return t
	}
	if e.called.inside || e.inParLoop {
		// A region entered in a call made from inside a caller's
		// region is nested: inactive, a team of one thread.
		e.note(fmt.Sprintf("the PARALLEL region at line %d of %s is nested in a region of its caller: nested parallelism is off by default, so its team is 1 thread", e.line(d), unitName(e.u)))
		return 1
	}
	cs, _ := d.Spec.(*parser.ClauseSpec)
	if cs == nil {
		return t
	}
	for _, cl := range cs.Clauses {
		if cl.Name != "IF" || len(cl.Args) != 1 {
			continue
		}
		// IF(expr) or IF(PARALLEL: expr): false makes the region
		// inactive, run by a team of one thread (OpenMP 5.2 10.1.1).
		x := cl.Args[0]
		if tr, ok := x.(*parser.Triplet); ok {
			if id, _ := tr.Lo.(*parser.Ident); id == nil || id.Name != "PARALLEL" || tr.Hi == nil {
				continue // another construct's condition
			}
			x = tr.Hi
		}
		switch v, ok := e.truth(x, loops); {
		case ok && !v:
			e.note(fmt.Sprintf("IF(%s) at line %d is false here: the region runs on one thread", parser.ExprString(x), e.line(d)))
			return 1
		case !ok:
			e.note(fmt.Sprintf("IF(%s) at line %d is not known here: priced as true, on %s (give its values with --set)", parser.ExprString(x), e.line(d), threadsWord(t)))
		}
	}
	for _, cl := range cs.Clauses {
		if cl.Name != "NUM_THREADS" || len(cl.Args) != 1 {
			continue
		}
		x := parser.ExprString(cl.Args[0])
		v, ok := e.num(cl.Args[0], loops)
		if !ok || v < 1 || v != math.Floor(v) {
			e.note(fmt.Sprintf("NUM_THREADS(%s) at line %d is not a positive number here: --procs %d is taken as the team", x, e.line(d), t))
			return t
		}
		n := int(min(v, MaxProcs))
		if n != t {
			e.note(fmt.Sprintf("NUM_THREADS(%s) at line %d makes the team %s, whatever --procs (%d) says", x, e.line(d), threadsWord(n), t))
		}
		return n
	}
	return t
}

// hybridTeam is the team of an OpenMP loop in an MPI program that asks
// MPI_COMM_SIZE for its process count: there --procs is the number of
// processes (the count the program divides its work by), and each
// process runs its share on a team of its own: OMP_NUM_THREADS where
// --set gives it, else one thread a core of a node of the machine model
// (one process a node). Taking --procs as the threads too divided the
// work by P twice. ok is false in a program without MPI_COMM_SIZE.
func (e *est) hybridTeam() (int, bool) {
	if len(e.commSize) == 0 {
		return 0, false
	}
	if v, ok := e.opt.Values["OMP_NUM_THREADS"]; ok && v.IsInt() && v.Sign() > 0 && v.Num().IsInt64() {
		return int(min(v.Num().Int64(), MaxProcs)), true
	}
	return max(e.shared().Cores, 1), true
}

// ompNowaitAfter reports whether the statement right after the loop is
// an !$OMP END DO NOWAIT (Fortran puts NOWAIT on the END directive).
func (e *est) ompNowaitAfter(c *parser.DoConstruct) bool {
	var next parser.Stmt
	for _, s := range e.u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			st, ok := n.(parser.Stmt)
			if !ok {
				return true
			}
			if st.Pos() >= c.End() && (next == nil || st.Pos() < next.Pos()) {
				next = st
			}
			return true
		})
	}
	d, ok := next.(*parser.Directive)
	if !ok || d.Sentinel != "OMP" || !strings.HasPrefix(d.Name, "END") {
		return false
	}
	cs, _ := d.Spec.(*parser.ClauseSpec)
	if cs == nil {
		return false
	}
	for _, cl := range cs.Clauses {
		if cl.Name == "NOWAIT" {
			return true
		}
	}
	return false
}

// ompDirective prices an OpenMP directive standing as a statement: a
// PARALLEL region's fork and join, an explicit BARRIER. Others cost
// nothing here (worksharing loops are priced as loops).
func (e *est) ompDirective(d *parser.Directive, loops []loopInfo) Poly {
	if d.Sentinel != "OMP" || ompEnclosed(loops) {
		return complexity.Zero()
	}
	sm := e.shared()
	switch d.Name {
	case "PARALLEL", "PARALLEL SECTIONS", "PARALLEL WORKSHARE":
		t := e.ompTeam(d, loops)
		f := sm.Fork.Time(t)
		e.note(fmt.Sprintf("fork and join of the parallel region at line %d (%s; its join is a barrier): %s per execution", e.line(d), threadsWord(t), humanSec(f)))
		return ratOf(f)
	case "BARRIER":
		_, _, region := e.ompRegion(d.Pos())
		t := e.ompTeam(region, loops)
		if region == nil && e.called.known {
			t = max(e.called.team, 1) // the team of the caller's region, or one thread
		}
		b := sm.Barrier.Time(t)
		e.note(fmt.Sprintf("barrier at line %d over %s: %s per execution", e.line(d), threadsWord(t), humanSec(b)))
		return ratOf(b)
	}
	return complexity.Zero()
}

// shared is the machine's shared-memory section; a model without one
// takes the built-in model's, and the estimate says so.
func (e *est) shared() *machine.SharedMemory {
	sm, note := e.opt.Machine.Shared()
	if note != "" {
		e.note(note)
	}
	return sm
}

func (e *est) line(s parser.Node) int {
	return e.f.Lines.Line(e.u.Abs(s.Pos())) + 1
}

// ompLoop estimates a loop an OpenMP worksharing directive governs (see
// the top of omp.go).
func (e *est) ompLoop(c *parser.DoConstruct, loops []loopInfo, o *ompInfo) (Poly, []*Message) {
	seq, msgs := e.loop(c, loops)
	what := "PARALLEL DO"
	if !o.parallel {
		what = "DO"
	}
	line := e.line(c.Do)
	team := o.dir // PARALLEL DO: its own clauses say the team; DO: the region's
	switch {
	case ompEnclosed(loops):
		e.note(fmt.Sprintf("OpenMP %s at line %d runs inside another parallel loop: nested parallelism is off by default, so it runs on one thread", what, line))
		return seq, msgs
	case e.inParLoop:
		e.note(fmt.Sprintf("OpenMP %s at line %d runs in a call made from a parallel loop: nested parallelism is off by default, so it runs on one thread", what, line))
		return seq, msgs
	case o.parallel:
		if inside, _, region := e.ompRegion(c.Pos()); inside {
			// A PARALLEL DO nested in a region: every thread of that
			// region runs the whole loop in a team of its own, of 1.
			f := e.shared().Fork.Time(1)
			e.note(fmt.Sprintf("OpenMP PARALLEL DO at line %d stands inside the PARALLEL region of line %d: nested parallelism is off by default, so each thread of that region runs the whole loop on its own (a team of 1 thread, %s to fork); use !$OMP DO to share the loop among the region's threads", line, e.line(region), humanSec(f)))
			return seq.Add(ratOf(f)), msgs
		}
		if e.called.inside {
			f := e.shared().Fork.Time(1)
			e.note(fmt.Sprintf("OpenMP PARALLEL DO at line %d runs in a call made from inside %s: nested parallelism is off by default, so each thread of that region runs the whole loop on its own (a team of 1 thread, %s to fork)", line, e.called.where, humanSec(f)))
			return seq.Add(ratOf(f)), msgs
		}
	case !o.parallel:
		inside, regions, region := e.ompRegion(c.Pos())
		team = region
		if !inside && regions && !e.called.inside {
			e.note(fmt.Sprintf("OpenMP DO at line %d stands outside every PARALLEL region: it runs on one thread", line))
			return seq, msgs
		}
		switch {
		case inside:
		case e.called.known && !e.called.inside:
			// An orphaned DO binds to the team of the region the call
			// is made in: none, a team of one thread.
			e.note(fmt.Sprintf("OpenMP DO at line %d is orphaned, and %s is called at %s: it runs on one thread", line, unitName(e.u), e.called.where))
			return seq, msgs
		case e.called.inside:
			e.note(fmt.Sprintf("OpenMP DO at line %d is orphaned: it shares its iterations among the team of %s, which calls %s (%s)", line, e.called.where, unitName(e.u), threadsWord(e.called.team)))
		default:
			e.note(fmt.Sprintf("OpenMP DO at line %d is orphaned (no PARALLEL region in %s): priced as called from inside a region of %s, without the region's fork and join", line, unitName(e.u), threadsWord(max(e.opt.Procs, 1))))
		}
	}
	t := e.ompTeam(team, loops)
	if team == nil && e.called.inside && !o.parallel {
		t = e.called.team
	}
	if o.chunkX != nil && o.chunk == 0 {
		switch v, ok := e.num(o.chunkX, loops); {
		case ok && v >= 1 && v == math.Floor(v):
			o.chunk = int64(min(v, 1<<53))
			o.sched += fmt.Sprintf(" = %d", o.chunk)
		case ok:
			e.note(fmt.Sprintf("OpenMP %s at line %d: the chunk size %s is %g, not a positive integer as OpenMP requires; priced without a chunk", what, line, parser.ExprString(o.chunkX), v))
		default:
			e.note(fmt.Sprintf("OpenMP %s at line %d: the chunk size %s is not a number (a PARAMETER or a --set value would be); priced without a chunk", what, line, parser.ExprString(o.chunkX)))
		}
	}
	sm := e.shared()
	if _, hybrid := e.hybridTeam(); hybrid {
		how := "one a core of a node: one process a node; --set OMP_NUM_THREADS=T for another team"
		if v, ok := e.opt.Values["OMP_NUM_THREADS"]; ok {
			how = "OMP_NUM_THREADS"
			if !(v.IsInt() && v.Sign() > 0 && v.Num().IsInt64()) {
				// hybridTeam ignores it: the team is the node's cores.
				how = fmt.Sprintf("one a core of a node: OMP_NUM_THREADS=%s is not a positive integer", v.RatString())
			}
		}
		e.note(fmt.Sprintf("OpenMP in an MPI program: --procs %d is the number of processes, and each runs the loop's share on %s (%s)", max(e.opt.Procs, 1), threadsWord(t), how))
	} else if procs := max(e.opt.Procs, 1); t == procs {
		e.note(fmt.Sprintf("OpenMP: --procs %d is taken as %s on the cores of one shared-memory node (%s)", t, threadsWord(t), coresWords(sm)))
	} else {
		e.note(fmt.Sprintf("OpenMP: %s on the cores of one shared-memory node (%s)", threadsWord(t), coresWords(sm)))
	}
	if mm := sm.MaxMeasured(); t > mm {
		if mm == 0 {
			e.note(fmt.Sprintf("the shared-memory figures are defaults, not measurements: %s", sm.Source))
		} else {
			e.note(fmt.Sprintf("the shared-memory figures were measured at up to %s; %d threads is extrapolated from them", threadsWord(mm), t))
		}
	}
	if t > sm.Cores {
		e.note(fmt.Sprintf("%d threads on %d cores: the threads share the cores, no faster than %d threads", t, sm.Cores, sm.Cores))
	}
	sh := e.ompShare(c, loops, o, t, sm)
	share := sh.share
	if t > sm.Cores {
		share = math.Max(share, 1/float64(sm.Cores))
	}
	compute := seq.Mul(ratOf(share))
	who := "the busiest thread"
	if o.kind != schedStatic && !strings.HasPrefix(sh.how, "even share") {
		who = "the thread that finishes last (its chunks' overheads counted)"
	}
	desc := fmt.Sprintf("OpenMP %s at line %d, schedule %s, %s: %s does %s of the work", what, line, o.sched, threadsWord(t), who, shareWords(share, t))
	if sh.how != "" {
		desc += " (" + sh.how + ")"
	}
	e.note(desc)
	time := compute
	// Main-memory bandwidth: a loop whose data does not fit in the caches
	// streams its arrays, and the threads share the sockets' bandwidth.
	if traffic, ok := e.ompTraffic(c, loops, min(t, sm.Cores)); ok {
		bw := sm.Bandwidth(t)
		limit := traffic.Mul(ratOf(1 / bw))
		cv, ok1 := e.atFirst(compute, loops)
		lv, ok2 := e.atFirst(limit, loops)
		bytes, _ := e.atFirst(traffic, loops)
		switch {
		case ok1 && ok2 && lv > cv:
			time = limit
			e.note(fmt.Sprintf("memory bandwidth: %s per execution from main memory at %s/s (%s) take %s, more than the busiest thread's %s of computation: the loop is memory-bound", humanBytes(bytes), humanBytes(bw), threadsWord(min(t, sm.Cores)), humanSec(lv), humanSec(cv)))
		case ok1 && ok2:
			e.note(fmt.Sprintf("memory bandwidth: %s per execution from main memory at %s/s (%s) take %s, less than the busiest thread's %s of computation", humanBytes(bytes), humanBytes(bw), threadsWord(min(t, sm.Cores)), humanSec(lv), humanSec(cv)))
		default:
			e.note("memory bandwidth: not applied: the loop's data footprint is not a number here (it depends on a symbol, such as an enclosing loop's index, that this estimate of the loop alone does not know; estimate the enclosing loop to include the limit)")
		}
	}
	time = e.ompExclusive(c, loops, time, t)
	if o.parallel {
		f := sm.Fork.Time(t)
		time = time.Add(ratOf(f))
		e.note(fmt.Sprintf("fork and join of the parallel region at line %d, whose join is the barrier at the end of the loop: %s per execution (%s)", line, humanSec(f), sm.Fork.Words()))
	} else if o.nowait || e.ompNowaitAfter(c) {
		e.note(fmt.Sprintf("no barrier at the end of the loop at line %d (NOWAIT)", line))
	} else {
		b := sm.Barrier.Time(t)
		time = time.Add(ratOf(b))
		e.note(fmt.Sprintf("barrier at the end of the loop at line %d: %s per execution (%s, %s)", line, humanSec(b), threadsWord(t), sm.Barrier.Words()))
	}
	for _, r := range o.reductions {
		for _, v := range r.vars {
			elems := e.ompElems(v)
			rt := sm.Reduction.Time(t)
			if elems > 1 {
				// Each thread adds its private copy into the shared one.
				l, s := e.opt.Machine.Access(0)
				rt += (elems - 1) * float64(t) * (l + s)
			}
			time = time.Add(ratOf(rt))
			size := ""
			if elems > 1 {
				size = fmt.Sprintf(", %.0f elements", elems)
			}
			e.note(fmt.Sprintf("reduction of %s (%s%s) over %s: %s per execution (%s)", v, r.op, size, threadsWord(t), humanSec(rt), sm.Reduction.Words()))
		}
	}
	if o.kind != schedStatic && strings.HasPrefix(sh.how, "even share") {
		e.note(fmt.Sprintf("%s schedule: the chunks were not dealt out, so their overheads (%s each) are not counted", o.kind, humanSec(sm.Chunk.Time(t))))
	}
	if sh.chunks > 0 {
		ct := sh.chunks * sm.Chunk.Time(t)
		time = time.Add(ratOf(ct))
		e.note(fmt.Sprintf("%s schedule: %.0f chunks on the busiest thread at %s each: %s per execution", o.kind, sh.chunks, humanSec(sm.Chunk.Time(t)), humanSec(ct)))
	}
	return time, msgs
}

// threadsWord is "1 thread" or "n threads".
func threadsWord(n int) string {
	if n == 1 {
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", n)
}

func coresWords(sm *machine.SharedMemory) string {
	s := fmt.Sprintf("the model's node has %d cores", sm.Cores)
	if sm.Sockets > 1 {
		s += fmt.Sprintf(" on %d sockets", sm.Sockets)
	}
	return s
}

func shareWords(share float64, t int) string {
	if share <= 0 {
		return "none"
	}
	s := fmt.Sprintf("%.3g%% (1/%.4g", 100*share, 1/share)
	if t > 1 && fmt.Sprintf("%.4g", 1/share) != fmt.Sprint(t) { // not "1/4; even would be 1/4"
		s += fmt.Sprintf("; even would be 1/%d", t)
	}
	return s + ")"
}

// atFirst is a time's value with the enclosing loops' indices at their
// first values (where it still depends on them, as the work of an LU
// step does on K).
func (e *est) atFirst(p Poly, loops []loopInfo) (float64, bool) {
	for i := len(loops) - 1; i >= 0; i-- {
		if !p.Has(loops[i].index) {
			continue
		}
		lo, ok := e.value(loops[i].do.Do.Lo, loops[:i], 0)
		if !ok {
			return 0, false
		}
		if p, ok = p.Subst(loops[i].index, lo); !ok {
			return 0, false
		}
	}
	return complexity.Seconds(p)
}

// ompElems is the number of elements a reduction variable holds (1 for a
// scalar, the product of the extents for an array with known extents).
func (e *est) ompElems(name string) float64 {
	sym := e.sc.Lookup(name)
	if sym == nil || sym.Rank() == 0 {
		return 1
	}
	n := 1.0
	for d := 0; d < sym.Rank(); d++ {
		x, ok := e.extent(name, d)
		v, ok2 := complexity.Seconds(x)
		if !ok || !ok2 {
			return 1
		}
		n *= v
	}
	return n
}

// ompTraffic is the bytes one execution of the loop streams from main
// memory on t busy cores. A loop nest whose footprint (the bytes it
// touches, ompFootprint) fits in one core's share of the last cache level
// loads each of them once — a tile of a blocked loop; an innermost loop
// that does not streams its iterations times its streams (one per array
// column that moves with the index, as the cost tables count them) times
// the element size; other loops sum their bodies. ok is false when the
// loop's data fits in the caches (the model's memory levels but the
// last), so that no bandwidth limit applies, or the model has no memory
// levels.
func (e *est) ompTraffic(c *parser.DoConstruct, loops []loopInfo, t int) (Poly, bool) {
	m := e.opt.Machine
	if len(m.Memory) < 2 {
		return Poly{}, false
	}
	cache := float64(m.Memory[len(m.Memory)-2].Bytes)
	data := e.dataOf(c, true)
	if data.bytes <= cache {
		return Poly{}, false
	}
	share := cache / float64(max(t, 1))
	var walk func(list []parser.Stmt, loops []loopInfo) (Poly, bool)
	walk = func(list []parser.Stmt, loops []loopInfo) (Poly, bool) {
		total := complexity.Zero()
		for _, s := range list {
			var inner []parser.Stmt
			switch x := s.(type) {
			case *parser.DoConstruct:
				d := x.Do
				if d.Var == nil || d.Lo == nil || d.Hi == nil {
					return Poly{}, false
				}
				lo, ok1 := e.value(d.Lo, loops, 0)
				hi, ok2 := e.value(d.Hi, loops, 0)
				step, ok3 := complexity.Int(1), true
				if d.Step != nil {
					step, ok3 = e.value(d.Step, loops, 0)
				}
				if !ok1 || !ok2 || !ok3 {
					return Poly{}, false
				}
				var st int64
				if v, ok := complexity.Seconds(step); ok {
					st = int64(v)
				}
				if fp, ok := e.ompFootprint(x, loops); ok && fp <= share {
					total = total.Add(ratOf(fp))
					continue
				}
				if use, ok := e.innermost(x, d.Var.Name, st); ok {
					trips, ok := complexity.TripCount(lo, hi, step)
					if !ok {
						return Poly{}, false
					}
					elem := use.elemBytes
					if elem <= 0 {
						elem = 8
					}
					total = total.Add(trips.Mul(ratOf(float64(e.ompStreams(x, d.Var.Name, share)) * elem)))
					continue
				}
				body, ok := walk(x.Body, append(append([]loopInfo(nil), loops...), loopInfo{do: x, index: d.Var.Name}))
				if !ok {
					return Poly{}, false
				}
				sum, ok := complexity.SumStep(body, d.Var.Name, lo, hi, step)
				if !ok {
					return Poly{}, false
				}
				total = total.Add(sum)
				continue
			case *parser.IfConstruct:
				for _, a := range x.Arms {
					inner = append(inner, a.Body...)
				}
			case *parser.Block:
				inner = x.Body
			}
			if inner != nil {
				b, ok := walk(inner, loops)
				if !ok {
					return Poly{}, false
				}
				total = total.Add(b)
			}
		}
		return total, true
	}
	return walk([]parser.Stmt{c}, loops)
}

// ompStreams counts an innermost loop's streams (est.streams) that come
// from main memory: those of arrays larger than a core's share of the
// last cache level, or of unknown size. A small array the loop scatters
// into (a histogram's 256 bins, HIST(B)) stays in the cache: the serial
// cost table still prices its element-by-element access, but it adds no
// main-memory traffic.
func (e *est) ompStreams(c *parser.DoConstruct, idx string, share float64) int {
	streams, _ := e.streams(c, idx)
	n := 0
	for _, name := range streams {
		if b, ok := e.ompArrayBytes(name); !ok || b > share {
			n++
		}
	}
	return n
}

// ompArrayBytes is an array's size in bytes, where its extents are numbers.
func (e *est) ompArrayBytes(name string) (float64, bool) {
	sym := e.sc.Lookup(name)
	if sym == nil || sym.Rank() == 0 {
		return 0, false
	}
	n := float64(e.elemSize(name))
	for d := 0; d < sym.Rank(); d++ {
		x, ok := e.extent(name, d)
		v, ok2 := complexity.Seconds(x)
		if !ok || !ok2 {
			return 0, false
		}
		n *= v
	}
	return n, n > 0
}

// ompFootprint is the bytes one execution of a loop nest touches: per
// array the box its subscripts span, each affine subscript's range taken
// from the ranges of the nest's indices (the enclosing loops' indices at
// their first values), a subscript that is not affine its dimension's
// whole extent. ok is false where a range or an extent is not a number.
func (e *est) ompFootprint(c *parser.DoConstruct, loops []loopInfo) (float64, bool) {
	env := map[string]float64{}
	for i, l := range loops {
		lo, ok := e.value(l.do.Do.Lo, loops[:i], 0)
		if !ok {
			return 0, false
		}
		v, ok := evalF(lo, env)
		if !ok {
			return 0, false
		}
		env[l.index] = v
	}
	// The range of every index of the nest: its bounds at the enclosing
	// indices' lowest and highest values, the smaller and the larger.
	lows, highs := map[string]float64{}, map[string]float64{}
	for k, v := range env {
		lows[k], highs[k] = v, v
	}
	ok := true
	var walk func(x *parser.DoConstruct, outer []loopInfo)
	walk = func(x *parser.DoConstruct, outer []loopInfo) {
		d := x.Do
		if !ok || d.Var == nil || d.Lo == nil || d.Hi == nil {
			ok = false
			return
		}
		lo, ok1 := e.value(d.Lo, outer, 0)
		hi, ok2 := e.value(d.Hi, outer, 0)
		if !ok1 || !ok2 {
			ok = false
			return
		}
		a1, ok1 := evalF(lo, lows)
		a2, ok2 := evalF(lo, highs)
		b1, ok3 := evalF(hi, lows)
		b2, ok4 := evalF(hi, highs)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			ok = false
			return
		}
		lo1, hi1 := math.Min(math.Min(a1, a2), math.Min(b1, b2)), math.Max(math.Max(a1, a2), math.Max(b1, b2))
		lows[d.Var.Name], highs[d.Var.Name] = lo1, hi1
		inner := append(append([]loopInfo(nil), outer...), loopInfo{do: x, index: d.Var.Name})
		for _, s := range x.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				if y, isDo := n.(*parser.DoConstruct); isDo {
					walk(y, inner)
					return false
				}
				return ok
			})
		}
	}
	walk(c, loops)
	if !ok {
		return 0, false
	}
	type box struct{ lo, hi []float64 }
	boxes := map[string]*box{}
	parser.Inspect(c, func(n parser.Node) bool {
		call, isCall := n.(*parser.Call)
		if !isCall || !ok {
			return ok
		}
		id, isID := call.Fun.(*parser.Ident)
		sym := (*parser.Symbol)(nil)
		if isID {
			sym = e.sc.Lookup(id.Name)
		}
		if sym == nil || sym.Rank() == 0 || len(call.Args) != sym.Rank() {
			return true
		}
		b := boxes[id.Name]
		if b == nil {
			b = &box{make([]float64, sym.Rank()), make([]float64, sym.Rank())}
			for i := range b.lo {
				b.lo[i], b.hi[i] = math.Inf(1), math.Inf(-1)
			}
			boxes[id.Name] = b
		}
		for i, a := range call.Args {
			l, isAff := affine(a, e.sc)
			if _, isTriplet := a.(*parser.Triplet); isTriplet || !isAff {
				b.lo[i], b.hi[i] = math.Inf(-1), math.Inf(1) // the whole extent
				continue
			}
			lo, hi := float64(l.konst), float64(l.konst)
			for v, k := range l.coef {
				vl, ok1 := lows[v]
				vh, ok2 := highs[v]
				if !ok1 || !ok2 {
					b.lo[i], b.hi[i] = math.Inf(-1), math.Inf(1)
					lo, hi = math.Inf(-1), math.Inf(1)
					break
				}
				lo += math.Min(float64(k)*vl, float64(k)*vh)
				hi += math.Max(float64(k)*vl, float64(k)*vh)
			}
			b.lo[i], b.hi[i] = math.Min(b.lo[i], lo), math.Max(b.hi[i], hi)
		}
		return true
	})
	if !ok {
		return 0, false
	}
	total := 0.0
	for name, b := range boxes {
		bytes := float64(e.elemSize(name))
		for i := range b.lo {
			span := b.hi[i] - b.lo[i] + 1
			if x, okX := e.extent(name, i); okX {
				if v, okV := complexity.Seconds(x); okV && (math.IsInf(span, 0) || span > v) {
					span = v
				}
			}
			if math.IsInf(span, 0) || math.IsNaN(span) {
				return 0, false
			}
			bytes *= math.Max(span, 1)
		}
		total += bytes
	}
	return total, true
}

// ompShareResult is the busiest thread's part of a loop.
type ompShareResult struct {
	share  float64 // its part of the loop's work
	chunks float64 // the chunks of a dynamic or guided schedule it takes, per execution
	how    string  // how the share was found, for the report
}

// ompShare finds the busiest thread's share of the loop's work: the
// iterations of the (collapsed) loop weighed by their times, dealt out
// by the schedule, over every iteration of the one enclosing loop the
// bounds or the body depend on. Where the weights are not numbers, or
// too many, the even share (with whole iterations where the trip count
// is a number).
func (e *est) ompShare(c *parser.DoConstruct, loops []loopInfo, o *ompInfo, t int, sm *machine.SharedMemory) ompShareResult {
	even := ompShareResult{share: 1 / float64(t), how: "even share"}
	// The collapsed nest, outermost first.
	nest := []*parser.DoConstruct{c}
	for len(nest) < o.collapse {
		last := nest[len(nest)-1]
		var next *parser.DoConstruct
		for _, s := range last.Body {
			if d, ok := s.(*parser.DoConstruct); ok && next == nil {
				next = d
			} else if _, ok := s.(*parser.Directive); !ok {
				next = nil
				break
			}
		}
		if next == nil {
			break
		}
		nest = append(nest, next)
	}
	// The body's time per iteration of the innermost collapsed loop.
	inner := append([]loopInfo(nil), loops...)
	for _, d := range nest {
		if d.Do.Var == nil || d.Do.Lo == nil || d.Do.Hi == nil {
			return even
		}
		inner = append(inner, loopInfo{do: d, index: d.Do.Var.Name})
	}
	savedNotes, savedColl, savedTable := e.notes, e.coll, e.table
	body, _ := e.list(nest[len(nest)-1].Body, inner)
	e.notes, e.coll, e.table = savedNotes, savedColl, savedTable
	body = body.Add(ratOf(e.opt.Machine.Op("iteration")))

	bounds := make([]ompBound, len(nest))
	for i, d := range nest {
		lo, ok1 := e.value(d.Do.Lo, inner[:len(loops)+i], 0)
		hi, ok2 := e.value(d.Do.Hi, inner[:len(loops)+i], 0)
		step, ok3 := complexity.Int(1), true
		if d.Do.Step != nil {
			step, ok3 = e.value(d.Do.Step, inner[:len(loops)+i], 0)
		}
		if !ok1 || !ok2 || !ok3 {
			return even
		}
		bounds[i] = ompBound{lo, hi, step}
	}
	// The enclosing indices the nest depends on: at most one is walked.
	var outer []int
	for i, l := range loops {
		uses := body.Has(l.index)
		for _, b := range bounds {
			uses = uses || b.lo.Has(l.index) || b.hi.Has(l.index) || b.step.Has(l.index)
		}
		if uses {
			outer = append(outer, i)
		}
	}
	if len(outer) > 1 {
		return even
	}
	var steps []float64 // the enclosing index's values (one NaN: none)
	name := ""
	if len(outer) == 1 {
		oi := outer[0]
		name = loops[oi].index
		d := loops[oi].do.Do
		ol, ok1 := e.num(d.Lo, loops[:oi])
		oh, ok2 := e.num(d.Hi, loops[:oi])
		os := 1.0
		ok3 := true
		if d.Step != nil {
			os, ok3 = e.num(d.Step, loops[:oi])
		}
		if !ok1 || !ok2 || !ok3 || os == 0 {
			return even
		}
		n := math.Floor((oh-ol)/os) + 1
		if n <= 0 || n > maxImbalanceSteps {
			return even
		}
		for i := 0.0; i < n; i++ {
			steps = append(steps, ol+i*os)
		}
	} else {
		steps = []float64{math.NaN()}
	}
	budget := ompLimit     // iterations weighed one by one
	dealBudget := ompLimit // chunks dealt one by one, and threads tallied
	var busy, total, chunks float64
	weighed := false
	ct := sm.Chunk.Time(t)
	tiles, tiled := e.ompTiles(nest, bounds, inner, name)
	for _, kv := range steps {
		env := map[string]float64{}
		if name != "" {
			env[name] = kv
		}
		w, ok := tiles, tiled
		if !tiled {
			w, ok = e.ompWeights(nest, bounds, inner[len(loops):], body, env, &budget)
		}
		if !ok {
			return even
		}
		weighed = weighed || w.list != nil
		b, sum, nch, ok := ompSchedule(w, o, t, ct, &dealBudget)
		if !ok {
			even.how = "even share: too many iterations or chunks to deal out one by one"
			return even
		}
		busy += b
		total += sum
		chunks += nch
	}
	if total <= 0 {
		return even
	}
	res := ompShareResult{share: busy / total}
	if o.kind != schedStatic {
		res.chunks = chunks / float64(len(steps))
	}
	res.how = "iterations of equal time"
	if weighed {
		res.how = "each iteration weighed by its time"
	}
	if len(nest) > 1 {
		res.how = fmt.Sprintf("%d loops collapsed, %s", len(nest), res.how)
	}
	if name != "" {
		res.how += fmt.Sprintf(", over the %d iterations of the %s loop", len(steps), name)
	}
	return res
}

// ompTiles weighs the iterations of a tile loop (a single parallel loop
// whose inner loops have MIN/MAX bounds on its index, boundsNeed): the
// body priced with the index set to each value, as the serial estimate
// enumerates them, so that the ragged last tile weighs what it does (800
// = 12 × 64 + 32: the busiest thread's full tile is 8% of the work, not
// the 1/13 of equal iterations). ok is false for any other nest, where
// the bounds are not numbers, or the enclosing index the share walks
// (walked) matters.
func (e *est) ompTiles(nest []*parser.DoConstruct, bounds []ompBound, inner []loopInfo, walked string) (ompRun, bool) {
	if len(nest) != 1 || walked != "" {
		return ompRun{}, false
	}
	idx := nest[0].Do.Var.Name
	if !boundsNeed(nest[0], idx) {
		return ompRun{}, false
	}
	lo, ok1 := complexity.Seconds(bounds[0].lo)
	hi, ok2 := complexity.Seconds(bounds[0].hi)
	st, ok3 := complexity.Seconds(bounds[0].step)
	if !ok1 || !ok2 || !ok3 || st == 0 || lo != math.Trunc(lo) || st != math.Trunc(st) {
		return ompRun{}, false
	}
	n := math.Floor((hi - lo + st) / st)
	if n <= 0 || n > maxEnumerate {
		return ompRun{}, false
	}
	if _, bound := e.bind[idx]; bound {
		return ompRun{}, false
	}
	savedNotes, savedColl, savedTable := e.notes, e.coll, e.table
	defer func() {
		e.notes, e.coll, e.table = savedNotes, savedColl, savedTable
		delete(e.bind, idx)
	}()
	var ws []float64
	for k := 0.0; k < n; k++ {
		e.setBind(idx, complexity.Int(int64(lo+k*st)))
		body, _ := e.list(nest[0].Body, inner)
		w, ok := complexity.Seconds(body.Add(ratOf(e.opt.Machine.Op("iteration"))))
		if !ok {
			return ompRun{}, false
		}
		ws = append(ws, w)
	}
	return ompRun{list: ws, n: n}, true
}

// truth is a logical expression's value, where its operands are known
// numbers: relations, .NOT., .AND., .OR., .EQV., .NEQV. and the
// constants.
func (e *est) truth(x parser.Expr, loops []loopInfo) (bool, bool) {
	switch v := x.(type) {
	case *parser.Paren:
		return e.truth(v.X, loops)
	case *parser.Lit:
		if v.Kind == parser.LogicalLit {
			u := strings.ToUpper(v.Value)
			return strings.HasPrefix(u, ".TRUE."), strings.HasPrefix(u, ".TRUE.") || strings.HasPrefix(u, ".FALSE.")
		}
	case *parser.Unary:
		if v.Op == ".NOT." {
			b, ok := e.truth(v.X, loops)
			return !b, ok
		}
	case *parser.Binary:
		switch v.Op {
		case ".AND.", ".OR.", ".EQV.", ".NEQV.":
			a, ok1 := e.truth(v.X, loops)
			b, ok2 := e.truth(v.Y, loops)
			switch {
			case v.Op == ".AND." && (ok1 && !a || ok2 && !b):
				return false, true
			case v.Op == ".OR." && (ok1 && a || ok2 && b):
				return true, true
			case !ok1 || !ok2:
				return false, false
			}
			switch v.Op {
			case ".AND.":
				return a && b, true
			case ".OR.":
				return a || b, true
			case ".EQV.":
				return a == b, true
			}
			return a != b, true
		}
		a, ok1 := e.num(v.X, loops)
		b, ok2 := e.num(v.Y, loops)
		if !ok1 || !ok2 {
			return false, false
		}
		switch v.Op {
		case "==", ".EQ.":
			return a == b, true
		case "/=", ".NE.":
			return a != b, true
		case "<", ".LT.":
			return a < b, true
		case "<=", ".LE.":
			return a <= b, true
		case ">", ".GT.":
			return a > b, true
		case ">=", ".GE.":
			return a >= b, true
		}
	}
	return false, false
}

// num is an integer expression's value, where it is a number.
func (e *est) num(x parser.Expr, loops []loopInfo) (float64, bool) {
	p, ok := e.value(x, loops, 0)
	if !ok {
		return 0, false
	}
	return complexity.Seconds(p)
}

// ompWeights are the iterations' times of the collapsed nest in the
// order a schedule deals them out, with the enclosing index set in env;
// a body that takes the same time for every iteration gives a run
// (uniform) instead of a list. budget bounds the iterations listed.
func (e *est) ompWeights(nest []*parser.DoConstruct, bounds []ompBound, idx []loopInfo, body Poly, env map[string]float64, budget *int) (ompRun, bool) {
	uniform := true
	for _, l := range idx {
		uniform = uniform && !body.Has(l.index)
	}
	// A uniform body over a rectangular nest (no bound depends on an
	// index of the nest): the product of the trip counts is enough.
	rect := uniform
	for _, b := range bounds {
		for _, l := range idx {
			rect = rect && !b.lo.Has(l.index) && !b.hi.Has(l.index) && !b.step.Has(l.index)
		}
	}
	if rect {
		w, ok := evalF(body, env)
		if !ok {
			return ompRun{}, false
		}
		n := 1.0
		for _, b := range bounds {
			lo, ok1 := evalF(b.lo, env)
			hi, ok2 := evalF(b.hi, env)
			st, ok3 := evalF(b.step, env)
			if !ok1 || !ok2 || !ok3 || st == 0 {
				return ompRun{}, false
			}
			n *= math.Max(math.Floor((hi-lo+st)/st), 0)
		}
		return ompRun{n: n, w: w}, true
	}
	var ws []float64
	weight := compileF(body)
	var rec func(i int) bool
	rec = func(i int) bool {
		lo, ok1 := evalF(bounds[i].lo, env)
		hi, ok2 := evalF(bounds[i].hi, env)
		st, ok3 := evalF(bounds[i].step, env)
		if !ok1 || !ok2 || !ok3 || st == 0 {
			return false
		}
		n := math.Max(math.Floor((hi-lo+st)/st), 0)
		if n > float64(*budget) {
			return false
		}
		name := idx[i].index
		for k := 0.0; k < n; k++ {
			env[name] = lo + k*st
			if i+1 < len(nest) {
				// Outer iterations count too: empty inner ranges
				// must not make the walk unbounded.
				*budget--
				if *budget < 0 {
					return false
				}
				if !rec(i + 1) {
					return false
				}
				continue
			}
			w, ok := weight(env)
			if !ok {
				return false
			}
			*budget--
			if *budget < 0 {
				return false
			}
			ws = append(ws, w)
		}
		delete(env, name)
		return true
	}
	if !rec(0) {
		return ompRun{}, false
	}
	return ompRun{list: ws, n: float64(len(ws))}, true
}

// ompBound is a loop's range.
type ompBound struct{ lo, hi, step Poly }

// ompRun is a loop's iterations' times: a list, or n iterations of time
// w each (list nil).
type ompRun struct {
	list []float64
	n, w float64
}

// ompSchedule deals a loop's iterations out to t threads as the schedule
// says and returns the busiest thread's work (without chunk overheads),
// the total work, and the chunks the busiest thread took. For DYNAMIC
// and GUIDED the next chunk goes to the thread that is free first, each
// chunk costing chunkTime on top of its iterations; "busiest" is the
// thread that finishes last. The work is bounded whatever the loop:
// iterations of equal time under STATIC,k and DYNAMIC,k are dealt in
// closed form, only threads that can get an iteration are kept
// (min(t, n)), and every chunk dealt one by one (GUIDED, or weighed
// iterations) takes one from budget; ok is false once budget is spent or
// the trip count is beyond exact integers, and the caller takes the even
// share.
func ompSchedule(r ompRun, o *ompInfo, t int, chunkTime float64, budget *int) (busy, total, chunks float64, ok bool) {
	if r.n <= 0 || math.IsNaN(r.n) {
		return 0, 0, 0, true
	}
	if r.n > 1<<53 {
		return 0, 0, 0, false
	}
	n := int64(r.n)
	tt := min(int64(t), n) // threads past the n-th never get an iteration
	if r.list == nil {
		total = r.n * r.w
	} else {
		for _, w := range r.list {
			total += w
		}
	}
	k := max(o.chunk, 1)
	if r.list == nil {
		switch o.kind {
		case schedStatic:
			if o.chunk == 0 {
				// libgomp: q = n/t iterations each, the first n mod t threads one more.
				q, rem := n/tt, n%tt
				return float64(q+min(rem, 1)) * r.w, total, 0, true
			}
			its, _ := ompRoundRobin(n, k, tt, r.w, 0)
			return float64(its) * r.w, total, 0, true
		case schedDynamic:
			its, nch := ompRoundRobin(n, k, tt, r.w, chunkTime)
			return float64(its) * r.w, total, float64(nch), true
		}
	}
	*budget -= int(tt) // the threads' tallies below
	if *budget < 0 {
		return 0, 0, 0, false
	}
	work := make([]float64, tt)
	switch {
	case o.kind == schedStatic && o.chunk == 0:
		// Contiguous blocks, as above.
		q, rem := n/tt, n%tt
		i := int64(0)
		for th := int64(0); th < tt; th++ {
			cnt := q
			if th < rem {
				cnt++
			}
			for k := int64(0); k < cnt; k++ {
				work[th] += r.list[i]
				i++
			}
		}
	case o.kind == schedStatic:
		// Chunks of k dealt round-robin: CYCLIC(k).
		for i := int64(0); i < n; i++ {
			work[(i/k)%tt] += r.list[i]
		}
	default:
		// The next chunk goes to the thread that is free first (ties: the
		// lowest number), each chunk costing chunkTime on top.
		free := make([]float64, tt) // when each thread is free, overheads included
		taken := make([]float64, tt)
		h := ompFreeHeap{free: free, th: make([]int, tt)}
		for i := range h.th {
			h.th[i] = i
		}
		i := int64(0)
		for i < n {
			*budget--
			if *budget < 0 {
				return 0, 0, 0, false
			}
			size := k
			if o.kind == schedGuided {
				size = max((n-i+tt-1)/tt, k)
			}
			size = min(size, n-i)
			th := h.th[0]
			w := 0.0
			if r.list == nil {
				w = float64(size) * r.w
			} else {
				for j := i; j < i+size; j++ {
					w += r.list[j]
				}
			}
			work[th] += w
			free[th] += w + chunkTime
			taken[th]++
			h.down(0)
			i += size
		}
		last := 0
		for q := 1; q < len(free); q++ {
			if free[q] > free[last] {
				last = q
			}
		}
		return work[last], total, taken[last], true
	}
	for _, w := range work {
		busy = math.Max(busy, w)
	}
	return busy, total, 0, true
}

// ompRoundRobin deals n iterations of equal time w in chunks of k to t
// threads in turn (chunk c to thread c mod t: STATIC,k, and DYNAMIC,k,
// whose first free thread is always the next one when the chunks cost the
// same), and returns the iterations and the chunks of the thread that
// finishes last (each chunk costing ct on top; ties: the lowest number),
// in closed form.
func ompRoundRobin(n, k, t int64, w, ct float64) (iters, chunks int64) {
	nch := (n + k - 1) / k
	base, r := nch/t, nch%t
	p := (nch - 1) % t        // the thread of the last chunk
	lastSize := n - (nch-1)*k // that chunk's iterations
	best, bestJ := math.Inf(-1), int64(-1)
	// Threads other than p with the same chunk count finish together:
	// the lowest of each kind and p decide.
	for _, j := range []int64{0, 1, r, r + 1, p} {
		if j < 0 || j >= t {
			continue
		}
		c := base
		if j < r {
			c++
		}
		its := c * k
		if j == p {
			its -= k - lastSize
		}
		fin := float64(its)*w + float64(c)*ct
		if fin > best || (fin == best && j < bestJ) {
			best, bestJ, iters, chunks = fin, j, its, c
		}
	}
	return iters, chunks
}

// ompFreeHeap orders threads by the time they are free, then by number:
// th[0] is the thread that takes the next chunk.
type ompFreeHeap struct {
	free []float64
	th   []int
}

func (h *ompFreeHeap) less(a, b int) bool {
	fa, fb := h.free[h.th[a]], h.free[h.th[b]]
	return fa < fb || (fa == fb && h.th[a] < h.th[b])
}

// down restores the order after th[i]'s free time grew.
func (h *ompFreeHeap) down(i int) {
	n := len(h.th)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.th[i], h.th[m] = h.th[m], h.th[i]
		i = m
	}
}

// evalF evaluates a polynomial in floating point with the given values
// (ok false when a variable has none).
func evalF(p Poly, env map[string]float64) (float64, bool) {
	return compileF(p)(env)
}

// compileF turns a polynomial into a function that evaluates it in
// floating point (ok false when a variable has no value), converting
// the coefficients once.
func compileF(p Poly) func(env map[string]float64) (float64, bool) {
	if v, ok := complexity.Seconds(p); ok {
		return func(map[string]float64) (float64, bool) { return v, true }
	}
	type fterm struct {
		c       float64
		factors []complexity.Factor
	}
	var ts []fterm
	for _, t := range p.Terms() {
		c, _ := t.Coef.Float64()
		ts = append(ts, fterm{c, t.Factors})
	}
	return func(env map[string]float64) (float64, bool) {
		sum := 0.0
		for _, t := range ts {
			c := t.c
			for _, f := range t.factors {
				v, ok := env[f.Name]
				if !ok {
					return 0, false
				}
				c *= math.Pow(v, float64(f.Exp))
			}
			sum += c
		}
		return sum, true
	}
}

// humanSec prints seconds with a unit (µs, ms, s).
func humanSec(s float64) string {
	a := math.Abs(s)
	switch {
	case a == 0:
		return "0 s"
	case a < 1e-6:
		return fmt.Sprintf("%.3g ns", s*1e9)
	case a < 1e-3:
		return fmt.Sprintf("%.3g µs", s*1e6)
	case a < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	case a < 1000:
		return fmt.Sprintf("%.3g s", s)
	case a < 1e15:
		// Three significant digits without an exponent: 76400 s.
		e := math.Pow(10, math.Floor(math.Log10(a))-2)
		return strconv.FormatFloat(math.Round(s/e)*e, 'f', 0, 64) + " s"
	}
	return fmt.Sprintf("%.3g s", s)
}

// humanBytes prints a byte count with a decimal SI prefix.
func humanBytes(b float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
	i := 0
	for b >= 1000 && i < len(units)-1 {
		b /= 1000
		i++
	}
	return fmt.Sprintf("%.3g %s", b, units[i])
}

// ompExclusive applies what the CRITICAL and ATOMIC constructs of a
// parallel loop's body mean for its time (OpenMP 5.2 §15.2, §15.8.4).
// A CRITICAL section runs on one thread at a time, so the loop cannot end
// before every iteration's sections have run one after another: its time
// is at least their sum over all the iterations, whatever the threads
// (the bound replaces the busiest thread's time when larger). An ATOMIC
// update is priced as the plain update it makes: the machine model has no
// time for a locked read-modify-write, and says so.
func (e *est) ompExclusive(c *parser.DoConstruct, loops []loopInfo, time Poly, t int) Poly {
	var atomics []int
	for _, s := range c.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			if d, ok := n.(*parser.Directive); ok && d.Sentinel == "OMP" && strings.HasPrefix(d.Name, "ATOMIC") {
				atomics = append(atomics, e.line(d))
			}
			return true
		})
	}
	for _, l := range atomics {
		e.note(fmt.Sprintf("ATOMIC update at line %d priced as a plain update: the machine model has no time for atomic operations (a locked read-modify-write, longer still when threads update the same element), so the estimate is a lower bound", l))
	}
	body, first, ok := criticalOnly(c.Body, e)
	if !ok || t <= 1 {
		return time
	}
	only := *c
	only.Body, only.Directives = body, nil
	saved, coll := len(e.notes), e.coll
	crit, _ := e.loop(&only, loops)
	e.notes, e.coll = e.notes[:saved], coll // a pricing aside: its notes and reductions are not the loop's
	cv, ok1 := e.atFirst(crit, loops)
	tv, ok2 := e.atFirst(time, loops)
	switch {
	case ok1 && ok2 && cv > tv:
		e.note(fmt.Sprintf("CRITICAL section at line %d: one thread at a time, %s in all per execution of the loop, more than the busiest thread's %s: the section serializes the loop, whose time is at least its sum (without the lock's own cost: the machine model has none)", first, humanSec(cv), humanSec(tv)))
		return crit
	case ok1 && ok2:
		e.note(fmt.Sprintf("CRITICAL section at line %d: one thread at a time, %s in all per execution of the loop, less than the busiest thread's %s", first, humanSec(cv), humanSec(tv)))
	default:
		e.note(fmt.Sprintf("CRITICAL section at line %d: one thread at a time; its total is not a number here, so it is not compared with the threads' time", first))
	}
	return time
}

// criticalOnly is a statement list with only what runs inside OpenMP
// CRITICAL sections kept: the sections' statements and, around them, the
// loops and IF constructs that hold one (copied, without directives, so
// that they are priced sequentially); ok when there is one, first the
// line of the first.
func criticalOnly(list []parser.Stmt, e *est) (out []parser.Stmt, first int, ok bool) {
	in := false
	note := func(l int) {
		if !ok {
			first, ok = l, true
		}
	}
	for _, s := range list {
		if d, isDir := s.(*parser.Directive); isDir && d.Sentinel == "OMP" {
			switch d.Name {
			case "CRITICAL":
				in = true
				note(e.line(d))
				continue
			case "END CRITICAL":
				in = false
				continue
			}
		}
		if in {
			out = append(out, s)
			continue
		}
		switch x := s.(type) {
		case *parser.DoConstruct:
			if body, l, found := criticalOnly(x.Body, e); found {
				cp := *x
				cp.Body, cp.Directives = body, nil
				out = append(out, &cp)
				note(l)
			}
		case *parser.IfConstruct:
			cp := *x
			cp.Arms = nil
			any := false
			for _, a := range x.Arms {
				body, l, found := criticalOnly(a.Body, e)
				if found {
					any = true
					note(l)
				}
				arm := *a
				arm.Body = body
				cp.Arms = append(cp.Arms, &arm)
			}
			if any {
				out = append(out, &cp)
			}
		}
	}
	return out, first, ok
}
