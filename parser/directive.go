package parser

import "strings"

// Directives are parsed as syntax: HPF (!HPF$, CHPF$, *HPF$), CM Fortran
// (CMF$), OpenMP (!$OMP, C$OMP, *$OMP), and the Fortran D statements
// DECOMPOSITION, ALIGN and DISTRIBUTE written as ordinary statements. The
// parser accepts a larger language than each standard; what a directive
// means is checked later, against the symbol table.

func (p *parser) directive(st *rawStmt, base StmtBase, partial *Stmt) Stmt {
	d := &Directive{StmtBase: base, Sentinel: st.sentinel}
	*partial = d
	t := p.s.peek()
	d.KeyPos = p.tokPos(t)
	if t.kind == tEOS {
		p.fail(base.From, base.To, "empty "+st.sentinel+" directive")
	}
	switch st.sentinel {
	case "OMP":
		p.ompDirective(d)
	default:
		p.hpfDirective(d)
	}
	d.Keyword = d.Name
	return d
}

// hpfDirective parses HPF and CM Fortran directives.
func (p *parser) hpfDirective(d *Directive) {
	for _, name := range [...]string{"PROCESSORS", "TEMPLATE", "REDISTRIBUTE", "DISTRIBUTE", "REALIGN", "ALIGN",
		"INDEPENDENT", "DYNAMIC", "INHERIT", "LAYOUT", "NOSEQUENCE", "SEQUENCE", "PURE"} {
		if p.s.keyword(name) {
			d.Name = name
			break
		}
	}
	switch d.Name {
	case "PROCESSORS", "TEMPLATE":
		// Combined form: TEMPLATE, DISTRIBUTE(BLOCK) :: T(N).
		for p.s.accept(",") {
			p.attr()
		}
		p.s.accept("::")
		d.Spec = &EntitiesSpec{Entities: p.entityList(false)}
	case "DYNAMIC", "INHERIT", "SEQUENCE", "NOSEQUENCE", "PURE":
		p.s.accept("::")
		spec := &EntitiesSpec{}
		if !p.s.atEOS() {
			spec.Entities = p.entityList(false)
		}
		d.Spec = spec
	case "DISTRIBUTE", "REDISTRIBUTE":
		d.Spec = p.distribute()
	case "ALIGN", "REALIGN":
		d.Spec = p.align()
	case "INDEPENDENT":
		d.Spec = p.clauses()
		return
	case "LAYOUT":
		d.Spec = p.layout()
	default:
		t := p.s.peek()
		if t.kind != tName {
			p.fail(p.tokPos(t), p.tokEnd(t), "expected a directive name, found "+p.s.describe(t))
		}
		// An unknown directive: keep its name and clauses.
		d.Name = p.s.text(t)
		p.s.next()
		d.Spec = p.clauses()
		return
	}
	p.endOfStmt()
}

// fortranD parses the Fortran D statements DECOMPOSITION, ALIGN and
// DISTRIBUTE, written without a sentinel.
func (p *parser) fortranD(base StmtBase, partial *Stmt) Stmt {
	d := &Directive{StmtBase: base, Name: base.Keyword}
	*partial = d
	p.take(base.Keyword)
	switch base.Keyword {
	case "DECOMPOSITION":
		p.s.accept("::")
		d.Spec = &EntitiesSpec{Entities: p.entityList(false)}
	case "ALIGN":
		d.Spec = p.align()
	case "DISTRIBUTE":
		d.Spec = p.distribute()
	}
	p.endOfStmt()
	return d
}

