package parser

import (
	"fmt"
	"sort"
	"strings"
)

// This file checks the meaning of shapes, loops and data mappings once a
// unit's symbols are known, with the values of its PARAMETERs:
//
//   - an empty dimension (upper bound below the lower one) of an array,
//     TEMPLATE or DECOMPOSITION is legal Fortran 90 (a zero-sized array,
//     though FORTRAN 77 forbids it) but almost always a slip: a warning;
//     a PROCESSORS arrangement needs at least one processor: an error;
//   - a PARAMETER defined in terms of itself, directly or through other
//     PARAMETERs (a named constant's value must be known before it is
//     used: Fortran 2018 §8.5.13, "a constant expression"); it has no value;
//   - a DO step or FORALL stride of 0 (Fortran: "shall not be zero");
//   - BLOCK(k) and CYCLIC(k) with k not positive (HPF 2.0 §3.3: "a
//     positive integer");
//   - DISTRIBUTE with as many formats as the distributee has dimensions
//     (HPF 2.0 §3.3), and ONTO a processor arrangement with one dimension
//     per distributed (not "*") dimension;
//   - ALIGN with as many align dummies as the alignee has dimensions and
//     as many subscripts as the target has (HPF 2.0 §3.4; Fortran D and
//     CM Fortran state the same), and no object aligned with itself,
//     directly or through others (alignments form a tree under the
//     ultimate align target).
//
// Each diagnostic has the code "invalid" and names the construct.

func (r *resolver) invalid(at Node, sev Severity, msg string) {
	r.p.errs = append(r.p.errs, Error{Pos: at.Pos(), End: at.End(), Severity: sev, Code: "invalid", Msg: msg})
}

// checkShapes reports empty dimensions of the unit's own arrays,
// templates, decompositions and processor arrangements.
func (r *resolver) checkShapes() {
	// The names of the unit's own arrays, sorted (most units have few).
	var names []string
	for name, sym := range r.sc.Syms {
		if sym.Included == "" && len(sym.Dims) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		sym := r.sc.Syms[name]
		for i, d := range sym.Dims {
			if d == nil || d.Upper == nil {
				continue
			}
			if _, star := d.Upper.(*Star); star {
				continue
			}
			lo := int64(1)
			if d.Lower != nil {
				v, ok := EvalInt(d.Lower, r.sc)
				if !ok {
					continue
				}
				lo = v
			}
			hi, ok := EvalInt(d.Upper, r.sc)
			if !ok || hi >= lo {
				continue
			}
			at := Node(d.Upper)
			what := "array " + name
			sev := SevWarning
			consequence := "the array has no elements"
			switch sym.Kind {
			case SymTemplate:
				what, consequence = "template "+name, "the template has no elements to distribute"
			case SymProcessors:
				what, consequence, sev = "processor arrangement "+name, "a processor arrangement needs at least one processor in each dimension", SevError
			}
			r.invalid(at, sev, fmt.Sprintf("%s has extent %d in dimension %d (bounds %d:%d): %s", what, max(hi-lo+1, 0), i+1, lo, hi, consequence))
			break
		}
	}
}

// checkParamCycles reports PARAMETERs of the unit defined through
// themselves, once per cycle, at the definition of the cycle's first
// PARAMETER in the text.
func (r *resolver) checkParamCycles(body []Stmt) {
	uses := map[string][]string{} // PARAMETER → the PARAMETERs its value names
	at := map[string]*Ident{}     // PARAMETER → its name in its definition
	var order []string
	for _, s := range body {
		ps, ok := s.(*ParameterStmt)
		if !ok {
			continue
		}
		for _, d := range ps.Defs {
			if d == nil || d.Name == nil || d.Value == nil {
				continue
			}
			if _, dup := at[d.Name.Name]; dup {
				continue
			}
			at[d.Name.Name] = d.Name
			order = append(order, d.Name.Name)
			Inspect(d.Value, func(n Node) bool {
				if id, ok := n.(*Ident); ok {
					if sym := r.sc.Syms[id.Name]; sym != nil && sym.Param != nil {
						uses[d.Name.Name] = append(uses[d.Name.Name], id.Name)
					}
				}
				return true
			})
		}
	}
	if len(uses) == 0 {
		return
	}
	reported := map[string]bool{}
	// A depth-first walk from each PARAMETER in text order; the path
	// back to the start is the cycle reported.
	for _, start := range order {
		if reported[start] {
			continue
		}
		var path []string
		onPath := map[string]bool{}
		done := map[string]bool{}
		var walk func(n string) bool
		walk = func(n string) bool {
			if n == start && len(path) > 0 {
				cycle := append(append([]string{}, path...), start)
				for _, c := range path {
					reported[c] = true
				}
				r.invalid(at[start], SevError, "PARAMETER "+start+" is defined in terms of itself ("+strings.Join(cycle, " → ")+"): it has no value")
				return true
			}
			if onPath[n] || done[n] || len(path) > 1000 {
				return false
			}
			onPath[n] = true
			path = append(path, n)
			for _, m := range uses[n] {
				if walk(m) {
					return true
				}
			}
			path = path[:len(path)-1]
			onPath[n] = false
			done[n] = true
			return false
		}
		walk(start)
	}
}

