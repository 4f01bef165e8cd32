package partition

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// Calls of the file's subroutines, estimated as the estimator estimates
// the caller's own statements. A node program's halo exchange or sweep
// written as a subroutine is the rule in the MPI codes people write:
// pricing it by its operation count at one memory level (cost) misses
// its communication and its loops' memory levels, so the callee's body
// is estimated in its own scope with its dummy arguments bound to the
// call's actual arguments: a scalar's value, an assumed shape's extents.
// The values are the caller's polynomials, their names kept apart from
// the callee's (callerName) so that a callee's loop index I does not
// capture the caller's I, and put back once the callee is estimated.

// maxCallDepth bounds the chain of calls followed into the file's
// procedures (a recursive one is not followed at all).
const maxCallDepth = 4

// maxCallees bounds the callee estimates one estimate makes (a loop
// calling a procedure that calls others, each several times): beyond
// it, calls are priced by their count (cost).
const maxCallees = 256

// callerMark prefixes the caller's names inside a callee's estimate.
const callerMark = "\x01"

func callerName(name string) string { return callerMark + name }

// readOnly reports whether a call only reads its argument i (from 0): an
// MPI routine's element count (mpiCount), or a positional argument of a
// subroutine of the file whose formal the subroutine never changes
// (assignedIn), passes to no function (toFunction) and does not declare
// INTENT(OUT) or INTENT(INOUT).
func (e *est) readOnly(c *parser.CallStmt, i int) bool {
	if c.Name == nil {
		return false
	}
	if mpiCount(c.Name.Name, i) {
		return true
	}
	if e.f == nil || i >= len(c.Args) {
		return false
	}
	if _, isK := c.Args[i].(*parser.KeywordArg); isK {
		return false
	}
	callee := e.fileSub(c.Name.Name, c.Args)
	if callee == nil {
		return false
	}
	hdr, _ := callee.Header.(*parser.SubprogramStmt)
	if hdr == nil || i >= len(hdr.Params) {
		return false
	}
	formal, ok := hdr.Params[i].(*parser.Ident)
	if !ok {
		return false
	}
	sym := callee.Scope.Syms[formal.Name]
	if sym == nil || !sym.Dummy || e.assignedOf(callee)[formal.Name] || e.toFunction(callee, formal.Name) {
		return false
	}
	for _, a := range sym.Attrs {
		if a == "INTENT(OUT)" || a == "INTENT(INOUT)" {
			return false
		}
	}
	return true
}

// program is the index of the file and the program's other files
// (programOf).
func (e *est) program() *complexity.Program {
	return programOf(e.f, e.opt.Others)
}

// programs keeps the indexes of the last few programs estimated: an
// analysis estimates every loop of a file, each estimate resolving the
// calls it meets.
var programs struct {
	sync.Mutex
	entries []programEntry
}

type programEntry struct {
	f      *parser.File
	others []*parser.File
	pr     *complexity.Program
}

// programOf is complexity.NewProgram(f, others), remembered while f and
// others are the same trees.
func programOf(f *parser.File, others []*parser.File) *complexity.Program {
	programs.Lock()
	defer programs.Unlock()
	for _, x := range programs.entries {
		if x.f == f && slices.Equal(x.others, others) {
			return x.pr
		}
	}
	pr := complexity.NewProgram(f, others)
	const kept = 8
	if len(programs.entries) >= kept {
		programs.entries = slices.Delete(programs.entries, 0, 1)
	}
	programs.entries = append(programs.entries, programEntry{f, slices.Clone(others), pr})
	return pr
}

// fileSub is the subroutine of the program that a call of name with the
// arguments args from the unit means (resolveCall: by scope and USE, a
// generic interface's specific, else the one procedure of the name); nil
// when there is none or it is a function.
func (e *est) fileSub(name string, args []parser.Expr) *parser.Unit {
	u := e.resolveCall(name, args)
	if u == nil || u.Kind != parser.UnitSubroutine {
		return nil
	}
	return u
}