// distribute parses the body of DISTRIBUTE: T(BLOCK, *) [ONTO P],
// (BLOCK, CYCLIC(2)) [ONTO P] :: A, B, or D(:, BLOCK).
func (p *parser) distribute() *DistributeSpec {
	spec := &DistributeSpec{}
	if !p.s.is("(") {
		t, ok := p.s.nameUntil("ONTO")
		if !ok {
			p.fail(p.tokPos(t), p.tokEnd(t), "expected the name of what is distributed, found "+p.s.describe(t))
		}
		spec.Targets = []*Ident{{NamePos: p.tokPos(t), Name: p.s.text(t)}}
	}
	if p.s.accept("(") {
		for {
			spec.Formats = append(spec.Formats, p.distFormat())
			if !p.s.accept(",") {
				break
			}
		}
		p.expect(")")
	}
	if p.s.keyword("ONTO") {
		spec.Onto = p.ident()
		if p.s.accept("(") { // ONTO P(1:4) section
			p.argList(")")
			p.expect(")")
		}
	}
	if p.s.accept("::") {
		for {
			spec.Targets = append(spec.Targets, p.ident())
			if !p.s.accept(",") {
				break
			}
		}
	}
	if len(spec.Targets) == 0 {
		t := p.s.peek()
		p.fail(p.tokPos(t), p.tokEnd(t), "DISTRIBUTE names no array or template")
	}
	return spec
}

func (p *parser) distFormat() *DistFormat {
	t := p.s.peek()
	f := &DistFormat{Pos: p.tokPos(t)}
	switch {
	case p.s.accept("*"):
		f.Kind = "*"
	case p.s.accept(":"):
		f.Kind = ":"
	case p.s.keyword("BLOCK"):
		f.Kind = "BLOCK"
	case p.s.keyword("CYCLIC"):
		f.Kind = "CYCLIC"
	case p.s.keyword("GEN_BLOCK"):
		f.Kind = "GEN_BLOCK"
	case p.s.keyword("INDIRECT"):
		f.Kind = "INDIRECT"
	default:
		p.fail(p.tokPos(t), p.tokEnd(t), "expected BLOCK, CYCLIC, '*' or ':' in a distribution, found "+p.s.describe(t))
	}
	if f.Kind != "*" && f.Kind != ":" && p.s.accept("(") {
		f.Arg = p.expr()
		p.expect(")")
	}
	return f
}

// align parses the body of ALIGN: A, B WITH D (Fortran D), A(I,J) WITH
// T(J,I) (HPF, CMF), (I,J) WITH T(I,J) :: A, B, or WITH T :: A.
func (p *parser) align() *AlignSpec {
	spec := &AlignSpec{}
	if p.s.is("(") {
		p.s.next()
		spec.HasSubs = true
		spec.Subs = p.alignSubs()
		p.expect(")")
	} else if p.s.text(p.s.peek()) != "WITH" {
		for {
			t, ok := p.s.nameUntil("WITH")
			if !ok {
				p.fail(p.tokPos(t), p.tokEnd(t), "expected the name of an aligned array, found "+p.s.describe(t))
			}
			spec.Alignees = append(spec.Alignees, &Ident{NamePos: p.tokPos(t), Name: p.s.text(t)})
			var subs []Expr
			if p.s.accept("(") {
				// Fortran D: ALIGN X(I,J), A(I,J), B(I,J) WITH D(I,J),
				// each alignee with its own dummies.
				subs = p.alignSubs()
				p.expect(")")
				if len(spec.Alignees) == 1 {
					spec.HasSubs, spec.Subs = true, subs
				}
			}
			spec.AligneeSubs = append(spec.AligneeSubs, subs)
			if !p.s.accept(",") {
				break
			}
		}
	}
	if !p.s.keyword("WITH") {
		t := p.s.peek()
		p.fail(p.tokPos(t), p.tokEnd(t), "expected WITH in ALIGN, found "+p.s.describe(t))
	}
	p.s.accept("*") // WITH *T (descriptive)
	spec.Target = p.ident()
	if p.s.accept("(") {
		spec.HasTarget = true
		spec.TargetSubs = p.alignSubs()
		p.expect(")")
	}
	if p.s.accept("::") {
		for {
			spec.Alignees = append(spec.Alignees, p.ident())
			if !p.s.accept(",") {
				break
			}
		}
	}
	if len(spec.Alignees) == 0 {
		t := p.s.peek()
		p.fail(p.tokPos(t), p.tokEnd(t), "ALIGN names no array to align")
	}
	return spec
}

