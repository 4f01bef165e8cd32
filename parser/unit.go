package parser

import (
	"fmt"
	"sort"
)

// This file groups statements into program units and constructs.

// mark is the reader and parser state before a statement, so that a
// statement that belongs to the next unit can be given back.
type mark struct {
	pos, comments, inactive, rerrs, perrs int
	cpp                                   *cppState
}

func (p *parser) mark() mark {
	return mark{p.r.pos, len(p.r.comments), len(p.r.inactive), len(p.r.errs), len(p.errs), p.r.cpp}
}

func (p *parser) rewind(m mark) {
	p.r.pos, p.r.cpp = m.pos, m.cpp
	p.r.comments = p.r.comments[:m.comments]
	p.r.inactive = p.r.inactive[:m.inactive]
	p.r.errs = p.r.errs[:m.rerrs]
	p.errs = p.errs[:m.perrs]
}

// parseUnits parses top-level units from the absolute offset start to the
// end of the file. After each unit, reuse may hand back the rest of the
// units from an older tree, which ends the parse.
func (p *parser) parseUnits(start int, cpp *cppState, reuse func(int, *cppState) []*Unit) []*Unit {
	p.r.pos, p.r.cpp = start, cpp
	var units []*Unit
	for p.r.pos < len(p.r.src) {
		if reuse != nil && len(units) > 0 {
			if rest := reuse(p.r.pos, p.r.cpp); rest != nil {
				return append(units, rest...)
			}
		}
		u := p.parseTop()
		if u == nil {
			break
		}
		units = append(units, u)
	}
	return units
}

// parseTop parses one top-level unit starting at the reader's position.
func (p *parser) parseTop() *Unit {
	start := p.r.pos
	u := &Unit{Base: start, cpp: p.r.cpp, lead: -1}
	p.r.base = start
	p.r.comments, p.r.inactive, p.r.errs, p.errs = p.commentRoom(start), nil, nil, nil
	p.unitBody(u)
	if p.r.pos == start {
		return nil
	}
	u.Len = p.r.pos - start
	if u.lead < 0 {
		u.lead = u.Len
	}
	u.endCPP = p.r.cpp
	u.Comments = p.keepComments(p.r.comments)
	u.Inactive = p.r.inactive
	if !p.noResolve {
		p.includes = 0
		p.resolve(u)
	}
	u.Errors = append(p.r.errs, p.errs...)
	sort.SliceStable(u.Errors, func(i, j int) bool { return u.Errors[i].Pos < u.Errors[j].Pos })
	u.Errors = p.onePerLine(u.Errors, start)
	return u
}

// commentRoom returns an empty list for the comments of the unit that
// starts at start, whose room is the rest of the parse's shared chunk of
// comments: a new chunk when that is nearly full, with room for the
// file's remaining lines (a comment per line at most) up to
// maxCommentChunk, so that the comments of most files take one
// allocation instead of a growing list per unit.
func (p *parser) commentRoom(start int) []Comment {
	free := cap(p.comments) - len(p.comments)
	if free < minCommentRoom {
		lines := p.f.Lines.LineCount() - p.f.Lines.Line(start)
		p.comments = make([]Comment, 0, max(min(lines, maxCommentChunk), minCommentRoom))
	}
	return p.comments[len(p.comments):len(p.comments)]
}

// keepComments returns a unit's comments, c, with no spare capacity (so
// that appending to them copies); when c is still in the shared chunk
// (it did not outgrow the room commentRoom gave), the chunk's next free
// slot moves past them.
func (p *parser) keepComments(c []Comment) []Comment {
	if len(c) == 0 {
		return nil
	}
	if free := p.comments[len(p.comments):cap(p.comments)]; len(free) > 0 && &free[0] == &c[0] {
		p.comments = p.comments[:len(p.comments)+len(c)]
	}
	return c[:len(c):len(c)]
}

// The chunks of comments: a new one when fewer than minCommentRoom slots
// are left, with at most maxCommentChunk.
const (
	minCommentRoom  = 16
	maxCommentChunk = 1024
)