// checkSteps reports DO steps and FORALL strides that are the constant 0.
func (r *resolver) checkSteps(body []Stmt) {
	zero := func(x Expr) bool {
		if x == nil {
			return false
		}
		v, ok := EvalInt(x, r.sc)
		return ok && v == 0
	}
	header := func(h *ForallHeader, what string) {
		if h == nil {
			return
		}
		for _, sp := range h.Specs {
			if sp != nil && sp.Var != nil && zero(sp.Stride) {
				r.invalid(sp.Stride, SevError, fmt.Sprintf("%s stride of %s is 0: the stride must not be zero", what, sp.Var.Name))
			}
		}
	}
	doStmt := func(x *DoStmt) {
		if x.Var != nil && zero(x.Step) {
			r.invalid(x.Step, SevError, fmt.Sprintf("DO step of %s is 0: the step must not be zero (the loop would not advance)", x.Var.Name))
		}
		header(x.Concurrent, "DO CONCURRENT")
	}
	visit := func(n Node) bool {
		switch x := n.(type) {
		case *DoStmt:
			doStmt(x)
		case *ForallStmt:
			header(x.Header, "FORALL")
		case Expr, *AssignStmt, *CallStmt, *IOStmt, *TypeDecl, *EndStmt, *SimpleStmt:
			// No statement inside: the walk need not visit their parts.
			return false
		}
		return true
	}
	// The statements most frequent in a body are taken directly, the
	// others through Inspect with visit, in the same order as Inspect
	// (the order of the errors).
	var walk func(s Stmt)
	walk = func(s Stmt) {
		switch x := s.(type) {
		case nil, *AssignStmt, *CallStmt, *IOStmt, *TypeDecl, *EndStmt, *SimpleStmt, *IfThenStmt:
			// No statement inside (an IF THEN's parts are expressions).
		case *DoStmt:
			doStmt(x)
		case *IfStmt:
			walk(x.Then)
		case *DoConstruct:
			for _, d := range x.Directives {
				Inspect(d, visit)
			}
			walk(x.Do)
			for _, b := range x.Body {
				walk(b)
			}
			walk(x.EndStmt)
		case *IfConstruct:
			for _, a := range x.Arms {
				walk(a.Head)
				for _, b := range a.Body {
					walk(b)
				}
			}
			walk(x.EndStmt)
		default:
			Inspect(s, visit)
		}
	}
	for _, s := range body {
		walk(s)
	}
}

// checkMappings checks the DISTRIBUTE and ALIGN directives of the unit
// (after checkDirectives attached them to their symbols).
func (r *resolver) checkMappings() {
	for _, d := range r.directives {
		switch spec := d.Spec.(type) {
		case *DistributeSpec:
			r.checkDistribute(d, spec)
		case *AlignSpec:
			r.checkAlign(d, spec)
		}
	}
	r.checkAlignCycles()
}

// mapped returns the symbol a directive names when its shape is known.
func (r *resolver) mapped(id *Ident) *Symbol {
	if id == nil {
		return nil
	}
	sym := r.sc.Lookup(id.Name)
	if sym == nil || sym.Kind == SymProcedure || !(sym.Declared || sym.Dummy || sym.InCommon) {
		return nil
	}
	return sym
}

