package partition

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// Poly is the polynomial type of the estimates (seconds).
type Poly = complexity.Poly

// Options configure an estimate.
type Options struct {
	Machine *machine.Machine
	Procs   int
	Values  map[string]*big.Rat // symbol values; they also override PARAMETER constants
	// Even prices every processor's share as trips/P instead of counting
	// the busiest processor's iterations: no load-imbalance steps (and
	// no shares recorded step by step, so no broadcast schedule). The
	// crossover search does not use it: it must agree with the estimate
	// at N (Crossovers).
	Even bool
	// PipelineBlock is the block size of coarse-grain pipelining (0:
	// the constant PipelineBlock).
	PipelineBlock int
	// Others are the program's other files (the workspace's, the other
	// files given on the command line): a call of a procedure one of
	// them defines, reached through USE or as an external procedure, is
	// estimated as a call of the file's own (callee.go).
	Others []*parser.File
}

// Message is the communication of one reference, once placed.
type Message struct {
	Pattern string // element-shift, vector-shift, broadcast, reduction-broadcast, alltoall
	Array   string
	Offset  int  // absolute offset of the statement that needs it
	Count   Poly // how many times each processor sends it
	Bytes   Poly // bytes per message
	Time    Poly // seconds, all of them
	Why     string
	// Loop is the loop the message is placed before (nil when it stays
	// inside the innermost loop); Target the array the statement writes;
	// Pipeline marks a shift kept inside a loop that carries a dependence
	// across processors; Relayout an all-to-all caused by arrays laid out
	// differently.
	Loop     *parser.DoConstruct
	Target   string
	Pipeline bool
	Relayout bool
	// PointToPoint marks a single message from one owner to another (a
	// row swap), priced as a vector shift but not a neighbour shift.
	PointToPoint bool
	hoist        int  // loop depth it is placed before (0: before the region)
	priced       bool // Time already holds the price of all its sends
	// crossOnce names the loop of a BLOCK pipeline: the loop over the
	// distributed dimension that carries the dependence. Only its first
	// local iteration reads across the block boundary, so the message is
	// sent once per execution of that loop, not once per iteration.
	crossOnce string
	// pipeProcs is the number of processors along the dimension a
	// pipeline crosses.
	pipeProcs int
	// slice names the slice a broadcast sends (array, distributed
	// dimension and subscript there): broadcasts of one slice placed
	// before the same loop travel together.
	slice string
	// fill is the part of a pipeline's Time paid once however often the
	// sweep repeats (pipeline: the fill less one block's shift); nil for
	// other messages.
	fill *Poly
	// overlap is the computation, per execution of the statement list
	// holding a nonblocking send, between the send and the MPI_WAIT...
	// that completes it (nil when no wait follows in that list); wait is
	// the wait's line. Sends completed by one wait travel together.
	overlap  *Poly
	wait     int
	waitCall string
	// collective marks a reduction intrinsic: all processors take part
	// in every one, even inside a loop divided among owners.
	collective bool
	// root names the processor a broadcast comes from (ownerKey): the
	// broadcasts of one iteration from one root travel as one message.
	root string
	// chained marks a broadcast sent in every iteration of a loop: see
	// msgTime. parts are the sizes of the broadcasts of one iteration
	// that travel as this one (DGEFA's L and its column of factors), as
	// placed, before the loop takes the largest.
	chained bool
	parts   []Poly
	// grid is the dimension (1 or 2) of the 2-D processor grid an open
	// shift goes along (gridDim), 0 when its layout is not on that grid.
	grid int
}

// Estimate is the predicted time of a loop under a distribution (seed 003,
// ESTIMATE of Figure 5, with the communication derived from the
// distribution): Time = Compute + Comm, in seconds.
type Estimate struct {
	Distribution string
	Time         Poly
	Comm         Poly
	Compute      Poly
	Messages     []*Message
	Notes        []string
}

type est struct {
	f     *parser.File
	u     *parser.Unit
	sc    *parser.Scope
	d     *Distribution
	opt   Options
	table *complexity.CostTable
	nest  dataUse // the data of the whole loop nest estimated
	notes []string
	// split caches the memory-only and arithmetic-only halves of a table.
	split map[*complexity.CostTable][2]*complexity.CostTable
	// segmented marks the loops segments made (not split again).
	segmented map[*parser.DoStmt]bool
	// tables caches the cost tables of innermost loops by their data.
	tables map[dataUse]*complexity.CostTable
	// coll is the local work of the reductions in the list being
	// estimated: every processor does its share of each of them, even in
	// a loop whose iterations are divided among owners.
	coll Poly
	// commSize holds the variables MPI_COMM_SIZE sets in the unit: the
	// number of processes, which is the estimate's processor count.
	commSize map[string]bool
	// foralls marks the loop nests that stand for FORALLs, masks the IF
	// statements that stand for their masks.
	foralls map[*parser.DoConstruct]bool
	masks   map[*parser.IfStmt]bool
	// shares holds the step-by-step shares of weighted imbalances, by
	// the enclosing loop (ownerOverlap).
	shares map[*parser.DoConstruct]*stepShares
	// bind holds the values of integer scalars a loop body defines from
	// its index (HALF = 2**(S-1)), and of a loop index whose iterations
	// are estimated one by one (enumerate).
	bind map[string]Poly
	// defs holds the integer scalars the unit assigns once, at its top
	// level (unitdefs.go).
	defs map[string]*parser.AssignStmt
	// callDefs names the subroutine of each of defs that stands for a
	// CALL setting the name (callOuts).
	callDefs map[*parser.AssignStmt]string
	// fileProcs counts the file's subroutines and functions by name
	// (cost).
	fileProcs map[string]int
	// In the estimate of a callee for one call (callee.go): stack names
	// the callers (empty outside a callee), and extents holds the
	// extents of its assumed-shape dummy arguments that the call gives
	// (in the caller's marked names).
	stack   []string
	extents map[string][]Poly
	callees *int // the callee estimates made so far (maxCallees)
	// assigned remembers assignedIn per unit (assignedOf).
	assigned map[*parser.Unit]map[string]bool
	// calls remembers the procedures the unit's references mean
	// (resolveCall), home the file of each.
	calls map[callKey]*parser.Unit
	home  map[*parser.Unit]*parser.File
	// inParLoop: the call being estimated is made from an iteration of
	// an OpenMP parallel loop of a caller, where the callee's own
	// OpenMP loops run on the one thread (nested parallelism is off).
	inParLoop bool
	// called is where the call of a callee being estimated was made,
	// for its orphaned OpenMP directives (omp.go).
	called ompCall
	// outer gives, in a callee's estimate, the value at the call of a
	// name the callee shares with its caller (a host's variable).
	outer func(name string) (Poly, bool)
	// argsOnly: the statement being priced references functions of the
	// file that funcRefs estimated; cost prices their arguments only.
	argsOnly bool
	// allocated holds the bounds of the unit's allocatable arrays that
	// one ALLOCATE gives (alloc.go).
	allocated map[string][]*parser.DimSpec
}

// cost prices a statement with a cost table: a CALL of a procedure of
// the file that callEstimate does not follow, or a reference to one of
// its functions, costs the procedure's count (complexity.StmtCostIn)
// with the machine's operation times at the first memory level, counted
// once per file and machine (fileProcs).
func (e *est) cost(s parser.Stmt, table *complexity.CostTable) Poly {
	var called []string
	if e.f != nil && e.opt.Machine != nil {
		called = e.calledInFile(s)
	}
	if len(called) == 0 || e.argsOnly {
		return complexity.StmtCostIn(e.f, e.u, s, table, nil, e.extents)
	}
	c, ok := e.opCount(called, s.Pos(), func(procs *complexity.Procs) Poly {
		return complexity.StmtCostIn(e.f, e.u, s, table, procs, e.extents)
	})
	if !ok {
		return complexity.StmtCost(e.f, e.u, s, table)
	}
	return c
}

// opCount prices the procedures of the file called, at position at, by
// their operation counts (complexity's summaries with the arguments of
// the call) in what price gives with them in view, and notes what that
// leaves out. ok is false, with a note, where the count cannot be used:
// a name the file defines twice, or a count resting on what pfls cannot
// know at the call.
func (e *est) opCount(called []string, at parser.Pos, price func(*complexity.Procs) Poly) (Poly, bool) {
	line := e.f.Lines.Line(e.u.Abs(at)) + 1
	for _, name := range called {
		if e.fileProcs[name] > 1 {
			// Two module procedures or two hosts' internal procedures
			// of one name: which one the call means is not resolved.
			e.note(fmt.Sprintf("the file defines more than one procedure named %s: its call at line %d is not priced", name, line))
			return Poly{}, false
		}
	}
	procs := procsOf(e.f, e.opt.Machine)
	c := price(procs)
	for _, v := range c.Vars() {
		if len(e.stack) > 0 && strings.HasPrefix(v, callerMark) {
			continue // a caller's name, put back after the callee
		}
		if sym := e.sc.Lookup(v); sym == nil || sym.Kind != parser.SymVariable || sym.Rank() > 0 {
			// A callee whose count rests on what pfls cannot know here
			// (UNKNOWN_k: its loops' ranges, a size read at run time;
			// a recursion's placeholder; anything not a scalar of this
			// unit): left out, as before, rather than a time in unknowns.
			if strings.HasPrefix(v, complexity.RecursionPrefix) {
				e.note(fmt.Sprintf("the work of %s, called at line %d, is that of a recursion (%s), whose depth pfls does not know: it is not included", strings.Join(called, ", "), line, v))
			} else {
				e.note(fmt.Sprintf("the work of %s, called at line %d, depends on values pfls does not know there: it is not included", strings.Join(called, ", "), line))
			}
			return Poly{}, false
		}
	}
	for _, name := range called {
		e.note(fmt.Sprintf("%s is priced by its operation count (as pfls complexity counts it, with the arguments of the call), not loop by loop: its loops' memory levels, shares and overheads are not modelled", name))
		if procs.Parallel(name) {
			e.note(fmt.Sprintf("the parallel loops inside %s (OpenMP, INDEPENDENT, DO CONCURRENT, FORALL) are priced as one processor's work", name))
		}
		if mpi := e.mpiCallsOf(name); len(mpi) > 0 {
			e.note(fmt.Sprintf("the communication inside %s (%s) is not estimated: only MPI calls written in the estimated code are", name, strings.Join(mpi, ", ")))
		}
	}
	return c, true
}

// procsCache keeps the procedures' counts of the files estimated last,
// one version of each file (a parsed file does not change: an edit makes
// a new one, which replaces the old one here) and a few files, so that
// the loops and candidates of a file share them and an editor's old
// versions are not kept alive.
var procsCache struct {
	sync.Mutex
	entries []procsEntry
}

type procsEntry struct {
	f     *parser.File
	m     *machine.Machine
	procs *complexity.Procs
}

// procsOf is the counts of f's procedures with m's operation times.
func procsOf(f *parser.File, m *machine.Machine) *complexity.Procs {
	procsCache.Lock()
	defer procsCache.Unlock()
	for i, x := range procsCache.entries {
		if x.f.Name != f.Name {
			continue
		}
		if x.f == f && x.m == m {
			return x.procs
		}
		procsCache.entries = slices.Delete(procsCache.entries, i, i+1)
		break
	}
	p := complexity.FileProcs(f, machineTable(m, dataUse{}))
	const files = 4
	if len(procsCache.entries) >= files {
		procsCache.entries = slices.Delete(procsCache.entries, 0, 1)
	}
	procsCache.entries = append(procsCache.entries, procsEntry{f, m, p})
	return p
}

// calledInFile lists the subroutines a statement calls and the
// functions it references that the file defines.
func (e *est) calledInFile(s parser.Stmt) []string {
	if e.procsNamed("") == 0 && len(e.fileProcs) == 0 {
		return nil
	}
	var called []string
	parser.Inspect(s, func(n parser.Node) bool {
		switch x := n.(type) {
		case *parser.CallStmt:
			if x.Name != nil && e.fileProcs[x.Name.Name] > 0 && !slices.Contains(called, x.Name.Name) {
				called = append(called, x.Name.Name)
			}
		case *parser.Call:
			if id, ok := x.Fun.(*parser.Ident); ok && e.fileProcs[id.Name] > 0 && !slices.Contains(called, id.Name) {
				if sym := e.sc.Lookup(id.Name); sym == nil || sym.Rank() == 0 {
					called = append(called, id.Name)
				}
			}
		}
		return true
	})
	return called
}

// procsNamed is how many procedures of the file have the name.
func (e *est) procsNamed(name string) int {
	if e.fileProcs == nil {
		e.fileProcs = e.program().FileProcs()
	}
	return e.fileProcs[name]
}

// mpiCallsOf lists the MPI routines a procedure of the file calls that
// the estimator prices (mpiPatterns), in the order first met.
func (e *est) mpiCallsOf(name string) []string {
	var out []string
	var find func(us []*parser.Unit)
	find = func(us []*parser.Unit) {
		for _, u := range us {
			if u.Name == name && (u.Kind == parser.UnitSubroutine || u.Kind == parser.UnitFunction) {
				for _, s := range u.Body {
					parser.Inspect(s, func(n parser.Node) bool {
						if c, ok := n.(*parser.CallStmt); ok && c.Name != nil {
							if _, known := mpiPatterns[c.Name.Name]; known && !slices.Contains(out, c.Name.Name) {
								out = append(out, c.Name.Name)
							}
						}
						return true
					})
				}
				return
			}
			find(u.Contains)
		}
	}
	find(e.f.Units)
	return out
}

// note adds a note once.
func (e *est) note(s string) {
	for _, n := range e.notes {
		if n == s {
			return
		}
	}
	e.notes = append(e.notes, s)
}

// assignCost is the time of an assignment. An out-of-order processor
// overlaps the arithmetic of a statement with its memory accesses, so the
// time is the larger of the two, not their sum (the training kernels, in
// which the arithmetic hides behind the loads and stores, measure it so).
// Where either part still depends on a symbol, the sum.
func (e *est) assignCost(s parser.Stmt) Poly {
	halves, ok := e.split[e.table]
	if !ok {
		mem, ops := *e.table, *e.table
		zero := func(r complexity.Row) complexity.Row {
			for i := range r {
				r[i] = complexity.Zero()
			}
			return r
		}
		zeroAll := func(m map[string]complexity.Row) map[string]complexity.Row {
			out := make(map[string]complexity.Row, len(m))
			for k, r := range m {
				out[k] = zero(r)
			}
			return out
		}
		mem.Operation, mem.Transcend, mem.Trigo = zeroAll(e.table.Operation), zeroAll(e.table.Transcend), zeroAll(e.table.Trigo)
		ops.Memory = zero(ops.Memory)
		halves = [2]*complexity.CostTable{&mem, &ops}
		if e.split == nil {
			e.split = map[*complexity.CostTable][2]*complexity.CostTable{}
		}
		e.split[e.table] = halves
	}
	m, ok1 := complexity.Seconds(e.cost(s, halves[0]))
	a, ok2 := complexity.Seconds(e.cost(s, halves[1]))
	if !ok1 || !ok2 {
		return e.cost(s, e.table)
	}
	return ratOf(math.Max(m, a))
}

// ratOf turns seconds into an exact rational, kept to femtoseconds (to
// whole seconds past about 2.5 hours, where femtoseconds overflow; a
// non-finite time becomes 1e300 s).
func ratOf(sec float64) Poly {
	switch {
	case math.IsNaN(sec) || math.IsInf(sec, 0):
		sec = 1e300
	case math.Abs(sec) < 9e3:
		return complexity.Rat(big.NewRat(int64(math.Round(sec*1e15)), 1e15))
	}
	return complexity.Rat(new(big.Rat).SetFloat64(math.Round(sec)))
}

