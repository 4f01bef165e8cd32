package parser

import (
	"fmt"
	"strings"
)

// Expressions, by Fortran's precedence, loosest first: defined binary
// operators; .EQV. .NEQV.; .OR.; .AND.; .NOT.; relational; //; + and -
// (with a leading sign); * and /; ** (right-associative); defined unary
// operators; primaries.

const maxDepth = 200

var litKinds = [...]LitKind{tInt: IntLit, tReal: RealLit, tBOZ: BOZLit, tHollerith: HollerithLit}

type scanState struct {
	i    int
	have bool
	tok  token
}

func (p *parser) save() scanState      { return scanState{p.s.i, p.s.have, p.s.tok} }
func (p *parser) restore(st scanState) { p.s.i, p.s.have, p.s.tok = st.i, st.have, st.tok }

func (p *parser) tokPos(t token) Pos { return p.s.pos(int(t.s)) }
func (p *parser) tokEnd(t token) Pos { return p.s.endPos(int(t.e)) }

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		t := p.s.peek()
		p.fail(p.tokPos(t), p.tokEnd(t), "expression nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

// expr parses a full expression by precedence climbing.
func (p *parser) expr() Expr { return p.exprPrec(precDefinedBin) }

// The binding strengths of Fortran's operators, loosest first.
const (
	precDefinedBin = 1 + iota // .USER. binary
	precEquiv                 // .EQV. .NEQV. .XOR.
	precOr                    // .OR.
	precAnd                   // .AND.
	precNot                   // .NOT. (prefix)
	precRel                   // .EQ. == /= < ...
	precConcat                // //
	precAdd                   // + - (binary and prefix)
	precMul                   // * /
	precPow                   // ** (right-associative)
	precDefinedUn             // .USER. prefix
)

// opPrec gives the precedence of the binary operators among the
// scanner's fixed strings (one- and two-character operators), by id.
var opPrec = func() (t [idTwo + len(twoCharOps)]int8) {
	for id, op := range seedStrs {
		switch op {
		case "+", "-":
			t[id] = precAdd
		case "*", "/":
			t[id] = precMul
		case "**":
			t[id] = precPow
		case "//":
			t[id] = precConcat
		case "==", "/=", "<", "<=", ">", ">=":
			t[id] = precRel
		}
	}
	return t
}()

// binaryPrec returns the precedence of t as a binary operator, or 0.
func (s *scanner) binaryPrec(t token) int {
	switch t.kind {
	case tOp:
		// Operators have the fixed ids of the scanner's first strings.
		if int(t.id) < len(opPrec) {
			return int(opPrec[t.id])
		}
	case tDot:
		switch s.text(t) {
		case ".EQ.", ".NE.", ".LT.", ".LE.", ".GT.", ".GE.":
			return precRel
		case ".AND.":
			return precAnd
		case ".OR.":
			return precOr
		case ".EQV.", ".NEQV.", ".XOR.":
			return precEquiv
		case ".NOT.":
			return 0
		}
		if !isIntrinsicDot(s.text(t)) {
			return precDefinedBin
		}
	}
	return 0
}

func (p *parser) exprPrec(min int) Expr {
	p.depth++
	if p.depth > maxDepth {
		t := p.s.peek()
		p.fail(p.tokPos(t), p.tokEnd(t), "expression nested too deeply")
	}
	var x Expr
	t := p.s.peek()
	switch {
	case t.kind == tDot && p.s.text(t) == ".NOT.":
		p.s.next()
		u := p.nodes.unaries.new()
		u.OpPos, u.Op = p.tokPos(t), ".NOT."
		u.X = p.exprPrec(precRel)
		x = u
	case t.kind == tOp && (t.id == oneID('+') || t.id == oneID('-')):
		p.s.next()
		u := p.nodes.unaries.new()
		u.OpPos, u.Op = p.tokPos(t), p.s.text(t)
		u.X = p.exprPrec(precMul)
		x = u
	case t.kind == tDot && !isIntrinsicDot(p.s.text(t)):
		p.s.next()
		x = &Unary{OpPos: p.tokPos(t), Op: p.s.text(t), X: p.exprPrec(precDefinedUn)}
	default:
		x = p.primary()
	}
	for operands := 1; ; operands++ {
		t := p.s.peek()
		prec := p.s.binaryPrec(t)
		if prec == 0 || prec < min {
			break
		}
		if operands >= MaxExprOperands {
			p.failCode(p.tokPos(t), p.tokEnd(t), "too-large", fmt.Sprintf("too large to analyse (an expression of more than %d operands in a row)", MaxExprOperands))
		}
		p.s.next()
		var y Expr
		switch prec {
		case precPow:
			// Right-associative; A**-B is a common extension.
			y = p.exprPrec(precPow)
		case precRel:
			y = p.exprPrec(precConcat)
		default:
			y = p.exprPrec(prec + 1)
		}
		b := p.nodes.binaries.new()
		// Field by field: a whole-struct store to the heap goes through
		// the runtime (typedmemmove) while the collector runs.
		b.X, b.OpPos, b.Op, b.Y = x, p.tokPos(t), p.s.text(t), y
		x = b
	}
	p.depth--
	return x
}

func isIntrinsicDot(op string) bool {
	switch op {
	case ".EQ.", ".NE.", ".LT.", ".LE.", ".GT.", ".GE.", ".AND.", ".OR.", ".NOT.", ".EQV.", ".NEQV.", ".XOR.", ".TRUE.", ".FALSE.":
		return true
	}
	return len(op) > 7 && (op[:7] == ".TRUE._" || op[:7] == ".FALSE.")
}

func (p *parser) primary() Expr {
	t := p.s.peek()
	switch t.kind {
	case tName:
		p.s.next()
		return p.designatorTail(p.nodes.ident(p.tokPos(t), p.s.text(t)))
	case tInt, tReal, tBOZ, tHollerith:
		p.s.next()
		lit := p.nodes.lits.new()
		*lit = Lit{Kind: litKinds[t.kind], ValuePos: p.tokPos(t), ValueEnd: p.tokEnd(t), Value: p.s.text(t)}
		return lit
	case tString:
		p.s.next()
		if int(t.e) == len(p.s.buf) && !closedString(p.s.text(t)) {
			p.fail(p.tokPos(t), p.tokEnd(t), "unterminated character constant")
		}
		lit := p.nodes.lits.new()
		*lit = Lit{Kind: StringLit, ValuePos: p.tokPos(t), ValueEnd: p.tokEnd(t), Value: p.s.text(t)}
		// A substring of a constant: 'ABC'(1:2).
		if p.s.is("(") {
			return p.designatorTail(lit)
		}
		return lit
	case tDot:
		if strings.HasPrefix(p.s.text(t), ".TRUE.") || strings.HasPrefix(p.s.text(t), ".FALSE.") {
			p.s.next()
			lit := p.nodes.lits.new()
			*lit = Lit{Kind: LogicalLit, ValuePos: p.tokPos(t), ValueEnd: p.tokEnd(t), Value: p.s.text(t)}
			return lit
		}
	case tOp:
		switch t.id {
		case oneID('('):
			return p.parenthesised()
		case idTwo + twoParenSlash:
			p.s.next()
			items := p.itemList("/)")
			end := p.expect("/)")
			return &ArrayCons{Lpos: p.tokPos(t), Items: items, Rend: end + 2}
		case oneID('['):
			p.s.next()
			items := p.itemList("]")
			end := p.expect("]")
			return &ArrayCons{Lpos: p.tokPos(t), Items: items, Rend: end + 1}
		}
	}
	p.fail(p.tokPos(t), p.tokEnd(t), "expected an expression, found "+p.s.describe(t))
	return nil
}

func closedString(s string) bool {
	i := 0
	for i < len(s) && s[i] != '\'' && s[i] != '"' {
		i++
	}
	if i >= len(s) {
		return false
	}
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j == len(s)-1
		}
	}
	return false
}