// alignSubs parses align dummies and target subscripts: I, *, :, J+1, 2*I.
func (p *parser) alignSubs() []Expr {
	var subs []Expr
	for {
		switch {
		case p.s.is("*"):
			t := p.s.next()
			subs = append(subs, &Star{StarPos: p.tokPos(t)})
		default:
			subs = append(subs, p.subscript(")"))
		}
		if !p.s.accept(",") {
			return subs
		}
	}
}

// layout parses CM Fortran's LAYOUT A(:NEWS, :SERIAL) [, B(...)]...
func (p *parser) layout() *LayoutSpec {
	spec := p.layoutOne()
	// CMF$ LAYOUT T(:NEWS,:NEWS), TNEW(:NEWS,:NEWS): several arrays.
	for p.s.accept(",") {
		spec.More = append(spec.More, p.layoutOne())
	}
	return spec
}

// layoutOne parses one NAME(:NEWS, ...) of a LAYOUT directive.
func (p *parser) layoutOne() *LayoutSpec {
	spec := &LayoutSpec{Target: p.ident()}
	p.expect("(")
	for {
		p.s.accept(":")
		t := p.s.peek()
		if t.kind != tName {
			p.fail(p.tokPos(t), p.tokEnd(t), "expected NEWS, SERIAL or SEND in LAYOUT, found "+p.s.describe(t))
		}
		p.s.next()
		switch p.s.text(t) {
		case "NEWS", "SERIAL", "SEND", "BLOCK":
		default:
			p.fail(p.tokPos(t), p.tokEnd(t), "expected NEWS, SERIAL or SEND in LAYOUT, found "+p.s.describe(t))
		}
		spec.Dims = append(spec.Dims, p.s.text(t))
		if p.s.accept("=") { // a weight
			p.expr()
		}
		if !p.s.accept(",") {
			break
		}
	}
	p.expect(")")
	return spec
}

// ompNames are the OpenMP directive names, as word sequences.
var ompNames = func() [][]string {
	var out [][]string
	for _, n := range []string{
		"PARALLEL DO SIMD", "PARALLEL DO", "PARALLEL SECTIONS", "PARALLEL WORKSHARE", "PARALLEL LOOP", "PARALLEL",
		"DO SIMD", "DO", "SECTIONS", "SECTION", "SINGLE", "MASTER", "MASKED", "CRITICAL", "BARRIER",
		"ATOMIC", "FLUSH", "ORDERED", "WORKSHARE", "TASKWAIT", "TASKYIELD", "TASKGROUP", "TASKLOOP SIMD",
		"TASKLOOP", "TASK", "THREADPRIVATE", "SIMD", "DECLARE SIMD", "DECLARE REDUCTION", "DECLARE TARGET",
		"DECLARE VARIANT", "TARGET TEAMS DISTRIBUTE PARALLEL DO SIMD", "TARGET TEAMS DISTRIBUTE PARALLEL DO",
		"TARGET TEAMS DISTRIBUTE", "TARGET TEAMS LOOP", "TARGET TEAMS", "TARGET PARALLEL DO", "TARGET PARALLEL",
		"TARGET DATA", "TARGET ENTER DATA", "TARGET EXIT DATA", "TARGET UPDATE", "TARGET",
		"TEAMS DISTRIBUTE PARALLEL DO SIMD", "TEAMS DISTRIBUTE PARALLEL DO", "TEAMS DISTRIBUTE", "TEAMS LOOP",
		"TEAMS", "DISTRIBUTE PARALLEL DO SIMD", "DISTRIBUTE PARALLEL DO", "DISTRIBUTE SIMD", "DISTRIBUTE",
		"LOOP", "CANCELLATION POINT", "CANCEL", "SCAN", "SCOPE", "REQUIRES", "ALLOCATE", "DEPOBJ", "ERROR",
		"NOTHING", "INTEROP", "DISPATCH", "TILE", "UNROLL", "ASSUME", "ASSUMES",
	} {
		out = append(out, strings.Fields(n))
	}
	return out
}()

