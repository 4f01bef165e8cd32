package complexity

import (
	"fmt"
	"math/big"
	mbits "math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseError is the error Parse returns. Col is the 1-based column, counted
// in characters, where the problem was found.
type ParseError struct {
	Col int
	Msg string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("column %d: %s", e.Col, e.Msg)
}

// maxExponent bounds the exponents Parse accepts, so that a typing slip
// such as N^99999999 cannot make it work for a long time.
const maxExponent = 10000

// Parse reads a polynomial. It accepts the forms String and Unicode print
// ("57/2*M^2 + 195/2*M + 1", "93*I2.J2.LPRNT^-1", "57/2·M²") and, for
// polynomials written by hand in cost tables and tests, general
// expressions: + and - (binary and unary), * or . or · for products, /
// (the divisor must be a monomial: a single nonzero term), ^ or ** with an
// integer exponent that may be negative (only for monomials), parentheses,
// integer and decimal literals (2.5 is 5/2) and names made of letters,
// digits and underscores starting with a letter. Names are kept as
// written. So that a short text cannot keep it busy, Parse refuses powers
// whose result would be very large (a polynomial of several terms to a
// power above 100, more than 2000 terms, coefficients above 2^16 bits).
// An error is a *ParseError naming the column and the reason.
func Parse(s string) (Poly, error) {
	toks, err := lex(s)
	if err != nil {
		return Poly{}, err
	}
	ps := &polyParser{toks: toks}
	if ps.peek().kind == tEOF {
		return Poly{}, &ParseError{Col: 1, Msg: "empty polynomial"}
	}
	p, err := ps.expr()
	if err != nil {
		return Poly{}, err
	}
	if t := ps.peek(); t.kind != tEOF {
		return Poly{}, ps.errorf(t, "unexpected %s", t.describe())
	}
	return p, nil
}

// MustParse is like Parse but panics on error. It is meant for constants
// and tests.
func MustParse(s string) Poly {
	p, err := Parse(s)
	if err != nil {
		panic(fmt.Sprintf("complexity.MustParse(%q): %v", s, err))
	}
	return p
}

type tokKind int

const (
	tEOF   tokKind = iota
	tNum           // integer or decimal literal; val holds its value
	tName          // variable name; text holds it
	tOp            // one of + - * / . ^ ( ) ; text holds it ("·" becomes ".", "**" becomes "^")
	tSuper         // superscript exponent such as ⁻¹; exp holds it
)

type token struct {
	kind tokKind
	col  int
	text string
	val  *big.Rat
	exp  int
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tNum:
		return "number " + t.text
	case tName:
		return "name " + t.text
	case tSuper:
		return "superscript exponent"
	}
	return fmt.Sprintf("%q", t.text)
}

var superValue = map[rune]int{'⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9}

func isLetter(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }
func isDigit(r rune) bool  { return r >= '0' && r <= '9' }

func lex(s string) ([]token, error) {
	var toks []token
	col := 1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		start := col
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			i += size
			col++
		case isDigit(r):
			j := i
			for j < len(s) && isDigit(rune(s[j])) {
				j++
			}
			if j+1 < len(s) && s[j] == '.' && isDigit(rune(s[j+1])) {
				j++
				for j < len(s) && isDigit(rune(s[j])) {
					j++
				}
			}
			text := s[i:j]
			var v *big.Rat
			if n, err := strconv.ParseInt(text, 10, 64); err == nil {
				v = new(big.Rat).SetInt64(n)
			} else if v, _ = new(big.Rat).SetString(text); v == nil {
				return nil, &ParseError{Col: start, Msg: "bad number " + text}
			}
			toks = append(toks, token{kind: tNum, col: start, text: text, val: v})
			col += j - i
			i = j
		case isLetter(r):
			j := i
			for j < len(s) && (isLetter(rune(s[j])) || isDigit(rune(s[j])) || s[j] == '_') {
				j++
			}
			toks = append(toks, token{kind: tName, col: start, text: s[i:j]})
			col += j - i
			i = j
		case r == '*' && strings.HasPrefix(s[i:], "**"):
			toks = append(toks, token{kind: tOp, col: start, text: "^"})
			i += 2
			col += 2
		case strings.ContainsRune("+-*/.^()", r):
			toks = append(toks, token{kind: tOp, col: start, text: string(r)})
			i += size
			col++
		case r == '·' || r == '×':
			toks = append(toks, token{kind: tOp, col: start, text: "."})
			i += size
			col++
		case r == '⁻' || r == '⁺' || isSuperDigit(r):
			n, runes, bytes, err := lexSuper(s[i:], start)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tSuper, col: start, exp: n})
			i += bytes
			col += runes
		default:
			return nil, &ParseError{Col: start, Msg: fmt.Sprintf("unexpected character %q", r)}
		}
	}
	toks = append(toks, token{kind: tEOF, col: col})
	return toks, nil
}