// onePerLine keeps one error per line, as go/parser does: the syntax
// error if the line has one, else the first.
func (p *parser) onePerLine(errs []Error, base int) []Error {
	if len(errs) < 2 {
		return errs
	}
	out := errs[:0:0]
	lastLine := -1
	for _, e := range errs {
		line := p.f.Lines.Line(base + int(e.Pos))
		if line == lastLine {
			if e.Code == "syntax" && out[len(out)-1].Code != "syntax" {
				out[len(out)-1] = e
			}
			continue
		}
		out = append(out, e)
		lastLine = line
	}
	return out
}

func unitKindOf(s Stmt) UnitKind {
	switch h := s.(type) {
	case *ProgramStmt:
		return UnitMain
	case *SubprogramStmt:
		if h.Function {
			return UnitFunction
		}
		return UnitSubroutine
	case *ModuleStmt:
		switch h.Keyword {
		case "MODULE":
			return UnitModule
		case "SUBMODULE":
			return UnitSubmodule
		}
		return UnitBlockData
	}
	return UnitNone
}

func headerName(s Stmt) string {
	switch h := s.(type) {
	case *ProgramStmt:
		if h.Name != nil {
			return h.Name.Name
		}
	case *SubprogramStmt:
		return h.Name.Name
	case *ModuleStmt:
		if h.Name != nil {
			return h.Name.Name
		}
	}
	return ""
}

// endsUnit reports whether an END statement can close a program unit.
func endsUnit(e *EndStmt) bool {
	switch e.What {
	case "", "PROGRAM", "SUBROUTINE", "FUNCTION", "MODULE", "SUBMODULE", "BLOCKDATA", "PROCEDURE":
		return true
	}
	return false
}

var endWords = map[UnitKind]string{
	UnitProcedure: "PROCEDURE",
	UnitMain:      "PROGRAM", UnitSubroutine: "SUBROUTINE", UnitFunction: "FUNCTION",
	UnitModule: "MODULE", UnitSubmodule: "SUBMODULE", UnitBlockData: "BLOCKDATA",
}

// unitBody reads the statements of u up to its END. A unit header that
// cannot start a contained procedure ends u (whose END is missing) and is
// given back for the next unit. It reports whether that happened.
func (p *parser) unitBody(u *Unit) (gaveBack bool) {
	// The flat list is scratch: buildBlocks copies what it keeps, so the
	// buffers are reused from unit to unit (one per nesting level).
	flat := p.takeStmts()
	defer func() { p.putStmts(flat) }()
	interfaces := 0   // depth of INTERFACE blocks
	bodies := 0       // depth of interface bodies inside them
	contains := false // CONTAINS seen
	started := u.Header != nil
	for {
		m := p.mark()
		raw := p.r.next()
		if raw == nil {
			break
		}
		if top := u.Top(); top.lead < 0 {
			top.lead = raw.lineFrom - top.Base
		}
		s := p.parseStmt(raw)
		p.stmtCount(u)
		if !started {
			switch s.(type) {
			case *CppStmt, *IncludeStmt:
				flat = append(flat, s)
				continue
			case *ProgramStmt, *SubprogramStmt, *ModuleStmt:
				u.Header, u.Kind, u.Name = s, unitKindOf(s), headerName(s)
				started = true
				continue
			}
			started = true
			u.Kind = UnitMain
		}
		switch st := s.(type) {
		case *ProgramStmt, *SubprogramStmt, *ModuleStmt:
			if interfaces > 0 {
				bodies++
				flat = append(flat, s)
				continue
			}
			// Units may contain procedures, and so may module procedures;
			// internal procedures may not.
			if contains && (u.Parent == nil || u.Parent.Parent == nil) {
				child := &Unit{Parent: u, Base: u.Base, Header: s, Kind: unitKindOf(s), Name: headerName(s)}
				gave := p.unitBody(child)
				u.Contains = append(u.Contains, child)
				if gave {
					p.missingEnd(u)
					u.Body = p.buildBlocks(u, flat)
					return true
				}
				continue
			}
			// A new unit while this one is open: its END is missing.
			p.rewind(m)
			p.missingEnd(u)
			u.Body = p.buildBlocks(u, flat)
			return true
		case *EndStmt:
			if interfaces > 0 {
				if st.What == "INTERFACE" {
					interfaces--
				} else if endsUnit(st) && bodies > 0 {
					bodies--
				}
				flat = append(flat, s)
				continue
			}
			if endsUnit(st) {
				u.EndStmt = s
				p.checkEnd(u, st)
				u.Body = p.buildBlocks(u, flat)
				return false
			}
		case *ProcedureStmt:
			if st.Module && contains && interfaces == 0 && (u.Parent == nil || u.Parent.Parent == nil) {
				// MODULE PROCEDURE NAME: a separate module procedure's body.
				child := &Unit{Parent: u, Base: u.Base, Header: s, Kind: UnitProcedure}
				if len(st.Names) > 0 {
					child.Name = st.Names[0].Name.Name
				}
				gave := p.unitBody(child)
				u.Contains = append(u.Contains, child)
				if gave {
					p.missingEnd(u)
					u.Body = p.buildBlocks(u, flat)
					return true
				}
				continue
			}
		case *InterfaceStmt:
			interfaces++
		case *SimpleStmt:
			if st.Keyword == "CONTAINS" {
				contains = true
			}
		}
		flat = append(flat, s)
	}
	if u.Kind != UnitNone && !(p.fragment && u.Header == nil) {
		p.missingEnd(u)
	}
	u.Body = p.buildBlocks(u, flat)
	return false
}