// resolveCall is the procedure a reference from the unit with its
// actual arguments means (complexity.Program.ResolveCall): by scope and USE, the
// specific procedure a generic interface's name selects, even where a
// specific has the generic's name (INTERFACE NRM / MODULE PROCEDURE NRM,
// NRM_D), else the one procedure of the name; over the file and the
// program's other files (Options.Others, indexed once: programOf),
// remembered per reference; home records the file that defines each
// procedure found.
func (e *est) resolveCall(name string, args []parser.Expr) *parser.Unit {
	if e.f == nil {
		return nil
	}
	k := callKey{name: name}
	if len(args) > 0 {
		k.first = args[0]
	}
	if u, ok := e.calls[k]; ok {
		return u
	}
	u, f := e.program().ResolveCall(e.u, name, args)
	if e.calls == nil {
		e.calls = map[callKey]*parser.Unit{}
	}
	e.calls[k] = u
	if u != nil {
		if e.home == nil {
			e.home = map[*parser.Unit]*parser.File{}
		}
		e.home[u] = f
	}
	return u
}

// callKey is a reference for resolveCall: the name and the first
// actual argument's node, which is the reference's own.
type callKey struct {
	name  string
	first parser.Expr
}

// calleeUnit is the subroutine of the file that a CALL names, when the
// file defines exactly one procedure of that name.
func (e *est) calleeUnit(c *parser.CallStmt) *parser.Unit {
	if e.f == nil || e.opt.Machine == nil || c.Name == nil {
		return nil
	}
	called := e.calledInFile(c)
	if len(called) == 0 {
		return e.fileSub(c.Name.Name, c.Args) // another file's, a generic's specific, or none
	}
	if len(called) != 1 || called[0] != c.Name.Name {
		// Not the file's, or a function of the file referenced in the
		// arguments (priced with cost).
		return nil
	}
	return e.fileSub(c.Name.Name, c.Args)
}

// callEstimate estimates a CALL of a subroutine of the file: the
// callee's body with its arguments bound (see above), its messages sent
// at the call. ok is false where the call is priced by cost instead: a
// recursive call or a chain deeper than maxCallDepth, a distributed
// array passed (HPF's mapping of dummies is not modelled) or a callee
// with mapping directives of its own, or a callee whose time rests on a
// name of its own that the call does not bind.
func (e *est) callEstimate(c *parser.CallStmt, loops []loopInfo) (Poly, []*Message, bool) {
	callee := e.calleeUnit(c)
	if callee == nil {
		return Poly{}, nil, false
	}
	return e.follow(callee, c.Args, c.Pos(), loops)
}

// funcRefs estimates the references to functions of the file in an
// assignment's right side, A(I) = F(X(I)) * 2 as V = F(args) (a
// residual, a global norm with its MPI_ALLREDUCE): each function's body
// as callEstimate estimates a subroutine's, with its messages; the
// statement's own cost then has the references' arguments only
// (e.argsOnly). ok is false where that does not apply and the functions
// are priced by cost: none referenced, an array result assigned to an
// array, a reference inside another's arguments, an elemental function
// given arrays, or one that cannot be followed.
func (e *est) funcRefs(a *parser.AssignStmt, loops []loopInfo) (Poly, []*Message, bool) {
	if e.f == nil || e.opt.Machine == nil {
		return Poly{}, nil, false
	}
	var refs []*parser.Call
	var units []*parser.Unit
	nested := false
	parser.Inspect(a.RHS, func(n parser.Node) bool {
		c, ok := n.(*parser.Call)
		if !ok {
			return true
		}
		callee := e.fileFunction(c)
		if callee == nil {
			return true // an array element's subscripts may reference one
		}
		for _, arg := range c.Args {
			parser.Inspect(arg, func(n parser.Node) bool {
				if r, ok := n.(*parser.Call); ok && e.fileFunction(r) != nil {
					nested = true
				}
				return !nested
			})
		}
		refs, units = append(refs, c), append(units, callee)
		return false
	})
	if len(refs) == 0 || nested {
		return Poly{}, nil, false
	}
	if lhs := e.sc.Lookup(lhsName(a)); lhs == nil || lhs.Rank() > 0 && !isElement(a.LHS) {
		return Poly{}, nil, false // an array result: its elements' stores
	}
	total := complexity.Zero()
	var msgs []*Message
	for i, c := range refs {
		if elemental(units[i]) && slices.ContainsFunc(c.Args, e.arrayValued) {
			return Poly{}, nil, false // once per element of its arguments
		}
		body, ms, ok := e.follow(units[i], c.Args, c.Pos(), loops)
		if !ok {
			return Poly{}, nil, false
		}
		total = total.Add(body)
		msgs = append(msgs, ms...)
	}
	return total, msgs, true
}