// machineTable is the cost table of a machine for a loop with the given
// data (a zero dataUse: unknown): every reference to an array element
// costs a memory access.
//
// A loop streams one new element per stream and iteration (innermost);
// its other references reuse what a neighbouring reference brought into
// the cache (A(I-1,J) and A(I+1,J) of a stencil) and cost the
// "load.reuse" time. A stream costs the first memory level's time plus
// the extra time of the level that holds the loop's data (accessAt,
// streamTimes in compute.go). A reference costs the mean over the loop's
// references. Models without these times price every reference at
// "load".
func machineTable(m *machine.Machine, use dataUse) *complexity.CostTable {
	base := m.Op("load")
	first, level := base, base
	if len(m.Memory) > 0 {
		l1, s1 := m.Access(0)
		first = (l1 + s1) / 2
		level = first
		if use.bytes > 0 {
			l, s := accessAt(m, use.bytes)
			level = (l + s) / 2
		}
	}
	ref := refTime(m, use, first, level)
	t := complexity.TableFromCosts("machine",
		ratOf(m.Op("add")), ratOf(m.Op("mul")), ratOf(m.Op("div")), ratOf(m.Op("pow")),
		ratOf(ref), complexity.Zero(), ratOf(m.Op("intrinsic")))
	// Integer additions and multiplications are address arithmetic
	// (subscripts, loop indices) that compilers fold into addressing
	// modes and strength-reduce; the training kernels' times already
	// hold it. Integer division stays.
	for _, op := range []string{"+", "-", "--", "*"} {
		r := t.Operation[op]
		r[complexity.TInt] = complexity.Zero()
		t.Operation[op] = r
	}
	// The absolute value is one compare-class instruction (a sign-bit
	// mask or a compare and select), not a call to a library function,
	// and not free either: DGEFA's pivot search does 2 ABS and a
	// comparison an element, three operations as the Livermore weights
	// (and the validation kit's charge) count them. It costs what the
	// table's comparison costs.
	for _, n := range []string{"ABS", "IABS", "DABS"} {
		t.Transcend[n] = t.Operation["rel"]
	}
	// MIN and MAX are compare-and-select instructions too (MAXSD, MINSD,
	// CMOV on the integer forms), not calls of a library routine: a
	// comparison each, as the all-one table's 1 per reference, where the
	// default intrinsic time is the training set's EXP, 20 times more.
	for _, n := range minMaxNames {
		t.Transcend[n] = t.Operation["rel"]
	}
	return t
}

// minMaxNames are MIN and MAX with their specific names (Fortran 2018
// Table 16.3): those minMax evaluates and the ones of REAL arguments.
var minMaxNames = append(slices.Sorted(maps.Keys(minMaxFns)), "MIN1", "MAX1", "AMIN1", "AMAX1", "DMIN1", "DMAX1")

// innermost returns the data of an innermost loop (one with no loop
// inside) for its own cost table: its references and arrays, the size of
// the whole nest's data, and whether it walks memory with a non-unit
// stride: a step other than ±1, or an array reference whose index moves
// along any subscript but the first, or by more than 1 along the first.
func (e *est) innermost(c *parser.DoConstruct, idx string, step int64) (dataUse, bool) {
	inner := false
	for _, s := range c.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch n.(type) {
			case *parser.DoConstruct, *parser.ForallStmt:
				inner = true
			}
			return !inner
		})
	}
	if inner {
		return dataUse{}, false
	}
	use := e.dataOf(c, false)
	use.bytes = e.nest.bytes
	use.strided = step != 1 && step != -1
	// Streams: the references that move with the index, one per array and
	// position in its other dimensions (A(I,J-1) and A(I,J+1) are two
	// columns, two streams; A(I-1,J) and A(I+1,J) share one). References
	// that do not move (A(K) in a loop over I) stay in registers.
	//
	// An indirect reference, HIST(B) with B computed in the loop or
	// X(IDX(I)), lands anywhere in its array: it reuses no neighbour's
	// cache line, so it costs a stream of its own, and the loop cannot
	// move its elements in vectors, so it runs at the element-by-element
	// (strided) times. (A histogram's scatter-add measured 0.69 ns per
	// element with gfortran -O2 on the machine of the built-in model; as
	// a vector loop with HIST(B) a reuse it was priced at 0.24 ns, with
	// this rule 0.67 ns.)
	streams, strided := e.streams(c, idx)
	use.strided = use.strided || strided
	use.arrays = len(streams)
	use.copy = !use.strided && e.copyLoop(c)
	if !use.strided {
		use.transfers = e.layerTransfers(streams)
	}
	return use, true
}

// streams are an innermost loop's streams (see innermost), each key
// naming the array it walks; strided is true when one is indirect or
// walks memory with a non-unit stride.
func (e *est) streams(c *parser.DoConstruct, idx string) (moving map[string]string, strided bool) {
	scalars := map[string]bool{}
	for _, s := range c.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			if a, ok := n.(*parser.AssignStmt); ok {
				if id, ok := a.LHS.(*parser.Ident); ok {
					if sym := e.sc.Lookup(id.Name); sym == nil || sym.Rank() == 0 {
						scalars[id.Name] = true
					}
				}
			}
			return true
		})
	}
	moving = map[string]string{}
	parser.Inspect(c, func(n parser.Node) bool {
		x, ok := n.(parser.Expr)
		if !ok {
			return true
		}
		r, ok := memRef(x, e.sc)
		if !ok {
			return true
		}
		call := x.(*parser.Call)
		indirect := !r.ok
		for _, sub := range r.subs {
			for v := range sub.coef {
				indirect = indirect || scalars[v]
			}
		}
		if indirect {
			moving[parser.ExprString(x)] = r.name
			strided = true
			return true
		}
		for i, sub := range r.subs {
			k := sub.coef[idx]
			if k != 0 {
				key := r.name
				for _, a := range call.Args[1:] {
					key += "," + parser.ExprString(a)
				}
				moving[key] = r.name
			}
			if k != 0 && (i > 0 || (k != 1 && k != -1)) {
				strided = true
			}
		}
		return true
	})
	return moving, strided
}

// dataUse is what a loop does with its arrays on one processor.
type dataUse struct {
	bytes     float64 // the local parts of the arrays it references (0: unknown)
	refs      int     // array element references in its text
	arrays    int     // distinct arrays among them
	elemBytes float64 // the mean element size of the references
	strided   bool    // an innermost loop that walks memory with a non-unit stride
	copy      bool    // an innermost unit-stride loop that copies one array into another (copyLoop)
	transfers int     // streams that bring new data when the layer condition holds (layerTransfers), else 0
}

// dataOf measures a loop's data: its references, and with sizes each
// referenced array's extents (with --set values) times its element size,
// divided by the processors of its distributed dimensions. bytes is 0
// when an extent is not a number or sizes is false.
func (e *est) dataOf(c *parser.DoConstruct, sizes bool) dataUse {
	seen := map[string]bool{}
	var u dataUse
	known := true
	elems := 0.0
	parser.Inspect(c, func(n parser.Node) bool {
		call, ok := n.(*parser.Call)
		if !ok {
			return true
		}
		id, ok := call.Fun.(*parser.Ident)
		if !ok {
			if r, isComp := componentRef(call, e.sc); isComp {
				// An element of an array component: a reference of
				// unknown extent, its element the component's size as
				// far as the name tells (elemSize).
				u.refs++
				elems += float64(e.elemSize(r.name))
				if !seen[r.name] {
					seen[r.name] = true
					u.arrays++
					known = false
				}
			}
			return true
		}
		sym := e.sc.Lookup(id.Name)
		if sym == nil || sym.Rank() == 0 {
			return true
		}
		u.refs++
		elems += float64(e.elemSize(id.Name))
		if seen[id.Name] {
			return true
		}
		seen[id.Name] = true
		u.arrays++
		if !sizes {
			return true
		}
		bytes := float64(e.elemSize(id.Name))
		for d := 0; d < sym.Rank(); d++ {
			x, ok := e.extent(id.Name, d)
			v, ok2 := complexity.Seconds(x)
			if !ok || !ok2 {
				known = false
				return true
			}
			bytes *= v
		}
		if l := e.d.Arrays[id.Name]; l != nil && !l.Replicated {
			for _, f := range l.Dims {
				if f.Procs > 1 {
					bytes /= float64(f.Procs)
				}
			}
		}
		u.bytes += bytes
		return true
	})
	if !known {
		u.bytes = 0
	}
	if u.refs > 0 {
		u.elemBytes = elems / float64(u.refs)
	}
	return u
}

// EstimateLoop estimates the loop c of unit u under distribution d.
func EstimateLoop(f *parser.File, u *parser.Unit, c *parser.DoConstruct, d *Distribution, opt Options) *Estimate {
	if opt.Machine == nil {
		opt.Machine = machine.DefaultMachine()
	}
	e := &est{f: f, u: u, sc: u.Scope, d: d, opt: opt, commSize: commSizeVars(u)}
	e.nest = e.dataOf(c, true)
	e.table = machineTable(opt.Machine, e.nest)
	compute, msgs := e.list([]parser.Stmt{c}, nil)
	res := &Estimate{Distribution: d.Name(), Compute: compute, Comm: complexity.Zero()}
	for _, m := range msgs {
		if !m.priced {
			m.Time = e.msgTime(m, m.Bytes).Mul(m.Count)
			if g := e.gridPattern(m); g != "" {
				m.Why += fmt.Sprintf("; along dimension %d of the processor grid: the %s curve's time in place of the open shift's over all processors", m.grid, g)
			}
		}
		res.Comm = res.Comm.Add(m.Time)
	}
	hidden := e.hideOverlap(msgs)
	res.Messages = mergeMessages(msgs)
	e.setUp(res)
	res.Time = res.Compute.Add(res.Comm).Sub(hidden)
	res.Notes = e.notes
	return res
}

// mergeMessages folds messages of the same pattern, array, size and
// count (the same shift needed by several references).
func mergeMessages(ms []*Message) []*Message {
	out := append([]*Message(nil), ms...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// commTime prices one message of the given size; a size that still
// depends on a symbol uses the machine's last (largest) segment.
func (e *est) commTime(pattern string, bytes Poly) Poly {
	if v, ok := complexity.Seconds(bytes); ok {
		t, err := e.opt.Machine.CommTime(pattern, e.d.Procs, v)
		if err != nil {
			e.notes = append(e.notes, err.Error())
			return complexity.Zero()
		}
		return ratOf(t)
	}
	const big1, big2 = 1 << 20, 2 << 20
	t1, err1 := e.opt.Machine.CommTime(pattern, e.d.Procs, big1)
	t2, err2 := e.opt.Machine.CommTime(pattern, e.d.Procs, big2)
	if err1 != nil || err2 != nil {
		return complexity.Zero()
	}
	b := (t2 - t1) / (big2 - big1)
	a := t1 - b*big1
	e.notes = append(e.notes, "message sizes that depend on a symbol are priced with the machine's large-message line")
	return ratOf(a).Add(bytes.Mul(ratOf(b)))
}

// msgTime prices one of msg's messages at the given size. A broadcast
// sent in every iteration of a loop (chained: DGEFA's pivot column, one
// a step) costs the tree's start-up, the broadcast curve at 0 bytes, but
// its bytes only once, at the point-to-point rate (the vector shift's
// curve above its own start-up): the training set times each broadcast
// alone, after a barrier, until the last processor holds the data, which
// counts the bytes once per level of the tree; in a loop the levels
// overlap, each processor forwarding step K's data while the root
// already sends step K+1's, and what lies on the path from one step to
// the next is the root's sends and one transfer to the next root (SMPI's
// binomial tree on the ncube2 preset at P = 16: 359 µs + 2.2 µs a byte
// alone, 0.45 µs a byte in DGEFA's steps). This is the price where the
// steps cannot be scheduled one by one (a symbolic trip count, shares
// not recorded, a distribution over more than the steps' dimension);
// bcastSchedule replaces it where they can.
func (e *est) msgTime(msg *Message, bytes Poly) Poly {
	if !msg.chained {
		t := e.commTime(msg.Pattern, bytes)
		if g := e.gridPattern(msg); g != "" {
			// The pattern's curve (strided or not) with the start-up
			// and rate of the pairs along the grid's dimension in
			// place of the chain's over all P.
			t = t.Add(e.commTime(g, bytes)).Sub(e.commTime(machine.PatternOpenShift, bytes))
		}
		return t
	}
	b0, err1 := e.opt.Machine.CommTime(machine.PatternBroadcast, e.d.Procs, 0)
	v0, err2 := e.opt.Machine.CommTime(machine.PatternVectorShift, e.d.Procs, 0)
	if err1 != nil || err2 != nil {
		return e.commTime(msg.Pattern, bytes)
	}
	return ratOf(b0 - v0).Add(e.commTime(machine.PatternVectorShift, bytes))
}

// sameRoot finds a chained broadcast from the same root as msg, placed
// at the same depth with the same count.
func sameRoot(out []*Message, msg *Message) *Message {
	if msg.root == "" {
		return nil
	}
	for _, m := range out {
		if m.root == msg.root && m.hoist == msg.hoist && !m.priced && m.Count.Equal(msg.Count) {
			return m
		}
	}
	return nil
}

// value converts an integer expression to a polynomial: loop indices and
// names without a value stay symbols, PARAMETERs and --set names take
// their values, LBOUND, UBOUND and SIZE of a declared shape its bounds
// (withBounds). depth bounds the chain of PARAMETERs followed.
func (e *est) value(x parser.Expr, loops []loopInfo, depth int) (Poly, bool) {
	if depth > 32 {
		return Poly{}, false
	}
	x = e.withBounds(x)
	if p, ok, isMinMax := e.minMax(x, loops, depth); isMinMax {
		return p, ok
	}
	return complexity.PolyOf(x, func(v *parser.Ident) (Poly, bool) {
		if p, ok := e.bind[v.Name]; ok {
			return p, true
		}
		for _, l := range loops {
			if l.index == v.Name {
				return complexity.Var(v.Name), true
			}
		}
		if r, ok := e.opt.Values[v.Name]; ok {
			return complexity.Rat(r), true
		}
		if e.commSize[v.Name] && e.opt.Procs > 0 {
			e.note(fmt.Sprintf("%s, set by MPI_COMM_SIZE, is the number of processes: the %d processors estimated for", v.Name, e.opt.Procs))
			return complexity.Int(int64(e.opt.Procs)), true
		}
		if sym := e.sc.Lookup(v.Name); sym != nil && sym.Param != nil {
			return e.value(sym.Param, loops, depth+1)
		}
		if p, ok := e.topDef(v.Name, loops, depth); ok {
			return p, true
		}
		if e.outer != nil {
			if p, ok := e.outer(v.Name); ok {
				return p, true
			}
		}
		return complexity.Var(v.Name), true
	})
}

// minMax evaluates MIN(a, b, ...) and MAX(...) (a blocked loop's bound
// MIN(JJ+NB-1, N)) when every argument is a number, as it is while an
// enclosing tile loop is estimated iteration by iteration (enumerate).
// isMinMax is false when x is not such a call.
func (e *est) minMax(x parser.Expr, loops []loopInfo, depth int) (p Poly, ok, isMinMax bool) {
	c, isCall := x.(*parser.Call)
	if !isCall || len(c.Args) < 2 {
		return Poly{}, false, false
	}
	id, isID := c.Fun.(*parser.Ident)
	if !isID || !minMaxFns[id.Name] {
		return Poly{}, false, false
	}
	if sym := e.sc.Lookup(id.Name); sym != nil && sym.Rank() > 0 {
		return Poly{}, false, false
	}
	var best *big.Rat
	for _, a := range c.Args {
		v, ok := e.value(a, loops, depth+1)
		if !ok {
			return Poly{}, false, true
		}
		r, isNum := v.Value()
		if !isNum {
			p, ok := e.dominant(c, id.Name, loops, depth)
			return p, ok, true
		}
		if best == nil || (strings.Contains(id.Name, "MIN") && r.Cmp(best) < 0) || (strings.Contains(id.Name, "MAX") && r.Cmp(best) > 0) {
			best = r
		}
	}
	return complexity.Rat(best), true, true
}

// dominant is the argument of MIN(...) or MAX(...) that is the smallest
// (largest) for every value the enclosing loops' indices take, where
// the arguments are affine in indices whose ranges are numbers: MAX(1,
// I - BW) is I - BW while I runs from BW + 1 on (segments).
func (e *est) dominant(c *parser.Call, name string, loops []loopInfo, depth int) (Poly, bool) {
	isMin := strings.Contains(name, "MIN")
	lins := make([]linear, len(c.Args))
	for i, a := range c.Args {
		l, ok := affine(e.withBounds(a), e.sc)
		if !ok {
			return Poly{}, false
		}
		lins[i] = l
	}
	for k := range lins {
		wins := true
		for j := range lins {
			if j == k {
				continue
			}
			d := lins[k].add(lins[j], -1) // MAX: a_k - a_j >= 0 throughout
			if isMin {
				d = d.scale(-1)
			}
			if lo, ok := lowest(d, loops); !ok || lo < 0 {
				wins = false
				break
			}
		}
		if wins {
			return e.value(c.Args[k], loops, depth+1)
		}
	}
	return Poly{}, false
}

// lowest is the smallest value of an affine form over the ranges of the
// loop indices it uses, when each is a loop of loops with constant
// bounds and a positive constant step.
func lowest(d linear, loops []loopInfo) (int64, bool) {
	v := d.konst
	for name, k := range d.coef {
		if k == 0 {
			continue
		}
		lo, hi, ok := constRange(name, loops)
		if !ok {
			return 0, false
		}
		if k > 0 {
			v += k * lo
		} else {
			v += k * hi
		}
	}
	return v, true
}

// constRange is the range of a loop index whose bounds are numbers (the
// innermost loop of that index).
func constRange(name string, loops []loopInfo) (lo, hi int64, ok bool) {
	for i := len(loops) - 1; i >= 0; i-- {
		l := loops[i]
		if l.index != name {
			continue
		}
		if !l.bounds || l.step <= 0 || !l.lo.onlyConst() || !l.hi.onlyConst() {
			return 0, 0, false
		}
		return l.lo.konst, l.hi.konst, true
	}
	return 0, 0, false
}

// maxSegments bounds the ranges segments splits a loop into.
const maxSegments = 16

// segments estimates a loop too long to enumerate whose inner loops have
// MIN/MAX bounds in its index (a band: DO J = MAX(1, I-BW), MIN(N,
// I+BW)) as consecutive loops over the ranges of the index in each of
// which every such bound takes one argument (dominant), cut where two
// arguments cross. Only a loop with numeric bounds and step 1, not
// divided among processors, whose body sends no message.
func (e *est) segments(c *parser.DoConstruct, idx string, lo, hi Poly, info loopInfo, loops []loopInfo) (Poly, []*Message, bool) {
	if e.segmented[c.Do] || info.step != 1 || info.partitioned {
		return Poly{}, nil, false
	}
	lv, ok1 := complexity.Seconds(lo)
	hv, ok2 := complexity.Seconds(hi)
	if !ok1 || !ok2 || lv != math.Trunc(lv) || hv != math.Trunc(hv) || hv-lv < 1 || math.Abs(lv) > 1e15 || math.Abs(hv) > 1e15 {
		return Poly{}, nil, false
	}
	l, h := int64(lv), int64(hv)
	// Where two arguments of an inner MIN/MAX bound cross: a_k - a_j =
	// q·idx + r changes sign at idx = -r/q; a range starts at its ceiling.
	cuts := map[int64]bool{}
	innerMinMax(c, func(call *parser.Call) bool {
		var lins []linear
		for _, a := range call.Args {
			if x, ok := affine(e.withBounds(a), e.sc); ok {
				lins = append(lins, x)
			}
		}
		for i := range lins {
			for j := i + 1; j < len(lins); j++ {
				d := lins[i].add(lins[j], -1)
				q := d.coef[idx]
				if q == 0 || !onlyVar(d, idx) {
					continue
				}
				// ceil(-r/q)
				num, den := -d.konst, q
				if den < 0 {
					num, den = -num, -den
				}
				t := num / den
				if num%den != 0 && num > 0 {
					t++
				}
				if t > l && t <= h {
					cuts[t] = true
				}
			}
		}
		return true
	})
	if len(cuts) == 0 || len(cuts) >= maxSegments {
		return Poly{}, nil, false
	}
	starts := []int64{l}
	for t := range cuts {
		starts = append(starts, t)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	total := complexity.Zero()
	var ranges []string
	notes := len(e.notes)
	for i, s := range starts {
		t := h
		if i+1 < len(starts) {
			t = starts[i+1] - 1
		}
		do := *c.Do
		do.Lo, do.Hi, do.Step = intLit(s), intLit(t), nil
		part := *c
		part.Do = &do
		if e.segmented == nil {
			e.segmented = map[*parser.DoStmt]bool{}
		}
		e.segmented[&do] = true
		cost, msgs := e.loop(&part, loops)
		if len(msgs) > 0 {
			e.notes = e.notes[:notes]
			return Poly{}, nil, false
		}
		total = total.Add(cost)
		ranges = append(ranges, fmt.Sprintf("%d-%d", s, t))
	}
	e.note(fmt.Sprintf("loop %s: estimated in %d ranges (%s), in each of which the MIN/MAX bounds of the loops inside take one argument", idx, len(ranges), strings.Join(ranges, ", ")))
	return total, nil, true
}

// onlyVar reports whether idx is the only variable of an affine form.
func onlyVar(d linear, idx string) bool {
	for v, k := range d.coef {
		if k != 0 && v != idx {
			return false
		}
	}
	return true
}

// intLit is an integer literal (a negation for a negative value).
func intLit(v int64) parser.Expr {
	if v < 0 {
		return &parser.Unary{Op: "-", X: &parser.Lit{Kind: parser.IntLit, Value: strconv.FormatInt(-v, 10)}}
	}
	return &parser.Lit{Kind: parser.IntLit, Value: strconv.FormatInt(v, 10)}
}

// minMaxFns are the intrinsics minMax evaluates.
var minMaxFns = map[string]bool{"MIN": true, "MAX": true, "MIN0": true, "MAX0": true, "AMIN0": true, "AMAX0": true}

// boundsNeed reports whether a loop nested in c has a bound with MIN or
// MAX that uses idx: a tile loop, whose inner loops have a number of
// iterations only once idx has a value.
func boundsNeed(c *parser.DoConstruct, idx string) bool {
	found := false
	innerMinMax(c, func(call *parser.Call) bool {
		found = mentions(call, idx)
		return !found
	})
	return found
}

// innerMinMax calls fn with each MIN or MAX reference in a bound or step
// of the loops nested in c, until fn returns false.
func innerMinMax(c *parser.DoConstruct, fn func(*parser.Call) bool) {
	more := true
	for _, s := range c.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			d, ok := n.(*parser.DoStmt)
			if !ok || !more {
				return more
			}
			for _, b := range []parser.Expr{d.Lo, d.Hi, d.Step} {
				parser.Inspect(b, func(n parser.Node) bool {
					if call, ok := n.(*parser.Call); ok && more {
						if id, ok := call.Fun.(*parser.Ident); ok && minMaxFns[id.Name] {
							more = fn(call)
						}
					}
					return more
				})
			}
			return more
		})
	}
}