// takeStmts gives a scratch statement list for unitBody. A new one has
// room for a statement per firstStmtsBytes bytes of the text left, at
// least firstStmts and at most maxFirstStmts, so that it seldom grows.
func (p *parser) takeStmts() []Stmt {
	if n := len(p.stmtBufs); n > 0 {
		b := p.stmtBufs[n-1]
		p.stmtBufs = p.stmtBufs[:n-1]
		return b
	}
	return make([]Stmt, 0, min(max((len(p.r.src)-p.r.pos)/firstStmtsBytes, firstStmts), maxFirstStmts))
}

// The first room of a scratch statement list: LAPACK has a statement per
// 60 bytes or so (comments included), the dense generated file one per 30.
const (
	firstStmtsBytes = 64
	firstStmts      = 16
	maxFirstStmts   = 1024
)

// putStmts returns a scratch list from takeStmts, emptied.
func (p *parser) putStmts(b []Stmt) {
	clear(b)
	p.stmtBufs = append(p.stmtBufs, b[:0])
}

func (p *parser) stmtCount(u *Unit) {
	u.Top().stmts++
}

// testHook, when set by a test, is called at the start of each stage of
// a unit's analysis ("blocks", "resolve"), so that a test can make one
// stage fail and watch the failure boundary.
var testHook func(stage string, u *Unit)

// internalError reports a bug met while working on u (a recovered panic
// e) as a diagnostic on the unit's header, or its start for a main
// program without one.
func (p *parser) internalError(u *Unit, doing string, e any) {
	at, end := Pos(0), Pos(0)
	if u.Header != nil {
		at, end = u.Header.Pos(), u.Header.End()
	} else if u.Parent == nil && u.lead >= 0 && u.lead < u.Len {
		at, end = Pos(u.lead), Pos(u.lead)
	}
	what := u.Kind.String()
	if u.Name != "" {
		what += " " + u.Name
	}
	p.errorAt(at, end, "internal", fmt.Sprintf("internal error while %s %s (%v); the rest of the file is analysed as usual; please report this", doing, what, e))
}

func (p *parser) missingEnd(u *Unit) {
	at, end := Pos(0), Pos(0)
	what := "main program"
	if u.Header != nil {
		at, end = u.Header.Pos(), u.Header.End()
		what = u.Kind.String() + " " + u.Name
	}
	p.errorAt(at, end, "syntax", "missing END for "+what)
}

func (p *parser) checkEnd(u *Unit, e *EndStmt) {
	if e.What != "" && e.What != "PROCEDURE" && e.What != endWords[u.Kind] {
		p.errorAt(e.Pos(), e.End(), "syntax", fmt.Sprintf("END %s closes %s %s", e.What, u.Kind, u.Name))
		return
	}
	if e.Name != nil && u.Name != "" && e.Name.Name != u.Name {
		p.errorAt(e.Name.Pos(), e.Name.End(), "syntax", fmt.Sprintf("END %s %s does not match %s", e.What, e.Name.Name, u.Name))
	}
}

// frame is an open construct while blocks are built.
type frame struct {
	node Stmt    // *DoConstruct, *IfConstruct or *Block
	body *[]Stmt // where statements go now
	head Stmt    // the opening statement
}