func (s *scanner) describe(t token) string {
	switch t.kind {
	case tEOS:
		return "end of statement"
	case tName:
		return "name " + s.text(t)
	case tString:
		return "character constant"
	}
	if len(s.text(t)) > 20 {
		return "'" + s.text(t)[:20] + "...'"
	}
	return "'" + s.text(t) + "'"
}

// expect consumes the operator op or fails; it returns its position.
func (p *parser) expect(op string) Pos {
	if p.s.is(op) { // (is compares the ids of one-character operators)
		return p.tokPos(p.s.next())
	}
	t := p.s.peek()
	p.fail(p.tokPos(t), p.tokEnd(t), "expected '"+op+"', found "+p.s.describe(t))
	return NoPos
}

// designatorTail parses what may follow a name: (args), (substring),
// %component, in any order.
func (p *parser) designatorTail(x Expr) Expr {
	for {
		t := p.s.peek()
		if t.kind != tOp {
			return x
		}
		switch t.id {
		case oneID('('):
			p.s.next()
			var args []Expr
			if !p.s.is(")") {
				args = p.argList(")")
			}
			r := p.expect(")")
			c := p.nodes.calls.new()
			c.Fun, c.Lparen, c.Args, c.Rparen = x, p.tokPos(t), args, r
			x = c
		case oneID('%'):
			p.s.next()
			n := p.ident()
			x = &Component{X: x, Name: n}
		case oneID('['): // a coarray image selector
			p.s.next()
			args := p.argList("]")
			r := p.expect("]")
			x = &ImageSelector{X: x, Lbrack: p.tokPos(t), Args: args, Rbrack: r}
		default:
			return x
		}
	}
}

