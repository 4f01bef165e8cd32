package parser

// Inspect calls f for n and, if f returns true, for each node inside n in
// source order. Entities, dimension specs and type specs are visited
// through their expressions only.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	walkChildren(n, f)
}

// isNilNode reports whether n is a nil *Ident, which optional names
// (KeywordArg.Name, a DO's Var) put in an interface as a typed nil. (Only
// a concrete type assertion: an assertion to an interface type, asked of
// every node an Inspect visits, costs a look-up of the method table.)
func isNilNode(n Node) bool {
	id, ok := n.(*Ident)
	return ok && id == nil
}

func inspectExprs(xs []Expr, f func(Node) bool) {
	for _, x := range xs {
		if x != nil {
			Inspect(x, f)
		}
	}
}

func inspectExpr(x Expr, f func(Node) bool) {
	if x != nil {
		Inspect(x, f)
	}
}

func inspectIdent(x *Ident, f func(Node) bool) {
	if x != nil {
		Inspect(x, f)
	}
}

func inspectStmts(ss []Stmt, f func(Node) bool) {
	for _, s := range ss {
		if s != nil {
			Inspect(s, f)
		}
	}
}

func inspectEntity(e *Entity, f func(Node) bool) {
	inspectIdent(e.Name, f)
	inspectDims(e.Dims, f)
	inspectDims(e.Codims, f)
	inspectExpr(e.CharLen, f)
	inspectExpr(e.Init, f)
}

func inspectDims(ds []*DimSpec, f func(Node) bool) {
	for _, d := range ds {
		inspectExpr(d.Lower, f)
		inspectExpr(d.Upper, f)
	}
}

func inspectType(t *TypeSpec, f func(Node) bool) {
	if t != nil {
		inspectExpr(t.Kind, f)
		inspectExpr(t.Len, f)
	}
}