// buildBlocks nests a unit's flat statement list into constructs: DO
// loops (labelled, shared terminators, END DO), IF blocks, SELECT CASE,
// WHERE, FORALL, derived types, interfaces and the F2008 blocks. It never
// fails: an unmatched END is reported and kept as a statement, and a
// construct left open at the end of the unit is reported and closed.
func (p *parser) buildBlocks(u *Unit, flat []Stmt) (out []Stmt) {
	defer func() {
		// The failure boundary of nesting: the unit keeps its statements,
		// unnested, and gets one diagnostic.
		if e := recover(); e != nil {
			if strictPanics {
				panic(e)
			}
			p.internalError(u, "nesting the constructs of", e)
			out = append([]Stmt(nil), flat...) // flat is scratch
		}
	}()
	if testHook != nil {
		testHook("blocks", u)
	}
	stack := make([]frame, 0, 16) // deep enough for most units without growing
	cur := func() *[]Stmt {
		if len(stack) == 0 {
			return &out
		}
		return stack[len(stack)-1].body
	}
	push := func(node, head Stmt, body *[]Stmt) {
		p.nodes.stmts.add(cur(), node)
		stack = append(stack, frame{node: node, body: body, head: head})
	}
	pop := func() frame {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return f
	}
	// closeTo closes every frame above index i with "missing END" errors.
	closeTo := func(i int) {
		for len(stack) > i+1 {
			f := pop()
			p.unclosed(f)
			unnestUnclosed(f, cur())
		}
	}
	find := func(match func(frame) bool) int {
		for i := len(stack) - 1; i >= 0; i-- {
			if match(stack[i]) {
				return i
			}
		}
		return -1
	}
	// closeLabel ends every labelled DO waiting for the label of s (loops
	// that share a terminal statement close together).
	closeLabel := func(s Stmt) {
		if lbl := s.Base().Label; lbl != 0 {
			for {
				i := find(func(f frame) bool {
					c, ok := f.node.(*DoConstruct)
					return ok && c.Do.EndLabel == lbl
				})
				if i < 0 {
					break
				}
				if i != len(stack)-1 {
					top := stack[len(stack)-1]
					p.errorAt(s.Pos(), s.End(), "syntax", fmt.Sprintf("label %d ends a DO loop outside the %s that is still open", lbl, describeHead(top.head)))
					closeTo(i)
				}
				pop()
			}
		}
	}
	interfaceDepth := 0
	// Constructs opened past MaxConstructDepth stay plain statements; deep
	// holds how each of them closes (by END what, or by the label of a
	// DO), innermost last.
	type closer struct {
		what  string
		label int
	}
	var deep []closer
	for _, s := range flat {
		if len(deep) > 0 || len(stack) >= MaxConstructDepth && opensConstruct(s) {
			if c, ok := constructCloser(s); ok {
				if len(deep) == 0 {
					p.errorAt(s.Pos(), s.End(), "too-large", fmt.Sprintf("too large to analyse (constructs nested more than %d deep); this one and those inside it are kept as plain statements", MaxConstructDepth))
				}
				deep = append(deep, closer{c.what, c.label})
			} else if e, ok := s.(*EndStmt); ok && e.What == deep[len(deep)-1].what && deep[len(deep)-1].label == 0 {
				deep = deep[:len(deep)-1]
			}
			p.nodes.stmts.add(cur(), s)
			if lbl := s.Base().Label; lbl != 0 && len(deep) > 0 && deep[len(deep)-1].label == lbl {
				for len(deep) > 0 && deep[len(deep)-1].label == lbl {
					deep = deep[:len(deep)-1]
				}
				if len(deep) == 0 {
					closeLabel(s) // loops outside may share the label
				}
			}
			continue
		}
		if interfaceDepth > 0 {
			// Inside an INTERFACE block only its END matters.
			if e, ok := s.(*EndStmt); ok && e.What == "INTERFACE" {
				interfaceDepth--
				if interfaceDepth == 0 {
					if i := find(func(f frame) bool { b, ok := f.head.(*InterfaceStmt); return ok && b != nil }); i >= 0 {
						closeTo(i)
						f := pop()
						f.node.(*Block).EndStmt = s
						continue
					}
				}
			}
			if _, ok := s.(*InterfaceStmt); ok {
				interfaceDepth++
			}
			p.nodes.stmts.add(cur(), s)
			continue
		}
		switch st := s.(type) {
		case *DoStmt:
			c := p.nodes.dos.new()
			c.Do = st
			// Directives just before the loop govern it.
			body := cur()
			for n := len(*body); n > 0; n-- {
				d, ok := (*body)[n-1].(*Directive)
				if !ok || !governsLoop(d) {
					break
				}
				c.Directives = append([]*Directive{d}, c.Directives...)
				*body = (*body)[:n-1]
			}
			push(c, st, &c.Body)
			continue
		case *IfThenStmt:
			if !st.Else {
				c := p.nodes.ifs.new()
				c.Arms = p.nodes.firstArm(st)
				push(c, st, &c.Arms[0].Body)
				continue
			}
			if i := find(func(f frame) bool { _, ok := f.node.(*IfConstruct); return ok }); i >= 0 && p.noDoBetween(stack, i, st) {
				closeTo(i)
				c := stack[i].node.(*IfConstruct)
				arm := p.nodes.arm(st)
				p.nodes.armLists.add(&c.Arms, arm)
				stack[i].body = &arm.Body
				continue
			}
			p.errorAt(st.Pos(), st.End(), "syntax", "ELSE IF without IF ... THEN")
		case *SimpleStmt:
			switch st.Keyword {
			case "ELSE":
				if i := find(func(f frame) bool { _, ok := f.node.(*IfConstruct); return ok }); i >= 0 && p.noDoBetween(stack, i, st) {
					closeTo(i)
					c := stack[i].node.(*IfConstruct)
					arm := p.nodes.arm(st)
					p.nodes.armLists.add(&c.Arms, arm)
					stack[i].body = &arm.Body
					continue
				}
				p.errorAt(st.Pos(), st.End(), "syntax", "ELSE without IF ... THEN")
			case "ASSOCIATE", "CRITICAL", "BLOCK", "ENUM", "STRUCTURE", "UNION", "MAP", "CHANGETEAM":
				b := &Block{Head: st}
				push(b, st, &b.Body)
				continue
			case "CASEDEFAULT", "CLASSDEFAULT", "CLASSIS", "TYPEIS":
				if p.addArm(stack, st) {
					continue
				}
			case "ENDTEAM":
				if i := find(func(f frame) bool { h, ok := f.head.(*SimpleStmt); return ok && h.Keyword == "CHANGETEAM" }); i >= 0 {
					closeTo(i)
					pop().node.(*Block).EndStmt = s
					continue
				}
			case "ENDENUM":
				if i := find(func(f frame) bool { h, ok := f.head.(*SimpleStmt); return ok && h.Keyword == "ENUM" }); i >= 0 {
					closeTo(i)
					pop().node.(*Block).EndStmt = s
					continue
				}
			}
		case *SelectStmt:
			b := &Block{Head: st}
			push(b, st, &b.Body)
			continue
		case *CaseStmt:
			if p.addArm(stack, st) {
				continue
			}
			p.errorAt(st.Pos(), st.End(), "syntax", "CASE outside SELECT CASE")
		case *WhereStmt:
			if !st.Else && st.Body == nil {
				b := &Block{Head: st}
				push(b, st, &b.Body)
				continue
			}
			if st.Else {
				if i := find(func(f frame) bool { h, ok := f.head.(*WhereStmt); return ok && !h.Else }); i >= 0 {
					closeTo(i)
					b := stack[i].node.(*Block)
					arm := p.nodes.arm(st)
					b.Arms = append(b.Arms, arm)
					stack[i].body = &arm.Body
					continue
				}
				p.errorAt(st.Pos(), st.End(), "syntax", "ELSEWHERE without WHERE")
			}
		case *ForallStmt:
			if st.Body == nil {
				b := &Block{Head: st}
				push(b, st, &b.Body)
				continue
			}
		case *DerivedTypeStmt:
			b := &Block{Head: st}
			push(b, st, &b.Body)
			continue
		case *InterfaceStmt:
			b := &Block{Head: st}
			push(b, st, &b.Body)
			interfaceDepth = 1
			continue
		case *EndStmt:
			if p.closeEnd(&stack, st, closeTo, find) {
				continue
			}
		}
		p.nodes.stmts.add(cur(), s)
		closeLabel(s)
	}
	for len(stack) > 0 {
		f := pop()
		p.unclosed(f)
		unnestUnclosed(f, cur())
	}
	return out
}