func (p *parser) ident() *Ident {
	t := p.s.peek()
	if t.kind != tName {
		p.fail(p.tokPos(t), p.tokEnd(t), "expected a name, found "+p.s.describe(t))
	}
	p.s.next()
	return p.nodes.ident(p.tokPos(t), p.s.text(t))
}

// argList parses actual arguments or subscripts up to (not including) the
// closing operator: expressions, triplets lo:hi:st, NAME=value, *label, *.
func (p *parser) argList(close string) []Expr {
	p.enter()
	defer p.leave()
	// The first arguments gather in a local array, whose stores need no
	// write barrier while the collector runs (the stack is not the
	// heap); a longer list moves on to a stack shared by the nested
	// lists. Either moves to the shared backing store at the end.
	var local [localArgs]Expr
	n, base := 0, -1
	for {
		a := p.arg(close)
		if n < len(local) {
			local[n] = a
			n++
		} else {
			if base < 0 {
				base = len(p.nodes.scratch)
				p.nodes.scratch = append(p.nodes.scratch, local[:]...)
			}
			p.nodes.scratch = append(p.nodes.scratch, a)
		}
		if !p.s.accept(",") {
			break
		}
	}
	if base < 0 {
		return p.nodes.exprList(local[:n])
	}
	args := p.nodes.exprList(p.nodes.scratch[base:])
	// (The stale entries above base need no clearing: the nodes they
	// point to are in the tree, and the stack dies with the parser.)
	p.nodes.scratch = p.nodes.scratch[:base]
	return args
}

// localArgs is the room of argList's local array: most argument and
// subscript lists are shorter.
const localArgs = 8

func (p *parser) arg(close string) Expr {
	t := p.s.peek()
	if c, d := p.s.after(t); t.kind == tName && c == '=' && d != '=' && d != '>' {
		p.s.next()
		p.s.next()
		{
			name := p.nodes.ident(p.tokPos(t), p.s.text(t))
			var v Expr
			if p.s.is("*") { // UNIT=*, FMT=*
				u := p.s.next()
				v = &Star{StarPos: p.tokPos(u)}
			} else {
				v = p.subscript(close)
			}
			k := p.nodes.kwArgs.new()
			k.Name, k.Value = name, v
			return k
		}
	}
	if t.kind == tOp && p.s.text(t) == "*" {
		p.s.next()
		if u := p.s.peek(); u.kind == tInt {
			p.s.next()
			return &AltReturn{StarPos: p.tokPos(t), Label: &Lit{Kind: IntLit, ValuePos: p.tokPos(u), ValueEnd: p.tokEnd(u), Value: p.s.text(u)}}
		}
		return &Star{StarPos: p.tokPos(t)}
	}
	return p.subscript(close)
}