// ompDirective parses an OpenMP directive: its name (END forms included)
// and its clauses.
func (p *parser) ompDirective(d *Directive) {
	var words []string
	if p.s.keyword("END") {
		words = append(words, "END")
	}
	best := []string(nil)
	for _, name := range ompNames {
		if len(name) <= len(best) {
			continue
		}
		st := p.save()
		ok := true
		for _, w := range name {
			if !p.s.keyword(w) {
				ok = false
				break
			}
		}
		p.restore(st)
		if ok {
			best = name
		}
	}
	if best == nil {
		t := p.s.peek()
		if t.kind != tName {
			p.fail(p.tokPos(t), p.tokEnd(t), "expected an OpenMP directive name, found "+p.s.describe(t))
		}
		best = []string{p.s.text(t)}
	}
	for _, w := range best {
		p.s.keyword(w)
	}
	words = append(words, best...)
	d.Name = strings.Join(words, " ")
	d.Spec = p.clauses()
}

// clauses parses NAME[(args)] clauses separated by optional commas; a
// parenthesised list right after the directive name (THREADPRIVATE(/C/),
// FLUSH(A), DECLARE TARGET(F)) becomes a clause without a name.
func (p *parser) clauses() *ClauseSpec {
	spec := &ClauseSpec{}
	for {
		p.s.accept(",")
		t := p.s.peek()
		if t.kind == tEOS {
			return spec
		}
		c := &Clause{NamePos: p.tokPos(t)}
		switch {
		case t.kind == tOp && (p.s.text(t) == "(" || p.s.text(t) == "(/"):
			c.Args = p.parenArgs("")
		case t.kind == tName:
			p.s.next()
			c.Name = p.s.text(t)
			if u := p.s.peek(); u.kind == tOp && (p.s.text(u) == "(" || p.s.text(u) == "(/") {
				if c.Name == "REDUCTION" || c.Name == "IN_REDUCTION" || c.Name == "TASK_REDUCTION" {
					p.s.next()
					c.Op, c.Args = p.reductionArgs()
					p.expect(")")
				} else {
					c.Args = p.parenArgs(c.Name)
				}
			}
		default:
			p.fail(p.tokPos(t), p.tokEnd(t), "expected a clause, found "+p.s.describe(t))
		}
		spec.Clauses = append(spec.Clauses, c)
	}
}

// reductionArgs parses "op : names" (OpenMP) or "names" (HPF) after "(".
func (p *parser) reductionArgs() (string, []Expr) {
	close := matchParen(p.s.buf, p.s.i-1)
	colon := -1
	if close > 0 {
		for k := p.s.i; k < close; k++ {
			if p.s.buf[k] == ':' {
				colon = k
				break
			}
		}
	}
	op := ""
	if colon >= 0 {
		op = strings.TrimSpace(string(p.s.buf[p.s.i:colon]))
		p.s.i = colon + 1
		p.s.have = false
	}
	if p.s.is(")") {
		return op, nil
	}
	return op, p.argList(")")
}

// parenArgs parses a parenthesised clause argument list as expressions
// when it can, and otherwise skips to the closing parenthesis, so that a
// clause whose syntax this parser does not know (a common block /C/, a
// map-type modifier) is not an error.
func (p *parser) parenArgs(name string) []Expr {
	open := p.s.peek()
	close := matchParen(p.s.buf, int(open.s))
	if close < 0 {
		p.fail(p.tokPos(open), p.s.end, "missing ')' in directive clause")
	}
	skip := func() {
		p.s.i = close + 1
		p.s.have = false
	}
	if p.s.text(open) != "(" {
		skip()
		return nil
	}
	start := p.save()
	p.s.next()
	if p.s.is(")") {
		p.s.next()
		return nil
	}
	nerr := len(p.errs)
	var args []Expr
	ok := func() (ok bool) {
		defer func() {
			if e := recover(); e != nil {
				if _, b := e.(bailout); !b {
					panic(e)
				}
				ok = false
			}
		}()
		args = p.argList(")")
		return p.s.is(")") && int(p.s.peek().s) == close
	}()
	if ok {
		p.s.next()
		return args
	}
	p.errs = p.errs[:nerr]
	p.stmtFailed = false
	p.restore(start)
	skip()
	return nil
}