// elemental reports whether a procedure is declared ELEMENTAL.
func elemental(u *parser.Unit) bool {
	hdr, _ := u.Header.(*parser.SubprogramStmt)
	return hdr != nil && slices.Contains(hdr.Prefix, "ELEMENTAL")
}

// arrayValued reports whether an actual argument is an array: it names a
// whole array or a section (a subscript triplet) of one.
func (e *est) arrayValued(x parser.Expr) bool {
	if k, ok := x.(*parser.KeywordArg); ok {
		x = k.Value
	}
	found := false
	parser.Inspect(x, func(n parser.Node) bool {
		switch v := n.(type) {
		case *parser.Call:
			if id, ok := v.Fun.(*parser.Ident); ok {
				if sym := e.sc.Lookup(id.Name); sym != nil && sym.Rank() > 0 {
					found = found || slices.ContainsFunc(v.Args, func(a parser.Expr) bool {
						_, ok := a.(*parser.Triplet)
						return ok
					})
				}
			}
			for _, a := range v.Args {
				found = found || e.arrayValued(a)
			}
			return false
		case *parser.Ident:
			if sym := e.sc.Lookup(v.Name); sym != nil && sym.Rank() > 0 {
				found = true
			}
		}
		return !found
	})
	return found
}

// fileFunction is the function of the file that the reference c means
// (e.resolve); nil when c is an array element, another procedure's
// reference, or the estimate has no file or machine.
func (e *est) fileFunction(c *parser.Call) *parser.Unit {
	id, ok := c.Fun.(*parser.Ident)
	if !ok || e.f == nil || e.opt.Machine == nil {
		return nil
	}
	if sym := e.sc.Lookup(id.Name); sym != nil && sym.Rank() > 0 {
		return nil // an array element
	}
	if u := e.resolveCall(id.Name, c.Args); u != nil && u.Kind == parser.UnitFunction {
		return u
	}
	return nil
}

// condCalls estimates the functions of the file that a condition (an IF's,
// an ELSE IF's, a DO WHILE's) references, as funcRefs does: the
// condition's own cost (exprCost) has only their arguments. A
// convergence test IF (RESIDUAL(U) < TOL) EXIT pays the residual's loops
// and its messages.
func (e *est) condCalls(x parser.Expr, loops []loopInfo) (Poly, []*Message) {
	total := complexity.Zero()
	var msgs []*Message
	if x == nil {
		return total, nil
	}
	parser.Inspect(x, func(n parser.Node) bool {
		c, ok := n.(*parser.Call)
		if !ok {
			return true
		}
		callee := e.fileFunction(c)
		if callee == nil {
			return true // an array element's subscripts may call
		}
		body, ms, ok := e.follow(callee, c.Args, c.Pos(), loops)
		if ok {
			total = total.Add(body)
			msgs = append(msgs, ms...)
			return false
		}
		// Not followed (a recursion, a distributed argument, too deep):
		// its operation count, as an assignment's reference has it
		// (cost); the condition's own cost has its arguments.
		if id, ok := c.Fun.(*parser.Ident); ok && e.procsNamed(id.Name) > 0 {
			if body, ok := e.opCount([]string{id.Name}, c.Pos(), func(procs *complexity.Procs) Poly {
				return complexity.ExprCostIn(e.f, e.u, c, e.table, procs, e.extents).Sub(e.exprCost(c))
			}); ok {
				total = total.Add(body)
			}
			return false
		}
		return true
	})
	return total, msgs
}