// subscript parses an expression or a triplet.
func (p *parser) subscript(close string) Expr {
	from := p.tokPos(p.s.peek())
	var lo Expr
	if !p.s.atColon() {
		lo = p.expr()
		if !p.s.atColon() {
			return lo
		}
	}
	if p.s.accept("::") { // lo::stride
		tr := &Triplet{From: from, Lo: lo, Stride: p.expr()}
		tr.To = p.lastEnd()
		return tr
	}
	p.s.next()
	tr := &Triplet{From: from, Lo: lo}
	if !p.s.is(":") && !p.s.is(",") && !p.s.is(close) && !p.s.atEOS() {
		tr.Hi = p.expr()
	}
	if p.s.accept(":") {
		tr.Stride = p.expr()
	}
	tr.To = p.lastEnd()
	return tr
}

// atColon reports whether the next token is ":" or "::".
func (s *scanner) atColon() bool {
	t := s.peek()
	return t.kind == tOp && (t.id == oneID(':') || t.id == idTwo+twoColons)
}

// lastEnd is the end of the last token consumed.
func (p *parser) lastEnd() Pos {
	i := p.s.i
	for i > 0 && p.s.buf[i-1] == ' ' {
		i--
	}
	return p.s.endPos(i)
}

// parenthesised parses ( expr ), a complex constant (re, im), or an
// implied DO (items, I = lo, hi).
func (p *parser) parenthesised() Expr {
	l := p.s.next()
	lpos := p.tokPos(l)
	p.enter()
	defer p.leave()
	first := p.item()
	if p.s.is(")") {
		r := p.s.next()
		x := p.nodes.parens.new()
		*x = Paren{Lparen: lpos, X: first, Rparen: p.tokPos(r)}
		return x
	}
	items := []Expr{first}
	for p.s.accept(",") {
		if v, lo, hi, step, ok := p.doControl(); ok {
			r := p.expect(")")
			return &ImpliedDo{Lparen: lpos, Items: items, Var: v, Lo: lo, Hi: hi, Step: step, Rparen: r}
		}
		items = append(items, p.item())
	}
	r := p.expect(")")
	if len(items) == 2 {
		return &ComplexLit{Lparen: lpos, Re: items[0], Im: items[1], Rparen: r}
	}
	p.fail(lpos, r+1, "expected ')' after expression")
	return nil
}

// item is an element of a constructor or implied-DO list; implied DOs
// are primaries, so any expression will do.
func (p *parser) item() Expr { return p.expr() }

// doControl parses "I = lo, hi [, step]" if it comes next.
func (p *parser) doControl() (v *Ident, lo, hi, step Expr, ok bool) {
	t := p.s.peek()
	if t.kind != tName {
		return
	}
	st := p.save()
	p.s.next()
	if !p.s.is("=") {
		p.restore(st)
		return
	}
	p.s.next()
	v = &Ident{NamePos: p.tokPos(t), Name: p.s.text(t)}
	lo = p.expr()
	p.expect(",")
	hi = p.expr()
	if p.s.accept(",") {
		step = p.expr()
	}
	return v, lo, hi, step, true
}

// itemList parses constructor items up to close.
func (p *parser) itemList(close string) []Expr {
	var items []Expr
	if p.s.is(close) {
		return nil
	}
	// An optional type-spec: [REAL :: 1, 2].
	st := p.save()
	if t := p.s.peek(); t.kind == tName {
		p.s.next()
		if p.s.is("(") {
			p.s.next()
			depth := 1
			for depth > 0 && !p.s.atEOS() {
				switch p.s.text(p.s.next()) {
				case "(":
					depth++
				case ")":
					depth--
				}
			}
		}
		if !p.s.accept("::") {
			p.restore(st)
		} else if p.s.is(close) {
			return nil
		}
	}
	for {
		items = append(items, p.item())
		if !p.s.accept(",") {
			return items
		}
	}
}
