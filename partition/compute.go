package partition

import (
	"math"
	"slices"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// accessAt is the time of one element load and store for a loop whose
// data takes the given number of bytes, from the model's memory levels.
//
// A model's levels are the copy kernel's times at the working sets the
// training set measured (pfls train: a few sizes from 16 KiB to 64 MiB),
// not at the machine's cache sizes, which it does not know. A working set
// between two measured sizes B0 < bytes ≤ B1 fits a cache somewhere
// between them: Machine.Access charges it the larger set's time, as if
// the cache boundary sat right at B0. On the machine of issue 16 that
// priced a Jacobi sweep of 1.06 MB (L2 holds 2 MiB) at the 32 MiB
// level's time, 6.7 times what it measured. Here the time moves between
// the two levels' times linearly in log(bytes): the expected time when
// the boundary is equally likely anywhere between them on a log scale,
// which is how cache sizes are spread (powers of two, and the level
// sizes are too). At or below the first level, its time; past the
// last, the last level's. Models without levels: Machine.Access.
func accessAt(m *machine.Machine, bytes float64) (load, store float64) {
	if len(m.Memory) == 0 {
		return m.Access(bytes)
	}
	return levelTime(m.Memory, bytes, func(l machine.MemoryLevel) float64 { return l.Load }),
		levelTime(m.Memory, bytes, func(l machine.MemoryLevel) float64 { return l.Store })
}

// levelTime is the time v of the levels lv (at least one) for a loop
// whose data takes the given number of bytes, as accessAt interpolates
// it: the first level's at or below its bytes, the last level's past
// them all, in between linear in log(bytes).
func levelTime(lv []machine.MemoryLevel, bytes float64, v func(machine.MemoryLevel) float64) float64 {
	if bytes <= float64(lv[0].Bytes) {
		return v(lv[0])
	}
	for i := 1; i < len(lv); i++ {
		b0, b1 := float64(lv[i-1].Bytes), float64(lv[i].Bytes)
		if bytes > b1 {
			continue
		}
		f := math.Log(bytes/b0) / math.Log(b1/b0)
		return v(lv[i-1]) + f*(v(lv[i])-v(lv[i-1]))
	}
	return v(lv[len(lv)-1])
}

// memcpyTime is the time memcpy takes per 8 bytes it copies in a copy
// loop whose data takes the given number of bytes (0: unknown, the first
// level's): the memory levels' memcpy times interpolated as accessAt
// does, or the "copy.memcpy" operation time where no level has one. ok
// is false for a model without "copy.memcpy" (trained before the
// training set had the memcpy kernel).
func memcpyTime(m *machine.Machine, bytes float64) (sec float64, ok bool) {
	sec, ok = m.Ops["copy.memcpy"]
	if !ok || !slices.ContainsFunc(m.Memory, func(l machine.MemoryLevel) bool { return l.Memcpy > 0 }) {
		return sec, ok
	}
	return levelTime(m.Memory, bytes, func(l machine.MemoryLevel) float64 { return l.Memcpy }), true
}

// streamTimes is the time of one streamed reference and of one reference
// that reuses a cached line, in an innermost loop with the given data:
// first is the first memory level's time per reference, level that of
// the level holding the loop's data (accessAt), both per 8-byte element,
// the element size of the training kernels (trainer/pfls-train.c).
//
// A reference costs its in-core part, the load or store instruction
// (first), plus the transfer of its bytes from the level that holds them
// beyond the first (level − first); refTime overlaps the two instead in
// unit-stride loops whose data lies beyond the caches. The
// transfer scales with the element size against the kernels' 8 bytes.
// The instruction scales as the machine runs narrower elements
// (coreScale): on the machine of issue 16, gfortran -O2 (GCC 12, which
// vectorizes only where no scalar remainder is left) runs the kit's
// stencils one element an instruction, and a REAL sweep of Jacobi's
// 4-point stencil took 0.43 ns a point against 0.53 ns in DOUBLE
// PRECISION, not half. A copy loop (copyLoop) is the exception: gfortran
// replaces it by memcpy, which moves vectors, so the whole time scales
// with the bytes (0.076 ns a REAL element against 0.153 ns a DOUBLE).
// A model with the training set's memcpy kernel ("copy.memcpy", and its
// time per memory level: memcpyTime) prices a copy's two references at
// half of memcpy's time per 8 bytes each, scaled by the element's bytes.
// On the machine of the built-in model memcpy took 0.076 ns per 8 bytes
// in L1 and 0.14-0.17 ns from 128 KiB to 8 MiB, where the scalar copy
// kernel, whose loads and stores price other loops, took 0.55-0.63 ns:
// so priced, the copy-back of the kit's Jacobi at N = 256 (measured
// 0.072-0.086 ns a REAL element) was estimated at 0.32 ns; from memcpy
// it is 0.078 ns, 0.084 ns with its loops' overhead. Older models keep
// the load and store times.
//
// With a non-unit stride the stream costs the strided copy kernel's time
// ("load.strided") and its reuses "load.reuse.strided". A model without
// memory levels prices every reference at first, unscaled.
func streamTimes(m *machine.Machine, use dataUse, first, level float64) (stream, reuse float64) {
	elem := use.elemBytes
	if elem <= 0 {
		elem = 8
	}
	scale := elem / 8
	if len(m.Memory) == 0 {
		scale = 1 // a model without memory levels prices every reference at "load"
	}
	extra := math.Max(level-first, 0) * scale
	switch {
	case use.strided:
		return math.Max(m.Op("load.strided"), first) + extra, m.Op("load.reuse.strided") // falls back to load.reuse, then load
	case use.copy:
		if t, ok := memcpyTime(m, use.bytes); ok {
			return t / 2 * elem / 8, m.Op("load.reuse") * scale
		}
		fallthrough
	case len(m.Memory) == 0:
		return (first + math.Max(level-first, 0)) * scale, m.Op("load.reuse") * scale
	}
	core := coreScale(m, elem)
	return first*core + extra, m.Op("load.reuse") * core
}

// refTime is the mean time of one of an innermost loop's element
// references (machineTable): its streams at the stream time, the other
// references at the reuse time (never above a stream's).
//
// A unit-stride loop (not a copy) whose data lies beyond the caches
// overlaps its load and store instructions with the transfers, as
// Kerncraft's ECM model does for the arithmetic: it takes the larger of
// its in-core time (every reference at its first-level time) and its
// transfer time (each stream that transfers, layerTransfers, at its
// level's time, which the copy kernel measured as the whole time of a
// reference streamed from there, scaled by the element size). On the
// machine of issue 16 the REAL Jacobi sweep ran at its in-cache time per
// point with 4.2 and 16.8 MB of data (0.445 and 0.44 ns against 0.43 ns
// at 256 KB) while its copy-back, a memcpy, ran at the copy kernel's
// speed at those sizes: the sum of the two parts put the sweep 26-31%
// over. Strided loops and copies keep the sum (streamTimes): a strided
// stream wastes the rest of each line it brings in, and a copy is all
// transfer (memcpy's time, where the model has it).
func refTime(m *machine.Machine, use dataUse, first, level float64) float64 {
	mean := func(stream, reuse float64) float64 {
		if use.refs > 0 && use.arrays < use.refs {
			reuse = math.Min(reuse, stream)
			return (float64(use.arrays)*stream + float64(use.refs-use.arrays)*reuse) / float64(use.refs)
		}
		return stream
	}
	stream, reuse := streamTimes(m, use, first, level)
	if use.strided || use.copy || len(m.Memory) == 0 || level <= first || use.arrays == 0 || use.refs == 0 {
		return mean(stream, reuse)
	}
	elem := use.elemBytes
	if elem <= 0 {
		elem = 8
	}
	core := coreScale(m, elem)
	inCore := mean(first*core, reuse)
	n := use.arrays
	if use.transfers > 0 && use.transfers < n {
		n = use.transfers
	}
	transfer := float64(n) * level * elem / 8 / float64(use.refs)
	return math.Max(inCore, transfer)
}

// coreScale is the factor on the in-core time of a unit-stride reference
// to an element of elem bytes against an 8-byte one. A model that
// measured REAL elements ("load.real", the in-core time of a reference to
// a 4-byte element from the training set's REAL stencil) gives it for 4
// bytes and less, linear from there to 1 at 8 bytes; wider elements (COMPLEX) take
// elem/8, as many 8-byte accesses. Older models: elem/8, as if every
// unit-stride loop moved its elements in vectors (so their estimates do
// not change).
func coreScale(m *machine.Machine, elem float64) float64 {
	real, ok := m.Ops["load.real"]
	load := m.Op("load")
	if elem >= 8 || !ok || load <= 0 {
		return elem / 8
	}
	r := math.Min(real/load, 1)
	if elem <= 4 {
		return r
	}
	return r + (1-r)*(elem-4)/4
}

// copyLoop reports whether an innermost unit-stride loop only copies one
// array into another of the same element size, element by element
// (Y(I,J) = X(I,J)), which compilers turn into a call of memcpy.
func (e *est) copyLoop(c *parser.DoConstruct) bool {
	var a *parser.AssignStmt
	for _, s := range c.Body {
		switch x := s.(type) {
		case *parser.AssignStmt:
			if a != nil {
				return false
			}
			a = x
		case *parser.SimpleStmt:
			if x.Keyword != "CONTINUE" {
				return false
			}
		default:
			return false
		}
	}
	if a == nil {
		return false
	}
	l, ok1 := refOf(a.LHS, e.sc)
	r, ok2 := refOf(a.RHS, e.sc)
	return ok1 && ok2 && l.ok && r.ok && l.name != r.name && e.elemSize(l.name) == e.elemSize(r.name)
}

// layerTransfers is how many of an innermost unit-stride loop's streams
// bring new data from beyond the caches, Kerncraft's layer condition: the
// streams of one array in neighbouring columns (A(I,J-1), A(I,J),
// A(I,J+1) of a stencil swept along I) read lines that the sweeps of the
// previous columns brought into the cache, as long as those columns fit:
// then each array streams one column's worth of new data an iteration,
// and its other streams cost their load instructions alone. The columns
// fit when their bytes, one column of the array per stream, take at most
// half of cacheBytes (the half is Kerncraft's safety margin). 0: the
// condition does not hold, or the column lengths are not numbers.
func (e *est) layerTransfers(moving map[string]string) int {
	cache := cacheBytes(e.opt.Machine)
	if cache <= 0 || len(moving) == 0 {
		return 0
	}
	layers := 0.0
	arrays := map[string]bool{}
	for _, name := range moving {
		x, ok := e.extent(name, 0)
		v, ok2 := complexity.Seconds(x)
		if !ok || !ok2 {
			return 0
		}
		layers += v * float64(e.elemSize(name))
		arrays[name] = true
	}
	if layers > cache/2 {
		return 0
	}
	return len(arrays)
}

// cacheBytes is the largest working set a model's memory levels show
// running at the first level's speed (within a fifth of its time): the
// cache that holds what a loop nest reuses from one iteration of its
// outer loop to the next. 0 without memory levels.
func cacheBytes(m *machine.Machine) float64 {
	if len(m.Memory) == 0 {
		return 0
	}
	first := m.Memory[0].Load + m.Memory[0].Store
	bytes := 0.0
	for _, l := range m.Memory {
		if l.Load+l.Store <= 1.2*first {
			bytes = float64(l.Bytes)
		}
	}
	return bytes
}