// isElement reports whether x is an array element or section reference
// (a name with subscripts), not a whole array.
func isElement(x parser.Expr) bool {
	_, ok := x.(*parser.Call)
	return ok
}

// follow estimates the body of the procedure callee for one call with
// the given actual arguments at position at: see callEstimate.
func (e *est) follow(callee *parser.Unit, args []parser.Expr, at parser.Pos, loops []loopInfo) (Poly, []*Message, bool) {
	if len(e.stack) >= maxCallDepth || slices.Contains(e.stack, callee.Name) || e.u == callee {
		return Poly{}, nil, false
	}
	if e.callees == nil {
		e.callees = new(int)
	}
	if *e.callees >= maxCallees {
		e.note(fmt.Sprintf("more than %d calls to follow: the later ones are priced by their operation counts", maxCallees))
		return Poly{}, nil, false
	}
	*e.callees++
	hdr, _ := callee.Header.(*parser.SubprogramStmt)
	if hdr == nil || slices.Contains(hdr.Prefix, "RECURSIVE") {
		// A recursive subroutine's time is its recursion's: priced
		// by its count where that is known (cost).
		return Poly{}, nil, false
	}
	for _, a := range args {
		if k, ok := a.(*parser.KeywordArg); ok {
			a = k.Value
		}
		if id := rootIdent(a); id != nil {
			if l := e.d.Arrays[id.Name]; l != nil && l.Distributed() {
				return Poly{}, nil, false
			}
		}
	}
	d := FromUnit(callee, e.opt.Procs, e.d.Dialect)
	for _, l := range d.Arrays {
		if l.Distributed() {
			return Poly{}, nil, false
		}
	}
	if e.assigned == nil {
		e.assigned = map[*parser.Unit]map[string]bool{}
	}
	home := e.f
	if h := e.home[callee]; h != nil {
		home = h // a procedure of another file of the program
	}
	sub := &est{f: home, u: callee, sc: callee.Scope, d: d, opt: e.opt, nest: e.nest, table: e.table,
		commSize: commSizeVars(callee), stack: append(slices.Clip(e.stack), e.u.Name), assigned: e.assigned,
		callees: e.callees, inParLoop: e.inParLoop || ompEnclosed(loops), called: e.ompCallAt(at, loops)}
	if home != e.f {
		// The callee's calls see the caller's file among the others.
		sub.opt.Others = append(slices.Clip(e.opt.Others), e.f)
	}
	// A name the callee does not declare and sees as the caller sees
	// it (the host's N in a contained procedure called from its host):
	// the caller's value at the call, unless the callee changes it.
	assigned := e.assignedOf(callee)
	formalAt := map[string]int{}
	for i, p := range hdr.Params {
		if f, ok := p.(*parser.Ident); ok {
			formalAt[f.Name] = i
		}
	}
	sub.outer = func(name string) (Poly, bool) {
		if root, comp, isComp := strings.Cut(name, "%"); isComp {
			// F%C of a structure formal F: the actual structure's
			// component at the call, unless the callee changes it.
			i, ok := formalAt[root]
			if !ok || assigned[root] || assigned[name] {
				return Poly{}, false
			}
			a, ok := complexity.ActualFor(hdr, args, i).(*parser.Ident)
			if !ok {
				return Poly{}, false
			}
			v, ok := e.value(&parser.Component{X: a, Name: &parser.Ident{NamePos: a.Pos(), Name: comp}}, loops, 0)
			if !ok {
				return Poly{}, false
			}
			return renameVars(v, callerName)
		}
		sym := sub.sc.Lookup(name)
		if sym == nil || sub.sc.Syms[name] != nil || e.sc.Lookup(name) != sym || sym.Kind != parser.SymVariable || sym.Rank() > 0 || assigned[name] {
			return Poly{}, false
		}
		v, ok := e.value(&parser.Ident{Name: name}, loops, 0)
		if !ok {
			return Poly{}, false
		}
		return renameVars(v, callerName)
	}
	for i, p := range hdr.Params {
		formal, ok := p.(*parser.Ident)
		if !ok {
			continue
		}
		actual := complexity.ActualFor(hdr, args, i)
		sym := callee.Scope.Syms[formal.Name]
		if actual == nil || sym == nil || sym.Kind != parser.SymVariable {
			continue
		}
		if sym.Rank() == 0 {
			if assigned[formal.Name] {
				continue // its value on entry is not its value throughout
			}
			if v, ok := e.value(actual, loops, 0); ok {
				if v, ok = renameVars(v, callerName); ok {
					sub.setBind(formal.Name, v)
				}
			}
			continue
		}
		if !assumedShape(sym) {
			continue // an explicit shape: its own bounds (in the bound dummies)
		}
		if ext, ok := e.actualExtents(actual, loops); ok && len(ext) == sym.Rank() {
			if sub.extents == nil {
				sub.extents = map[string][]Poly{}
			}
			sub.extents[formal.Name] = ext
		}
	}
	body, msgs := sub.list(callee.Body, nil)
	line := e.f.Lines.Line(e.u.Abs(at)) + 1
	where := "" // the file of a callee from another file
	if home != e.f {
		where = " (" + filepath.Base(home.Name) + ")"
	}
	back := func(p Poly) (Poly, bool) {
		// The callee's own names left in its statements' costs (an
		// array assignment over A(N), priced by the complexity model):
		// their values at the call.
		for _, v := range p.Vars() {
			if strings.HasPrefix(v, callerMark) {
				continue
			}
			val, ok := sub.bind[v]
			if !ok {
				val, ok = sub.topDef(v, nil, 0)
			}
			if !ok {
				val, ok = sub.outer(v)
			}
			if ok {
				if p, ok = p.Subst(v, val); !ok {
					return Poly{}, false
				}
			}
		}
		return unmark(p)
	}
	body, ok := back(body)
	coll, okC := back(sub.coll)
	if !ok || !okC {
		return Poly{}, nil, false
	}
	for _, m := range msgs {
		var ok1, ok2, ok3 bool
		m.Count, ok1 = back(m.Count)
		m.Bytes, ok2 = back(m.Bytes)
		m.Time, ok3 = back(m.Time)
		if !ok1 || !ok2 || !ok3 {
			return Poly{}, nil, false
		}
		if m.fill != nil {
			f, ok := back(*m.fill)
			if !ok {
				return Poly{}, nil, false
			}
			m.fill = &f
		}
		for i := range m.parts {
			if m.parts[i], ok = back(m.parts[i]); !ok {
				return Poly{}, nil, false
			}
		}
		// Sent at the call, every time it is made: the callee's own
		// loops have already counted its repetitions inside.
		m.hoist = len(loops)
		m.Loop = nil // a loop of the callee's, not the caller's
		m.Why += fmt.Sprintf(", inside %s%s called at line %d", callee.Name, where, line)
		if home != e.f {
			m.Offset = e.u.Abs(at) // its own statement is in the other file
		}
	}
	e.coll = e.coll.Add(coll)
	for _, n := range sub.notes {
		e.note(fmt.Sprintf("in %s%s: %s", callee.Name, where, n))
	}
	e.note(fmt.Sprintf("%s is estimated with the arguments of each call, loop by loop as the caller's loops are", callee.Name))
	return body, msgs, true
}