// unnestUnclosed undoes a WHERE or FORALL construct that no END closes
// (a head line cut before its statement, or an END missing): its head
// becomes a statement with an empty (bad) statement, and the statements
// it took in go back to parent, the list it ends, where they stand in
// the source. The END's absence is reported already; the statements
// after the head keep their place and their cost (a FORALL does not
// multiply the rest of the unit by its elements).
func unnestUnclosed(f frame, parent *[]Stmt) {
	b, ok := f.node.(*Block)
	if !ok || len(*parent) == 0 || (*parent)[len(*parent)-1] != Stmt(b) {
		return
	}
	at := b.Head.End()
	empty := &BadStmt{StmtBase: StmtBase{From: at, To: at, KeyPos: NoPos, LabelPos: NoPos}}
	switch h := b.Head.(type) {
	case *ForallStmt:
		if h.Body != nil {
			return
		}
		h.Body = empty
	case *WhereStmt:
		if h.Body != nil || h.Else {
			return
		}
		h.Body = empty
	default:
		return
	}
	list := append((*parent)[:len(*parent)-1], b.Head)
	list = append(list, b.Body...)
	for _, a := range b.Arms {
		list = append(list, a.Head)
		list = append(list, a.Body...)
	}
	*parent = list
}

// opensConstruct reports whether s opens a construct that buildBlocks
// nests.
func opensConstruct(s Stmt) bool {
	_, ok := constructCloser(s)
	return ok
}