// extent is the number of template elements along a dimension of an array.
func (e *est) extent(array string, dim int) (Poly, bool) {
	sym := e.sc.Lookup(array)
	if sym == nil || dim >= sym.Rank() {
		return Poly{}, false
	}
	if ext, ok := e.extents[array]; ok && e.sc.Syms[array] == sym {
		return ext[dim], true // an assumed shape, from the call
	}
	ds := e.dims(array, sym)[dim]
	lo := complexity.Int(1)
	ok := true
	if ds.Lower != nil {
		lo, ok = e.value(ds.Lower, nil, 0)
	}
	if ds.Upper == nil || !ok {
		return Poly{}, false
	}
	hi, ok := e.value(ds.Upper, nil, 0)
	if !ok {
		return Poly{}, false
	}
	return hi.Sub(lo).Add(complexity.Int(1)), true
}

// partition finds the array dimension a loop index walks over for the
// owner-computes rule: the loop's iterations are divided among the owners
// when every distributed element its body writes lies along the index in
// some distributed dimension (the bounds can then be reduced to the local
// block). It returns the first such dimension.
func (e *est) partition(c *parser.DoConstruct, idx string) (array string, dim int, f DimFormat, ok bool) {
	array, dim, f, _, ok = e.partitionHome(c, idx)
	return array, dim, f, ok
}

// partitionHome is partition with the write that partitions the loop
// (its home: the owner of that element runs the iteration).
func (e *est) partitionHome(c *parser.DoConstruct, idx string) (array string, dim int, f DimFormat, home *ref, ok bool) {
	for _, w := range writes(c.Body, e.sc) {
		l := e.d.Arrays[w.name]
		if l == nil || !l.Distributed() {
			continue
		}
		follows := false
		for i, s := range w.subs {
			if i < len(l.Dims) && l.Dims[i].Procs > 1 && s.coef[idx] != 0 {
				if !ok {
					array, dim, f, ok = w.name, i, l.Dims[i], true
					home = &w
				}
				follows = true
			}
		}
		if !follows || !w.ok {
			return "", 0, DimFormat{}, nil, false
		}
	}
	return array, dim, f, home, ok
}

// localTrips is the number of iterations the busiest processor runs of a
// loop partitioned along a distributed dimension: counted exactly when
// the bounds are numbers (so curves step where N is not a multiple of P),
// else the even share trips/P.
func (e *est) localTrips(trips, lo, step Poly, array string, dim int, f DimFormat) Poly {
	p := int64(f.Procs)
	tn, ok1 := complexity.Seconds(trips)
	ln, ok2 := complexity.Seconds(lo)
	sn, ok3 := complexity.Seconds(step)
	ext, ok4 := e.extent(array, dim)
	en, ok5 := complexity.Seconds(ext)
	lower := int64(1)
	if sym := e.sc.Lookup(array); sym != nil && sym.Dims[dim].Lower != nil {
		if v, ok := e.value(sym.Dims[dim].Lower, nil, 0); ok {
			if x, ok := complexity.Seconds(v); ok {
				lower = int64(x)
			}
		}
	}
	// Counted in closed form (trips.go); the bounds keep c + i·s and the
	// block arithmetic inside int64.
	const big = 1e15
	if ok1 && ok2 && ok3 && ok4 && ok5 && tn >= 0 && sn != 0 && tn <= big && math.Abs(ln) <= big && tn*math.Abs(sn) <= 4e18 &&
		en >= 1 && en <= big && p <= MaxProcs && !e.opt.Even {
		n, c, s, ext := int64(tn), int64(ln)-lower, int64(sn), int64(en)
		if f.Kind == "CYCLIC" {
			return complexity.Int(busiestCyclic(c, s, n, max(int64(f.K), 1), p))
		}
		return complexity.Int(busiestBlock(c, s, n, (ext+p-1)/p, p))
	}
	return trips.Mul(complexity.Frac(1, p))
}

// list estimates a statement list inside the given loops (outermost
// first). It returns the computation time of one execution of the list
// and the messages it sends, with counts per execution; a message hoisted
// out of the loops of depth >= h has hoist h.
//
// A nonblocking send (MPI_ISEND and its kin) travels while the
// statements after it compute, until the MPI_WAIT, MPI_WAITALL, ... of
// the same list that completes it: that computation is recorded on the
// message (overlap) for EstimateLoop to credit.
func (e *est) list(list []parser.Stmt, loops []loopInfo) (Poly, []*Message) {
	total := complexity.Zero()
	var msgs []*Message
	type posted struct {
		msg   *Message
		start Poly
	}
	var pending []posted
	for _, s := range list {
		if call, ok := s.(*parser.CallStmt); ok && mpiWaits[call.Name.Name] && len(pending) > 0 {
			// All of them are in flight from the last one's post on.
			w := total.Sub(pending[len(pending)-1].start)
			for _, p := range pending {
				p.msg.overlap, p.msg.wait, p.msg.waitCall = &w, e.line(call), call.Name.Name
			}
			pending = nil
		}
		c, ms := e.stmt(s, loops)
		total = total.Add(c)
		msgs = append(msgs, ms...)
		if call, ok := s.(*parser.CallStmt); ok && mpiNonblocking[call.Name.Name] {
			for _, m := range ms {
				if m.Array == call.Name.Name {
					pending = append(pending, posted{m, total})
				}
			}
		}
	}
	return total, msgs
}

// mpiNonblocking are the nonblocking sends: they return at once and the
// message travels until a wait completes it (MPI 4.0 §3.7).
var mpiNonblocking = map[string]bool{"MPI_ISEND": true, "MPI_IBSEND": true, "MPI_ISSEND": true, "MPI_IRSEND": true}

// mpiWaits are the calls that complete nonblocking requests.
var mpiWaits = map[string]bool{"MPI_WAIT": true, "MPI_WAITALL": true, "MPI_WAITANY": true, "MPI_WAITSOME": true}

// hideOverlap credits nonblocking sends with the computation they travel
// behind: the sends completed by one wait (in one execution of their
// list) take at most t, the sum of their times, and computation w lies
// between the last of them and the wait, so min(t, w) of them is hidden
// at each execution (their Count). It returns the time hidden (zero
// where a time is not a number) and notes it.
func (e *est) hideOverlap(msgs []*Message) Poly {
	hidden := complexity.Zero()
	type group struct {
		msgs []*Message
		w    float64
	}
	groups := map[*Poly]*group{}
	var order []*Poly
	for _, m := range msgs {
		if m.overlap == nil {
			continue
		}
		if groups[m.overlap] == nil {
			w, ok := complexity.Seconds(*m.overlap)
			if !ok {
				continue
			}
			groups[m.overlap] = &group{w: w}
			order = append(order, m.overlap)
		}
		g := groups[m.overlap]
		g.msgs = append(g.msgs, m)
	}
	for _, k := range order {
		g := groups[k]
		var per, count float64
		ok := true
		var lines []string
		for _, m := range g.msgs {
			t, ok1 := complexity.Seconds(m.Time)
			c, ok2 := complexity.Seconds(m.Count)
			if !ok1 || !ok2 || c <= 0 {
				ok = false
				break
			}
			per += t / c
			count = c
			lines = append(lines, fmt.Sprint(e.f.Lines.Line(m.Offset)+1))
		}
		if !ok || g.w <= 0 || per <= 0 {
			continue
		}
		var total float64
		for _, m := range g.msgs {
			t, _ := complexity.Seconds(m.Time)
			total += t
		}
		h := math.Min(per, g.w) * count
		h = math.Min(h, total)
		hidden = hidden.Add(ratOf(h))
		what := "send at line " + lines[0] + " travels"
		if len(lines) > 1 {
			what = "sends at lines " + strings.Join(lines, ", ") + " travel together"
		}
		e.note(fmt.Sprintf("the nonblocking %s while %s of computation runs before the %s at line %d (each time): %s of their %s hidden behind it, left out of the loop's time (the communication shown is all of it)",
			what, humanSec(g.w), g.msgs[0].waitCall, g.msgs[0].wait, humanSec(h), humanSec(total)))
	}
	return hidden
}

func (e *est) stmt(s parser.Stmt, loops []loopInfo) (Poly, []*Message) {
	m := e.opt.Machine
	switch x := s.(type) {
	case *parser.DoConstruct:
		if o := ompOf(x); o != nil {
			return e.ompLoop(x, loops, o) // omp.go
		}
		return e.loop(x, loops)
	case *parser.Directive:
		return e.ompDirective(x, loops), nil
	case *parser.IfConstruct:
		// Arm i is reached with probability 1/2^i and taken with 1/2 of
		// that (the ELSE takes what the last test leaves): weights that add
		// up to one, as in the complexity model.
		total := complexity.Zero()
		var msgs []*Message
		reach := complexity.Int(1)
		for _, arm := range x.Arms {
			w := reach
			if h, ok := arm.Head.(*parser.IfThenStmt); ok {
				// Evaluated whenever the arm is reached.
				cc, cm := e.condition(h.Cond, loops)
				total = total.Add(cc.Mul(reach))
				msgs = append(msgs, weigh(cm, reach)...)
				w = reach.Mul(complexity.Frac(1, 2))
				reach = w
			}
			before := e.coll
			e.coll = complexity.Zero()
			c, ms := e.list(arm.Body, loops)
			e.coll = before.Add(e.coll.Mul(w))
			total = total.Add(c.Mul(w))
			msgs = append(msgs, weigh(ms, w)...)
		}
		return total, msgs
	case *parser.IfStmt:
		c, fm := e.condition(x.Cond, loops)
		if as, ok := x.Then.(*parser.AssignStmt); ok {
			if id, ok := as.LHS.(*parser.Ident); ok && mentions(x.Cond, id.Name) {
				// IF (ABS(A(I,K)) .GT. ABS(A(L,K))) L = I: a search, which
				// reads the condition's data into the scalar.
				search := &parser.AssignStmt{StmtBase: as.StmtBase, LHS: as.LHS,
					RHS: &parser.Binary{X: x.Cond, OpPos: x.Cond.Pos(), Op: "+", Y: as.RHS}}
				search.From = x.From
				return c.Add(e.cost(as, e.table).Mul(complexity.Frac(1, 2))), append(fm, e.assignComm(search, loops)...)
			}
		}
		if x.Then != nil {
			before := e.coll
			e.coll = complexity.Zero()
			tc, ms := e.stmt(x.Then, loops)
			e.coll = before.Add(e.coll.Mul(complexity.Frac(1, 2)))
			for _, msg := range ms {
				if e.masks[x] && msg.hoist < len(loops) {
					// A FORALL's mask: the shifts placed before its
					// loops carry the sections whatever the mask holds.
					continue
				}
				msg.Count = msg.Count.Mul(complexity.Frac(1, 2))
			}
			return c.Add(tc.Mul(complexity.Frac(1, 2))), append(fm, ms...)
		}
		return c, fm
	case *parser.CallStmt:
		if body, msgs, ok := e.callEstimate(x, loops); ok {
			// The arguments, the call and the callee's body.
			c := complexity.StmtCostIn(e.f, e.u, s, e.table, nil, e.extents).Add(ratOf(m.Op("call")))
			return c.Add(body), msgs
		}
		c := e.cost(s, e.table).Add(ratOf(m.Op("call")))
		if msg := e.mpiCall(x, loops); msg != nil {
			return c, []*Message{msg}
		}
		return c, nil
	case *parser.AssignStmt:
		if fc, fm, ok := e.funcRefs(x, loops); ok {
			// The functions' bodies estimated; the statement pays their
			// arguments, the calls and the rest of its expression.
			e.argsOnly = true
			c, ms := e.assign(x, loops)
			e.argsOnly = false
			return c.Add(fc), append(fm, ms...)
		}
		return e.assign(x, loops)
	case *parser.ForallStmt:
		if nest := forallNest(x); nest != nil {
			e.markForall(nest)
			return e.loop(nest, loops)
		}
		return e.cost(s, e.table), nil
	case *parser.WhereStmt:
		return e.cost(s, e.table), nil
	case *parser.Block:
		// A FORALL construct: the loop nest it stands for, its body the
		// construct's statements (each under the mask).
		if h, ok := x.Head.(*parser.ForallStmt); ok && h.Body == nil {
			if nest := forallBlockNest(h, x.Body); nest != nil {
				e.markForall(nest)
				return e.loop(nest, loops)
			}
		}
	}
	return e.cost(s, e.table), nil
}