func plural(n int, one string) string {
	switch {
	case n == 1:
		return "1 " + one
	case strings.HasSuffix(one, "y"):
		return fmt.Sprintf("%d %sies", n, one[:len(one)-1])
	}
	return fmt.Sprintf("%d %ss", n, one)
}

func (r *resolver) checkDistribute(d *Directive, spec *DistributeSpec) {
	distributed := 0
	for _, f := range spec.Formats {
		if f.Kind != "*" && f.Kind != ":" {
			distributed++
		}
		if f.Arg == nil || (f.Kind != "CYCLIC" && f.Kind != "BLOCK") {
			continue
		}
		if v, ok := EvalInt(f.Arg, r.sc); ok && v <= 0 {
			r.invalid(f.Arg, SevError, fmt.Sprintf("%s(%d) in DISTRIBUTE: the block size must be a positive integer", f.Kind, v))
		}
	}
	if len(spec.Formats) > 0 {
		for _, t := range spec.Targets {
			sym := r.mapped(t)
			if sym == nil || sym.Rank() == 0 || sym.Rank() == len(spec.Formats) {
				continue
			}
			r.invalid(t, SevError, fmt.Sprintf("DISTRIBUTE gives %s for %s, which has rank %d", plural(len(spec.Formats), "format"), t.Name, sym.Rank()))
		}
	}
	if spec.Onto != nil && len(spec.Formats) > 0 {
		p := r.sc.Lookup(spec.Onto.Name)
		if p != nil && p.Kind == SymProcessors && p.Rank() != distributed {
			r.invalid(spec.Onto, SevError, fmt.Sprintf("DISTRIBUTE ... ONTO %s distributes %s, but %s has rank %d (one processor dimension per distributed dimension)",
				spec.Onto.Name, plural(distributed, "dimension"), spec.Onto.Name, p.Rank()))
		}
	}
}

func (r *resolver) checkAlign(d *Directive, spec *AlignSpec) {
	for i, a := range spec.Alignees {
		subs, has := spec.Subs, spec.HasSubs
		if spec.AligneeSubs != nil {
			subs = nil
			if i < len(spec.AligneeSubs) {
				subs = spec.AligneeSubs[i]
			}
			has = subs != nil
		}
		if !has {
			continue
		}
		if sym := r.mapped(a); sym != nil && sym.Rank() > 0 && len(subs) != sym.Rank() {
			r.invalid(a, SevError, fmt.Sprintf("ALIGN gives %s for %s, which has rank %d", plural(len(subs), "align dummy"), a.Name, sym.Rank()))
		}
	}
	if spec.HasTarget {
		if sym := r.mapped(spec.Target); sym != nil && sym.Rank() > 0 && len(spec.TargetSubs) != sym.Rank() {
			r.invalid(spec.Target, SevError, fmt.Sprintf("ALIGN ... WITH %s gives %s for %s, which has rank %d",
				spec.Target.Name, plural(len(spec.TargetSubs), "subscript"), spec.Target.Name, sym.Rank()))
		}
	}
}

// checkAlignCycles reports objects aligned with themselves, directly or
// through others, once per cycle, at the ALIGN of the cycle's first
// directive in the text.
func (r *resolver) checkAlignCycles() {
	with := map[string]string{} // alignee → target
	at := map[string]*Ident{}   // alignee → its name in the directive
	var order []string          // alignees in text order
	for _, d := range r.directives {
		spec, ok := d.Spec.(*AlignSpec)
		if !ok || spec.Target == nil {
			continue
		}
		for _, a := range spec.Alignees {
			if _, dup := with[a.Name]; !dup {
				with[a.Name], at[a.Name] = spec.Target.Name, a
				order = append(order, a.Name)
			}
		}
	}
	reported := map[string]bool{}
	for _, start := range order {
		if reported[start] {
			continue
		}
		path := []string{start}
		seen := map[string]int{start: 0}
		for cur := with[start]; ; cur = with[cur] {
			if i, ok := seen[cur]; ok {
				if i == 0 {
					cycle := append(append([]string{}, path...), cur)
					for _, n := range path {
						reported[n] = true
					}
					r.invalid(at[start], SevError, "ALIGN cycle: "+strings.Join(cycle, " → ")+" (an object may not be aligned with itself)")
				}
				break
			}
			if _, aligned := with[cur]; !aligned {
				break
			}
			seen[cur] = len(path)
			path = append(path, cur)
		}
	}
}