// constructCloser says how the construct s opens is closed: by END what,
// or (label set) by the statement with the label of a DO.
func constructCloser(s Stmt) (c struct {
	what  string
	label int
}, ok bool) {
	switch st := s.(type) {
	case *DoStmt:
		c.what, c.label = "DO", st.EndLabel
	case *IfThenStmt:
		c.what = "IF"
		ok = !st.Else
		return c, ok
	case *SelectStmt:
		c.what = "SELECT"
	case *WhereStmt:
		c.what = "WHERE"
		ok = !st.Else && st.Body == nil
		return c, ok
	case *ForallStmt:
		c.what = "FORALL"
		ok = st.Body == nil
		return c, ok
	case *DerivedTypeStmt:
		c.what = "TYPE"
	case *InterfaceStmt:
		c.what = "INTERFACE"
	case *SimpleStmt:
		switch st.Keyword {
		case "ASSOCIATE", "CRITICAL", "BLOCK", "ENUM", "STRUCTURE", "UNION", "MAP":
			c.what = st.Keyword
		case "CHANGETEAM":
			c.what = "TEAM"
		default:
			return c, false
		}
	default:
		return c, false
	}
	return c, true
}

// governsLoop reports whether a directive applies to the DO loop that
// follows it: HPF's INDEPENDENT and OpenMP's loop directives.
func governsLoop(d *Directive) bool {
	switch d.Sentinel {
	case "HPF":
		return d.Name == "INDEPENDENT"
	case "OMP":
		switch d.Name {
		case "DO", "PARALLEL DO", "DO SIMD", "PARALLEL DO SIMD", "SIMD", "TASKLOOP", "TASKLOOP SIMD", "LOOP",
			"DISTRIBUTE", "DISTRIBUTE PARALLEL DO", "DISTRIBUTE PARALLEL DO SIMD", "TEAMS DISTRIBUTE PARALLEL DO",
			"TARGET TEAMS DISTRIBUTE PARALLEL DO", "PARALLEL LOOP", "TEAMS LOOP", "TARGET TEAMS LOOP":
			return true
		}
	}
	return false
}

// noDoBetween reports (and complains) when an ELSE would close a DO loop
// opened inside the IF block.
func (p *parser) noDoBetween(stack []frame, i int, s Stmt) bool {
	for j := i + 1; j < len(stack); j++ {
		if c, ok := stack[j].node.(*DoConstruct); ok {
			p.errorAt(s.Pos(), s.End(), "syntax", fmt.Sprintf("%s inside a DO loop that started in the IF block; missing %s", s.Base().Keyword, doEnd(c.Do)))
			return true
		}
	}
	return true
}