// assign is ESTIMATE's assignment: its cost, its own communication, and
// its reductions and movements of data.
func (e *est) assign(x *parser.AssignStmt, loops []loopInfo) (Poly, []*Message) {
	// A reduction intrinsic over a distributed array: each processor
	// combines its share, then all combine the partial results; its
	// argument is computed elementwise by the owners first.
	reds := e.reductions(x.RHS, loops)
	movs := e.movers(x.RHS, loops)
	c, ms := e.assignCost(x), e.assignCommExcept(x, loops, reds, movs)
	for _, mv := range movs {
		mv.msg.Offset = e.u.Abs(x.Pos())
		if lhsIsArray(x, e.sc) {
			mv.msg.Target = lhsName(x)
		}
		ms = append(ms, mv.msg)
	}
	c = c.Add(e.localReductions(x.RHS, loops))
	for _, red := range reds {
		c = c.Add(red.work)
		e.coll = e.coll.Add(red.work)
		if red.inner != nil {
			red.inner.StmtBase = x.StmtBase
			ms = append(ms, e.assignComm(red.inner, loops)...)
		}
		ms = append(ms, &Message{Pattern: "reduction-broadcast", Array: red.array, Count: complexity.Int(1),
			Bytes: complexity.Int(red.bytes), hoist: len(loops), Offset: e.u.Abs(x.Pos()), collective: true,
			Why: red.why()})
	}
	return c, ms
}

// loop is ESTIMATE's "do loop" case: the body times the iterations the
// busiest processor runs, plus the loop's overheads.
func (e *est) loop(c *parser.DoConstruct, loops []loopInfo) (Poly, []*Message) {
	m := e.opt.Machine
	d := c.Do
	if d.Concurrent != nil {
		if nest := concurrentNest(c); nest != nil {
			return e.loop(nest, loops)
		}
	}
	if d.Var == nil || d.Lo == nil || d.Hi == nil {
		body, msgs := e.list(c.Body, loops)
		if d.While != nil {
			// DO WHILE (RESIDUAL(U) > TOL): the test before the iteration.
			cc, cm := e.condition(d.While, loops)
			body = body.Add(cc)
			msgs = append(cm, msgs...)
			if n, how, ok := e.whileBound(c); ok {
				// At most n iterations and n + 1 tests.
				e.note(fmt.Sprintf("DO WHILE at line %d: at most %d iterations (%s), estimated for all of them: an upper bound, the loop may stop earlier", e.line(d), n, how))
				for _, m := range msgs {
					m.Count = m.Count.Mul(complexity.Int(n))
				}
				return body.Mul(complexity.Int(n)).Add(cc), msgs
			}
		}
		e.notes = append(e.notes, "a loop without a counted range is estimated for one iteration")
		return body, msgs
	}
	idx := d.Var.Name
	lo, ok1 := e.value(d.Lo, loops, 0)
	hi, ok2 := e.value(d.Hi, loops, 0)
	step := complexity.Int(1)
	ok3 := true
	if d.Step != nil {
		step, ok3 = e.value(d.Step, loops, 0)
	}
	info := loopInfo{do: c, index: idx}
	if v, ok := complexity.Seconds(step); ok {
		info.step = int64(v)
	}
	if l, ok := affine(e.withBounds(d.Lo), e.sc); ok {
		if h, ok := affine(e.withBounds(d.Hi), e.sc); ok {
			info.lo, info.hi, info.bounds = l, h, true
		}
	}
	_, _, _, info.home, info.partitioned = e.partitionHome(c, idx)
	info.forall = e.foralls[c]
	inner := append(append([]loopInfo(nil), loops...), info)
	if exits(c) {
		n := "its full trip count"
		if t, ok := complexity.TripCount(lo, hi, step); ok1 && ok2 && ok3 && ok {
			if v, ok := complexity.Seconds(t); ok {
				n = fmt.Sprintf("its full trip count (%.0f iterations)", v)
			}
		}
		e.note(fmt.Sprintf("loop %s has a data-dependent EXIT, so it may stop early: estimated for %s, an upper bound", idx, n))
	}
	if boundsNeed(c, idx) {
		// A tile loop: its inner loops' MIN/MAX bounds become numbers
		// once its index has one.
		if total, msgs, ok := e.enumerate(c, idx, lo, step, nil, loops, inner, info.partitioned); ok {
			return total, msgs
		}
		if ok1 && ok2 {
			if total, msgs, ok := e.segments(c, idx, lo, hi, info, loops); ok {
				return total, msgs
			}
		}
	}
	if defs := e.definitions(c); len(defs) > 0 {
		// Integer scalars the body defines from the index: their values
		// stand in for them in the bounds and sizes of the body (a
		// precondition), symbolically where they are polynomials of the
		// indices, else iteration by iteration.
		defer e.unbind(defs)
		symbolic := true
		for _, d := range defs {
			p, ok := e.value(d.RHS, inner, 0)
			if !ok {
				symbolic = false
				break
			}
			e.setBind(lhsName(d), p)
		}
		if !symbolic {
			e.unbind(defs)
			if total, msgs, ok := e.enumerate(c, idx, lo, step, defs, loops, inner, info.partitioned); ok {
				return total, msgs
			}
		}
	}
	saved := e.table
	if use, ok := e.innermost(c, idx, info.step); ok {
		if e.tables == nil {
			e.tables = map[dataUse]*complexity.CostTable{}
		}
		if e.tables[use] == nil {
			e.tables[use] = machineTable(m, use)
		}
		e.table = e.tables[use]
	}
	savedColl := e.coll
	e.coll = complexity.Zero()
	body, msgs := e.list(c.Body, inner)
	coll := e.coll
	e.coll = savedColl
	e.table = saved
	body = body.Add(ratOf(m.Op("iteration")))
	overhead := ratOf(m.Op("loop"))
	for _, b := range []parser.Expr{d.Lo, d.Hi, d.Step} {
		if b != nil {
			overhead = overhead.Add(e.exprCost(e.withBounds(b)))
		}
	}
	trips, okT := complexity.Poly{}, false
	if ok1 && ok2 && ok3 {
		trips, okT = complexity.TripCount(lo, hi, step)
	}
	if !okT {
		e.notes = append(e.notes, "loop "+idx+": range not polynomial, estimated for one iteration")
		return overhead.Add(body), msgs
	}
	local := trips
	fraction := complexity.Int(1)
	if arr, dim, f, ok := e.partition(c, idx); ok {
		local = e.localTrips(trips, lo, step, arr, dim, f)
		if q, ok := e.imbalance(idx, lo, hi, step, body, loops, arr, dim, f); ok {
			local, fraction = trips.Mul(q), q
		} else if q, ok := local.Div(trips); ok {
			fraction = q
		} else if tv, ok := complexity.Seconds(trips); ok && tv != 0 {
			lv, _ := complexity.Seconds(local)
			fraction = ratOf(lv / tv)
		}
	}
	// Σ over the index of the body, scaled to the local share.
	sum := func(p Poly) Poly {
		if !p.Has(idx) {
			return p.Mul(local)
		}
		s, ok := complexity.SumStep(p, idx, lo, hi, step)
		if !ok {
			return p.Mul(local)
		}
		return s.Mul(fraction)
	}
	// Every processor takes part in all the reductions of the loop, not
	// only in those of the iterations it owns.
	all := func(p Poly) Poly {
		if p.Has(idx) {
			if s, ok := complexity.SumStep(p, idx, lo, hi, step); ok {
				return s
			}
		}
		return p.Mul(trips)
	}
	total := overhead.Add(sum(body)).Add(all(coll)).Sub(sum(coll))
	if len(loops) > 0 {
		// The partitioned loop whose shares imbalance has just recorded
		// step by step: its time at one step of the enclosing loop.
		if rec := e.shares[loops[len(loops)-1].do]; rec != nil && rec.inner == nil {
			if _, _, _, ok := e.partition(c, idx); ok {
				rec.inner, rec.innerTotal = c, total
			}
		}
	}
	if saved, ok := e.ownerOverlap(c, body); ok && saved > 0 {
		total = total.Sub(ratOf(saved))
		e.note(fmt.Sprintf("the owner's work at each step of %s overlaps with the other processors' shares of the loop inside", idx))
	}
	e.coll = e.coll.Add(all(coll))
	depth := len(loops)
	var once []*Message // the broadcasts sent in every iteration
	kept := msgs[:0:0]
	for _, msg := range msgs {
		if msg.Pattern == machine.PatternBroadcast && msg.hoist == depth+1 && !msg.priced {
			// Sent in every iteration of this loop: see msgTime.
			msg.chained = true
			if prev := sameRoot(once, msg); prev != nil {
				// DGEFA's pivot index L and its column of factors: the
				// owner sends them one after the other, and they
				// travel the tree together, one start-up for both.
				prev.parts = append(prev.parts, msg.Bytes)
				prev.Bytes = prev.Bytes.Add(msg.Bytes)
				prev.Why += "; with " + msg.Why + " (line " + fmt.Sprint(e.f.Lines.Line(msg.Offset)+1) + "), one broadcast an iteration"
				continue
			}
			msg.parts = []Poly{msg.Bytes}
			once = append(once, msg)
		}
		kept = append(kept, msg)
	}
	var out []*Message
	for _, msg := range kept {
		if msg.hoist <= depth {
			// Placed before this loop: once per execution, as large as
			// the loop needs it at most (a section whose bound is this
			// loop's index, Cholesky's I = J, N).
			msg.Bytes = e.maxOver(msg.Bytes, idx, lo, hi, step)
			if prev := sameSlice(out, msg); prev != nil {
				// Another statement's part of the same slice (the pivot
				// row's A(K,K) and A(K,K+1:N)): one broadcast carries
				// both parts (their sum: the statements' sections are
				// taken as disjoint).
				prev.Bytes = prev.Bytes.Add(msg.Bytes)
				prev.Why = strings.TrimSuffix(prev.Why, " is held by one processor and needed by all")
				prev.Why = strings.TrimSuffix(prev.Why, " are held by one processor and needed by all")
				prev.Why += " and " + strings.TrimSuffix(strings.TrimSuffix(msg.Why, " is held by one processor and needed by all"), " are held by one processor and needed by all") +
					" are held by one processor and needed by all"
				continue
			}
			out = append(out, msg)
			continue
		}
		if msg.crossOnce == idx {
			// A BLOCK pipeline: the boundary is crossed once per
			// execution of the loop (the first local iteration), in
			// blocks (pipeline).
			msg.Bytes = e.maxOver(msg.Bytes, idx, lo, hi, step)
			e.pipeline(msg, sum(body))
			out = append(out, msg)
			continue
		}
		if !msg.priced && msg.Bytes.Has(idx) {
			// The size changes from iteration to iteration (DGEFA's
			// shrinking columns): price each iteration's sends here.
			t, ok := e.priceOver(msg, idx, lo, step, trips)
			if !ok {
				// A symbolic range: Σ of the price, a polynomial in
				// the index where the size is one (one segment of
				// the machine's curve).
				t = e.msgTime(msg, msg.Bytes).Mul(msg.Count)
				t, ok = complexity.SumStep(t, idx, lo, hi, step)
				t = t.Mul(fraction)
			}
			if ok {
				msg.Time, msg.priced = t, true
				msg.Count = sum(msg.Count)
				msg.Bytes = e.maxOver(msg.Bytes, idx, lo, hi, step)
				out = append(out, msg)
				continue
			}
		}
		if msg.collective {
			// Every processor takes part in each reduction, whoever
			// owns the iteration's result.
			if msg.priced {
				msg.Time = all(msg.Time)
			}
			msg.Count = all(msg.Count)
			msg.Bytes = e.maxOver(msg.Bytes, idx, lo, hi, step)
			out = append(out, msg)
			continue
		}
		if msg.priced {
			if msg.fill != nil && onlyPipelines(msgs) {
				// Sweep after sweep with nothing else between them:
				// the first processor goes on with the next sweep as
				// soon as it has sent its last block, so the pipeline
				// stays full and fills once (ERLEBACHER's NCYCLE).
				msg.Time = sum(msg.Time.Sub(*msg.fill)).Add(*msg.fill)
			} else {
				msg.Time = sum(msg.Time)
				msg.fill = nil
			}
		}
		msg.Count = sum(msg.Count)
		msg.Bytes = e.maxOver(msg.Bytes, idx, lo, hi, step)
		out = append(out, msg)
	}
	if len(once) == 1 && once[0].priced {
		// The broadcast of each step and the work around it, step by
		// step: see bcastSchedule.
		if t, ok := complexity.Seconds(total); ok {
			if sched, why, ok := e.bcastSchedule(c, once[0].parts, idx); ok {
				once[0].Time = ratOf(math.Max(sched-t, 0))
				once[0].Why += why
				e.note("the broadcasts of " + idx + " and the work between them are scheduled step by step (binomial tree)")
			}
		}
	}
	return total, out
}

// condition is the time of evaluating a condition (an IF's, an ELSE
// IF's, a DO WHILE's): its expression, the reductions over arrays that
// are not distributed in it, and the functions of the file it references
// (condCalls) with their messages.
func (e *est) condition(x parser.Expr, loops []loopInfo) (Poly, []*Message) {
	fc, fm := e.condCalls(x, loops)
	return e.exprCost(x).Add(e.localReductions(x, loops)).Add(fc), fm
}

// weigh scales messages sent with probability w (an IF's arm): their
// counts, and their times where already priced.
func weigh(msgs []*Message, w Poly) []*Message {
	for _, msg := range msgs {
		msg.Count = msg.Count.Mul(w)
		if msg.priced {
			msg.Time = msg.Time.Mul(w)
		}
	}
	return msgs
}

// maxEnumerate bounds the iterations of a loop estimated one by one:
// loops whose body defines a scalar by a non-polynomial function of the
// index (HALF = 2**(S-1)) are the stages of logarithmic algorithms, a few
// dozen iterations.
const maxEnumerate = 256

