package partition

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// Set-up values. An MPI program computes its local block's size once,
// at the top of the program (NLOC = N / NP, with NP from MPI_COMM_SIZE),
// and every loop after uses it. Such a scalar is a number wherever the
// estimate knows the names of its right side: N a PARAMETER or given
// with --set, NP the processors estimated for.

// maxDefDepth bounds the chains of definitions followed (A = B / 2,
// B = C + 1, ...).
const maxDefDepth = 8

// topDefs maps each integer scalar the unit assigns exactly once, in an
// assignment statement of its top level, to that statement; a scalar
// also set otherwise (a DO index, an actual argument, a READ item, a
// name a called procedure of the file sets by host association) is left
// out.
func (e *est) topDefs() map[string]*parser.AssignStmt {
	if e.defs != nil {
		return e.defs
	}
	set := map[string]int{}
	top := map[parser.Stmt]bool{}
	for _, s := range e.u.Body {
		top[s] = true
	}
	byCall := map[string]*parser.AssignStmt{}
	for _, s := range e.u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.AssignStmt:
				set[lhsName(x)]++
				if c := componentLHS(x.LHS); c != "" {
					set[c]++
				}
			case *parser.DoStmt:
				if x.Var != nil {
					set[x.Var.Name] += 2
				}
			case *parser.Call:
				// A type-bound function, G%ADD(5), may change its object.
				if c, ok := x.Fun.(*parser.Component); ok && !complexity.DataComponent(e.f, e.u, c) {
					if id := complexity.RootIdent(c); id != nil {
						set[id.Name] += 2
					}
				}
			case *parser.CallStmt:
				var outs map[string]*parser.AssignStmt
				if top[x] {
					outs = e.callOuts(x)
				}
				for name, a := range outs {
					set[name]++ // set by the call, to a known value
					byCall[name] = a
				}
				if x.Proc != nil {
					if id := complexity.RootIdent(x.Proc); id != nil {
						set[id.Name] += 2 // CALL G%RESIZE(N) may change G
					}
				}
				for i, a := range x.Args {
					if k, ok := a.(*parser.KeywordArg); ok {
						a = k.Value // CALL INIT(N=K) may set K (readOnly is false)
					}
					if c := componentLHS(a); c != "" && !e.readOnly(x, i) {
						set[c] += 2 // CALL SETN(G%NX, 512)
					}
					if id, ok := a.(*parser.Ident); ok && !e.readOnly(x, i) {
						if comps, ok := e.componentsSet(x, i); ok {
							for _, c := range comps {
								if outs[id.Name+"%"+c] == nil {
									set[id.Name+"%"+c] += 2 // this component may be set
								}
							}
							continue
						}
						if outs[id.Name] == nil {
							set[id.Name] += 2 // may be set by the call
						}
					}
				}
				// A procedure of the file that sets a name of its host
				// (an internal procedure's host, a module procedure's
				// module): the caller's name of that spelling may be it.
				if x.Name != nil && e.f != nil {
					if callee := e.resolveCall(x.Name.Name, x.Args); callee != nil && callee.Scope != nil {
						for name := range e.assignedOf(callee) {
							if callee.Scope.Syms[complexity.RootOf(name)] == nil {
								set[name] += 2
							}
						}
					}
				}
			case *parser.IOStmt:
				var what parser.Node = x
				if x.Keyword == "PRINT" || x.Keyword == "WRITE" {
					// Output sets none of its items, only specifiers
					// such as IOSTAT= (Fortran 2018 12.11), and the
					// indices of its implied DOs (12.6.3).
					what = &parser.IOStmt{Control: x.Control}
					for _, it := range x.Items {
						parser.Inspect(it, func(m parser.Node) bool {
							if d, ok := m.(*parser.ImpliedDo); ok && d.Var != nil {
								set[d.Var.Name] += 2
							}
							return true
						})
					}
				}
				parser.Inspect(what, func(m parser.Node) bool {
					if id, ok := m.(*parser.Ident); ok {
						set[id.Name] += 2
						for _, v := range complexity.NamelistVars(e.u, id.Name) {
							set[v] += 2 // READ (5, NML=P) sets P's variables
						}
					}
					return true
				})
				return false
			}
			return true
		})
	}
	// What an associate name changes, its selector's variable changes
	// (ASSOCIATE (H => G), H%NX = 512 changes G%NX).
	for name := range set {
		if r := selectorRoot(e.sc, name); r != "" {
			set[r] += 2
		}
	}
	e.defs = map[string]*parser.AssignStmt{}
	for _, s := range e.u.Body {
		a, ok := s.(*parser.AssignStmt)
		if !ok {
			continue
		}
		if comp, ok := a.LHS.(*parser.Component); ok {
			// G%N = 256 in a unit that sets G%N once and passes G to
			// no routine that may change it.
			c := componentLHS(comp)
			if c == "" {
				continue
			}
			x := comp.X.(*parser.Ident)
			if sym := e.sc.Lookup(x.Name); set[c] == 1 && set[x.Name] == 0 && !mentions(a.RHS, x.Name) && sym != nil && sym.Rank() == 0 && !sym.Dummy && !aliased(sym) {
				e.defs[c] = a
			}
			continue
		}
		id, ok := a.LHS.(*parser.Ident)
		if !ok || set[id.Name] != 1 || mentions(a.RHS, id.Name) {
			continue
		}
		if sym := e.sc.Lookup(id.Name); sym != nil && sym.Rank() == 0 && sym.Param == nil && !sym.Dummy && e.sc.TypeOf(id.Name) == "INTEGER" {
			e.defs[id.Name] = a
		}
	}
	// CALL INIT(G, 256, 128), whose INIT sets G%NX = NX, sets G%NX once,
	// to 256, as G%NX = 256 would.
	for name, a := range byCall {
		root, _, isComp := strings.Cut(name, "%")
		sym := e.sc.Lookup(root)
		if set[name] != 1 || sym == nil || sym.Rank() > 0 || sym.Dummy || mentions(a.RHS, root) {
			continue
		}
		if isComp && set[root] == 0 && !aliased(sym) || !isComp && sym.Param == nil && e.sc.TypeOf(root) == "INTEGER" {
			e.defs[name] = a
			if e.callDefs == nil {
				e.callDefs = map[*parser.AssignStmt]string{}
			}
			e.callDefs[a] = a.LHS.(*parser.Ident).Name
		}
	}
	return e.defs
}