func isSuperDigit(r rune) bool {
	_, ok := superValue[r]
	return ok
}

// lexSuper reads a superscript exponent (an optional ⁻ or ⁺ and
// superscript digits) at the start of s. It returns the exponent and how
// many characters and bytes it read.
func lexSuper(s string, col int) (n, runes, bytes int, err error) {
	neg := false
	digits := 0
	for bytes < len(s) {
		r, size := utf8.DecodeRuneInString(s[bytes:])
		if runes == 0 && (r == '⁻' || r == '⁺') {
			neg = r == '⁻'
		} else if d, ok := superValue[r]; ok {
			n = n*10 + d
			digits++
			if n > maxExponent {
				return 0, 0, 0, &ParseError{Col: col, Msg: "exponent too large"}
			}
		} else {
			break
		}
		bytes += size
		runes++
	}
	if digits == 0 {
		return 0, 0, 0, &ParseError{Col: col, Msg: "superscript sign without digits"}
	}
	if neg {
		n = -n
	}
	return n, runes, bytes, nil
}

type polyParser struct {
	toks []token
	pos  int
}

func (ps *polyParser) peek() token { return ps.toks[ps.pos] }

func (ps *polyParser) next() token {
	t := ps.toks[ps.pos]
	if t.kind != tEOF {
		ps.pos++
	}
	return t
}

func (ps *polyParser) isOp(text string) bool {
	t := ps.peek()
	return t.kind == tOp && t.text == text
}