// definitions are the assignments at the top level of a loop body that
// define an integer scalar from the index, each the only assignment to
// its scalar in the body, before any use of it there.
func (e *est) definitions(c *parser.DoConstruct) []*parser.AssignStmt {
	var out []*parser.AssignStmt
	assigned := map[string]int{}
	for _, s := range c.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.AssignStmt:
				assigned[lhsName(x)]++
			case *parser.DoStmt:
				if x.Var != nil {
					assigned[x.Var.Name] += 2
				}
			case *parser.CallStmt:
				for _, a := range x.Args {
					if id, ok := a.(*parser.Ident); ok {
						assigned[id.Name] += 2 // may be set by the call
					}
				}
			}
			return true
		})
	}
	used := map[string]bool{}
	for _, s := range c.Body {
		if a, ok := s.(*parser.AssignStmt); ok {
			id, isID := a.LHS.(*parser.Ident)
			if isID && assigned[id.Name] == 1 && !used[id.Name] && !mentions(a.RHS, id.Name) {
				if sym := e.sc.Lookup(id.Name); sym != nil && sym.Rank() == 0 && sym.Param == nil && e.sc.TypeOf(id.Name) == "INTEGER" {
					out = append(out, a)
				}
			}
		}
		parser.Inspect(s, func(n parser.Node) bool {
			if id, ok := n.(*parser.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	return out
}

func (e *est) setBind(name string, p Poly) {
	if e.bind == nil {
		e.bind = map[string]Poly{}
	}
	e.bind[name] = p
}

func (e *est) unbind(defs []*parser.AssignStmt) {
	for _, d := range defs {
		delete(e.bind, lhsName(d))
	}
}

// enumerate estimates a loop that is not divided among processors
// iteration by iteration, with the index and the scalars the body
// defines from it bound to their values (truncated to integers, as
// Fortran's integer arithmetic does): the exact sum over the index. The
// messages of the iterations are priced one by one and merged; a message
// placed before the loop is sent once, as large as the largest.
func (e *est) enumerate(c *parser.DoConstruct, idx string, lo, step Poly, defs []*parser.AssignStmt, loops, inner []loopInfo, partitioned bool) (Poly, []*Message, bool) {
	d := c.Do
	hi, ok := e.value(d.Hi, loops, 0)
	if !ok || partitioned {
		return Poly{}, nil, false
	}
	trips, ok := complexity.TripCount(lo, hi, step)
	n, ok1 := complexity.Seconds(trips)
	l, ok2 := complexity.Seconds(lo)
	st, ok3 := complexity.Seconds(step)
	if !ok || !ok1 || !ok2 || !ok3 || n < 0 || n > maxEnumerate || l != math.Trunc(l) || st != math.Trunc(st) {
		return Poly{}, nil, false
	}
	m := e.opt.Machine
	total := ratOf(m.Op("loop"))
	for _, b := range []parser.Expr{d.Lo, d.Hi, d.Step} {
		if b != nil {
			total = total.Add(e.exprCost(e.withBounds(b)))
		}
	}
	depth := len(loops)
	merged := map[string]*Message{}
	var out []*Message
	larger := func(a, b Poly) Poly {
		if v, ok := complexity.Seconds(b.Sub(a)); ok && v > 0 {
			return b
		}
		return a
	}
	savedColl := e.coll
	coll := complexity.Zero()
	defer func() { delete(e.bind, idx) }() // e.bind may be made by setBind below
	for k := int64(0); k < int64(n); k++ {
		e.setBind(idx, complexity.Int(int64(l)+k*int64(st)))
		for _, def := range defs {
			p, ok := e.value(def.RHS, inner, 0)
			v, isNum := p.Value()
			if !ok || !isNum {
				delete(e.bind, lhsName(def))
				continue
			}
			q := new(big.Int).Quo(v.Num(), v.Denom()) // integer arithmetic truncates
			e.setBind(lhsName(def), complexity.Rat(new(big.Rat).SetInt(q)))
		}
		e.coll = complexity.Zero()
		body, msgs := e.list(c.Body, inner)
		coll = coll.Add(e.coll)
		total = total.Add(body).Add(ratOf(m.Op("iteration")))
		for _, msg := range msgs {
			once := msg.hoist <= depth || msg.crossOnce == idx
			if !once && !msg.priced {
				if _, ok := complexity.Seconds(msg.Bytes); ok {
					msg.Time, msg.priced = e.commTime(msg.Pattern, msg.Bytes).Mul(msg.Count), true
				}
			}
			key := fmt.Sprintf("%d|%s|%s|%d|%s|%v", msg.Offset, msg.Pattern, msg.Array, msg.hoist, msg.crossOnce, msg.Pipeline)
			prev := merged[key]
			if prev == nil {
				merged[key] = msg
				out = append(out, msg)
				continue
			}
			if prev.Why != msg.Why && !strings.HasSuffix(prev.Why, varyNote(idx)) {
				prev.Why += varyNote(idx)
			}
			if once {
				prev.Bytes = larger(prev.Bytes, msg.Bytes)
				continue
			}
			// The size shown is the mean over the messages (the time
			// is the sum of each iteration's price).
			c0, ok1 := complexity.Seconds(prev.Count)
			c1, ok2 := complexity.Seconds(msg.Count)
			b0, ok3 := complexity.Seconds(prev.Bytes)
			b1, ok4 := complexity.Seconds(msg.Bytes)
			if ok1 && ok2 && ok3 && ok4 && c0+c1 > 0 {
				prev.Bytes = complexity.Int(int64(math.Round((c0*b0 + c1*b1) / (c0 + c1))))
			} else {
				prev.Bytes = larger(prev.Bytes, msg.Bytes)
			}
			prev.Count = prev.Count.Add(msg.Count)
			if prev.priced && msg.priced {
				prev.Time = prev.Time.Add(msg.Time)
			} else {
				prev.priced = false
			}
		}
	}
	e.coll = savedColl.Add(coll)
	for _, d := range defs {
		delete(e.bind, lhsName(d))
	}
	return total, out, true
}

// varyNote ends the reason of a message whose amount changes with the
// iterations of an enumerated loop (the reason shown is the first's).
func varyNote(idx string) string {
	return "; the amount changes with " + idx + ": the count is over all its values, the size their mean, rounded"
}

// fold puts the values of bound scalars (enumerate's index and the
// scalars defined from it) into a reference's affine subscripts, so that
// A(I+HALF,J) at HALF = 4 is a shift of 4.
func (e *est) fold(r ref) ref {
	if len(e.bind) == 0 {
		return r
	}
	var subs []linear
	for i, sub := range r.subs {
		for v, k := range sub.coef {
			p, ok := e.bind[v]
			if !ok {
				continue
			}
			val, ok := p.Value()
			if !ok || !val.IsInt() || !val.Num().IsInt64() {
				continue
			}
			if subs == nil {
				subs = append([]linear(nil), r.subs...)
			}
			subs[i] = subs[i].add(linear{konst: k * val.Num().Int64()}, 1).add(linear{coef: map[string]int64{v: k}}, -1)
		}
	}
	if subs != nil {
		r.subs = subs
	}
	return r
}

// exits reports whether a DO loop's body holds an EXIT that leaves it:
// an EXIT naming the loop's construct, or an unnamed EXIT outside any
// inner DO loop (which it would leave instead).
func exits(c *parser.DoConstruct) bool {
	name := ""
	if c.Do.Construct != nil {
		name = c.Do.Construct.Name
	}
	found := false
	var walk func(n parser.Node, inner bool)
	walk = func(n parser.Node, inner bool) {
		parser.Inspect(n, func(x parser.Node) bool {
			if found {
				return false
			}
			switch s := x.(type) {
			case *parser.DoConstruct:
				if s != n {
					walk(s, true)
					return false
				}
			case *parser.SimpleStmt:
				if s.Keyword == "EXIT" {
					if len(s.Args) == 0 {
						found = !inner
					} else if id, ok := s.Args[0].(*parser.Ident); ok && name != "" && strings.EqualFold(id.Name, name) {
						found = true
					}
				}
			}
			return true
		})
	}
	for _, s := range c.Body {
		walk(s, false)
	}
	return found
}

// commSizeVars finds the variables CALL MPI_COMM_SIZE(comm, n, ierr) sets
// in a unit.
func commSizeVars(u *parser.Unit) map[string]bool {
	var out map[string]bool
	for _, s := range u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			c, ok := n.(*parser.CallStmt)
			if !ok || c.Name == nil || c.Name.Name != "MPI_COMM_SIZE" || len(c.Args) < 2 {
				return true
			}
			if id, ok := c.Args[1].(*parser.Ident); ok {
				if out == nil {
					out = map[string]bool{}
				}
				out[id.Name] = true
			}
			return true
		})
	}
	return out
}

// priceOver sums the price of a message over the iterations of a loop
// whose index its size depends on, when the range is a number.
func (e *est) priceOver(msg *Message, idx string, lo, step, trips Poly) (Poly, bool) {
	l, ok1 := complexity.Seconds(lo)
	s, ok2 := complexity.Seconds(step)
	n, ok3 := complexity.Seconds(trips)
	if !ok1 || !ok2 || !ok3 || n > 1e5 {
		return Poly{}, false
	}
	total := complexity.Zero()
	for k := 0; k < int(n); k++ {
		v := complexity.Int(int64(l) + int64(k)*int64(s))
		b, ok := msg.Bytes.Subst(idx, v)
		if !ok {
			return Poly{}, false
		}
		c, ok := msg.Count.Subst(idx, v)
		if !ok {
			return Poly{}, false
		}
		if _, ok := complexity.Seconds(b); !ok {
			return Poly{}, false
		}
		total = total.Add(e.msgTime(msg, b).Mul(c))
	}
	return total, true
}

// mpiPatterns maps MPI routines to the communication patterns of the
// machine model: node programs with explicit messages (seed 003's own
// setting) are estimated from their calls.
var mpiPatterns = map[string]struct {
	pattern string
	count   int // argument index of the element count (-1: none)
	dtype   int // argument index of the datatype
}{
	"MPI_SEND": {"vector-shift", 1, 2}, "MPI_ISEND": {"vector-shift", 1, 2}, "MPI_SSEND": {"vector-shift", 1, 2},
	"MPI_RSEND": {"vector-shift", 1, 2}, "MPI_BSEND": {"vector-shift", 1, 2},
	"MPI_RECV": {"vector-shift", 1, 2}, "MPI_IRECV": {"vector-shift", 1, 2},
	"MPI_SENDRECV": {"exchange", 1, 2}, "MPI_SENDRECV_REPLACE": {"exchange", 1, 2},
	"MPI_BCAST":  {"broadcast", 1, 2},
	"MPI_REDUCE": {"reduction-broadcast", 2, 3}, "MPI_ALLREDUCE": {"reduction-broadcast", 2, 3},
	"MPI_ALLTOALL": {"alltoall", 1, 2},
	"MPI_BARRIER":  {"reduction-broadcast", -1, -1},
}

// mpiTypeSize is the size in bytes of an MPI datatype.
func mpiTypeSize(name string) int64 {
	switch name {
	case "MPI_DOUBLE_PRECISION", "MPI_REAL8", "MPI_INTEGER8", "MPI_COMPLEX", "MPI_DOUBLE":
		return 8
	case "MPI_DOUBLE_COMPLEX", "MPI_COMPLEX16":
		return 16
	case "MPI_CHARACTER", "MPI_BYTE", "MPI_CHAR", "MPI_INTEGER1", "MPI_LOGICAL1":
		return 1
	}
	return 4
}

// mpiCall prices an explicit MPI call: count × type size bytes. A receive
// is not priced again: its send already was.
func (e *est) mpiCall(c *parser.CallStmt, loops []loopInfo) *Message {
	p, ok := mpiPatterns[c.Name.Name]
	if !ok {
		return nil
	}
	switch c.Name.Name {
	case "MPI_RECV", "MPI_IRECV":
		return nil
	}
	bytes := complexity.Zero()
	if p.count >= 0 && p.count < len(c.Args) && p.dtype < len(c.Args) {
		n, ok := e.value(c.Args[p.count], loops, 0)
		if !ok {
			return nil
		}
		size := int64(4)
		if id, ok := c.Args[p.dtype].(*parser.Ident); ok {
			size = mpiTypeSize(id.Name)
		}
		bytes = n.Mul(complexity.Int(size))
	}
	for _, l := range loops {
		bytes = e.maxOver(bytes, l.index, complexity.Var(l.index), complexity.Var(l.index), complexity.Int(1))
	}
	return &Message{Pattern: p.pattern, Array: c.Name.Name, Count: complexity.Int(1), Bytes: bytes,
		hoist: len(loops), Offset: e.u.Abs(c.Pos()), Why: c.Name.Name + " in the node program"}
}

// forallNest turns FORALL (I = l:h:s, J = ...) assignment into the loop
// nest it stands for (outermost first), so that its iterations are shared
// among the owners like a DO nest's.
func forallNest(x *parser.ForallStmt) *parser.DoConstruct {
	if x.Body == nil || x.Header == nil || len(x.Header.Specs) == 0 {
		return nil
	}
	var body parser.Stmt = x.Body
	if x.Header.Mask != nil {
		body = &parser.IfStmt{StmtBase: x.StmtBase, Cond: x.Header.Mask, Then: x.Body}
	}
	var nest *parser.DoConstruct
	for i := len(x.Header.Specs) - 1; i >= 0; i-- {
		s := x.Header.Specs[i]
		do := &parser.DoStmt{StmtBase: x.StmtBase, Var: s.Var, Lo: s.Lo, Hi: s.Hi, Step: s.Stride}
		nest = &parser.DoConstruct{Do: do, Body: []parser.Stmt{body}}
		body = nest
	}
	return nest
}

// markForall marks the loops of a FORALL's nest (forallNest).
func (e *est) markForall(nest *parser.DoConstruct) {
	if e.foralls == nil {
		e.foralls = map[*parser.DoConstruct]bool{}
	}
	if e.masks == nil {
		e.masks = map[*parser.IfStmt]bool{}
	}
	for c := nest; c != nil; {
		e.foralls[c] = true
		var next *parser.DoConstruct
		for _, s := range c.Body {
			switch x := s.(type) {
			case *parser.DoConstruct:
				next = x
			case *parser.IfStmt:
				e.masks[x] = true
			}
		}
		c = next
	}
}

// forallBlockNest is forallNest for a FORALL construct with the given
// statements: each assignment stands under the mask.
func forallBlockNest(h *parser.ForallStmt, stmts []parser.Stmt) *parser.DoConstruct {
	return headerNest(h.StmtBase, h.Header, stmts)
}

// concurrentNest is the DO nest a DO CONCURRENT (J = 1:N, I = 1:M, mask)
// runs as, its first index outermost, each assignment of its body under
// the mask: the estimator shares its iterations among the owners as a DO
// nest's (Fortran 2018 11.1.7.4.3: the iterations may run in any order).
func concurrentNest(c *parser.DoConstruct) *parser.DoConstruct {
	return headerNest(c.Do.StmtBase, c.Do.Concurrent, c.Body)
}

// headerNest is the loop nest of a FORALL or DO CONCURRENT header over
// the statements stmts.
func headerNest(base parser.StmtBase, h *parser.ForallHeader, stmts []parser.Stmt) *parser.DoConstruct {
	if h == nil || len(h.Specs) == 0 || len(stmts) == 0 {
		return nil
	}
	var body []parser.Stmt
	for _, s := range stmts {
		if h.Mask != nil {
			if a, ok := s.(*parser.AssignStmt); ok {
				s = &parser.IfStmt{StmtBase: a.StmtBase, Cond: h.Mask, Then: a}
			}
		}
		body = append(body, s)
	}
	var nest *parser.DoConstruct
	for i := len(h.Specs) - 1; i >= 0; i-- {
		sp := h.Specs[i]
		do := &parser.DoStmt{StmtBase: base, Var: sp.Var, Lo: sp.Lo, Hi: sp.Hi, Step: sp.Stride}
		nest = &parser.DoConstruct{Do: do, Body: body}
		body = []parser.Stmt{nest}
	}
	return nest
}

type reduction struct {
	fn, array string
	work      Poly
	call      *parser.Call
	bytes     int64
	// inner is the elementwise argument as an assignment to the
	// reduced section (the owner of each element computes it), when
	// the argument reads more than that section.
	inner *parser.AssignStmt
}

// why says what a reduction message combines.
func (r reduction) why() string {
	arg := r.array
	if r.inner != nil || parser.ExprString(r.call.Args[0]) != r.array {
		arg = "..." + r.array + "..."
	}
	return fmt.Sprintf("%s(%s) combines the shares of every processor", r.fn, arg)
}

// reductionFns are the intrinsics that combine the elements of an array
// into one value: each processor combines its share, then a log P tree
// combines the partial results (and gives everyone the answer).
var reductionFns = map[string]bool{"SUM": true, "PRODUCT": true, "MAXVAL": true, "MINVAL": true,
	"COUNT": true, "ANY": true, "ALL": true, "MAXLOC": true, "MINLOC": true, "DOT_PRODUCT": true}