// assignedOf is assignedIn remembered per unit for the whole estimate
// (its callees' estimates share the map): readOnly asks it for every
// argument of every call.
func (e *est) assignedOf(u *parser.Unit) map[string]bool {
	if e.assigned == nil {
		e.assigned = map[*parser.Unit]map[string]bool{}
	}
	m, ok := e.assigned[u]
	if !ok {
		// While u's set is made, a call back to u (a recursion) finds
		// the empty set here, which readOnly does not trust.
		e.assigned[u] = nil
		m = assignedIn(u, func(c *parser.CallStmt, i int) bool { return e.intentIn(u, c, i) })
		e.assigned[u] = m
	}
	return m
}

// intentIn reports whether argument i (from 0) of a CALL made in unit u
// leaves the actual argument's value as it was: the called procedure
// declares the dummy argument INTENT(IN), not a POINTER, so it cannot
// change it (Fortran 2018 8.5.10); or, without an INTENT, its body in
// view changes the dummy nowhere, nor do the procedures it passes it to
// (by the same rule), so a relay SUBROUTINE RELAY(N) that only passes N
// on keeps N's value. A recursion is taken to change it.
func (e *est) intentIn(u *parser.Unit, c *parser.CallStmt, i int) bool {
	if e.f == nil || c.Name == nil || i >= len(c.Args) {
		return false
	}
	callee, _ := e.program().ResolveCall(u, c.Name.Name, c.Args)
	if callee == nil || callee.Scope == nil {
		return false
	}
	hdr, _ := callee.Header.(*parser.SubprogramStmt)
	if hdr == nil {
		return false
	}
	name := ""
	if k, ok := c.Args[i].(*parser.KeywordArg); ok && k.Name != nil {
		name = k.Name.Name
	} else if i < len(hdr.Params) {
		if id, ok := hdr.Params[i].(*parser.Ident); ok {
			name = id.Name
		}
	}
	sym := callee.Scope.Syms[name]
	// A POINTER's INTENT(IN) fixes its association, not its target.
	if sym == nil || !sym.Dummy || slices.Contains(sym.Attrs, "POINTER") {
		return false
	}
	if slices.Contains(sym.Attrs, "INTENT(IN)") {
		return true
	}
	if slices.ContainsFunc(sym.Attrs, func(a string) bool { return strings.HasPrefix(a, "INTENT(") }) {
		return false // OUT, INOUT
	}
	set, done := e.assigned[callee]
	if done && set == nil {
		return false // being made: a recursion
	}
	return !e.assignedOf(callee)[name] && !e.toFunction(callee, name)
}