func (ps *polyParser) errorf(t token, format string, args ...any) error {
	return &ParseError{Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

// expr := term { ("+" | "-") term }
//
// The terms are added all at once, so that reading a long polynomial
// takes one sort rather than one merge per term.
func (ps *polyParser) expr() (Poly, error) {
	p, err := ps.term()
	if err != nil {
		return Poly{}, err
	}
	if !ps.isOp("+") && !ps.isOp("-") {
		return p, nil
	}
	all := append([]term(nil), p.terms...)
	for ps.isOp("+") || ps.isOp("-") {
		op := ps.next()
		q, err := ps.term()
		if err != nil {
			return Poly{}, err
		}
		if op.text == "-" {
			q = q.Neg()
		}
		all = append(all, q.terms...)
	}
	return normalize(all), nil
}

// term := unary { ("*" | "." | "/") unary }
func (ps *polyParser) term() (Poly, error) {
	p, err := ps.unary()
	if err != nil {
		return Poly{}, err
	}
	for ps.isOp("*") || ps.isOp(".") || ps.isOp("/") {
		op := ps.next()
		at := ps.peek()
		q, err := ps.unary()
		if err != nil {
			return Poly{}, err
		}
		if op.text != "/" {
			p = p.Mul(q)
			continue
		}
		if q.IsZero() {
			return Poly{}, ps.errorf(at, "division by zero")
		}
		d, ok := p.Div(q)
		if !ok {
			return Poly{}, ps.errorf(at, "cannot divide by %s: the divisor must be a single term", q)
		}
		p = d
	}
	return p, nil
}

// unary := ("+" | "-") unary | power
func (ps *polyParser) unary() (Poly, error) {
	if ps.isOp("+") || ps.isOp("-") {
		op := ps.next()
		p, err := ps.unary()
		if err != nil {
			return Poly{}, err
		}
		if op.text == "-" {
			p = p.Neg()
		}
		return p, nil
	}
	return ps.power()
}

// power := primary [ "^" exponent | superscript ]
func (ps *polyParser) power() (Poly, error) {
	p, err := ps.primary()
	if err != nil {
		return Poly{}, err
	}
	var n int
	at := ps.peek()
	switch {
	case at.kind == tSuper:
		ps.next()
		n = at.exp
	case ps.isOp("^"):
		ps.next()
		if n, err = ps.exponent(); err != nil {
			return Poly{}, err
		}
	default:
		return p, nil
	}
	if tooLargePower(p, n) {
		return Poly{}, ps.errorf(at, "power too large")
	}
	r, ok := p.Pow(n)
	if !ok {
		if p.IsZero() {
			return Poly{}, ps.errorf(at, "negative power of zero")
		}
		return Poly{}, ps.errorf(at, "negative power of %s: only a single term can have one", p)
	}
	return r, nil
}

// Limits on what one power in a parsed expression may produce, so that a
// short text cannot make Parse work for long or exhaust memory.
const (
	maxPowerTerms = 2000    // terms of the result
	maxPowerBits  = 1 << 16 // bits of a coefficient of the result
	maxPolyPower  = 100     // exponent of a polynomial of several terms
)

// tooLargePower reports whether p^n may exceed the limits above.
func tooLargePower(p Poly, n int) bool {
	if n < 0 {
		n = -n
	}
	if n <= 1 {
		return false
	}
	bits := 0
	for _, t := range p.terms {
		b := t.coef.big()
		bits = max(bits, b.Num().BitLen()+b.Denom().BitLen())
	}
	// The terms of p^n for k terms number at most C(n+k-1, k-1), and a
	// coefficient is at most k^n times the n-th power of the largest.
	k := len(p.terms)
	if k > 1 {
		if n > maxPolyPower {
			return true
		}
		bits += mbits.Len(uint(k))
	}
	if bits*n > maxPowerBits {
		return true
	}
	count := 1
	for i := 1; i < k; i++ {
		count = count * (n + i) / i
		if count > maxPowerTerms {
			return true
		}
	}
	return false
}

// exponent := ["+" | "-"] integer | "(" ["+" | "-"] integer ")"
func (ps *polyParser) exponent() (int, error) {
	paren := ps.isOp("(")
	if paren {
		ps.next()
	}
	neg := false
	if ps.isOp("+") || ps.isOp("-") {
		neg = ps.next().text == "-"
	}
	t := ps.next()
	if t.kind != tNum || !t.val.IsInt() || strings.Contains(t.text, ".") {
		return 0, ps.errorf(t, "expected an integer exponent, found %s", t.describe())
	}
	if !t.val.Num().IsInt64() || t.val.Num().Int64() > maxExponent {
		return 0, ps.errorf(t, "exponent too large")
	}
	n := int(t.val.Num().Int64())
	if neg {
		n = -n
	}
	if paren {
		if c := ps.next(); c.kind != tOp || c.text != ")" {
			return 0, ps.errorf(c, "expected \")\", found %s", c.describe())
		}
	}
	return n, nil
}

// primary := number | name | "(" expr ")"
func (ps *polyParser) primary() (Poly, error) {
	t := ps.next()
	switch {
	case t.kind == tNum:
		return Rat(t.val), nil
	case t.kind == tName:
		return Var(t.text), nil
	case t.kind == tOp && t.text == "(":
		p, err := ps.expr()
		if err != nil {
			return Poly{}, err
		}
		if c := ps.next(); c.kind != tOp || c.text != ")" {
			return Poly{}, ps.errorf(c, "expected \")\", found %s", c.describe())
		}
		return p, nil
	}
	return Poly{}, ps.errorf(t, "expected a number, a name or \"(\", found %s", t.describe())
}