// localReductions is the work of the reductions of an expression over
// arrays that are not distributed (a node program's SUM(V**2), MAXVAL of
// a local difference): every element of the argument evaluated and
// combined. The statement's cost (assignCost) has one element of each,
// as the complexity model prices reductions for the estimator; this is
// the others. A reduction whose element count is not known adds
// nothing.
func (e *est) localReductions(x parser.Expr, loops []loopInfo) Poly {
	total := complexity.Zero()
	combine := ratOf(e.opt.Machine.Op("add"))
	parser.Inspect(x, func(n parser.Node) bool {
		c, ok := n.(*parser.Call)
		if !ok || len(c.Args) == 0 {
			return true
		}
		fn, ok := c.Fun.(*parser.Ident)
		if !ok || !reductionFns[fn.Name] || e.sc.Lookup(fn.Name) != nil {
			return true
		}
		arg := c.Args[0]
		if k, ok := arg.(*parser.KeywordArg); ok {
			arg = k.Value
		}
		var name string
		var sec parser.Expr
		distributed := false
		parser.Inspect(arg, func(n parser.Node) bool {
			switch v := n.(type) {
			case *parser.Ident:
				if l := e.d.Arrays[v.Name]; l != nil && l.Distributed() {
					distributed = true
				}
				if sym := e.sc.Lookup(v.Name); name == "" && sym != nil && sym.Kind == parser.SymVariable && sym.Rank() > 0 {
					name = v.Name
				}
			case *parser.Call:
				if r, ok := refOf(v, e.sc); ok {
					if l := e.d.Arrays[r.name]; l != nil && l.Distributed() {
						distributed = true
					}
					if name == "" && len(r.sections) > 0 {
						name, sec = r.name, v
					}
					return false
				}
			}
			return true
		})
		if distributed || name == "" {
			return false // reductions prices it, or not an array's
		}
		elems, ok := e.reducedElems(name, sec, loops)
		if !ok {
			return false
		}
		elem := e.exprCost(arg)
		if fn.Name == "DOT_PRODUCT" && len(c.Args) > 1 {
			elem = elem.Add(e.exprCost(c.Args[1])).Add(ratOf(e.opt.Machine.Op("mul")))
		}
		total = total.Add(elems.Sub(complexity.Int(1)).Mul(elem.Add(combine)))
		return false
	})
	return total
}

// reductions finds SUM(A), MAXVAL(ABS(U(2:N-1) - V(2:N-1))),
// DOT_PRODUCT(P, Q), ... over distributed arrays or their sections.
func (e *est) reductions(x parser.Expr, loops []loopInfo) []reduction {
	var out []reduction
	parser.Inspect(x, func(n parser.Node) bool {
		c, ok := n.(*parser.Call)
		if !ok || len(c.Args) == 0 {
			return true
		}
		fn, ok := c.Fun.(*parser.Ident)
		if !ok || !reductionFns[fn.Name] || e.sc.Lookup(fn.Name) != nil && e.sc.Lookup(fn.Name).Rank() > 0 {
			return true
		}
		arg := c.Args[0]
		// The first distributed array the argument reads, whole or a section.
		var name string
		var sec, first parser.Expr
		parser.Inspect(arg, func(n parser.Node) bool {
			if name != "" {
				return false
			}
			switch v := n.(type) {
			case *parser.Ident:
				if l := e.d.Arrays[v.Name]; l != nil && l.Distributed() {
					name, first = v.Name, v
				}
			case *parser.Call:
				if r, ok := refOf(v, e.sc); ok {
					if l := e.d.Arrays[r.name]; l != nil && l.Distributed() && len(r.sections) > 0 {
						name, sec, first = r.name, v, v
					}
					return false
				}
			}
			return true
		})
		if name == "" {
			return true
		}
		elems, ok := e.reducedElems(name, sec, loops)
		if !ok {
			return true
		}
		per := ratOf(e.opt.Machine.Op("add")).Add(ratOf(e.opt.Machine.Op("load")))
		work := elems.Mul(complexity.Frac(1, int64(e.d.Procs))).Mul(per)
		red := reduction{fn: fn.Name, array: name, work: work, call: c, bytes: e.elemSize(name)}
		if fn.Name == "MAXLOC" || fn.Name == "MINLOC" {
			red.bytes += 4 // the value and its location
		}
		var rhs parser.Expr = arg
		if fn.Name == "DOT_PRODUCT" && len(c.Args) > 1 {
			rhs = &parser.Binary{X: arg, OpPos: arg.Pos(), Op: "*", Y: c.Args[1]}
		}
		if rhs != first {
			red.inner = &parser.AssignStmt{LHS: first, RHS: rhs}
		}
		out = append(out, red)
		return false
	})
	return out
}

// reducedElems is the number of elements of a whole array (sec nil) or of
// a section reference.
func (e *est) reducedElems(name string, sec parser.Expr, loops []loopInfo) (Poly, bool) {
	elems := complexity.Int(1)
	if sec == nil {
		sym := e.sc.Lookup(name)
		if sym == nil {
			return Poly{}, false
		}
		for i := 0; i < sym.Rank(); i++ {
			ext, ok := e.extent(name, i)
			if !ok {
				return Poly{}, false
			}
			elems = elems.Mul(ext)
		}
		return elems, true
	}
	r, _ := refOf(sec, e.sc)
	for _, sc := range r.sections {
		t, ok := e.sectionTrips(name, sc, loops)
		if !ok {
			return Poly{}, false
		}
		elems = elems.Mul(t)
	}
	return elems, true
}

// maxOver replaces a loop index left in a message size by its first or
// last value, whichever gives the larger message.
func (e *est) maxOver(p Poly, idx string, lo, hi, step Poly) Poly {
	if !p.Has(idx) {
		return p
	}
	a, ok1 := p.Subst(idx, lo)
	b, ok2 := p.Subst(idx, hi)
	if !ok1 || !ok2 {
		return p
	}
	if d, ok := complexity.Seconds(b.Sub(a)); ok && d > 0 {
		return b
	}
	return a
}

// elemSize is the size in bytes of an element of a named array or scalar.
func (e *est) elemSize(name string) int64 { return typeSize(e.sc.TypeOf(name)) }

// typeSize is the size in bytes of a value of a type (4 when unknown).
func typeSize(t string) int64 {
	switch {
	case t == "DOUBLEPRECISION" || strings.HasPrefix(t, "REAL*8") || t == "COMPLEX":
		return 8
	case t == "DOUBLECOMPLEX":
		return 16
	case t == "LOGICAL", t == "INTEGER", t == "REAL":
		return 4
	case t == "CHARACTER":
		return 1
	}
	return 4
}

// assignComm finds the messages an assignment needs (see comm.go).
func (e *est) assignComm(a *parser.AssignStmt, loops []loopInfo) []*Message {
	return e.assignCommExcept(a, loops, nil, nil)
}

// assignCommExcept is assignComm leaving out the reads inside the given
// reductions, which are priced as reductions, and inside the intrinsics
// that move data (movers.go), priced by what they move.
func (e *est) assignCommExcept(a *parser.AssignStmt, loops []loopInfo, reds []reduction, movs []mover) []*Message {
	var msgs []*Message
	lhs, lhsIsRef := refOf(a.LHS, e.sc)
	whole := false // a whole-array assignment: U = V + W
	if id, ok := a.LHS.(*parser.Ident); ok && !movesData(a.RHS, e.sc) {
		// (Intrinsics that move data, SPREAD, CSHIFT, TRANSPOSE, are not
		// elementwise: such an assignment keeps the scalar treatment.)
		lhs, lhsIsRef = wholeRef(id, e.sc)
		whole = lhsIsRef
	}
	lhs = e.fold(lhs)
	var lx *Layout
	if lhsIsRef {
		lx = e.d.Arrays[lhs.name]
		if lx != nil && !lx.Distributed() {
			lx = nil
		}
	}
	at := a.Pos()
	seen := map[string]bool{}
	bcasts := map[string]*Message{}
	reduced := false // a scalar already combined by a reduction needs no broadcast
	add := func(m *Message) {
		key := fmt.Sprintf("%s|%s|%s|%d", m.Pattern, m.Array, m.Why, m.hoist)
		if seen[key] {
			return
		}
		seen[key] = true
		m.Offset = e.u.Abs(at)
		if m.hoist < len(loops) {
			m.Loop = loops[m.hoist].do
		}
		if lhsIsRef {
			m.Target = lhs.name
		}
		m.Pipeline = strings.HasPrefix(m.Why, "pipeline:")
		m.Relayout = m.Pattern == "alltoall" && strings.Contains(m.Why, "laid out differently")
		msgs = append(msgs, m)
	}
	inReduction := func(r ref) bool {
		for _, red := range reds {
			if r.x.Pos() >= red.call.Pos() && r.x.Pos() < red.call.End() {
				return true
			}
		}
		for _, mv := range movs {
			if r.x.Pos() >= mv.call.Pos() && r.x.Pos() < mv.call.End() {
				return true
			}
		}
		return false
	}
	rs := reads(a.RHS, e.sc)
	if whole {
		// Whole arrays are read element by element only where the
		// written array is one (a scalar is never assigned an array).
		rs = append(rs, wholeReads(a.RHS, e.sc)...)
	}
	for _, r := range rs {
		if inReduction(r) {
			continue
		}
		r = e.fold(r)
		ly := e.d.Arrays[r.name]
		if ly == nil || !ly.Distributed() {
			continue
		}
		lx, lhs := lx, lhs
		if lx == nil && e.private(r, ly, loops) && !accumulates(a, lhsName(a)) {
			// A scalar (or replicated array) computed from distributed data
			// inside a loop divided among owners, reading along that loop:
			// private to the iteration (HPF's NEW), computed by the owner
			// that runs it, the owner of the loop's home, from whose
			// element the read is taken as an assignment to it would be
			// (TMP = W(I-1) + W(I+1) for X(I) = TMP/2 needs W's
			// neighbours at the block boundaries). Nothing to send when
			// no home is known.
			h := e.homeOf(loops)
			if h == nil {
				continue
			}
			hl := e.d.Arrays[h.name]
			if hl == nil || !hl.Distributed() {
				continue
			}
			lx, lhs = hl, e.fold(*h)
		}
		if lx == nil {
			// A scalar (or replicated array) computed from distributed data.
			name := lhsName(a)
			// After the innermost loop: once per execution of it.
			after := max(0, len(loops)-1)
			if accumulates(a, name) {
				// The partial results are combined once, after the
				// outermost loop in which the scalar is only accumulated.
				for after > 0 && onlyAccumulated(loops[after-1].do.Body, name) {
					after--
				}
			}
			if accumulates(a, name) && e.walksDistributed(r, ly, loops[after:]) {
				reduced = true
				add(&Message{Pattern: "reduction-broadcast", Array: r.name, Count: complexity.Int(1),
					Bytes: complexity.Int(e.elemSize(name)), hoist: after,
					Why: fmt.Sprintf("%s combines elements of %s held by every processor", name, r.name)})
				continue
			}
			// The owner of the data computes the scalar and broadcasts it:
			// a search after its loop, a plain assignment where it stands.
			if reduced {
				continue
			}
			h := len(loops)
			if accumulates(a, name) {
				h = after
			}
			bytes := complexity.Int(e.elemSize(name))
			if len(r.sections) > 0 && !accumulates(a, name) {
				// A section copied into a replicated array (ROW = A(K,:)).
				bytes = e.sectionBytes(r, ly, loops, h, -1, 0)
				if dest := e.onlyCopiedTo(name, a, loops); dest != "" {
					// ROW is only copied into one slice of a distributed
					// array (the row swap's A(P,:) = ROW): one message,
					// from the owner of the section to the owner of dest.
					add(&Message{Pattern: machine.PatternVectorShift, Array: r.name, Count: complexity.Int(1),
						Bytes: bytes, hoist: h, PointToPoint: true,
						Why: fmt.Sprintf("%s is only copied into %s: sent by the owner of %s to the owner of %s", name, dest, parser.ExprString(r.x), dest)})
					continue
				}
			}
			if !accumulates(a, name) && e.onlyAtOwner(name, a, r, ly, loops) {
				// T = A(L,K) of DGEFA's swap: only the owner of A(L,K)
				// uses T before it is set again.
				continue
			}
			add(&Message{Pattern: "broadcast", Array: r.name, Count: complexity.Int(1),
				Bytes: bytes, hoist: h, root: e.ownerKey(r, ly, loops[min(h, len(loops)):]),
				Why: fmt.Sprintf("%s is computed from %s by its owner and sent to all", name, r.name)})
			continue
		}
		if lx.Template != ly.Template {
			h := e.hoist(r, loops, at)
			b := e.sectionBytes(r, ly, loops, h, -1, 0).Mul(complexity.Frac(1, int64(e.d.Procs)))
			add(&Message{Pattern: "alltoall", Array: r.name, Count: complexity.Int(1), Bytes: b, hoist: h,
				Why: fmt.Sprintf("%s is laid out differently from %s", r.name, lhs.name)})
			continue
		}
		if !lhs.ok || !r.ok {
			// Aligned, but a subscript the analysis cannot follow: the
			// elements may come from anywhere (not a missing ALIGN).
			h := e.hoist(r, loops, at)
			b := e.sectionBytes(r, ly, loops, h, -1, 0).Mul(complexity.Frac(1, int64(e.d.Procs)))
			add(&Message{Pattern: "alltoall", Array: r.name, Count: complexity.Int(1), Bytes: b, hoist: h,
				Why: fmt.Sprintf("%s does not follow the owner of %s", parser.ExprString(r.x), parser.ExprString(lhs.x))})
			continue
		}
		for i, f := range ly.Dims {
			if f.Procs <= 1 || i >= len(r.subs) {
				continue
			}
			// The dimension of the written array on the same template dimension.
			j := -1
			for k, td := range lx.TemplateDim {
				if td == ly.TemplateDim[i] && td >= 0 {
					j = k
				}
			}
			if j < 0 || j >= len(lhs.subs) {
				continue
			}
			rs, ws := r.subs[i], lhs.subs[j]
			switch {
			case sameVars(rs, ws):
				c := rs.konst + int64(ly.Offset[i]) - ws.konst - int64(lx.Offset[j])
				if c == 0 {
					continue
				}
				if rs.onlyConst() && ly.Offset[i] == 0 && lx.Offset[j] == 0 {
					// Two fixed elements: Q(1) and P(2) have one owner
					// unless a block or cycle boundary lies between them.
					o1, ok1 := ownerOf(ly, i, rs.konst)
					o2, ok2 := ownerOf(lx, j, ws.konst)
					if ok1 && ok2 && o1 == o2 {
						continue
					}
				}
				h := e.hoist(r, loops, at)
				if r.name == lhs.name && r.ok {
					// A read of the element a later iteration writes (the
					// old value U(I,J+1) of an in-place sweep) is an
					// anti-dependence: the old values travel before the
					// loop that writes them, in one shift.
					for k := h - 1; k >= 0; k-- {
						l := loops[k]
						if rs.coef[l.index] == 0 || l.step == 0 || !later(c, rs.coef[l.index], l.step) {
							break
						}
						h = k
					}
				}
				// A section is one vector message even where it stands.
				pattern := shiftPattern(f, i, len(ly.Dims), h == len(loops) && len(r.sections) == 0)
				why := fmt.Sprintf("%s reads %d from the neighbour along dimension %d", parser.ExprString(r.x), abs(c), i+1)
				// A dependence carried by a loop along the distributed
				// dimension keeps the message inside it: a pipeline.
				carrier := ""
				for _, l := range loops[:h] {
					if rs.coef[l.index] != 0 {
						why = "pipeline: " + why + ", and the loop over " + l.index + " carries a dependence across processors"
						if f.Kind == "BLOCK" {
							carrier = l.index
						}
					}
				}
				add(&Message{Pattern: pattern, Array: r.name, Count: complexity.Int(1),
					Bytes: e.sectionBytes(r, ly, loops, h, i, c), hoist: h, Why: why, crossOnce: carrier, pipeProcs: f.Procs,
					grid: gridDim(ly, i, e.d.Procs)})
			case !movesWith(rs, lhs.subs, lx, loops[:e.hoist(r, loops, at)]) && !varies(rs, loops[e.hoist(r, loops, at):]) && !varies(ws, loops[e.hoist(r, loops, at):]):
				// One element (or slice) of one owner written into one
				// of another: a single message between two processors
				// (the row swap A(K,:) = A(P,:)), not a broadcast.
				h := e.hoist(r, loops, at)
				add(&Message{Pattern: machine.PatternVectorShift, Array: r.name, Count: complexity.Int(1),
					Bytes: e.sectionBytes(r, ly, loops, h, -1, 0), hoist: h, PointToPoint: true,
					Why: fmt.Sprintf("%s is sent by its owner to the owner of %s", parser.ExprString(r.x), parser.ExprString(lhs.x))})
			case !movesWith(rs, lhs.subs, lx, loops[:e.hoist(r, loops, at)]):
				h := e.hoist(r, loops, at)
				bytes := e.sectionBytes(r, ly, loops, h, -1, 0)
				// Reads of one slice by the same owner, placed at the same
				// loop (Cholesky's A(I,K) and A(J,K): column K), travel
				// in one broadcast, as large as the larger.
				key := fmt.Sprintf("%s|%d|%d|%v|%d", r.name, h, i, rs.coef, rs.konst)
				if prev := bcasts[key]; prev != nil {
					if d, ok := complexity.Seconds(bytes.Sub(prev.Bytes)); ok && d > 0 {
						prev.Bytes = bytes
					}
					prev.Why = strings.TrimSuffix(prev.Why, " is held by one processor and needed by all")
					prev.Why = strings.TrimSuffix(prev.Why, " are held by one processor and needed by all")
					prev.Why += " and " + parser.ExprString(r.x) + " are held by one processor and needed by all"
					continue
				}
				m := &Message{Pattern: "broadcast", Array: r.name, Count: complexity.Int(1),
					Bytes: bytes, hoist: h, slice: key, root: e.ownerKey(r, ly, loops[h:]),
					Why: fmt.Sprintf("%s is held by one processor and needed by all", parser.ExprString(r.x))}
				bcasts[key] = m
				add(m)
			default:
				h := e.hoist(r, loops, at)
				b := e.sectionBytes(r, ly, loops, h, -1, 0).Mul(complexity.Frac(1, int64(e.d.Procs)))
				add(&Message{Pattern: "alltoall", Array: r.name, Count: complexity.Int(1), Bytes: b, hoist: h,
					Why: fmt.Sprintf("%s does not follow the owner of %s", parser.ExprString(r.x), parser.ExprString(lhs.x))})
			}
		}
	}
	return msgs
}