// componentLHS is "X%C" when lhs is the component C of a structure
// variable X, or an element or section of it (X%U(I, J)), else "".
func componentLHS(lhs parser.Expr) string {
	if c, ok := lhs.(*parser.Call); ok {
		lhs = c.Fun
	}
	if c, ok := lhs.(*parser.Component); ok {
		return complexity.ComponentName(c)
	}
	return ""
}

// toFunction reports whether a unit passes the variable name to a
// function reference that is not an intrinsic's, K = HALF(N): a
// function without INTENT may change its argument, which assignedIn,
// looking at CALLs, does not see. A function of the program whose dummy
// for that argument declares INTENT(IN) (not a POINTER) leaves it alone.
func (e *est) toFunction(u *parser.Unit, name string) bool {
	found := false
	for _, s := range u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			c, ok := n.(*parser.Call)
			if !ok || found {
				return !found
			}
			f, ok := c.Fun.(*parser.Ident)
			if !ok {
				return true
			}
			sym := u.Scope.Lookup(f.Name)
			if sym != nil && sym.Rank() > 0 || (sym == nil || sym.Intrinsic) && parser.IsIntrinsic(f.Name) {
				return true // an array element, an intrinsic
			}
			for i, a := range c.Args {
				if k, ok := a.(*parser.KeywordArg); ok {
					a = k.Value
				}
				if id, ok := a.(*parser.Ident); ok && id.Name == name && !e.intentInFormal(f.Name, c.Args, i) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// intentInFormal reports whether the function a reference name(args)
// resolves to declares its dummy for argument i INTENT(IN), not a
// POINTER (a keyword argument by its keyword).
func (e *est) intentInFormal(name string, args []parser.Expr, i int) bool {
	fn := e.resolveCall(name, args)
	if fn == nil || fn.Kind != parser.UnitFunction || fn.Scope == nil {
		return false
	}
	hdr, _ := fn.Header.(*parser.SubprogramStmt)
	if hdr == nil {
		return false
	}
	formal := ""
	if k, ok := args[i].(*parser.KeywordArg); ok && k.Name != nil {
		formal = k.Name.Name
	} else if i < len(hdr.Params) {
		if id, ok := hdr.Params[i].(*parser.Ident); ok {
			formal = id.Name
		}
	}
	sym := fn.Scope.Syms[formal]
	return sym != nil && sym.Dummy && slices.Contains(sym.Attrs, "INTENT(IN)") && !slices.Contains(sym.Attrs, "POINTER")
}

// assignedIn is the set of names a unit may change: assigned, a DO
// index, read, or passed to a call, in the unit or in a procedure it
// contains; "X%C" for an assignment to the component C of a structure
// variable X.
func assignedIn(u *parser.Unit, intentIn func(c *parser.CallStmt, i int) bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.AssignStmt:
				if id := rootIdent(x.LHS); id != nil {
					out[id.Name] = true
				}
				if c := componentLHS(x.LHS); c != "" {
					out[c] = true
				}
			case *parser.DoStmt:
				if x.Var != nil {
					out[x.Var.Name] = true
				}
			case *parser.CallStmt:
				if x.Proc != nil {
					if id := complexity.RootIdent(x.Proc); id != nil {
						out[id.Name] = true // CALL G%RESIZE(N) may change G
					}
				}
				for i, a := range x.Args {
					if k, ok := a.(*parser.KeywordArg); ok {
						a = k.Value
					}
					if x.Name != nil && (mpiCount(x.Name.Name, i) || intentIn(x, i)) {
						continue // read by the routine, not set
					}
					if id, ok := a.(*parser.Ident); ok {
						out[id.Name] = true
					}
					if c := componentLHS(a); c != "" {
						out[c] = true // CALL SETN(G%NX, 512)
					}
				}
			case *parser.IOStmt:
				parser.Inspect(x, func(m parser.Node) bool {
					if id, ok := m.(*parser.Ident); ok {
						out[id.Name] = true
						for _, v := range complexity.NamelistVars(u, id.Name) {
							out[v] = true
						}
					}
					return true
				})
				return false
			}
			return true
		})
	}
	// An associate name's change is its selector's variable's.
	if u.Scope != nil {
		for name := range out {
			if r := selectorRoot(u.Scope, name); r != "" {
				out[r] = true
			}
		}
	}
	// A contained procedure changes the unit's names it does not declare
	// (host association, Fortran 2018 19.5.1.4): a dummy argument set by
	// an internal subroutine the unit calls.
	for _, k := range u.Contains {
		if k.Scope == nil {
			continue
		}
		for name := range assignedIn(k, intentIn) {
			if k.Scope.Syms[name] == nil {
				out[name] = true
			}
		}
	}
	return out
}