// callOuts is what a top-level CALL of a subroutine of the program sets
// its actual arguments to, where the complexity engine knows it
// (Procs.OutValues) and it is a number or one formal's value on entry:
// for each caller's name set (N, or G%NX for the component NX of a
// structure G passed), an assignment that stands for it at the call
// (G%NX = 256 for CALL INIT(G, 256, 128) with G%NX = NX in INIT), its
// left side the callee's name.
func (e *est) callOuts(c *parser.CallStmt) map[string]*parser.AssignStmt {
	if c.Name == nil || e.f == nil || e.opt.Machine == nil {
		return nil
	}
	callee := e.fileSub(c.Name.Name, c.Args)
	if callee == nil {
		return nil
	}
	hdr, _ := callee.Header.(*parser.SubprogramStmt)
	if hdr == nil {
		return nil
	}
	home := e.f
	if h := e.home[callee]; h != nil {
		home = h
	}
	outs := procsOf(home, e.opt.Machine).OutValues(callee.Name)
	if len(outs) == 0 {
		return nil
	}
	at := map[string]int{}
	for i, p := range hdr.Params {
		if f, ok := p.(*parser.Ident); ok {
			at[f.Name] = i
		}
	}
	// actual is the caller's expression for the callee's formal or
	// formal component w.
	actual := func(w string) parser.Expr {
		f, comp, isComp := strings.Cut(w, "%")
		i, ok := at[f]
		if !ok {
			return nil
		}
		x := complexity.ActualFor(hdr, c.Args, i)
		if !isComp || x == nil {
			return x
		}
		if id, ok := x.(*parser.Ident); ok {
			return &parser.Component{X: id, Name: &parser.Ident{NamePos: id.Pos(), Name: comp}}
		}
		return nil
	}
	out := map[string]*parser.AssignStmt{}
	for k, v := range outs {
		f, comp, isComp := strings.Cut(k, "%")
		i, ok := at[f]
		if !ok {
			continue
		}
		id, ok := complexity.ActualFor(hdr, c.Args, i).(*parser.Ident)
		if !ok {
			continue
		}
		name := id.Name
		if isComp {
			name += "%" + comp
		}
		var rhs parser.Expr
		if n, isNum := v.Value(); isNum && n.IsInt() && n.Sign() >= 0 {
			rhs = &parser.Lit{Kind: parser.IntLit, ValuePos: c.Pos(), Value: n.RatString()}
		} else if vs := v.Vars(); len(vs) == 1 && v.Equal(complexity.Var(vs[0])) {
			rhs = actual(vs[0])
		}
		if rhs != nil {
			out[name] = &parser.AssignStmt{StmtBase: c.StmtBase, LHS: &parser.Ident{NamePos: c.Pos(), Name: callee.Name}, RHS: rhs}
		}
	}
	return out
}

// selectorRoot is the variable an associate name at the root of name
// stands for (H%NX with ASSOCIATE (H => G): G), or "".
func selectorRoot(sc *parser.Scope, name string) string {
	root := complexity.RootOf(name)
	sym := sc.Lookup(root)
	if sym == nil || sym.Selector == nil {
		return ""
	}
	if id := complexity.RootIdent(sym.Selector); id != nil && id.Name != root {
		return id.Name
	}
	return ""
}