// PipelineBlock is the block size of coarse-grain pipelining when
// Options.PipelineBlock is 0: the Fortran D compiler's B = 8 of seed 000
// (Rice Fortran 77D's profile, capability's pipelineBlock).
const PipelineBlock = 8

// pipeline prices a BLOCK pipeline the way the compiler runs it (seed
// 000's coarse-grain pipelining, equation 1, and its Figure 2b): the
// boundary's elements are strip-mined into blocks of B, each block's
// elements are sent as soon as they are computed, so a sweep sends
// ceil(E/B) messages of B elements, and the last of the P processors
// along the dimension starts after P-1 stages. Beyond the sweep's own
// computation (work, the busiest processor's time for the whole loop)
// the pipeline costs (P-1)·(T_stage + T_comm) for the fill plus (E/B -
// 1)·T_comm for the further messages: T_stage is one block's computation
// over the processor's local iterations (work · B/E), T_comm one block's
// hand-off from a processor to the next, which waits for it: one of
// seed 003's EXCH stages (half the exchange pattern), where a shift times
// every processor sending and receiving at once, the two overlapping;
// but no less than the shift (on the built-in model, MPI in shared
// memory, half an exchange is the smaller).
// Seed 000 counts only the send and receive overheads of the further
// messages (C_f), taking the transfer as hidden behind the next stage;
// but a processor posts the receive of block b+1 only when block b is
// done, and a transfer that waits for its receive (MPI's rendezvous;
// SMPI starts every transfer there) then lies on the path. The kit's
// ERLEBACHER on the simulated NCUBE/2 (blocks of 8 REALs, P = 16, N = 32
// to 128) measures 102 µs a block besides its stage; with the open
// shift's 86 µs the estimate came out 9-13% low, with half the
// exchange's 103 µs within 1%. msg.Bytes holds the whole boundary (E elements)
// on entry. msg.fill keeps the fill: a sweep repeated with nothing in
// between pays it once (loop), then one T_comm a block.
func (e *est) pipeline(msg *Message, work Poly) {
	elem := float64(e.elemSize(msg.Array))
	total, ok1 := complexity.Seconds(msg.Bytes)
	w, ok2 := complexity.Seconds(work)
	if !ok1 || !ok2 || elem <= 0 || total < elem || msg.pipeProcs < 2 || msg.Pattern == machine.PatternElementShift {
		return // (a message per element is already as fine as it gets)
	}
	b := e.opt.PipelineBlock
	if b <= 0 {
		b = PipelineBlock
	}
	n := total / elem // boundary elements per sweep
	bs := math.Min(float64(b), n)
	blocks := math.Ceil(n / bs)
	tComm, err := e.opt.Machine.CommTime(msg.Pattern, msg.pipeProcs, bs*elem)
	if err != nil {
		return
	}
	if x, err := e.opt.Machine.CommTime(machine.PatternExchange, msg.pipeProcs, bs*elem); err == nil {
		// A block is handed from one processor to the next, which
		// waits for it: one of EXCH's two stages (seed 003: each
		// stage's receiver waits for its sender), where a shift has
		// every processor send and receive at once, the two
		// overlapping; but no less than the shift, whose send and
		// receive each processor does for every block.
		tComm = math.Max(tComm, x/2)
	}
	stage := w * bs / n
	fill := float64(msg.pipeProcs-1) * (stage + tComm)
	msg.Count = msg.Count.Mul(complexity.Int(int64(blocks)))
	msg.Bytes = complexity.Int(int64(bs * elem))
	// Paid once however often the sweep repeats: the fill less one
	// block's shift (the last block of a sweep and the first of the next
	// follow each other like any two blocks).
	f := ratOf(fill - tComm)
	msg.fill = &f
	msg.Time, msg.priced = ratOf(fill+(blocks-1)*tComm), true
	msg.Why += fmt.Sprintf("; pipelined in %.0f blocks of %.0f, the last of %d processors starting after %d blocks (the fill)", blocks, bs, msg.pipeProcs, msg.pipeProcs-1)
}

// onlyPipelines reports whether every message of a loop body is a
// pipeline's (nothing else makes the processors wait between sweeps).
func onlyPipelines(msgs []*Message) bool {
	for _, m := range msgs {
		if m.fill == nil {
			return false
		}
	}
	return true
}

// onlyCopiedTo returns the destination when a replicated array that the
// assignment a sets is used, in the innermost enclosing loop's body, only
// as the whole right-hand side of assignments to one fixed slice of a
// distributed array (A(P,:) = ROW: no index of the enclosing loops in its
// distributed subscripts); "" otherwise. Only that slice's owner needs it.
func (e *est) onlyCopiedTo(name string, a *parser.AssignStmt, loops []loopInfo) string {
	if len(loops) == 0 {
		return ""
	}
	dest := ""
	ok := true
	for _, s := range loops[len(loops)-1].do.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			if !ok {
				return false
			}
			switch x := n.(type) {
			case *parser.AssignStmt:
				if x == a {
					return false
				}
				if id, isID := x.RHS.(*parser.Ident); isID && id.Name == name {
					w, isRef := refOf(x.LHS, e.sc)
					l := e.d.Arrays[lhsName(x)]
					if !isRef || !w.ok || l == nil || !l.Distributed() || dest != "" {
						ok = false
						return false
					}
					for i, sub := range w.subs {
						if i < len(l.Dims) && l.Dims[i].Procs > 1 && varies(sub, loops) {
							ok = false
						}
					}
					dest = parser.ExprString(x.LHS)
					parser.Inspect(x.LHS, func(m parser.Node) bool {
						if id, isID := m.(*parser.Ident); isID && id.Name == name {
							ok = false
						}
						return ok
					})
					return false
				}
			case *parser.Ident:
				if x.Name == name {
					ok = false
				}
			}
			return ok
		})
	}
	if !ok {
		return ""
	}
	return dest
}

// sameSlice finds a broadcast of the same slice as msg, placed before
// the same loop by another statement, with the same count.
func sameSlice(out []*Message, msg *Message) *Message {
	if msg.slice == "" || msg.priced {
		return nil
	}
	for _, m := range out {
		if m.slice == msg.slice && m.hoist == msg.hoist && m.Loop == msg.Loop && m.Offset != msg.Offset &&
			!m.priced && m.Count.Equal(msg.Count) {
			return m
		}
	}
	return nil
}

// later reports whether a read of the element c further along a loop's
// index (coefficient k, step st) than the one written reads an element
// a later iteration writes: an old value (anti-dependence).
func later(c, k, st int64) bool {
	return c != 0 && (c > 0) == ((k > 0) == (st > 0))
}