// mpiCount reports whether argument i (from 0) of the MPI routine name
// is an element count: an input, the one argument such a routine reads
// that the estimate needs (a SENDRECV has two).
func mpiCount(name string, i int) bool {
	p, ok := mpiPatterns[name]
	if !ok {
		return false
	}
	return i == p.count || name == "MPI_SENDRECV" && i == 6
}

// actualExtents is the shape of an array actual argument, in the
// caller's names marked (callerName): a whole array's extents, or a
// section's (a triplet's count, a scalar subscript's dimension dropped).
func (e *est) actualExtents(actual parser.Expr, loops []loopInfo) ([]Poly, bool) {
	var ext []Poly
	switch a := actual.(type) {
	case *parser.Ident:
		sym := e.sc.Lookup(a.Name)
		if sym == nil || sym.Rank() == 0 {
			return nil, false
		}
		for k := 0; k < sym.Rank(); k++ {
			x, ok := e.extent(a.Name, k)
			if !ok {
				return nil, false
			}
			ext = append(ext, x)
		}
	case *parser.Call:
		id, ok := a.Fun.(*parser.Ident)
		if !ok {
			return nil, false
		}
		sym := e.sc.Lookup(id.Name)
		if sym == nil || sym.Rank() != len(a.Args) {
			return nil, false
		}
		for k, s := range a.Args {
			t, isT := s.(*parser.Triplet)
			if !isT {
				continue
			}
			lo, hi, ok := e.dimBounds(id.Name, k)
			if t.Lo != nil {
				lo, ok = e.value(t.Lo, loops, 0)
			}
			if t.Hi != nil {
				var okH bool
				hi, okH = e.value(t.Hi, loops, 0)
				ok = ok && okH
			}
			step := complexity.Int(1)
			if t.Stride != nil {
				var okS bool
				step, okS = e.value(t.Stride, loops, 0)
				ok = ok && okS
			}
			if !ok {
				return nil, false
			}
			n, ok := complexity.TripCount(lo, hi, step)
			if !ok {
				return nil, false
			}
			ext = append(ext, n)
		}
	default:
		return nil, false
	}
	for i := range ext {
		var ok bool
		if ext[i], ok = renameVars(ext[i], callerName); !ok {
			return nil, false
		}
	}
	return ext, true
}