// aliased reports whether another name may change a variable without
// naming it: a POINTER or TARGET, an ALLOCATABLE (which ALLOCATE and
// DEALLOCATE renew), or an associate name.
func aliased(sym *parser.Symbol) bool {
	return sym.Selector != nil || slices.ContainsFunc(sym.Attrs, func(a string) bool {
		return a == "POINTER" || a == "TARGET" || a == "ALLOCATABLE"
	})
}

// componentsSet lists the components of a structure passed as argument
// i of a CALL that the subroutine of the file may change: those it
// assigns (G%U(I, J) = ...), when it never changes or passes on the
// structure as a whole. ok is false where that is not known.
func (e *est) componentsSet(c *parser.CallStmt, i int) ([]string, bool) {
	if c.Name == nil || e.f == nil {
		return nil, false
	}
	callee := e.fileSub(c.Name.Name, c.Args)
	if callee == nil || callee.Scope == nil {
		return nil, false
	}
	hdr, _ := callee.Header.(*parser.SubprogramStmt)
	if hdr == nil || i >= len(hdr.Params) {
		return nil, false
	}
	formal, ok := hdr.Params[i].(*parser.Ident)
	if !ok {
		return nil, false
	}
	sym := callee.Scope.Syms[formal.Name]
	if sym == nil || !sym.Dummy || sym.Rank() > 0 || sym.TypeSpec == nil || sym.TypeSpec.Derived == "" {
		return nil, false
	}
	if slices.Contains(sym.Attrs, "INTENT(OUT)") {
		// Undefined on entry, its default-initialized components reset
		// (Fortran 2018 8.5.10): the structure changes as a whole.
		return nil, false
	}
	assigned := e.assignedOf(callee)
	if assigned[formal.Name] || e.toFunction(callee, formal.Name) {
		return nil, false
	}
	var comps []string
	for k := range assigned {
		if root, comp, ok := strings.Cut(k, "%"); ok && root == formal.Name {
			comps = append(comps, comp)
		}
	}
	return comps, true
}

// topDef is the value of a scalar of topDefs when its right side is a
// number: evaluated exactly, and truncated as Fortran's integer division
// does when that division is the last operation (N / NP); a right side
// whose value has a fraction elsewhere (N / NP * 2 with N / NP not whole)
// is not used, since each division would truncate on its own.
func (e *est) topDef(name string, loops []loopInfo, depth int) (Poly, bool) {
	if depth >= maxDefDepth {
		return Poly{}, false
	}
	a := e.topDefs()[name]
	if a == nil {
		return Poly{}, false
	}
	p, ok := e.value(a.RHS, loops, depth+1)
	if !ok {
		return Poly{}, false
	}
	v, isConst := p.Value()
	if !isConst {
		if len(e.stack) > 0 && !divides(a.RHS) {
			// A callee's N = SIZE(A, 1): its value at the call, in the
			// caller's names (callee.go), exact without a division.
			return p, true
		}
		return Poly{}, false
	}
	if !v.IsInt() {
		b, isDiv := a.RHS.(*parser.Binary)
		if !isDiv || b.Op != "/" {
			return Poly{}, false
		}
		v = new(big.Rat).SetInt(new(big.Int).Quo(v.Num(), v.Denom()))
	}
	line := 0
	if e.f != nil {
		line = e.f.Lines.Line(e.u.Abs(a.Pos())) + 1
	}
	if callee, ok := e.callDefs[a]; ok {
		e.note(fmt.Sprintf("%s, set by CALL %s at line %d, is %s", name, callee, line, v.RatString()))
	} else {
		e.note(fmt.Sprintf("%s, assigned once at line %d, is %s", name, line, v.RatString()))
	}
	return complexity.Rat(v), true
}

// setUp puts the set-up values (topDef) that are numbers, and the values
// given with --set, for the names the statements' own costs keep as
// symbols (the elements of U(1:N, 1:NLOC), priced by the complexity
// model, which knows NLOC only as a name).
func (e *est) setUp(res *Estimate) {
	env := map[string]*big.Rat{}
	for name, r := range e.opt.Values {
		env[name] = r
	}
	for _, p := range []Poly{res.Compute, res.Comm} {
		for _, v := range p.Vars() {
			if _, done := env[v]; done {
				continue
			}
			if d, ok := e.topDef(v, nil, 0); ok {
				if r, isConst := d.Value(); isConst {
					env[v] = r
				}
			}
		}
	}
	if len(env) == 0 {
		return
	}
	res.Compute = complexity.EvalGuarded(res.Compute, env)
	res.Comm = complexity.EvalGuarded(res.Comm, env)
	for _, m := range res.Messages {
		m.Count = complexity.EvalGuarded(m.Count, env)
		m.Bytes = complexity.EvalGuarded(m.Bytes, env)
		m.Time = complexity.EvalGuarded(m.Time, env)
	}
}

// divides reports whether an expression has a division.
func divides(x parser.Expr) bool {
	found := false
	parser.Inspect(x, func(n parser.Node) bool {
		if b, ok := n.(*parser.Binary); ok && b.Op == "/" {
			found = true
		}
		return !found
	})
	return found
}