func doEnd(d *DoStmt) string {
	if d.EndLabel != 0 {
		return fmt.Sprintf("statement labelled %d", d.EndLabel)
	}
	return "END DO"
}

func (p *parser) addArm(stack []frame, s Stmt) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if _, ok := stack[i].head.(*SelectStmt); ok {
			for len(stack) > i+1 {
				stack = stack[:len(stack)-1]
			}
			b := stack[i].node.(*Block)
			arm := &IfArm{Head: s}
			b.Arms = append(b.Arms, arm)
			stack[i].body = &arm.Body
			return true
		}
	}
	return false
}

// closeEnd matches an END DO, END IF, ... with its construct.
func (p *parser) closeEnd(stack *[]frame, e *EndStmt, closeTo func(int), find func(func(frame) bool) int) bool {
	switch e.What {
	case "DO", "IF", "SELECT", "WHERE", "FORALL", "TYPE", "ASSOCIATE", "BLOCK", "CRITICAL", "ENUM", "STRUCTURE", "UNION", "MAP":
	default:
		return false
	}
	i := len(*stack) - 1
	for i >= 0 && !endMatches((*stack)[i], e) {
		i--
	}
	if i < 0 {
		p.errorAt(e.Pos(), e.End(), "syntax", "END "+e.What+" without a matching "+e.What)
		return false
	}
	if i != len(*stack)-1 {
		closeTo(i)
	}
	f := (*stack)[len(*stack)-1]
	*stack = (*stack)[:len(*stack)-1]
	switch c := f.node.(type) {
	case *DoConstruct:
		c.EndStmt = e
		if c.Do.EndLabel != 0 {
			// A labelled DO ended by a labelled END DO: the END DO is the
			// terminal statement. Other loops sharing the label close too.
			c.Body = append(c.Body, e)
			c.EndStmt = nil
			for {
				j := find(func(f frame) bool {
					d, ok := f.node.(*DoConstruct)
					return ok && d.Do.EndLabel == e.Label && e.Label != 0
				})
				if j < 0 || j != len(*stack)-1 {
					break
				}
				*stack = (*stack)[:len(*stack)-1]
			}
		}
	case *IfConstruct:
		c.EndStmt = e
	case *Block:
		c.EndStmt = e
	}
	return true
}

// endMatches reports whether END e.What closes the construct of frame f
// (for END DO, a block DO or a DO with e's label). It is a plain
// function, not a closure per END statement, which escaped.
func endMatches(f frame, e *EndStmt) bool {
	switch e.What {
	case "DO":
		c, ok := f.node.(*DoConstruct)
		return ok && (c.Do.EndLabel == 0 || c.Do.EndLabel == e.Label)
	case "IF":
		_, ok := f.node.(*IfConstruct)
		return ok
	case "SELECT":
		_, ok := f.head.(*SelectStmt)
		return ok
	case "WHERE":
		h, ok := f.head.(*WhereStmt)
		return ok && !h.Else
	case "FORALL":
		_, ok := f.head.(*ForallStmt)
		return ok
	case "TYPE":
		_, ok := f.head.(*DerivedTypeStmt)
		return ok
	case "ASSOCIATE", "BLOCK", "CRITICAL", "ENUM", "STRUCTURE", "UNION", "MAP":
		h, ok := f.head.(*SimpleStmt)
		return ok && h.Keyword == e.What
	}
	return false
}

func describeHead(s Stmt) string {
	switch h := s.(type) {
	case *DoStmt:
		if h.EndLabel != 0 {
			return fmt.Sprintf("DO loop ending at %d", h.EndLabel)
		}
		return "DO loop"
	case *IfThenStmt:
		return "IF block"
	}
	return s.Base().Keyword + " block"
}

func (p *parser) unclosed(f frame) {
	h := f.head
	var msg string
	switch c := f.node.(type) {
	case *DoConstruct:
		msg = "DO loop without " + doEnd(c.Do)
	case *IfConstruct:
		msg = "IF block without END IF"
	default:
		msg = h.Base().Keyword + " without END"
	}
	p.errorAt(h.Pos(), h.End(), "syntax", msg)
}