func walkChildren(n Node, f func(Node) bool) {
	switch x := n.(type) {
	case *Ident, *Lit, *Star, *BadExpr, *BadStmt, *FormatStmt, *CppStmt, *IncludeStmt:
	case *Unary:
		inspectExpr(x.X, f)
	case *Binary:
		inspectExpr(x.X, f)
		inspectExpr(x.Y, f)
	case *Paren:
		inspectExpr(x.X, f)
	case *Call:
		inspectExpr(x.Fun, f)
		inspectExprs(x.Args, f)
	case *Triplet:
		inspectExpr(x.Lo, f)
		inspectExpr(x.Hi, f)
		inspectExpr(x.Stride, f)
	case *KeywordArg:
		inspectIdent(x.Name, f)
		inspectExpr(x.Value, f)
	case *Component:
		inspectExpr(x.X, f)
		inspectIdent(x.Name, f)
	case *AltReturn:
		Inspect(x.Label, f)
	case *ArrayCons:
		inspectExprs(x.Items, f)
	case *ImpliedDo:
		inspectExprs(x.Items, f)
		inspectIdent(x.Var, f)
		inspectExpr(x.Lo, f)
		inspectExpr(x.Hi, f)
		inspectExpr(x.Step, f)
	case *ImageSelector:
		inspectExpr(x.X, f)
		inspectExprs(x.Args, f)
	case *ComplexLit:
		inspectExpr(x.Re, f)
		inspectExpr(x.Im, f)

	case *ProgramStmt:
		inspectIdent(x.Name, f)
	case *InterfaceStmt:
		inspectIdent(x.Name, f)
	case *SubprogramStmt:
		inspectType(x.Type, f)
		inspectIdent(x.Name, f)
		inspectExprs(x.Params, f)
		inspectIdent(x.Result, f)
	case *ModuleStmt:
		inspectIdent(x.Parent, f)
		inspectIdent(x.Name, f)
	case *EndStmt:
		inspectIdent(x.Name, f)
	case *SimpleStmt:
		inspectExprs(x.Args, f)
	case *NameListStmt:
		inspectExprs(x.Args, f)
		inspectExprs(x.Names, f)
	case *UseStmt:
		inspectIdent(x.Module, f)
		for _, r := range x.Names {
			inspectIdent(r.Local, f)
			inspectIdent(r.Remote, f)
		}
	case *ImplicitStmt:
		for _, r := range x.Rules {
			inspectType(r.Type, f)
		}
	case *TypeDecl:
		inspectType(x.Type, f)
		for _, a := range x.Attrs {
			inspectDims(a.Dims, f)
			inspectExprs(a.Args, f)
		}
		for _, e := range x.Entities {
			inspectEntity(e, f)
		}
	case *DimensionStmt:
		for _, e := range x.Entities {
			inspectEntity(e, f)
		}
	case *ParameterStmt:
		for _, d := range x.Defs {
			Inspect(d, f)
		}
	case *CommonStmt:
		for _, b := range x.Blocks {
			inspectIdent(b.Name, f)
			for _, e := range b.Entities {
				inspectEntity(e, f)
			}
		}
	case *EquivalenceStmt:
		for _, set := range x.Sets {
			inspectExprs(set, f)
		}
	case *DataStmt:
		for _, set := range x.Sets {
			inspectExprs(set.Objects, f)
			inspectExprs(set.Values, f)
		}
	case *DerivedTypeStmt:
		inspectIdent(x.Name, f)
	case *ProcedureStmt:
		inspectExpr(x.Iface, f)
		for _, e := range x.Names {
			inspectEntity(e, f)
		}
	case *AssignStmt:
		inspectExpr(x.LHS, f)
		inspectExpr(x.RHS, f)
	case *DoStmt:
		inspectIdent(x.Var, f)
		inspectExpr(x.Lo, f)
		inspectExpr(x.Hi, f)
		inspectExpr(x.Step, f)
		inspectExpr(x.While, f)
		inspectForall(x.Concurrent, f)
	case *ForallStmt:
		inspectForall(x.Header, f)
		if x.Body != nil {
			Inspect(x.Body, f)
		}
	case *IfStmt:
		inspectExpr(x.Cond, f)
		if x.Then != nil {
			Inspect(x.Then, f)
		}
	case *IfThenStmt:
		inspectExpr(x.Cond, f)
	case *ArithIfStmt:
		inspectExpr(x.Cond, f)
		for _, l := range x.Labels {
			if l != nil {
				Inspect(l, f)
			}
		}
	case *WhereStmt:
		inspectExpr(x.Mask, f)
		if x.Body != nil {
			Inspect(x.Body, f)
		}
	case *SelectStmt:
		inspectIdent(x.Assoc, f)
		inspectExpr(x.X, f)
	case *CaseStmt:
		inspectExprs(x.Values, f)
	case *GotoStmt:
		for _, l := range x.Labels {
			if l != nil {
				Inspect(l, f)
			}
		}
		inspectExpr(x.X, f)
	case *CallStmt:
		inspectIdent(x.Name, f)
		inspectExprs(x.Args, f)
	case *IOStmt:
		inspectExprs(x.Control, f)
		inspectExprs(x.Items, f)
	case *AllocateStmt:
		inspectExprs(x.Items, f)
	case *AssignLabelStmt:
		if x.Target != nil {
			Inspect(x.Target, f)
		}
		inspectIdent(x.Var, f)
	case *EntryStmt:
		inspectIdent(x.Name, f)
		inspectExprs(x.Params, f)
	case *Directive:
		walkDirective(x, f)

	case *DoConstruct:
		for _, d := range x.Directives {
			Inspect(d, f)
		}
		Inspect(x.Do, f)
		inspectStmts(x.Body, f)
		if x.EndStmt != nil {
			Inspect(x.EndStmt, f)
		}
	case *IfConstruct:
		for _, a := range x.Arms {
			Inspect(a.Head, f)
			inspectStmts(a.Body, f)
		}
		if x.EndStmt != nil {
			Inspect(x.EndStmt, f)
		}
	case *Block:
		Inspect(x.Head, f)
		inspectStmts(x.Body, f)
		for _, a := range x.Arms {
			Inspect(a.Head, f)
			inspectStmts(a.Body, f)
		}
		if x.EndStmt != nil {
			Inspect(x.EndStmt, f)
		}
	}
}

func inspectForall(h *ForallHeader, f func(Node) bool) {
	if h == nil {
		return
	}
	for _, s := range h.Specs {
		inspectIdent(s.Var, f)
		inspectExpr(s.Lo, f)
		inspectExpr(s.Hi, f)
		inspectExpr(s.Stride, f)
	}
	inspectExpr(h.Mask, f)
}

func walkDirective(d *Directive, f func(Node) bool) {
	switch s := d.Spec.(type) {
	case *EntitiesSpec:
		for _, e := range s.Entities {
			inspectEntity(e, f)
		}
	case *AlignSpec:
		for _, a := range s.Alignees {
			inspectIdent(a, f)
		}
		inspectExprs(s.Subs, f)
		for i, subs := range s.AligneeSubs {
			if i > 0 {
				inspectExprs(subs, f)
			}
		}
		inspectIdent(s.Target, f)
		inspectExprs(s.TargetSubs, f)
	case *DistributeSpec:
		for _, t := range s.Targets {
			inspectIdent(t, f)
		}
		for _, fm := range s.Formats {
			inspectExpr(fm.Arg, f)
		}
		inspectIdent(s.Onto, f)
	case *LayoutSpec:
		inspectIdent(s.Target, f)
		for _, m := range s.More {
			inspectIdent(m.Target, f)
		}
	case *ClauseSpec:
		for _, c := range s.Clauses {
			inspectExprs(c.Args, f)
		}
	}
}
