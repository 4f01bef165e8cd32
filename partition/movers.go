package partition

import (
	"fmt"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// moverFns are the intrinsics that move the elements of an array between
// processors (HPF 2.0 and the CM Fortran manual define them on whole
// arrays): a shift along a dimension, a transpose, a replication.
var moverFns = map[string]bool{"CSHIFT": true, "EOSHIFT": true, "TRANSPOSE": true, "SPREAD": true}

// mover is one call of a data-moving intrinsic on a distributed array.
type mover struct {
	call *parser.Call
	msg  *Message
}

// movers prices CSHIFT, EOSHIFT, TRANSPOSE and SPREAD of distributed
// arrays in an expression:
//   - a shift along a BLOCK dimension sends |shift| planes of the local
//     block (the other dimensions' local extents) to the neighbour; along a
//     CYCLIC dimension every local element moves; along an undistributed
//     one nothing;
//   - TRANSPOSE is an all-to-all: each processor sends 1/P of its share to
//     every other one;
//   - SPREAD of a distributed array or section is a broadcast of each
//     processor's share of it.
func (e *est) movers(x parser.Expr, loops []loopInfo) []mover {
	var out []mover
	parser.Inspect(x, func(n parser.Node) bool {
		c, ok := n.(*parser.Call)
		if !ok || len(c.Args) == 0 {
			return true
		}
		fn, ok := c.Fun.(*parser.Ident)
		if !ok || !moverFns[fn.Name] || e.sc.Lookup(fn.Name) != nil && e.sc.Lookup(fn.Name).Rank() > 0 {
			return true
		}
		args := positional(c.Args, map[string][]string{
			"CSHIFT": {"ARRAY", "SHIFT", "DIM"}, "EOSHIFT": {"ARRAY", "SHIFT", "BOUNDARY", "DIM"},
			"TRANSPOSE": {"MATRIX"}, "SPREAD": {"SOURCE", "DIM", "NCOPIES"}}[fn.Name])
		name, sec := "", parser.Expr(nil)
		switch a := args[0].(type) {
		case *parser.Ident:
			name = a.Name
		case *parser.Call:
			if r, ok := refOf(a, e.sc); ok && len(r.sections) > 0 {
				name, sec = r.name, a
			}
		}
		l := e.d.Arrays[name]
		if name == "" || l == nil || !l.Distributed() {
			return true
		}
		msg := e.moverMessage(fn.Name, name, sec, args, l, loops)
		if msg != nil {
			msg.Count, msg.hoist, msg.collective = complexity.Int(1), len(loops), true
			out = append(out, mover{call: c, msg: msg})
		}
		return false
	})
	return out
}

// positional orders the arguments of an intrinsic call by its dummy
// names (keyword arguments where they are), nil where one is absent.
func positional(args []parser.Expr, names []string) []parser.Expr {
	out := make([]parser.Expr, max(len(names), len(args), 4))
	for i, a := range args {
		if k, ok := a.(*parser.KeywordArg); ok {
			for j, nm := range names {
				if nm == k.Name.Name {
					out[j] = k.Value
				}
			}
			continue
		}
		out[i] = a
	}
	return out
}

// moverMessage is the message of one data-moving intrinsic call on the
// distributed array name (sec its section, nil for the whole array).
func (e *est) moverMessage(fn, name string, sec parser.Expr, args []parser.Expr, l *Layout, loops []loopInfo) *Message {
	size := complexity.Int(e.elemSize(name))
	// local is the local extent of dimension i (the whole extent where it
	// is not distributed).
	local := func(i int) (Poly, bool) {
		ext, ok := e.extent(name, i)
		if !ok {
			return Poly{}, false
		}
		if i < len(l.Dims) && l.Dims[i].Procs > 1 {
			ext = ext.Mul(complexity.Frac(1, int64(l.Dims[i].Procs)))
		}
		return ext, true
	}
	switch fn {
	case "CSHIFT", "EOSHIFT":
		if sec != nil {
			return nil
		}
		dim := int64(1)
		if d := args[map[string]int{"CSHIFT": 2, "EOSHIFT": 3}[fn]]; d != nil {
			v, ok := affine(d, e.sc)
			if !ok || !v.onlyConst() {
				return nil
			}
			dim = v.konst
		}
		shift := int64(1) // a shift that is not a constant: one plane
		if args[1] != nil {
			if v, ok := affine(args[1], e.sc); ok && v.onlyConst() {
				shift = abs(v.konst)
			}
		}
		i := int(dim - 1)
		if i < 0 || i >= len(l.Dims) || l.Dims[i].Procs <= 1 || shift == 0 {
			return nil
		}
		f := l.Dims[i]
		elems := complexity.Int(1)
		for k := range l.Dims {
			ext, ok := local(k)
			if !ok {
				return nil
			}
			if k == i && f.Kind == "BLOCK" {
				ext = complexity.Int(min(shift, exactInt(ext, shift)))
			}
			elems = elems.Mul(ext)
		}
		why := fmt.Sprintf("%s(%s, %d, %d) moves %d plane(s) to the neighbour along dimension %d", fn, name, shift, dim, shift, dim)
		if f.Kind != "BLOCK" {
			why = fmt.Sprintf("%s(%s, %d, %d) along a CYCLIC dimension moves every local element", fn, name, shift, dim)
		}
		return &Message{Pattern: shiftPattern(f, i, len(l.Dims), false), Array: name,
			Bytes: elems.Mul(size), Why: why}
	case "TRANSPOSE":
		elems := complexity.Int(1)
		for k := range l.Dims {
			ext, ok := e.extent(name, k)
			if !ok {
				return nil
			}
			elems = elems.Mul(ext)
		}
		p := int64(e.d.Procs)
		return &Message{Pattern: machine.PatternAllToAll, Array: name,
			Bytes: elems.Mul(size).Mul(complexity.Frac(1, p*p)),
			Why:   fmt.Sprintf("TRANSPOSE(%s) sends 1/P of every processor's share to each other one", name)}
	case "SPREAD":
		elems, ok := e.reducedElems(name, sec, loops)
		if !ok {
			return nil
		}
		// Each processor holding part of the source sends its share.
		if sec != nil {
			r, _ := refOf(sec, e.sc)
			for k, s := range r.subs {
				walks := false // the dimension is a section's, not one index
				for v, a := range s.coef {
					walks = walks || a != 0 && isSectionVar(v)
				}
				if k < len(l.Dims) && l.Dims[k].Procs > 1 && walks {
					elems = elems.Mul(complexity.Frac(1, int64(l.Dims[k].Procs)))
				}
			}
		} else {
			elems = elems.Mul(complexity.Frac(1, int64(e.d.Procs)))
		}
		return &Message{Pattern: machine.PatternBroadcast, Array: name, Bytes: elems.Mul(size),
			Why: fmt.Sprintf("SPREAD(%s) replicates each processor's share of %s", parser.ExprString(args[0]), name)}
	}
	return nil
}

// exactInt is the value of a polynomial without symbols, rounded up, or
// def when it has symbols.
func exactInt(p Poly, def int64) int64 {
	if v, ok := complexity.Seconds(p); ok {
		return int64(v + 0.999999)
	}
	return def
}

// lhsIsArray reports whether an assignment writes an array (or element).
func lhsIsArray(a *parser.AssignStmt, sc *parser.Scope) bool {
	sym := sc.Lookup(lhsName(a))
	return sym != nil && sym.Rank() > 0
}