// shiftPattern names the pattern of a shift along array dimension dim
// (of rank dimensions) distributed with f: one message per element when
// it could not be hoisted out of the loop over the elements; else a
// vector shift, which is non-periodic (an open shift: the first processor
// only sends, the last only receives) when the dimension is BLOCK, and
// strided when it is the first dimension of a multi-dimensional array (a
// row of a column-major array: one element per column). CYCLIC shifts
// wrap around: a circular vector shift. Models without the open-shift
// curves price them as vector shifts (Machine.CommTime).
func shiftPattern(f DimFormat, dim, rank int, perElement bool) string {
	switch {
	case perElement:
		return machine.PatternElementShift
	case f.Kind != "BLOCK":
		return machine.PatternVectorShift
	case dim == 0 && rank > 1:
		return machine.PatternOpenShiftStrided
	}
	return machine.PatternOpenShift
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// movesWith reports whether a read subscript moves with a variable of
// the written element's subscripts: A(I,K) read for A(I,J) does not along
// its second dimension (the owner of column K broadcasts it), B(J,I) read
// for A(I,J) does (a transpose: all-to-all).
//
// A variable shared only with an undistributed dimension of the written
// array, and fixed where the message is placed (the index of a loop it is
// not hoisted out of), does not move it: A(K,K) read for A(I,K) with rows
// distributed is the one element of row K, held by one processor.
func movesWith(r linear, written []linear, lx *Layout, fixed []loopInfo) bool {
	isFixed := map[string]bool{}
	for _, l := range fixed {
		isFixed[l.index] = true
	}
	for j, w := range written {
		distributed := lx == nil || j >= len(lx.Dims) || lx.Dims[j].Procs > 1
		for v := range w.coef {
			if r.coef[v] != 0 && (distributed || !isFixed[v]) {
				return true
			}
		}
	}
	return false
}

// varies reports whether a subscript takes several values in the given
// loops or along a section.
func varies(x linear, loops []loopInfo) bool {
	for v := range x.coef {
		if isSectionVar(v) {
			return true
		}
		for _, l := range loops {
			if l.index == v {
				return true
			}
		}
	}
	return false
}

// mentions reports whether an expression uses a name.
func mentions(x parser.Expr, name string) bool {
	found := false
	parser.Inspect(x, func(n parser.Node) bool {
		if id, ok := n.(*parser.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// accumulates reports S = S op ... .
func accumulates(a *parser.AssignStmt, name string) bool {
	found := false
	parser.Inspect(a.RHS, func(n parser.Node) bool {
		if id, ok := n.(*parser.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// onlyAccumulated reports whether a statement list uses a scalar only in
// assignments that accumulate into it (S = S + ..., S = MAX(S, ...)).
func onlyAccumulated(list []parser.Stmt, name string) bool {
	ok := true
	for _, s := range list {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.AssignStmt:
				if lhsName(x) == name && accumulates(x, name) {
					return false
				}
			case *parser.Ident:
				if x.Name == name {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

func lhsName(a *parser.AssignStmt) string {
	if id := rootIdent(a.LHS); id != nil {
		return id.Name
	}
	return ""
}

func rootIdent(x parser.Expr) *parser.Ident {
	for {
		switch v := x.(type) {
		case *parser.Ident:
			return v
		case *parser.Call:
			x = v.Fun
		default:
			return nil
		}
	}
}

// private reports whether every distributed dimension of a read follows
// an enclosing loop whose iterations are divided among the owners.
func (e *est) private(r ref, l *Layout, loops []loopInfo) bool {
	any := false
	for i, s := range r.subs {
		if i >= len(l.Dims) || l.Dims[i].Procs <= 1 {
			continue
		}
		follows := false
		for _, lp := range loops {
			if lp.partitioned && s.coef[lp.index] != 0 {
				follows = true
			}
		}
		if !follows {
			return false
		}
		any = true
	}
	return any
}

// homeOf is the home of the innermost partitioned loop of loops (nil when
// none is partitioned).
func (e *est) homeOf(loops []loopInfo) *ref {
	for k := len(loops) - 1; k >= 0; k-- {
		if loops[k].partitioned {
			return loops[k].home
		}
	}
	return nil
}

// walksDistributed reports whether a read moves along a distributed
// dimension with one of the enclosing loops.
func (e *est) walksDistributed(r ref, l *Layout, loops []loopInfo) bool {
	for i, s := range r.subs {
		if i < len(l.Dims) && l.Dims[i].Procs > 1 {
			for _, lp := range loops {
				if s.coef[lp.index] != 0 {
					return true
				}
			}
		}
	}
	return false
}

// hoist returns the depth of the outermost enclosing loop the read can be
// moved out of (message vectorization): len(loops) when it cannot leave
// even the innermost one.
func (e *est) hoist(r ref, loops []loopInfo, at parser.Pos) int {
	h := len(loops)
	for j := len(loops) - 1; j >= 0; j-- {
		if loops[j].forall {
			h = j // the reads come before the FORALL's writes
			continue
		}
		ws := writes(loops[j].do.Body, e.sc)
		ok := true
		for _, w := range ws {
			if w.name != r.name {
				continue
			}
			// A write inside a loop that does not enclose the read uses
			// other instances of the loop indices: assume the worst.
			in := innermostLoop(loops[j].do, w.pos)
			same := false
			for _, l := range loops {
				if l.do == in {
					same = true
				}
			}
			if !same || mayDepend(w, r, loops[j:], loops) {
				ok = false
				break
			}
		}
		if !ok {
			break
		}
		h = j
	}
	return h
}

// innermostLoop returns the deepest loop of the nest c holding pos.
func innermostLoop(c *parser.DoConstruct, pos parser.Pos) *parser.DoConstruct {
	var walk func(list []parser.Stmt) *parser.DoConstruct
	walk = func(list []parser.Stmt) *parser.DoConstruct {
		for _, s := range list {
			if s.Pos() > pos || s.End() <= pos {
				continue
			}
			switch x := s.(type) {
			case *parser.DoConstruct:
				if in := walk(x.Body); in != nil {
					return in
				}
				return x
			case *parser.IfConstruct:
				for _, a := range x.Arms {
					if in := walk(a.Body); in != nil {
						return in
					}
				}
			case *parser.Block:
				if in := walk(x.Body); in != nil {
					return in
				}
			}
		}
		return nil
	}
	if in := walk(c.Body); in != nil {
		return in
	}
	return c
}

// sectionBytes is the size of the data a read needs once hoisted to depth
// h: along the shifted dimension |c| planes (all of them when it is
// CYCLIC, |c| of each of the processor's blocks when it is CYCLIC(k)
// with k > |c|), along the others the iterations of the hoisted loops
// that walk them, counted locally where the dimension is distributed.
func (e *est) sectionBytes(r ref, l *Layout, loops []loopInfo, h, shiftDim int, c int64) Poly {
	elems := complexity.Int(1)
	for i, s := range r.subs {
		if i == shiftDim && l.Dims[i].Kind != "CYCLIC" {
			elems = elems.Mul(complexity.Int(abs(c)))
			continue
		}
		if i == shiftDim && int64(l.Dims[i].K) > abs(c) {
			// Block-cyclic: only the first (or last) |c| elements of each
			// block of k read across a block boundary, and every block's
			// neighbour lies on the same processor (the next one round),
			// so one message holds |c| elements per local block.
			local := e.dimElems(r, s, i, l, loops, h)
			k := int64(l.Dims[i].K)
			if n, ok := complexity.Seconds(local); ok {
				local = complexity.Int(int64(math.Ceil(n / float64(k))))
			} else {
				local = local.Mul(complexity.Frac(1, k))
			}
			elems = elems.Mul(local.Mul(complexity.Int(abs(c))))
			continue
		}
		elems = elems.Mul(e.dimElems(r, s, i, l, loops, h))
	}
	return elems.Mul(complexity.Int(e.elemSize(r.name)))
}

// dimElems is the number of elements of dimension i that the read r
// (subscript s there) touches once hoisted to depth h: its sections'
// elements and the iterations of the hoisted loops that walk the
// dimension, counted locally where the dimension is distributed.
func (e *est) dimElems(r ref, s linear, i int, l *Layout, loops []loopInfo, h int) Poly {
	elems := complexity.Int(1)
	for v, sec := range r.sections {
		if s.coef[v] == 0 {
			continue
		}
		if trips, ok := e.sectionTrips(r.name, sec, loops); ok {
			if i < len(l.Dims) && l.Dims[i].Procs > 1 {
				lo, _ := e.sectionBound(r.name, sec, loops, false)
				step := complexity.Int(1)
				if sec.t.Stride != nil {
					step, _ = e.value(sec.t.Stride, loops, 0)
				}
				trips = e.localTrips(trips, lo, step, r.name, i, l.Dims[i])
			}
			elems = elems.Mul(trips)
		}
	}
	for j := h; j < len(loops); j++ {
		if s.coef[loops[j].index] == 0 {
			continue
		}
		d := loops[j].do.Do
		lo, ok1 := e.value(d.Lo, loops[:j], 0)
		hi, ok2 := e.value(d.Hi, loops[:j], 0)
		step := complexity.Int(1)
		ok3 := true
		if d.Step != nil {
			step, ok3 = e.value(d.Step, loops[:j], 0)
		}
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		trips, ok := complexity.TripCount(lo, hi, step)
		if !ok {
			continue
		}
		if i < len(l.Dims) && l.Dims[i].Procs > 1 {
			trips = e.localTrips(trips, lo, step, r.name, i, l.Dims[i])
		}
		elems = elems.Mul(trips)
	}
	return elems
}

// sectionBound is the lower (or upper) bound of a section triplet, the
// declared bound where it is omitted.
func (e *est) sectionBound(array string, sec section, loops []loopInfo, upper bool) (Poly, bool) {
	x := sec.t.Lo
	if upper {
		x = sec.t.Hi
	}
	if x == nil {
		sym := e.sc.Lookup(array)
		if sym == nil || sec.dim >= len(sym.Dims) || sym.Dims[sec.dim] == nil {
			return Poly{}, false
		}
		ds := sym.Dims[sec.dim]
		x = ds.Lower
		if upper {
			x = ds.Upper
		}
		if x == nil {
			if upper {
				return Poly{}, false
			}
			return complexity.Int(1), true
		}
	}
	return e.value(x, loops, 0)
}

// sectionTrips is the number of elements a section triplet selects.
func (e *est) sectionTrips(array string, sec section, loops []loopInfo) (Poly, bool) {
	lo, ok1 := e.sectionBound(array, sec, loops, false)
	hi, ok2 := e.sectionBound(array, sec, loops, true)
	step, ok3 := complexity.Int(1), true
	if sec.t.Stride != nil {
		step, ok3 = e.value(sec.t.Stride, loops, 0)
	}
	if !ok1 || !ok2 || !ok3 {
		return Poly{}, false
	}
	return complexity.TripCount(lo, hi, step)
}

// ownerOf is the processor coordinate, along array dimension dim, of
// the element with subscript idx, when the extent is known.
func ownerOf(l *Layout, dim int, idx int64) (int64, bool) {
	if dim >= len(l.Dims) || dim >= len(l.Extents) || !l.Extents[dim].Known {
		return 0, false
	}
	f, e := l.Dims[dim], l.Extents[dim]
	n, p := e.Upper-e.Lower+1, int64(f.Procs)
	off := idx - e.Lower
	if n <= 0 || p <= 0 || off < 0 || off >= n {
		return 0, false
	}
	switch f.Kind {
	case "BLOCK":
		return off / ((n + p - 1) / p), true
	case "CYCLIC":
		return off / max(int64(f.K), 1) % p, true
	}
	return 0, true
}

// ownerKey names the processor that holds the element or section r of
// an array laid out by l: its template and, for each distributed
// dimension, the template dimension and the subscript there. "" when a
// distributed subscript is not affine or moves in one of the loops
// inside the message's place (then no single processor holds it).
func (e *est) ownerKey(r ref, l *Layout, inside []loopInfo) string {
	if !r.ok || l == nil {
		return ""
	}
	tmpl := l.Template
	if tmpl == "" {
		tmpl = l.Array
	}
	var b strings.Builder
	b.WriteString(tmpl)
	for i, f := range l.Dims {
		if f.Procs <= 1 {
			continue
		}
		if i >= len(r.subs) || i >= len(l.TemplateDim) || varies(r.subs[i], inside) {
			return ""
		}
		fmt.Fprintf(&b, "|%d:%s", l.TemplateDim[i], linearKey(r.subs[i], int64(l.Offset[i])))
	}
	return b.String()
}

// linearKey writes a linear form plus an offset in a canonical order.
func linearKey(x linear, off int64) string {
	vars := make([]string, 0, len(x.coef))
	for v, c := range x.coef {
		if c != 0 {
			vars = append(vars, v)
		}
	}
	sort.Strings(vars)
	var b strings.Builder
	for _, v := range vars {
		fmt.Fprintf(&b, "%+d*%s", x.coef[v], v)
	}
	fmt.Fprintf(&b, "%+d", x.konst+off)
	return b.String()
}

// holding finds the statement list that holds a, in list or in the arms
// of its IF constructs, and a's place there (-1: none).
func holding(list []parser.Stmt, a parser.Stmt) ([]parser.Stmt, int) {
	for i, s := range list {
		if s == a {
			return list, i
		}
		if c, ok := s.(*parser.IfConstruct); ok {
			for _, arm := range c.Arms {
				if l, at := holding(arm.Body, a); at >= 0 {
					return l, at
				}
			}
		}
	}
	return nil, -1
}

// onlyAtOwner reports whether the scalar name, set by a from the element
// r of a distributed array (layout ly), is used only by r's owner before
// it is set again: every statement after a in the innermost enclosing
// loop's body (or in the IF arm there that holds a) that uses it assigns an element of an array on the same
// template whose distributed subscripts equal r's (DGEFA's swap T =
// A(L,K); A(L,K) = A(K,K); A(K,K) = T, all in column K), up to a
// statement that sets it again: an assignment, or a loop whose body sets
// it before any use (the next swap's T = A(L,J)). The value then never
// leaves the owner, and the compiler sends it nowhere. False when a is
// not a statement of that body or the value may outlive the list.
func (e *est) onlyAtOwner(name string, a *parser.AssignStmt, r ref, ly *Layout, loops []loopInfo) bool {
	if len(loops) == 0 || !r.ok {
		return false
	}
	body, at := holding(loops[len(loops)-1].do.Body, a)
	if at < 0 {
		return false
	}
	key := e.ownerKey(r, ly, nil)
	if key == "" {
		return false
	}
	uses := func(n parser.Node) bool {
		found := false
		parser.Inspect(n, func(m parser.Node) bool {
			if id, ok := m.(*parser.Ident); ok && id.Name == name {
				found = true
			}
			return !found
		})
		return found
	}
	for _, s := range body[at+1:] {
		if !uses(s) {
			continue
		}
		switch x := s.(type) {
		case *parser.AssignStmt:
			if lhsName(x) == name {
				return !uses(x.RHS)
			}
			w, ok := refOf(x.LHS, e.sc)
			lw := e.d.Arrays[w.name]
			if !ok || lw == nil || !lw.Distributed() || lw.Template != ly.Template {
				return false
			}
			if e.ownerKey(e.fold(w), lw, nil) != key {
				return false
			}
		case *parser.DoConstruct:
			// The loop must set it before any use, its bounds not use it,
			// and it must run: a loop of no iteration (DO J = K+1, N at K
			// = N) leaves the owner's value to what follows.
			d := x.Do
			for _, b := range []parser.Expr{d.Lo, d.Hi, d.Step} {
				if b != nil && uses(b) {
					return false
				}
			}
			if !e.runs(d, loops) {
				return false
			}
			for _, t := range x.Body {
				if !uses(t) {
					continue
				}
				as, ok := t.(*parser.AssignStmt)
				if !ok || lhsName(as) != name || uses(as.RHS) {
					return false
				}
				return true
			}
			return false
		default:
			return false
		}
	}
	return false
}

// runs reports whether the DO loop d, inside loops, has at least one
// iteration whatever the indices of the loops around it: its step is
// 1 (or absent) and hi - lo, an affine function of those indices, is not
// negative at any end of their ranges (a DO loop's iteration count is
// MAX((hi-lo+step)/step, 0), F2018 11.1.7.4.1). False when it cannot
// tell.
func (e *est) runs(d *parser.DoStmt, loops []loopInfo) bool {
	if d == nil || d.Lo == nil || d.Hi == nil {
		return false
	}
	if d.Step != nil {
		st, ok := e.value(d.Step, loops, 0)
		if v, isNum := complexity.Seconds(st); !ok || !isNum || v != 1 {
			return false
		}
	}
	lo, ok1 := e.value(d.Lo, loops, 0)
	hi, ok2 := e.value(d.Hi, loops, 0)
	if !ok1 || !ok2 {
		return false
	}
	// hi - lo is affine in the indices of the loops around: its least
	// value over an index's range [a, b] (not empty: that loop runs) is
	// at a when it grows with the index, else at b. Replace the indices
	// from the innermost loop out (an end may hold an outer index).
	span := hi.Sub(lo)
	for i := len(loops) - 1; i >= 0; i-- {
		l := loops[i]
		if !span.Has(l.index) {
			continue
		}
		ld := l.do.Do
		if ld == nil || ld.Lo == nil || ld.Hi == nil || ld.Step != nil {
			return false
		}
		if _, deg := span.Degree(l.index); deg != 1 {
			return false
		}
		p1, ok1 := span.Subst(l.index, complexity.Int(1))
		p0, ok0 := span.Subst(l.index, complexity.Int(0))
		c, isNum := complexity.Seconds(p1.Sub(p0))
		if !ok1 || !ok0 || !isNum {
			return false
		}
		end := ld.Hi
		if c > 0 {
			end = ld.Lo
		}
		x, ok := e.value(end, loops[:i], 0)
		if !ok {
			return false
		}
		if span, ok = span.Subst(l.index, x); !ok {
			return false
		}
	}
	spans := []Poly{span}
	for _, p := range spans {
		v, ok := complexity.Seconds(p)
		if !ok || v < 0 {
			return false
		}
	}
	return true
}

// whileBound bounds the iterations of DO WHILE (... .AND. IT < MAXIT):
// a conjunct IT < K or IT <= K (K a number here) of the test, IT an
// integer the body changes only by one IT = IT + 1 at its top level, and
// set to a number by the last assignment before the loop in the
// statement list that holds it. n is the number of iterations the
// counter allows, how says why.
func (e *est) whileBound(c *parser.DoConstruct) (n int64, how string, ok bool) {
	var conj []parser.Expr
	var split func(x parser.Expr)
	split = func(x parser.Expr) {
		if p, isParen := x.(*parser.Paren); isParen {
			split(p.X)
			return
		}
		if b, isBin := x.(*parser.Binary); isBin && b.Op == ".AND." {
			split(b.X)
			split(b.Y)
			return
		}
		conj = append(conj, x)
	}
	split(c.Do.While)
	for _, x := range conj {
		b, isBin := x.(*parser.Binary)
		if !isBin {
			continue
		}
		id, isID := b.X.(*parser.Ident)
		if !isID {
			continue
		}
		var strict bool
		switch b.Op {
		case "<", ".LT.":
			strict = true
		case "<=", ".LE.":
		default:
			continue
		}
		kp, okK := e.value(b.Y, nil, 0)
		kr, isNum := kp.Value()
		if !okK || !isNum || !kr.IsInt() || !kr.Num().IsInt64() {
			continue
		}
		if !e.stepsByOne(c.Body, id.Name) {
			continue
		}
		start, okS := e.valueBefore(c, id.Name)
		if !okS {
			continue
		}
		k := kr.Num().Int64()
		// The test holds for IT = start, start+1, ..., up to K - 1 (or K).
		last := k
		if strict {
			last = k - 1
		}
		n = max(0, last-start+1)
		if n > 1<<40 {
			continue
		}
		return n, fmt.Sprintf("%s counts up by 1 from %d while %s", id.Name, start, parser.ExprString(b)), true
	}
	return 0, "", false
}

// stepsByOne reports whether a loop body changes the integer name only
// by one NAME = NAME + 1 among its own statements: no other statement
// writes it (an assignment inside a construct, a READ) or passes it to a
// procedure, which might change it.
func (e *est) stepsByOne(body []parser.Stmt, name string) bool {
	if sym := e.sc.Lookup(name); sym == nil || sym.Type != "INTEGER" || sym.Rank() > 0 {
		return false
	}
	incs := 0
	for _, s := range body {
		if a, ok := s.(*parser.AssignStmt); ok && lhsName(a) == name {
			if !isIncrement(a, name) {
				return false
			}
			incs++
			continue
		}
		if slices.Contains(Written([]parser.Stmt{s}, e.sc), name) {
			return false
		}
		passed := false
		parser.Inspect(s, func(x parser.Node) bool {
			switch v := x.(type) {
			case *parser.CallStmt:
				for _, arg := range v.Args {
					if id, ok := arg.(*parser.Ident); ok && id.Name == name {
						passed = true
					}
				}
			case *parser.Call:
				for _, arg := range v.Args {
					if id, ok := arg.(*parser.Ident); ok && id.Name == name && e.userFunction(v) {
						passed = true
					}
				}
			}
			return !passed
		})
		if passed {
			return false
		}
	}
	return incs == 1
}

// userFunction reports whether a reference F(...) calls a procedure of
// the program (not an array element, not an intrinsic).
func (e *est) userFunction(c *parser.Call) bool {
	id, ok := c.Fun.(*parser.Ident)
	if !ok {
		return true
	}
	if sym := e.sc.Lookup(id.Name); sym != nil && sym.Rank() > 0 {
		return false
	}
	return !parser.IsIntrinsic(id.Name)
}

// isIncrement reports whether a is NAME = NAME + 1 (or 1 + NAME).
func isIncrement(a *parser.AssignStmt, name string) bool {
	b, ok := a.RHS.(*parser.Binary)
	if !ok || b.Op != "+" {
		return false
	}
	isName := func(x parser.Expr) bool { id, ok := x.(*parser.Ident); return ok && id.Name == name }
	isOne := func(x parser.Expr) bool {
		l, ok := x.(*parser.Lit)
		return ok && l.Kind == parser.IntLit && l.Value == "1"
	}
	return isName(b.X) && isOne(b.Y) || isOne(b.X) && isName(b.Y)
}

// valueBefore is the number the last assignment to name before the loop
// c, in the statement list that holds c, gives it; not found when a
// statement in between may change name otherwise.
func (e *est) valueBefore(c *parser.DoConstruct, name string) (int64, bool) {
	list := holder(e.u.Body, c)
	at := -1
	for i, s := range list {
		if s == parser.Stmt(c) {
			at = i
		}
	}
	for i := at - 1; i >= 0; i-- {
		s := list[i]
		if a, ok := s.(*parser.AssignStmt); ok && lhsName(a) == name {
			if _, isID := a.LHS.(*parser.Ident); !isID {
				return 0, false
			}
			v, ok := e.value(a.RHS, nil, 0)
			if !ok {
				return 0, false
			}
			r, isNum := v.Value()
			if !isNum || !r.IsInt() || !r.Num().IsInt64() {
				return 0, false
			}
			return r.Num().Int64(), true
		}
		for _, w := range Written([]parser.Stmt{s}, e.sc) {
			if w == name {
				return 0, false
			}
		}
		if _, isCall := s.(*parser.CallStmt); isCall {
			return 0, false
		}
	}
	return 0, false
}

// holder is the statement list of body (or of a construct in it) that
// holds s, nil when none does.
func holder(body []parser.Stmt, s parser.Stmt) []parser.Stmt {
	for _, x := range body {
		if x == s {
			return body
		}
	}
	for _, x := range body {
		switch v := x.(type) {
		case *parser.DoConstruct:
			if l := holder(v.Body, s); l != nil {
				return l
			}
		case *parser.IfConstruct:
			for _, a := range v.Arms {
				if l := holder(a.Body, s); l != nil {
					return l
				}
			}
		case *parser.Block:
			if l := holder(v.Body, s); l != nil {
				return l
			}
			for _, a := range v.Arms {
				if l := holder(a.Body, s); l != nil {
					return l
				}
			}
		}
	}
	return nil
}