// dimBounds are the bounds of dimension k of an array of the unit:
// declared, or from the call's extents for an assumed shape.
func (e *est) dimBounds(array string, k int) (lo, hi Poly, ok bool) {
	sym := e.sc.Lookup(array)
	if sym == nil || k >= sym.Rank() {
		return Poly{}, Poly{}, false
	}
	ds := sym.Dims[k]
	lo = complexity.Int(1)
	if ds.Lower != nil {
		if lo, ok = e.value(ds.Lower, nil, 0); !ok {
			return Poly{}, Poly{}, false
		}
	}
	n, ok := e.extent(array, k)
	if !ok {
		return Poly{}, Poly{}, false
	}
	return lo, lo.Add(n).Sub(complexity.Int(1)), true
}

// renameVars renames every variable of p.
func renameVars(p Poly, name func(string) string) (Poly, bool) {
	for _, v := range p.Vars() {
		var ok bool
		if p, ok = p.Subst(v, complexity.Var(name(v))); !ok {
			return Poly{}, false
		}
	}
	return p, true
}

// unmark puts the caller's names back in a callee's estimate; ok is
// false when a name of the callee's own is left in it.
func unmark(p Poly) (Poly, bool) {
	for _, v := range p.Vars() {
		if !strings.HasPrefix(v, callerMark) {
			return Poly{}, false
		}
	}
	return renameVars(p, func(v string) string { return strings.TrimPrefix(v, callerMark) })
}

// extentName is the name that stands, inside a callee's estimate, for
// the extent of dimension k (from 0) of an assumed-shape dummy argument
// whose extents the call gave (boundOf binds it).
func extentName(array string, k int) string {
	return fmt.Sprintf("\x02%s:%d", array, k+1)
}

// exprCost prices an expression of the unit with the current table (and
// a callee's extents from its call).
func (e *est) exprCost(x parser.Expr) Poly {
	return complexity.ExprCost(e.f, e.u, x, e.table, e.extents)
}

// assumedShape reports whether a dummy argument has an assumed shape
// (A(:), A(0:)): its extents are the actual argument's (Fortran 2018
// 8.5.8.3), where an explicit-shape dummy's are its declared bounds.
func assumedShape(sym *parser.Symbol) bool {
	if !sym.Dummy || sym.Rank() == 0 {
		return false
	}
	for _, a := range sym.Attrs {
		if a == "ALLOCATABLE" || a == "POINTER" {
			return false
		}
	}
	for _, d := range sym.Dims {
		if d == nil || d.Upper != nil || !d.Colon {
			return false
		}
	}
	return true
}
