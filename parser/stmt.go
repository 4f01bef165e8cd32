package parser

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// parser parses the statements of one file.
type parser struct {
	f    *File
	r    reader
	s    scanner
	errs []Error

	stmtFailed bool
	depth      int
	fragment   bool // an INCLUDE'd file: statements need no unit around them
	noResolve  bool // no symbol tables: an INCLUDE'd file's declarations go to the including unit
	includes   int  // INCLUDEs read for the current top-level unit
	included   map[string]*File

	nodes    nodes
	stmtBufs [][]Stmt // scratch statement lists (takeStmts)
	partial  Stmt     // the statement parseStmt is building

	nestedPartial Stmt // the partial result of nested, discarded

	comments []Comment // the shared chunk of the units' comments (commentRoom)
}

// firstStmtBytes is the first room of the statement buffer: few
// statements are longer.
const firstStmtBytes = 256

// firstScratch is the first room of the stack of arguments being parsed
// (nodes.scratch): the arguments of most statements, nested lists
// included.
const firstScratch = 32

// firstSkipped is the first room of the list of lines continuations
// passes (reader.skipped): in LAPACK, a block of comments between two
// statements is seldom longer.
const firstSkipped = 32

// bailout aborts the statement being parsed after its first syntax error.
type bailout struct{}

// strictPanics makes internal errors panic instead of being reported, so
// that tests and fuzzing see them: it is on in test binaries and fixed at
// start-up (no test changes it). A parse whose Config sets
// recoverInternal (the corpus survey) keeps the recovery.
var strictPanics = testing.Testing()

// SetStrictPanics turns strict panics on or off and returns the previous
// setting. It is for tests (such as the typing simulation of the whole
// pipeline): with it on, a bug that the parser would report as an
// internal-error diagnostic panics instead, so the test sees it.
func SetStrictPanics(on bool) (was bool) {
	was, strictPanics = strictPanics, on
	return was
}

func newFileParser(f *File) *parser {
	p := &parser{f: f}
	p.r = reader{src: f.Src, form: f.Form, lineLen: f.Config.lineLength(), cfg: f.Config}
	if f.Lines != nil {
		p.r.lines = f.Lines.lines
	}
	// The statement buffer and its offsets start with room for most
	// statements instead of growing byte by byte from nothing.
	p.r.st.buf, p.r.st.off = make([]byte, 0, firstStmtBytes), make([]Pos, 0, firstStmtBytes)
	p.nodes.scratch = make([]Expr, 0, firstScratch)
	p.r.skipped = make([]skippedLine, 0, firstSkipped)
	return p
}

func (p *parser) errorAt(from, to Pos, code, msg string) {
	if to < from {
		to = from
	}
	if limit := Pos(len(p.r.src) - p.r.base); to > limit {
		to = limit
		if from > to {
			from = to
		}
	}
	p.errs = append(p.errs, Error{Pos: from, End: to, Severity: SevError, Code: code, Msg: msg})
}

// fail reports a syntax error, the first of its statement, and abandons
// the statement.
func (p *parser) fail(from, to Pos, msg string) { p.failCode(from, to, "syntax", msg) }

// failCode is fail with another diagnostic code ("too-large").
func (p *parser) failCode(from, to Pos, code, msg string) {
	if !p.stmtFailed {
		p.stmtFailed = true
		if to <= from {
			to = from + 1
		}
		p.errorAt(from, to, code, msg)
	}
	panic(bailout{})
}

// parseStmt parses one raw statement. It never panics: a syntax error
// gives the partly built statement (when its kind was already known) or a
// BadStmt.
func (p *parser) parseStmt(st *rawStmt) (res Stmt) {
	p.s.init(st)
	p.stmtFailed = false
	p.depth = 0
	base := StmtBase{From: st.from, To: st.to, Label: st.label, LabelPos: st.labelPos, KeyPos: NoPos}
	// The statement being built, for the recovery below. It lives in the
	// parser (saved and restored, in case of a nested parse): a local
	// whose address goes through the keyword table escapes, and cost one
	// allocation per statement.
	prev := p.partial
	p.partial = nil
	partial := &p.partial
	defer func() {
		partial := p.partial
		p.partial = prev
		if e := recover(); e != nil {
			clear(p.nodes.scratch) // argument lists left unfinished
			p.nodes.scratch = p.nodes.scratch[:0]
			if _, ok := e.(bailout); !ok {
				if strictPanics && (p.f.Config == nil || !p.f.Config.recoverInternal) {
					panic(e)
				}
				p.errorAt(st.from, st.to, "syntax", fmt.Sprintf("internal parser error: %v", e))
				_ = debug.Stack
			}
			if partial != nil {
				if res = completed(partial, st.to); res != nil {
					return
				}
			}
			res = &BadStmt{StmtBase: base}
		}
	}()
	if st.tooLong {
		p.errorAt(st.from, st.to, "too-large", fmt.Sprintf("too large to analyse (a statement of more than %d bytes)", MaxStatementBytes))
		return &BadStmt{StmtBase: base}
	}
	switch st.kind {
	case rawCpp:
		base.Keyword = "#" + st.cppDir
		return &CppStmt{StmtBase: base, Directive: st.cppDir, Text: st.cppRest}
	case rawDirective:
		return p.directive(st, base, partial)
	}
	return p.statement(base, partial, true)
}

// completed makes a statement abandoned after a syntax error safe to
// walk: expressions it still needs become BadExprs at the end of the
// statement (at), and a statement without the name it is about (CALL,
// ENTRY, ASSIGN) gives nil, which the caller turns into a BadStmt.
func completed(s Stmt, at Pos) Stmt {
	bad := func(x *Expr) {
		if *x == nil {
			*x = &BadExpr{From: at, To: at}
		}
	}
	switch x := s.(type) {
	case *CallStmt:
		if x.Name == nil {
			return nil
		}
	case *EntryStmt:
		if x.Name == nil {
			return nil
		}
	case *AssignLabelStmt:
		if x.Target == nil || x.Var == nil {
			return nil
		}
	case *AssignStmt:
		bad(&x.LHS)
		bad(&x.RHS)
	case *DoStmt:
		if x.Var != nil {
			bad(&x.Lo)
			bad(&x.Hi)
		}
	case *IfStmt:
		bad(&x.Cond)
		if x.Then == nil {
			x.Then = &BadStmt{StmtBase: StmtBase{From: at, To: at, KeyPos: NoPos, LabelPos: NoPos}}
		}
	case *IfThenStmt:
		bad(&x.Cond)
	case *ArithIfStmt:
		bad(&x.Cond)
	case *WhereStmt:
		if !x.Else {
			bad(&x.Mask)
		}
	case *SelectStmt:
		bad(&x.X)
	case *SimpleStmt:
		for _, a := range x.Args {
			if k, ok := a.(*KeywordArg); ok {
				bad(&k.Value)
			}
		}
	case *ForallStmt:
		if x.Header == nil {
			x.Header = &ForallHeader{Lparen: at, Rparen: at}
		}
	}
	return s
}

// statement parses an ordinary statement. top is false for the statement
// of a logical IF, WHERE or FORALL statement.
func (p *parser) statement(base StmtBase, partial *Stmt, top bool) Stmt {
	// Construct name: NAME: DO ...
	if t := p.s.peek(); t.kind == tName && top {
		if c, d := p.s.after(t); c == ':' && d != ':' {
			p.s.next()
			p.s.next()
			base.Construct = &Ident{NamePos: p.tokPos(t), Name: p.s.text(t)}
		}
	}
	p.s.skipBlanks()
	rest := p.s.buf[p.s.i:]
	if len(rest) == 0 {
		if base.Label != 0 {
			p.fail(base.LabelPos, base.LabelPos+1, "label on an empty statement")
		}
		p.fail(base.From, base.To, "empty statement")
	}
	if isAssignment(rest, !p.s.fixed) {
		return p.assignment(base, partial)
	}
	var hb [40]byte
	kw := matchKeyword(keywordHead(rest, &hb))
	if kw == nil {
		t := p.s.peek()
		if t.kind == tName && p.r.cpp.defined(p.s.text(t)) {
			// A preprocessor macro used as a statement: not expanded, not an error.
			return &BadStmt{StmtBase: base}
		}
		p.fail(p.tokPos(t), p.tokEnd(t), "unknown statement "+p.s.describe(t))
	}
	base.KeyPos = p.tokPos(p.s.peek())
	base.Keyword = kw.name
	return kw.parse(p, base, partial)
}

// keywordHead returns the leading letters and digits of a statement, with
// the blanks between words removed, upper case, at most 40 characters.
// It writes into out, so that finding a statement's keyword allocates
// nothing.
func keywordHead(b []byte, out *[40]byte) []byte {
	n := 0
	for i := 0; i < len(b) && n < len(out); i++ {
		c := b[i]
		if isNameChar(c) {
			out[n] = c
			n++
			continue
		}
		if c == ' ' && i+1 < len(b) && isLetter(b[i+1]) {
			continue
		}
		break
	}
	return out[:n]
}

// assignmentBytes holds the bytes that isAssignment looks at; it passes
// over the others (letters, digits, blanks, most operators) at once.
var assignmentBytes = func() (t [256]bool) {
	for _, c := range "'\"([)],:=H" {
		t[c] = true
	}
	return t
}()

// isAssignment reports whether a statement is an assignment (or pointer
// assignment, or statement function): a "=" at parenthesis depth 0 with
// no comma or "::" at depth 0, and not the statement of IF (...), WHERE
// (...) or FORALL (...).
func isAssignment(b []byte, free bool) bool {
	depth, eq := 0, -1
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !assignmentBytes[c] {
			continue
		}
		switch c {
		case '\'', '"':
			j := i + 1
			if k := bytes.IndexByte(b[j:], c); k >= 0 {
				j += k
			} else {
				j = len(b)
			}
			for j < len(b) {
				if b[j] == c {
					if j+1 < len(b) && b[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			i = j
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				return false
			}
		case ':':
			if depth == 0 && i+1 < len(b) && b[i+1] == ':' {
				return false
			}
		case '=':
			if i+1 < len(b) && b[i+1] == '=' {
				i++
				continue
			}
			if i > 0 && (b[i-1] == '/' || b[i-1] == '<' || b[i-1] == '>') {
				continue
			}
			if depth == 0 && eq < 0 {
				eq = i
			}
		case 'H':
			if n, ok := hollerithCount(b[:i]); ok {
				i += n
			}
		}
	}
	if eq < 0 {
		return false
	}
	for _, kw := range [...]string{"IF", "WHERE", "FORALL"} {
		j := len(kw)
		if len(b) < j || string(b[:j]) != kw {
			continue
		}
		if free && j < len(b) && b[j] == ' ' {
			j++
		}
		if j >= len(b) || b[j] != '(' {
			continue
		}
		close := matchParen(b, j)
		if close < 0 || close > eq {
			continue
		}
		k := close + 1
		for k < len(b) && b[k] == ' ' {
			k++
		}
		if k < len(b) && (b[k] == '=' || b[k] == '%' || b[k] == '(') {
			return true
		}
		return false
	}
	return true
}

// hasTopLevel reports whether b holds op outside parentheses and strings
// (b starts inside one level of parentheses, which it may close).
func hasTopLevel(b []byte, op string) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '\'', '"':
			for i++; i < len(b) && b[i] != c; i++ {
			}
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth < 0 {
				return false
			}
		default:
			if depth == 0 && c == op[0] && i+len(op) <= len(b) && string(b[i:i+len(op)]) == op {
				return true
			}
		}
	}
	return false
}

// matchParen returns the index of the ")" closing the "(" at i, or -1.
func matchParen(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '\'', '"':
			q := b[j]
			for j++; j < len(b) && b[j] != q; j++ {
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

type keyword struct {
	name  string
	parse func(p *parser, base StmtBase, partial *Stmt) Stmt
}

var keywords []keyword

func init() {
	simple := func(p *parser, base StmtBase, partial *Stmt) Stmt { return p.simpleStmt(base, partial) }
	typeDecl := func(p *parser, base StmtBase, partial *Stmt) Stmt { return p.typeDeclOrFunction(base, partial) }
	prefix := func(p *parser, base StmtBase, partial *Stmt) Stmt { return p.prefixed(base, partial) }
	nameList := func(p *parser, base StmtBase, partial *Stmt) Stmt { return p.nameList(base) }
	io := func(p *parser, base StmtBase, partial *Stmt) Stmt { return p.ioStmt(base) }
	alloc := func(p *parser, base StmtBase, partial *Stmt) Stmt { return p.allocate(base) }
	fortranD := func(p *parser, base StmtBase, partial *Stmt) Stmt {
		return p.fortranD(base, partial)
	}
	for _, k := range []string{"CONTAINS", "CONTINUE", "RETURN", "STOP", "ERRORSTOP", "EXIT", "CYCLE",
		"PAUSE", "ELSE", "SEQUENCE", "IMPORT", "CASEDEFAULT", "CLASSDEFAULT", "CLASSIS", "TYPEIS",
		"ENDENUM", "ENUM", "FINAL", "GENERIC", "SYNCALL", "SYNCIMAGES", "SYNCMEMORY", "SYNCTEAM", "FAILIMAGE",
		"ASSOCIATE", "CRITICAL", "EVENTPOST", "EVENTWAIT", "FORMTEAM", "CHANGETEAM", "ENDTEAM", "LOCK", "UNLOCK"} {
		keywords = append(keywords, keyword{k, simple})
	}
	for _, k := range []string{"INTEGER", "REAL", "DOUBLEPRECISION", "DOUBLECOMPLEX", "COMPLEX", "LOGICAL", "CHARACTER", "BYTE"} {
		keywords = append(keywords, keyword{k, typeDecl})
	}
	for _, k := range []string{"RECURSIVE", "PURE", "ELEMENTAL", "IMPURE", "NON_RECURSIVE"} {
		keywords = append(keywords, keyword{k, prefix})
	}
	for _, k := range []string{"SAVE", "EXTERNAL", "INTRINSIC", "PUBLIC", "PRIVATE", "ALLOCATABLE", "POINTER",
		"TARGET", "OPTIONAL", "INTENT", "VALUE", "VOLATILE", "PROTECTED", "ASYNCHRONOUS", "NAMELIST", "CONTIGUOUS",
		"BIND", "AUTOMATIC", "STATIC", "CODIMENSION", "ENUMERATOR"} {
		keywords = append(keywords, keyword{k, nameList})
	}
	for _, k := range []string{"READ", "WRITE", "PRINT", "OPEN", "CLOSE", "INQUIRE", "REWIND", "BACKSPACE",
		"ENDFILE", "FLUSH", "WAIT", "ACCEPT", "TYPE"} {
		keywords = append(keywords, keyword{k, io})
	}
	for _, k := range []string{"ALLOCATE", "DEALLOCATE", "NULLIFY"} {
		keywords = append(keywords, keyword{k, alloc})
	}
	for _, k := range []string{"DECOMPOSITION", "ALIGN", "DISTRIBUTE"} {
		keywords = append(keywords, keyword{k, fortranD})
	}
	for _, k := range []string{"STRUCTURE", "UNION", "MAP"} {
		keywords = append(keywords, keyword{k, (*parser).decBlock})
	}
	keywords = append(keywords,
		keyword{"RECORD", (*parser).record},
		keyword{"CLASS", typeDecl},
		keyword{"PROGRAM", (*parser).programStmt},
		keyword{"SUBROUTINE", (*parser).subprogram},
		keyword{"FUNCTION", (*parser).subprogram},
		keyword{"MODULE", (*parser).moduleStmt},
		keyword{"SUBMODULE", (*parser).moduleStmt},
		keyword{"BLOCKDATA", (*parser).moduleStmt},
		keyword{"BLOCK", (*parser).blockStmt},
		keyword{"END", (*parser).endStmt},
		keyword{"USE", (*parser).useStmt},
		keyword{"IMPLICIT", (*parser).implicit},
		keyword{"DIMENSION", (*parser).dimension},
		keyword{"PARAMETER", (*parser).parameter},
		keyword{"COMMON", (*parser).common},
		keyword{"EQUIVALENCE", (*parser).equivalence},
		keyword{"DATA", (*parser).data},
		keyword{"INTERFACE", (*parser).interfaceStmt},
		keyword{"ABSTRACTINTERFACE", (*parser).interfaceStmt},
		keyword{"PROCEDURE", (*parser).procedure},
		keyword{"DO", (*parser).doStmt},
		keyword{"IF", (*parser).ifStmt},
		keyword{"ELSEIF", (*parser).elseIf},
		keyword{"ELSEWHERE", (*parser).where},
		keyword{"WHERE", (*parser).where},
		keyword{"FORALL", (*parser).forall},
		keyword{"SELECTCASE", (*parser).selectStmt},
		keyword{"SELECTTYPE", (*parser).selectStmt},
		keyword{"SELECTRANK", (*parser).selectStmt},
		keyword{"RANK", (*parser).caseStmt},
		keyword{"CASE", (*parser).caseStmt},
		keyword{"GOTO", (*parser).gotoStmt},
		keyword{"CALL", (*parser).callStmt},
		keyword{"FORMAT", (*parser).format},
		keyword{"ASSIGN", (*parser).assignLabel},
		keyword{"ENTRY", (*parser).entry},
		keyword{"INCLUDE", (*parser).include},
	)
	// Longest first, so that ENDDO wins over END and DOUBLEPRECISION over DO.
	sort.SliceStable(keywords, func(i, j int) bool { return len(keywords[i].name) > len(keywords[j].name) })
	for i := range keywords {
		k := &keywords[i]
		if len(k.name) < 2 || !isUpper(k.name[0]) || !isUpper(k.name[1]) {
			panic("keyword " + k.name + " does not start with two letters")
		}
		b := &keywordsByLetters[k.name[0]-'A'][k.name[1]-'A']
		*b = append(*b, k)
	}
}

// keywordsByLetters indexes the keywords (longest first) by their first
// two letters: a statement's head is compared with a few keywords, not
// with all those of its first letter (END with the twenty E keywords
// longer than it).
var keywordsByLetters [26][26][]*keyword

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func matchKeyword(head []byte) *keyword {
	if len(head) < 2 || !isUpper(head[0]) || !isUpper(head[1]) {
		return nil
	}
	for _, k := range keywordsByLetters[head[0]-'A'][head[1]-'A'] {
		if len(head) >= len(k.name) && string(head[:len(k.name)]) == k.name {
			return k
		}
	}
	return nil
}

// compoundKeywords gives the words of each compound keyword.
var compoundKeywords = map[string][]string{
	"ERRORSTOP":         {"ERROR", "STOP"},
	"CASEDEFAULT":       {"CASE", "DEFAULT"},
	"CLASSDEFAULT":      {"CLASS", "DEFAULT"},
	"CLASSIS":           {"CLASS", "IS"},
	"TYPEIS":            {"TYPE", "IS"},
	"ENDENUM":           {"END", "ENUM"},
	"SYNCALL":           {"SYNC", "ALL"},
	"SYNCIMAGES":        {"SYNC", "IMAGES"},
	"SYNCMEMORY":        {"SYNC", "MEMORY"},
	"FAILIMAGE":         {"FAIL", "IMAGE"},
	"SYNCTEAM":          {"SYNC", "TEAM"},
	"EVENTPOST":         {"EVENT", "POST"},
	"EVENTWAIT":         {"EVENT", "WAIT"},
	"FORMTEAM":          {"FORM", "TEAM"},
	"CHANGETEAM":        {"CHANGE", "TEAM"},
	"ENDTEAM":           {"END", "TEAM"},
	"SELECTRANK":        {"SELECT", "RANK"},
	"RANKDEFAULT":       {"RANK", "DEFAULT"},
	"ABSTRACTINTERFACE": {"ABSTRACT", "INTERFACE"},
	"DOUBLEPRECISION":   {"DOUBLE", "PRECISION"},
	"DOUBLECOMPLEX":     {"DOUBLE", "COMPLEX"},
	"BLOCKDATA":         {"BLOCK", "DATA"},
	"SELECTCASE":        {"SELECT", "CASE"},
	"SELECTTYPE":        {"SELECT", "TYPE"},
	"ELSEIF":            {"ELSE", "IF"},
	"ELSEWHERE":         {"ELSE", "WHERE"},
	"GOTO":              {"GO", "TO"},
}

// splitKeyword gives the words of a compound keyword, or nil for a
// keyword of one word. The slices are shared: callers must not modify them.
func splitKeyword(kw string) []string {
	return compoundKeywords[kw]
}

// keywordFlex consumes a compound keyword whichever way it is written:
// as one token or as several words.
func (s *scanner) keywordFlex(kw string) bool {
	if s.keyword(kw) {
		return true
	}
	// A compound's first word starts as the compound does.
	if t := s.peek(); t.kind != tName || s.buf[t.s] != kw[0] {
		return false
	}
	parts := splitKeyword(kw)
	if len(parts) < 2 {
		return false
	}
	i, have, tok := s.i, s.have, s.tok
	for _, part := range parts {
		if !s.keyword(part) {
			s.i, s.have, s.tok = i, have, tok
			return false
		}
	}
	return true
}

func (p *parser) take(kw string) {
	if !p.s.keywordFlex(kw) {
		t := p.s.peek()
		p.fail(p.tokPos(t), p.tokEnd(t), "expected "+kw+", found "+p.s.describe(t))
	}
}

// endOfStmt fails unless the statement is complete.
func (p *parser) endOfStmt() {
	if t := p.s.peek(); t.kind != tEOS {
		p.fail(p.tokPos(t), p.tokEnd(t), "unexpected "+p.s.describe(t))
	}
}

// ---------------------------------------------------------------------------

func (p *parser) assignment(base StmtBase, partial *Stmt) Stmt {
	s := p.nodes.assigns.new()
	*s = AssignStmt{StmtBase: base}
	lhs := p.designator()
	s.LHS = lhs
	s.KeyPos = lhs.Pos()
	t := p.s.next()
	switch p.s.text(t) {
	case "=":
	case "=>":
		s.Pointer = true
	default:
		p.fail(p.tokPos(t), p.tokEnd(t), "expected '=', found "+p.s.describe(t))
	}
	*partial = s
	s.RHS = p.expr()
	p.endOfStmt()
	return s
}

// designator parses a variable reference: NAME, NAME(...)..., X%Y.
func (p *parser) designator() Expr {
	t := p.s.peek()
	if t.kind != tName {
		p.fail(p.tokPos(t), p.tokEnd(t), "expected a variable, found "+p.s.describe(t))
	}
	p.s.next()
	return p.designatorTail(p.nodes.ident(p.tokPos(t), p.s.text(t)))
}

func (p *parser) simple(base StmtBase) Stmt {
	return p.simpleStmt(base, nil)
}

// simpleStmt is simple, with the statement under construction kept in
// *partial (if not nil) where a syntax error should leave it standing:
// an ASSOCIATE cut after "NAME =>" still opens its construct and
// declares the names it got to.
func (p *parser) simpleStmt(base StmtBase, partial *Stmt) Stmt {
	p.take(base.Keyword)
	s := p.nodes.simples.new()
	s.StmtBase = base
	if partial != nil && base.Keyword == "ASSOCIATE" {
		*partial = s
	}
	switch base.Keyword {
	case "ELSE", "CONTAINS", "CONTINUE", "SEQUENCE", "CASEDEFAULT", "CLASSDEFAULT", "ENUM", "ENDENUM":
		if base.Keyword == "ENUM" {
			p.s.accept(",")
			if p.s.keyword("BIND") {
				p.s.next()
				s.Args = p.argList(")")
				p.expect(")")
			}
		}
		if base.Keyword == "CASEDEFAULT" || base.Keyword == "CLASSDEFAULT" || base.Keyword == "ELSE" {
			if t := p.s.peek(); t.kind == tName {
				p.s.next() // construct name
			}
		}
	case "EXIT", "CYCLE":
		if t := p.s.peek(); t.kind == tName {
			s.Args = []Expr{p.ident()}
		}
	case "IMPORT", "FINAL", "GENERIC":
		p.s.accept("::")
		for !p.s.atEOS() {
			p.s.next()
		}
	case "CLASSIS", "TYPEIS":
		p.expect("(")
		for depth := 1; depth > 0 && !p.s.atEOS(); {
			switch p.s.text(p.s.next()) {
			case "(":
				depth++
			case ")":
				depth--
			}
		}
		if t := p.s.peek(); t.kind == tName {
			p.s.next()
		}
	case "ASSOCIATE", "CHANGETEAM":
		p.expect("(")
		for {
			var name *Ident
			if t := p.s.peek(); t.kind == tName {
				if c, d := p.s.after(t); c == '=' && d == '>' {
					name = p.nodes.ident(p.tokPos(t), p.s.text(t))
					p.s.next()
					p.s.next()
				}
			}
			if name != nil && base.Keyword == "ASSOCIATE" {
				// An associate name is a local entity of the construct
				// (Fortran 2018 11.1.3.3): NAME => selector. It is in
				// the list before its selector is read, so that a
				// selector cut short leaves the name (completed).
				k := &KeywordArg{Name: name}
				s.Args = append(s.Args, k)
				k.Value = p.arg(")")
			} else {
				s.Args = append(s.Args, p.arg(")"))
			}
			if !p.s.accept(",") {
				break
			}
		}
		p.expect(")")
	case "CRITICAL":
		if t := p.s.peek(); t.kind == tName {
			p.s.next()
		}
	case "SYNCALL", "SYNCIMAGES", "SYNCMEMORY", "SYNCTEAM", "FAILIMAGE", "EVENTPOST", "EVENTWAIT", "FORMTEAM",
		"LOCK", "UNLOCK", "ENDTEAM":
		if p.s.accept("(") {
			if !p.s.is(")") {
				s.Args = p.argList(")")
			}
			p.expect(")")
		}
	default: // RETURN [e], STOP [code], PAUSE [code], ERROR STOP
		if !p.s.atEOS() {
			s.Args = []Expr{p.expr()}
			for p.s.accept(",") {
				s.Args = append(s.Args, p.arg(""))
			}
		}
	}
	p.endOfStmt()
	return s
}

// typeKeyword reads the type keyword that starts a type-spec.
func (p *parser) typeKeyword() *TypeSpec {
	t := p.s.peek()
	ts := p.nodes.types.new()
	ts.NamePos = p.tokPos(t)
	for _, name := range [...]string{"INTEGER", "REAL", "DOUBLEPRECISION", "DOUBLECOMPLEX", "COMPLEX", "LOGICAL", "CHARACTER", "BYTE", "TYPE", "CLASS"} {
		if p.s.keywordFlex(name) {
			ts.Name = name
			return ts
		}
	}
	p.fail(p.tokPos(t), p.tokEnd(t), "expected a type, found "+p.s.describe(t))
	return nil
}

// typeSpec parses INTEGER, REAL*8, CHARACTER*(*), CHARACTER(LEN=10,KIND=1),
// DOUBLE PRECISION, TYPE(T), CLASS(*).
func (p *parser) typeSpec() *TypeSpec {
	ts := p.typeKeyword()
	switch ts.Name {
	case "TYPE", "CLASS":
		p.expect("(")
		if p.s.is("*") {
			p.s.next()
			ts.Derived = "*"
		} else {
			u := p.s.peek()
			ts.Derived = p.ident().Name
			if p.s.is("(") { // parameterised derived type
				p.s.next()
				p.argList(")")
				p.expect(")")
			}
			_ = u
		}
		p.expect(")")
		return ts
	}
	if p.s.is("*") {
		p.s.next()
		if p.s.is("(") {
			p.s.next()
			var v Expr
			if p.s.is("*") {
				st := p.s.next()
				v = &Star{StarPos: p.tokPos(st)}
			} else if p.s.is(":") {
				st := p.s.next()
				v = &Star{StarPos: p.tokPos(st)}
			} else {
				v = p.expr()
			}
			p.expect(")")
			ts.setLen(v)
		} else {
			n, from, to, ok := p.s.digits()
			if !ok {
				t := p.s.peek()
				p.fail(p.tokPos(t), p.tokEnd(t), "expected a length after '*'")
			}
			ts.setLen(p.intLit(n, from, to))
		}
		return ts
	}
	if p.s.is("(") {
		// A kind or length selector; not an array spec, because a type
		// keyword is never followed by a dimension.
		p.s.next()
		args := p.argList(")")
		p.expect(")")
		for i, a := range args {
			if kw, ok := a.(*KeywordArg); ok {
				switch kw.Name.Name {
				case "KIND":
					ts.Kind = kw.Value
				case "LEN":
					ts.Len = kw.Value
				}
				continue
			}
			if ts.Name == "CHARACTER" && i == 0 {
				ts.Len = a
			} else {
				ts.Kind = a
			}
		}
	}
	return ts
}

func (ts *TypeSpec) setLen(v Expr) {
	if ts.Name == "CHARACTER" {
		ts.Len = v
	} else {
		ts.Kind = v
	}
}

// typeDeclOrFunction parses a type declaration, or a FUNCTION header with a
// type prefix (REAL*8 FUNCTION F(X)).
func (p *parser) typeDeclOrFunction(base StmtBase, partial *Stmt) Stmt {
	// CLASS IS / CLASS DEFAULT in SELECT TYPE are handled as SimpleStmt.
	if base.Keyword == "CLASS" && (p.s.peekKeyword("CLASSIS") || p.s.peekKeyword("CLASSDEFAULT")) {
		return p.simple(base)
	}
	st := p.save()
	ts := p.typeSpec()
	var prefix []string
	for {
		found := false
		for _, k := range [...]string{"RECURSIVE", "PURE", "ELEMENTAL", "IMPURE", "NON_RECURSIVE", "MODULE"} {
			if p.s.peekKeyword(k) && !p.s.peekKeyword("MODULEPROCEDURE") {
				// Only a prefix if FUNCTION eventually follows.
				found = true
				p.s.keyword(k)
				prefix = append(prefix, k)
				break
			}
		}
		if !found {
			break
		}
	}
	if p.s.peekKeyword("FUNCTION") {
		mark := p.save()
		p.s.keyword("FUNCTION")
		if t := p.s.peek(); t.kind == tName {
			return p.subprogramRest(base, partial, true, prefix, ts)
		}
		p.restore(mark)
	}
	if len(prefix) > 0 {
		p.restore(st)
		ts = p.typeSpec()
	}
	return p.typeDeclRest(base, ts)
}

func (p *parser) typeDeclRest(base StmtBase, ts *TypeSpec) Stmt {
	d := p.nodes.typeDecls.new()
	*d = TypeDecl{StmtBase: base, Type: ts}
	// Attributes, after a comma: REAL, DIMENSION(N), INTENT(IN) :: A. Old
	// code also writes a comma before the names: CHARACTER*1, C.
	for p.s.is(",") {
		if t := p.s.tokAfterComma(); t.kind == tName && !isAttribute(p.s.text(t)) {
			p.s.next()
			break
		}
		p.s.next()
		p.nodes.attrLists.add(&d.Attrs, p.attr())
	}
	p.s.accept("::")
	d.Entities = p.entityList(true)
	p.endOfStmt()
	return d
}

// isAttribute reports whether name is an attribute of a type declaration.
func isAttribute(name string) bool {
	switch name {
	case "DIMENSION", "CODIMENSION", "PARAMETER", "ALLOCATABLE", "POINTER", "TARGET", "SAVE", "INTENT",
		"OPTIONAL", "EXTERNAL", "INTRINSIC", "PUBLIC", "PRIVATE", "VALUE", "VOLATILE", "PROTECTED",
		"ASYNCHRONOUS", "CONTIGUOUS", "BIND", "AUTOMATIC", "STATIC", "KIND", "LEN", "DEVICE", "MANAGED",
		"PINNED", "SHARED", "CONSTANT", "NON_INTRINSIC", "DEFERRED", "NOPASS", "PASS", "NON_OVERRIDABLE":
		return true
	}
	return false
}

func (p *parser) attr() *Attr {
	t := p.s.peek()
	if t.kind != tName {
		p.fail(p.tokPos(t), p.tokEnd(t), "expected an attribute, found "+p.s.describe(t))
	}
	a := p.nodes.attrs.new()
	a.NamePos = p.tokPos(t)
	p.s.next()
	a.Name = p.s.text(t)
	switch {
	case p.s.is("(") && a.Name == "INTENT":
		p.s.next()
		a.Args = []Expr{p.intentSpec()}
		p.expect(")")
	case p.s.is("("):
		p.s.next()
		if a.Name == "DIMENSION" || a.Name == "CODIMENSION" {
			a.Dims = p.dimList()
		} else {
			a.Args = p.argList(")")
		}
		p.expect(")")
	case p.s.is("["): // CODIMENSION[*]
		p.s.next()
		a.Dims = p.dimList()
		p.expect("]")
	}
	return a
}

// intentSpec parses IN, OUT, INOUT or IN OUT.
func (p *parser) intentSpec() *Ident {
	id := p.ident()
	if id.Name == "IN" && p.s.text(p.s.peek()) == "OUT" {
		out := p.ident()
		id = &Ident{NamePos: id.NamePos, Name: "INOUT"}
		_ = out
	}
	return id
}

// entityList parses NAME[(dims)][*len][=init], ...; with init, the
// initial value may be "= expr", "=> expr" or an old-style /value/.
func (p *parser) entityList(init bool) []*Entity {
	var out []*Entity
	for {
		e := p.nodes.entities.new()
		e.Name = p.ident()
		if p.s.is("(") {
			p.s.next()
			e.Dims = p.dimList()
			p.expect(")")
		}
		if p.s.is("*") {
			p.s.next()
			if p.s.accept("(") {
				if p.s.is("*") {
					st := p.s.next()
					e.CharLen = &Star{StarPos: p.tokPos(st)}
				} else {
					e.CharLen = p.expr()
				}
				p.expect(")")
			} else {
				n, from, to, ok := p.s.digits()
				if !ok {
					t := p.s.peek()
					p.fail(p.tokPos(t), p.tokEnd(t), "expected a length after '*'")
				}
				e.CharLen = p.intLit(n, from, to)
			}
		}
		if p.s.is("(") && e.Dims == nil { // CHARACTER*8 A(10)
			p.s.next()
			e.Dims = p.dimList()
			p.expect(")")
		}
		if p.s.is("[") { // coarray codimensions
			p.s.next()
			e.Codims = p.dimList()
			p.expect("]")
		}
		if init {
			switch {
			case p.s.is("="):
				p.s.next()
				e.Init = p.expr()
			case p.s.is("=>"):
				p.s.next()
				e.Init = p.expr()
				e.Pointer = true
			case p.s.is("/"):
				p.s.next()
				vals := p.dataValues()
				if len(vals) > 0 {
					e.Init = vals[0]
				}
			}
		}
		p.nodes.entLists.add(&out, e)
		if !p.s.accept(",") {
			return out
		}
	}
}

// dimList parses array bounds: lo:hi, hi, *, lo:*, :, ..
func (p *parser) dimList() []*DimSpec {
	var out []*DimSpec
	for {
		d := p.nodes.dims.new()
		switch {
		case p.s.is(":"):
			p.s.next()
			d.Colon = true
		case p.s.is("*"):
			t := p.s.next()
			d.Upper = &Star{StarPos: p.tokPos(t)}
		case p.s.is("."): // assumed rank, written ..
			p.s.next()
			p.expect(".")
		default:
			x := p.expr()
			if p.s.accept(":") {
				d.Lower = x
				d.Colon = true
				switch {
				case p.s.is("*"):
					t := p.s.next()
					d.Upper = &Star{StarPos: p.tokPos(t)}
				case p.s.is(",") || p.s.is(")"):
				default:
					d.Upper = p.expr()
				}
			} else {
				d.Upper = x
			}
		}
		p.nodes.dimLists.add(&out, d)
		if !p.s.accept(",") {
			return out
		}
	}
}

// prefixed parses RECURSIVE/PURE/ELEMENTAL ... SUBROUTINE or FUNCTION.
func (p *parser) prefixed(base StmtBase, partial *Stmt) Stmt {
	var prefix []string
	var ts *TypeSpec
	for {
		found := false
		for _, k := range [...]string{"RECURSIVE", "PURE", "ELEMENTAL", "IMPURE", "NON_RECURSIVE", "MODULE"} {
			if p.s.keyword(k) {
				prefix = append(prefix, k)
				found = true
				break
			}
		}
		if found {
			continue
		}
		if k := matchKeyword(keywordHead(p.s.buf[p.s.i:], new([40]byte))); ts == nil && k != nil && isTypeKeyword(k.name) {
			ts = p.typeSpec()
			continue
		}
		break
	}
	switch {
	case p.s.keyword("SUBROUTINE"):
		return p.subprogramRest(base, partial, false, prefix, ts)
	case p.s.keyword("FUNCTION"):
		return p.subprogramRest(base, partial, true, prefix, ts)
	}
	t := p.s.peek()
	p.fail(p.tokPos(t), p.tokEnd(t), "expected SUBROUTINE or FUNCTION, found "+p.s.describe(t))
	return nil
}

// isTypeName reports whether a name token is a type keyword by itself
// (REAL, not REAL_FUNC), as in PROCEDURE(REAL) or ALLOCATE(REAL :: X).
func (s *scanner) isTypeName(t token) bool {
	return t.kind == tName && (isTypeKeyword(s.text(t)) || s.text(t) == "DOUBLE")
}

func isTypeKeyword(k string) bool {
	switch k {
	case "INTEGER", "REAL", "DOUBLEPRECISION", "DOUBLECOMPLEX", "COMPLEX", "LOGICAL", "CHARACTER", "BYTE", "TYPE", "CLASS":
		return true
	}
	return false
}

func (p *parser) programStmt(base StmtBase, partial *Stmt) Stmt {
	p.take("PROGRAM")
	s := &ProgramStmt{StmtBase: base}
	*partial = s
	if !p.s.atEOS() {
		s.Name = p.ident()
	}
	p.endOfStmt()
	return s
}

func (p *parser) subprogram(base StmtBase, partial *Stmt) Stmt {
	fn := p.s.keyword("FUNCTION")
	if !fn {
		p.take("SUBROUTINE")
	}
	return p.subprogramRest(base, partial, fn, nil, nil)
}

func (p *parser) subprogramRest(base StmtBase, partial *Stmt, fn bool, prefix []string, ts *TypeSpec) Stmt {
	s := &SubprogramStmt{StmtBase: base, Function: fn, Prefix: prefix, Type: ts}
	if fn {
		s.Keyword = "FUNCTION"
	} else {
		s.Keyword = "SUBROUTINE"
	}
	s.Name = p.ident()
	*partial = s
	if p.s.accept("(") {
		for !p.s.is(")") {
			if p.s.is("*") {
				t := p.s.next()
				p.nodes.exprLists.add(&s.Params, &Star{StarPos: p.tokPos(t)})
			} else {
				p.nodes.exprLists.add(&s.Params, p.ident())
			}
			if !p.s.accept(",") {
				break
			}
		}
		p.expect(")")
	}
	// Suffixes: RESULT(R), BIND(C, NAME='x'), in either order.
	for !p.s.atEOS() {
		switch {
		case p.s.keyword("RESULT"):
			p.expect("(")
			s.Result = p.ident()
			p.expect(")")
		case p.s.keyword("BIND"):
			p.expect("(")
			p.argList(")")
			p.expect(")")
		default:
			p.endOfStmt()
		}
	}
	return s
}

func (p *parser) moduleStmt(base StmtBase, partial *Stmt) Stmt {
	switch base.Keyword {
	case "MODULE":
		if p.s.peekKeyword("MODULEPROCEDURE") || p.s.peekKeyword("MODULE") && p.isModuleProcedure() {
			return p.procedure(base, partial)
		}
		// MODULE FUNCTION / MODULE SUBROUTINE (separate module procedures).
		st := p.save()
		p.s.keyword("MODULE")
		if p.s.peekKeyword("FUNCTION") || p.s.peekKeyword("SUBROUTINE") || p.s.peekKeyword("RECURSIVE") ||
			p.s.peekKeyword("PURE") || p.s.peekKeyword("ELEMENTAL") {
			p.restore(st)
			return p.prefixed(base, partial)
		}
		p.restore(st)
		p.take("MODULE")
		s := &ModuleStmt{StmtBase: base}
		*partial = s
		s.Name = p.ident()
		p.endOfStmt()
		return s
	case "SUBMODULE":
		p.take("SUBMODULE")
		s := &ModuleStmt{StmtBase: base}
		*partial = s
		p.expect("(")
		s.Parent = p.ident()
		if p.s.accept(":") {
			p.ident()
		}
		p.expect(")")
		s.Name = p.ident()
		p.endOfStmt()
		return s
	}
	p.take("BLOCKDATA")
	s := &ModuleStmt{StmtBase: base}
	*partial = s
	if !p.s.atEOS() {
		s.Name = p.ident()
	}
	p.endOfStmt()
	return s
}

func (p *parser) isModuleProcedure() bool {
	st := p.save()
	defer p.restore(st)
	p.s.keyword("MODULE")
	return p.s.keyword("PROCEDURE")
}

// decBlock parses the heads of DEC structures: STRUCTURE [/NAME/] [fields],
// UNION and MAP; their bodies are declarations, closed by END STRUCTURE,
// END UNION and END MAP.
func (p *parser) decBlock(base StmtBase, partial *Stmt) Stmt {
	p.take(base.Keyword)
	s := p.nodes.simples.new()
	s.StmtBase = base
	for !p.s.atEOS() {
		p.s.next()
	}
	return s
}

// record parses DEC's RECORD /STRUCT/ A, B(10) as a declaration of type STRUCT.
func (p *parser) record(base StmtBase, partial *Stmt) Stmt {
	p.take("RECORD")
	ts := &TypeSpec{NamePos: base.KeyPos, Name: "RECORD"}
	d := &TypeDecl{StmtBase: base, Type: ts}
	*partial = d
	for {
		p.expect("/")
		ts.Derived = p.ident().Name
		p.expect("/")
		d.Entities = append(d.Entities, p.entityList(false)...)
		if !p.s.accept(",") || !p.s.is("/") {
			break
		}
	}
	p.endOfStmt()
	return d
}

func (p *parser) blockStmt(base StmtBase, partial *Stmt) Stmt {
	p.take("BLOCK")
	s := p.nodes.simples.new()
	s.StmtBase = base
	p.endOfStmt()
	return s
}

// endWhat lists the words that may follow END, longest first.
var endWhat = []string{
	"BLOCKDATA", "SUBROUTINE", "SUBMODULE", "INTERFACE", "ASSOCIATE", "PROCEDURE", "FUNCTION", "CRITICAL",
	"STRUCTURE", "PROGRAM", "MODULE", "SELECT", "FORALL", "WHERE", "BLOCK", "UNION", "ENUM", "TYPE",
	"FILE", "MAP", "DO", "IF",
}

// endKeywords are the keywords of the END statements ("END" + what),
// made once.
var endKeywords = func() map[string]string {
	m := map[string]string{"": "END"}
	for _, w := range endWhat {
		m[w] = "END" + w
	}
	return m
}()

func endKeyword(what string) string {
	if k, ok := endKeywords[what]; ok {
		return k
	}
	return "END" + what
}

func (p *parser) endStmt(base StmtBase, partial *Stmt) Stmt {
	// ENDFILE is an I/O statement; END= in an I/O list cannot start one.
	if p.s.peekKeyword("ENDFILE") && !p.isEndFileUnitless() {
		base.Keyword = "ENDFILE"
		return p.ioStmt(base)
	}
	p.take("END")
	s := p.nodes.ends.new()
	s.StmtBase = base
	*partial = s
	// Only a name can start the word after END, and only a word of its
	// first letter (a bare END, most END DOs and END IFs try no other).
	if t := p.s.peek(); t.kind == tName {
		first := p.s.text(t)[0]
		for _, w := range endWhat {
			if w[0] == first && p.s.keywordFlex(w) {
				s.What = w
				break
			}
		}
	}
	if s.What == "BLOCK" && p.s.keyword("DATA") {
		s.What = "BLOCKDATA"
	}
	if s.What == "SELECT" {
		p.s.keyword("CASE")
		p.s.keyword("TYPE")
	}
	s.Keyword = endKeyword(s.What)
	if s.What == "INTERFACE" {
		// END INTERFACE [generic-spec]: keep the rest loosely.
		for !p.s.atEOS() {
			p.s.next()
		}
		return s
	}
	if t := p.s.peek(); t.kind == tName {
		s.Name = p.ident()
	}
	p.endOfStmt()
	return s
}

// isEndFileUnitless tells END FILE apart from nothing: "ENDFILE" with no
// unit would be an END named FILE... which only makes sense after END
// FILE; we treat ENDFILE followed by anything as the I/O statement.
func (p *parser) isEndFileUnitless() bool {
	st := p.save()
	defer p.restore(st)
	p.s.keywordFlex("ENDFILE")
	return p.s.atEOS()
}

func (p *parser) useStmt(base StmtBase, partial *Stmt) Stmt {
	p.take("USE")
	s := &UseStmt{StmtBase: base}
	if p.s.accept(",") {
		p.ident() // INTRINSIC or NON_INTRINSIC
		p.expect("::")
	} else {
		p.s.accept("::")
	}
	s.Module = p.ident()
	*partial = s
	if p.s.accept(",") {
		if p.s.keyword("ONLY") {
			p.expect(":")
			s.Only = true
			if p.s.atEOS() {
				return s
			}
		}
		for {
			r := &Rename{}
			t := p.s.peek()
			if t.kind == tName && (p.s.text(t) == "OPERATOR" || p.s.text(t) == "ASSIGNMENT") {
				// OPERATOR(.X.) [=> OPERATOR(.Y.)]
				for !p.s.atEOS() && !p.s.is(",") {
					p.s.next()
				}
			} else {
				r.Local = p.ident()
				if p.s.accept("=>") {
					r.Remote = p.ident()
				}
				s.Names = append(s.Names, r)
			}
			if !p.s.accept(",") {
				break
			}
		}
	}
	p.endOfStmt()
	return s
}

func (p *parser) implicit(base StmtBase, partial *Stmt) Stmt {
	p.take("IMPLICIT")
	s := &ImplicitStmt{StmtBase: base}
	*partial = s
	if p.s.keyword("NONE") {
		s.None = true
		if p.s.accept("(") { // IMPLICIT NONE (TYPE, EXTERNAL)
			for !p.s.is(")") && !p.s.atEOS() {
				p.s.next()
			}
			p.expect(")")
		}
		p.endOfStmt()
		return s
	}
	for {
		rule := &ImplicitRule{Type: p.implicitType()}
		p.expect("(")
		for {
			a := p.letter()
			b := a
			if p.s.accept("-") {
				b = p.letter()
			}
			rule.Ranges = append(rule.Ranges, [2]byte{a, b})
			if !p.s.accept(",") {
				break
			}
		}
		p.expect(")")
		s.Rules = append(s.Rules, rule)
		if !p.s.accept(",") {
			break
		}
	}
	p.endOfStmt()
	return s
}

// implicitType parses the type of an IMPLICIT rule. REAL (A-H) must not
// take (A-H) as a kind selector, so a parenthesis after the type is a kind
// only when another parenthesis follows it.
func (p *parser) implicitType() *TypeSpec {
	ts := p.typeKeyword()
	if ts.Name == "TYPE" || ts.Name == "CLASS" {
		p.expect("(")
		if p.s.accept("*") {
			ts.Derived = "*"
		} else {
			ts.Derived = p.ident().Name
		}
		p.expect(")")
		return ts
	}
	if p.s.accept("*") {
		if p.s.accept("(") {
			if p.s.is("*") {
				p.s.next()
			} else {
				ts.setLen(p.expr())
			}
			p.expect(")")
		} else {
			n, from, to, _ := p.s.digits()
			ts.setLen(p.intLit(n, from, to))
		}
		return ts
	}
	if p.s.is("(") {
		st := p.save()
		p.s.next()
		close := matchParen(p.s.buf, int(st.tok.s))
		if close >= 0 {
			k := close + 1
			for k < len(p.s.buf) && p.s.buf[k] == ' ' {
				k++
			}
			if k < len(p.s.buf) && p.s.buf[k] == '(' {
				args := p.argList(")")
				p.expect(")")
				if len(args) > 0 {
					if kw, ok := args[0].(*KeywordArg); ok {
						ts.setLen(kw.Value)
					} else {
						ts.setLen(args[0])
					}
				}
				return ts
			}
		}
		p.restore(st)
	}
	return ts
}

func (p *parser) letter() byte {
	t := p.s.peek()
	if t.kind != tName || len(p.s.text(t)) != 1 {
		// In fixed form "A-H" reads as one name "A" only if blanks split it;
		// a name like "AH" can't be a letter range.
		p.fail(p.tokPos(t), p.tokEnd(t), "expected a letter, found "+p.s.describe(t))
	}
	p.s.next()
	return p.s.text(t)[0]
}

func (p *parser) dimension(base StmtBase, partial *Stmt) Stmt {
	p.take("DIMENSION")
	p.s.accept("::")
	s := &DimensionStmt{StmtBase: base}
	*partial = s
	s.Entities = p.entityList(false)
	p.endOfStmt()
	return s
}

func (p *parser) parameter(base StmtBase, partial *Stmt) Stmt {
	p.take("PARAMETER")
	s := &ParameterStmt{StmtBase: base}
	*partial = s
	paren := p.s.accept("(") // DEC allows PARAMETER N = 1 without parentheses
	for {
		name := p.ident()
		p.expect("=")
		k := p.nodes.kwArgs.new()
		k.Name, k.Value = name, p.expr()
		s.Defs = append(s.Defs, k)
		if !p.s.accept(",") {
			break
		}
	}
	if paren {
		p.expect(")")
	}
	p.endOfStmt()
	return s
}

func (p *parser) common(base StmtBase, partial *Stmt) Stmt {
	p.take("COMMON")
	s := &CommonStmt{StmtBase: base}
	*partial = s
	for !p.s.atEOS() {
		b := &CommonBlock{}
		if p.s.accept("//") {
		} else if p.s.accept("/") {
			if !p.s.is("/") {
				b.Name = p.ident()
			}
			p.expect("/")
		} else if len(s.Blocks) > 0 {
			p.fail(p.tokPos(p.s.peek()), p.tokEnd(p.s.peek()), "expected '/' before a COMMON block name")
		}
		for {
			e := p.nodes.entities.new()
			e.Name = p.ident()
			if p.s.accept("(") {
				e.Dims = p.dimList()
				p.expect(")")
			}
			p.nodes.entLists.add(&b.Entities, e)
			if !p.s.accept(",") {
				break
			}
			if p.s.is("/") || p.s.is("//") {
				break
			}
		}
		s.Blocks = append(s.Blocks, b)
	}
	p.endOfStmt()
	return s
}

func (p *parser) equivalence(base StmtBase, partial *Stmt) Stmt {
	p.take("EQUIVALENCE")
	s := &EquivalenceStmt{StmtBase: base}
	*partial = s
	for {
		p.expect("(")
		var set []Expr
		for {
			set = append(set, p.designator())
			if !p.s.accept(",") {
				break
			}
		}
		p.expect(")")
		s.Sets = append(s.Sets, set)
		if !p.s.accept(",") {
			break
		}
	}
	p.endOfStmt()
	return s
}

func (p *parser) data(base StmtBase, partial *Stmt) Stmt {
	p.take("DATA")
	s := &DataStmt{StmtBase: base}
	*partial = s
	for !p.s.atEOS() {
		set := &DataSet{}
		for {
			if p.s.is("(") {
				set.Objects = append(set.Objects, p.parenthesised())
			} else {
				set.Objects = append(set.Objects, p.designator())
			}
			if !p.s.accept(",") {
				break
			}
		}
		p.expect("/")
		set.Values = p.dataValues()
		s.Sets = append(s.Sets, set)
		p.s.accept(",")
	}
	return s
}

// dataValues parses [r*]constant, ... up to and including the closing "/".
func (p *parser) dataValues() []Expr {
	var vals []Expr
	for {
		v := p.dataConstant()
		if p.s.is("*") {
			t := p.s.next()
			v = &Binary{X: v, OpPos: p.tokPos(t), Op: "*", Y: p.dataConstant()}
		}
		vals = append(vals, v)
		if !p.s.accept(",") {
			break
		}
	}
	if p.s.is("/)") { // "/)" lexed together: DATA X/1/) can't occur, but (/ /) can
		p.fail(p.tokPos(p.s.peek()), p.tokEnd(p.s.peek()), "unexpected '/)'")
	}
	p.expect("/")
	return vals
}

func (p *parser) dataConstant() Expr {
	t := p.s.peek()
	if t.kind == tOp && (p.s.text(t) == "-" || p.s.text(t) == "+") {
		p.s.next()
		return &Unary{OpPos: p.tokPos(t), Op: p.s.text(t), X: p.dataConstant()}
	}
	if t.kind == tName {
		// A named constant, or a structure constructor T(1, 2).
		p.s.next()
		return p.designatorTail(p.nodes.ident(p.tokPos(t), p.s.text(t)))
	}
	return p.primary()
}

func (p *parser) interfaceStmt(base StmtBase, partial *Stmt) Stmt {
	p.take(base.Keyword)
	s := &InterfaceStmt{StmtBase: base}
	s.Keyword = "INTERFACE"
	if t := p.s.peek(); t.kind == tName {
		s.Name = p.ident()
	}
	// OPERATOR(+), ASSIGNMENT(=): keep loosely.
	for !p.s.atEOS() {
		p.s.next()
	}
	return s
}

func (p *parser) procedure(base StmtBase, partial *Stmt) Stmt {
	s := &ProcedureStmt{StmtBase: base}
	s.Module = p.s.keyword("MODULE")
	p.take("PROCEDURE")
	s.Keyword = "PROCEDURE"
	*partial = s
	if p.s.accept("(") {
		if !p.s.is(")") {
			if t := p.s.peek(); p.s.isTypeName(t) {
				ts := p.typeSpec()
				s.Iface = &Ident{NamePos: ts.NamePos, Name: ts.Name}
			} else {
				s.Iface = p.ident()
			}
		}
		p.expect(")")
	}
	for p.s.accept(",") {
		s.Attrs = append(s.Attrs, p.attr())
	}
	p.s.accept("::")
	if !p.s.atEOS() {
		s.Names = p.entityList(true)
	}
	p.endOfStmt()
	return s
}

func (p *parser) nameList(base StmtBase) Stmt {
	p.take(base.Keyword)
	s := p.nodes.nameLists.new()
	s.StmtBase = base
	if p.s.is("(") { // INTENT(IN), BIND(C)
		p.s.next()
		s.Args = p.argList(")")
		p.expect(")")
	}
	if base.Keyword == "NAMELIST" {
		for !p.s.atEOS() {
			p.expect("/")
			s.Args = append(s.Args, p.ident())
			p.expect("/")
			for {
				p.nodes.exprLists.add(&s.Names, p.ident())
				if !p.s.accept(",") || p.s.is("/") {
					break
				}
			}
		}
		return s
	}
	if base.Keyword == "ENUMERATOR" {
		p.s.accept("::")
		for _, e := range p.entityList(true) {
			p.nodes.exprLists.add(&s.Names, e.Name)
		}
		p.endOfStmt()
		return s
	}
	p.s.accept("::")
	for !p.s.atEOS() {
		switch {
		case p.s.is("/"): // SAVE /BLOCK/
			p.s.next()
			n := p.ident()
			p.expect("/")
			p.nodes.exprLists.add(&s.Names, &Call{Fun: &Ident{NamePos: n.NamePos, Name: "/"}, Lparen: n.NamePos, Args: []Expr{n}, Rparen: n.End()})
		case p.isGenericSpec():
			// OPERATOR(+), ASSIGNMENT(=), READ(FORMATTED): skip the spec.
			t := p.s.next()
			close := matchParen(p.s.buf, int(p.s.peek().s))
			if close < 0 {
				p.fail(p.tokPos(t), p.s.end, "missing ')'")
			}
			p.s.i, p.s.have = close+1, false
		default:
			x := p.designator() // POINTER A(:), TARGET B(10)
			p.nodes.exprLists.add(&s.Names, x)
		}
		if !p.s.accept(",") {
			break
		}
	}
	p.endOfStmt()
	return s
}

// isGenericSpec reports whether OPERATOR(..), ASSIGNMENT(=), READ(..) or
// WRITE(..) comes next.
func (p *parser) isGenericSpec() bool {
	t := p.s.peek()
	if t.kind != tName {
		return false
	}
	switch p.s.text(t) {
	case "OPERATOR", "ASSIGNMENT", "READ", "WRITE":
		c, _ := p.s.after(t)
		return c == '('
	}
	return false
}

func (p *parser) doStmt(base StmtBase, partial *Stmt) Stmt {
	p.take("DO")
	s := p.nodes.doStmts.new()
	s.StmtBase, s.EndLabelAt = base, NoPos
	*partial = s
	if n, from, _, ok := p.s.digits(); ok {
		s.EndLabel, s.EndLabelAt = n, from
		if n == 0 {
			p.fail(from, from+1, "DO terminal label must not be zero")
		}
	}
	p.s.accept(",")
	switch {
	case p.s.atEOS():
		return s
	case p.s.keyword("WHILE"):
		p.expect("(")
		s.While = p.expr()
		p.expect(")")
	case p.s.keyword("CONCURRENT"):
		s.Concurrent = p.forallHeader()
	default:
		s.Var = p.ident()
		p.expect("=")
		s.Lo = p.expr()
		p.expect(",")
		s.Hi = p.expr()
		if p.s.accept(",") {
			s.Step = p.expr()
		}
	}
	p.endOfStmt()
	return s
}

func (p *parser) forallHeader() *ForallHeader {
	h := &ForallHeader{Lparen: p.expect("(")}
	// An optional type-spec: (INTEGER :: I = 1:N).
	st := p.save()
	if t := p.s.peek(); p.s.isTypeName(t) {
		p.typeSpec()
		if !p.s.accept("::") {
			p.restore(st)
		}
	}
	for {
		t := p.s.peek()
		if t.kind == tName {
			mark := p.save()
			p.s.next()
			if p.s.is("=") {
				p.s.next()
				spec := &ForallSpec{Var: &Ident{NamePos: p.tokPos(t), Name: p.s.text(t)}}
				spec.Lo = p.expr()
				p.expect(":")
				spec.Hi = p.expr()
				if p.s.accept(":") {
					spec.Stride = p.expr()
				}
				h.Specs = append(h.Specs, spec)
				if !p.s.accept(",") {
					break
				}
				continue
			}
			p.restore(mark)
		}
		h.Mask = p.expr()
		break
	}
	h.Rparen = p.expect(")")
	return h
}

func (p *parser) ifStmt(base StmtBase, partial *Stmt) Stmt {
	p.take("IF")
	p.expect("(")
	cond := p.expr()
	p.expect(")")
	if p.s.keyword("THEN") {
		s := p.nodes.ifThens.new()
		s.StmtBase, s.Cond = base, cond
		p.endOfStmt()
		return s
	}
	// Arithmetic IF: IF (e) l1, l2, l3.
	if t := p.s.peek(); t.kind == tInt {
		s := &ArithIfStmt{StmtBase: base, Cond: cond}
		for i := 0; i < 3; i++ {
			if i > 0 {
				if !p.s.accept(",") && i == 2 {
					break
				}
			}
			n, from, to, ok := p.s.digits()
			if !ok {
				u := p.s.peek()
				p.fail(p.tokPos(u), p.tokEnd(u), "expected a label, found "+p.s.describe(u))
			}
			s.Labels[i] = p.intLit(n, from, to)
		}
		p.endOfStmt()
		return s
	}
	s := p.nodes.ifStmts.new()
	s.StmtBase, s.Cond = base, cond
	*partial = s
	s.Then = p.nested(base)
	return s
}

// nested parses the statement of a logical IF, WHERE or FORALL statement.
func (p *parser) nested(outer StmtBase) Stmt {
	t := p.s.peek()
	if t.kind == tEOS {
		p.fail(p.tokPos(t), p.tokPos(t)+1, "expected a statement")
	}
	base := StmtBase{From: p.tokPos(t), To: outer.To, KeyPos: NoPos, LabelPos: NoPos}
	// The nested statement's partial result is not kept (the IF, WHERE
	// or FORALL statement is); it goes to a field of the parser, since a
	// local whose address is passed on escapes and costs an allocation.
	s := p.statement(base, &p.nestedPartial, false)
	p.nestedPartial = nil
	switch s.(type) {
	case *IfThenStmt, *DoStmt, *EndStmt, *SubprogramStmt, *ProgramStmt, *ModuleStmt:
		p.fail(s.Pos(), s.End(), "this statement cannot be the statement of a logical IF")
	}
	if is, ok := s.(*IfStmt); ok {
		p.fail(is.Pos(), is.End(), "a logical IF cannot contain another")
	}
	return s
}

func (p *parser) elseIf(base StmtBase, partial *Stmt) Stmt {
	p.take("ELSEIF")
	s := p.nodes.ifThens.new()
	s.StmtBase, s.Else = base, true
	*partial = s
	p.expect("(")
	s.Cond = p.expr()
	p.expect(")")
	p.take("THEN")
	if t := p.s.peek(); t.kind == tName {
		p.s.next()
	}
	p.endOfStmt()
	return s
}

func (p *parser) where(base StmtBase, partial *Stmt) Stmt {
	s := &WhereStmt{StmtBase: base}
	*partial = s
	if base.Keyword == "ELSEWHERE" {
		p.take("ELSEWHERE")
		s.Else = true
		if p.s.accept("(") {
			s.Mask = p.expr()
			p.expect(")")
		}
		if t := p.s.peek(); t.kind == tName {
			p.s.next()
		}
		p.endOfStmt()
		return s
	}
	p.take("WHERE")
	p.expect("(")
	s.Mask = p.expr()
	p.expect(")")
	if !p.s.atEOS() {
		s.Body = p.cutBody(base)
		s.Body = p.nested(base)
	}
	return s
}

// cutBody is the statement of a WHERE or FORALL statement while it is
// parsed: when it has a syntax error (a line cut mid-expression), the
// WHERE or FORALL keeps it and stays a statement, never the head of a
// construct that would take in the statements after it.
func (p *parser) cutBody(outer StmtBase) Stmt {
	at := p.tokPos(p.s.peek())
	return &BadStmt{StmtBase: StmtBase{From: at, To: outer.To, KeyPos: NoPos, LabelPos: NoPos}}
}

func (p *parser) forall(base StmtBase, partial *Stmt) Stmt {
	p.take("FORALL")
	s := &ForallStmt{StmtBase: base}
	*partial = s
	s.Header = p.forallHeader()
	if !p.s.atEOS() {
		s.Body = p.cutBody(base)
		s.Body = p.nested(base)
	}
	return s
}

func (p *parser) selectStmt(base StmtBase, partial *Stmt) Stmt {
	p.take(base.Keyword)
	s := &SelectStmt{StmtBase: base}
	*partial = s
	p.expect("(")
	if t := p.s.peek(); t.kind == tName {
		if c, d := p.s.after(t); c == '=' && d == '>' { // an associate name
			s.Assoc = p.nodes.ident(p.tokPos(t), p.s.text(t))
			p.s.next()
			p.s.next()
		}
	}
	s.X = p.arg(")")
	p.expect(")")
	p.endOfStmt()
	return s
}

func (p *parser) caseStmt(base StmtBase, partial *Stmt) Stmt {
	if base.Keyword == "RANK" {
		p.take("RANK")
		s := &CaseStmt{StmtBase: base}
		if p.s.keyword("DEFAULT") {
			s.Default = true
		} else {
			p.expect("(")
			if p.s.is("*") {
				t := p.s.next()
				s.Values = []Expr{&Star{StarPos: p.tokPos(t)}}
			} else {
				s.Values = p.argList(")")
			}
			p.expect(")")
		}
		if t := p.s.peek(); t.kind == tName {
			p.s.next()
		}
		p.endOfStmt()
		return s
	}
	if p.s.peekKeyword("CASEDEFAULT") || p.s.keywordFlex("CASEDEFAULT") {
		s := &CaseStmt{StmtBase: base, Default: true}
		p.s.keywordFlex("CASEDEFAULT")
		if t := p.s.peek(); t.kind == tName {
			p.s.next()
		}
		p.endOfStmt()
		return s
	}
	p.take("CASE")
	s := &CaseStmt{StmtBase: base}
	*partial = s
	if p.s.keyword("DEFAULT") {
		s.Default = true
	} else {
		p.expect("(")
		s.Values = p.argList(")")
		p.expect(")")
	}
	if t := p.s.peek(); t.kind == tName {
		p.s.next()
	}
	p.endOfStmt()
	return s
}

// intLit makes the integer literal n (a label, a length) that the
// scanner read digit by digit from [from, to): its Value is n in decimal,
// interned like the numbers the lexer reads.
func (p *parser) intLit(n int, from, to Pos) *Lit {
	var b [20]byte
	lit := p.nodes.lits.new()
	lit.Kind, lit.ValuePos, lit.ValueEnd = IntLit, from, to
	lit.Value = p.s.str(p.s.intern(strconv.AppendInt(b[:0], int64(n), 10)))
	return lit
}

func (p *parser) label() *Lit {
	n, from, to, ok := p.s.digits()
	if !ok {
		t := p.s.peek()
		p.fail(p.tokPos(t), p.tokEnd(t), "expected a label, found "+p.s.describe(t))
	}
	return p.intLit(n, from, to)
}

func (p *parser) gotoStmt(base StmtBase, partial *Stmt) Stmt {
	p.take("GOTO")
	s := p.nodes.gotos.new()
	s.StmtBase = base
	*partial = s
	switch t := p.s.peek(); {
	case t.kind == tInt:
		s.Labels = []*Lit{p.label()}
	case t.kind == tOp && p.s.text(t) == "(":
		p.s.next()
		for {
			s.Labels = append(s.Labels, p.label())
			if !p.s.accept(",") {
				break
			}
		}
		p.expect(")")
		p.s.accept(",")
		s.X = p.expr()
	default:
		s.Assigned = true
		s.X = p.ident()
		p.s.accept(",")
		if p.s.accept("(") {
			for {
				s.Labels = append(s.Labels, p.label())
				if !p.s.accept(",") {
					break
				}
			}
			p.expect(")")
		}
	}
	p.endOfStmt()
	return s
}

func (p *parser) callStmt(base StmtBase, partial *Stmt) Stmt {
	p.take("CALL")
	s := p.nodes.callStmts.new()
	*s = CallStmt{StmtBase: base, Lparen: NoPos, Rparen: NoPos}
	s.Name = p.ident()
	*partial = s // only with its name: CALL alone is a BadStmt
	// CALL X(I)%PROC(...), CALL A%B%C: type-bound procedures.
	if p.s.is("%") || p.s.is("(") && p.isBoundCall() {
		d := p.designatorTail(s.Name)
		if call, ok := d.(*Call); ok {
			s.Proc = call.Fun
			s.Lparen, s.Args, s.Rparen = call.Lparen, call.Args, call.Rparen
		} else {
			s.Proc = d
		}
		p.endOfStmt()
		return s
	}
	if p.s.is("(") {
		s.Lparen = p.tokPos(p.s.next())
		if !p.s.is(")") {
			s.Args = p.argList(")")
		}
		s.Rparen = p.expect(")")
	}
	p.endOfStmt()
	return s
}

// isBoundCall reports whether the "(" after CALL NAME is followed, after
// its ")", by "%": CALL A(I)%P(...).
func (p *parser) isBoundCall() bool {
	t := p.s.peek()
	close := matchParen(p.s.buf, int(t.s))
	if close < 0 {
		return false
	}
	k := close + 1
	for k < len(p.s.buf) && p.s.buf[k] == ' ' {
		k++
	}
	return k < len(p.s.buf) && p.s.buf[k] == '%'
}

func (p *parser) format(base StmtBase, partial *Stmt) Stmt {
	p.take("FORMAT")
	s := &FormatStmt{StmtBase: base}
	s.Spec = p.s.rest()
	p.s.i = len(p.s.buf)
	if !strings.HasPrefix(s.Spec, "(") {
		p.fail(base.KeyPos, base.To, "expected '(' after FORMAT")
	}
	if base.Label == 0 {
		p.errorAt(base.From, base.To, "syntax", "FORMAT statement without a label")
	}
	return s
}

func (p *parser) assignLabel(base StmtBase, partial *Stmt) Stmt {
	p.take("ASSIGN")
	s := &AssignLabelStmt{StmtBase: base}
	*partial = s
	s.Target = p.label()
	p.take("TO")
	s.Var = p.ident()
	p.endOfStmt()
	return s
}

func (p *parser) entry(base StmtBase, partial *Stmt) Stmt {
	p.take("ENTRY")
	s := &EntryStmt{StmtBase: base}
	s.Name = p.ident()
	*partial = s // only with its name: ENTRY alone is a BadStmt
	if p.s.accept("(") {
		for !p.s.is(")") {
			if p.s.is("*") {
				t := p.s.next()
				p.nodes.exprLists.add(&s.Params, &Star{StarPos: p.tokPos(t)})
			} else {
				p.nodes.exprLists.add(&s.Params, p.ident())
			}
			if !p.s.accept(",") {
				break
			}
		}
		p.expect(")")
	}
	if p.s.keyword("RESULT") {
		p.expect("(")
		p.ident()
		p.expect(")")
	}
	p.endOfStmt()
	return s
}

func (p *parser) include(base StmtBase, partial *Stmt) Stmt {
	p.take("INCLUDE")
	t := p.s.peek()
	if t.kind != tString {
		p.fail(p.tokPos(t), p.tokEnd(t), "expected a file name in quotes after INCLUDE")
	}
	p.s.next()
	s := &IncludeStmt{StmtBase: base, Path: unquote(p.s.text(t))}
	p.endOfStmt()
	return s
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		q := string(s[0])
		return strings.ReplaceAll(s[1:len(s)-1], q+q, q)
	}
	return s
}

func (p *parser) ioStmt(base StmtBase) Stmt {
	if base.Keyword == "TYPE" {
		// TYPE is an I/O statement only as "TYPE fmt, list" (DEC); otherwise
		// it starts a derived type definition or declaration.
		return p.typeStmt(base)
	}
	p.take(base.Keyword)
	s := p.nodes.ios.new()
	s.StmtBase = base
	switch base.Keyword {
	case "PRINT", "ACCEPT":
		s.Control = []Expr{p.formatSpec()}
		if p.s.accept(",") {
			s.Items = p.ioList()
		}
	case "READ", "WRITE":
		if p.s.is("(") {
			p.s.next()
			s.Control = p.argList(")")
			p.expect(")")
			p.s.accept(",") // a common extension: WRITE(6,*), X
			if !p.s.atEOS() {
				s.Items = p.ioList()
			}
		} else {
			s.Control = []Expr{p.formatSpec()}
			if p.s.accept(",") {
				s.Items = p.ioList()
			}
		}
	default: // OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE, ENDFILE, FLUSH, WAIT
		if p.s.is("(") {
			p.s.next()
			s.Control = p.argList(")")
			p.expect(")")
			if !p.s.atEOS() {
				s.Items = p.ioList() // INQUIRE (IOLENGTH=L) list
			}
		} else if !p.s.atEOS() {
			s.Control = []Expr{p.expr()}
		}
	}
	p.endOfStmt()
	return s
}

func (p *parser) formatSpec() Expr {
	t := p.s.peek()
	if t.kind == tOp && p.s.text(t) == "*" {
		p.s.next()
		return &Star{StarPos: p.tokPos(t)}
	}
	if t.kind == tInt {
		return p.label()
	}
	return p.expr()
}

func (p *parser) ioList() []Expr {
	// The items gather on the stack of arguments, as argList's do.
	base := len(p.nodes.scratch)
	for {
		x := p.expr()
		p.nodes.scratch = append(p.nodes.scratch, x)
		if !p.s.accept(",") {
			break
		}
	}
	items := p.nodes.exprList(p.nodes.scratch[base:])
	p.nodes.scratch = p.nodes.scratch[:base]
	return items
}

// typeStmt parses statements that start with TYPE: a derived type
// definition (TYPE T, TYPE :: T, TYPE, EXTENDS(B) :: T), a declaration
// TYPE(T) :: X, TYPE IS (...) in SELECT TYPE, or DEC's TYPE fmt, list.
func (p *parser) typeStmt(base StmtBase) Stmt {
	if p.s.peekKeyword("TYPEIS") || p.s.keywordFlex("TYPEIS") {
		st := p.save()
		p.s.keywordFlex("TYPEIS")
		if p.s.is("(") {
			p.restore(st)
			base.Keyword = "TYPEIS"
			return p.simple(base)
		}
		p.restore(st)
	}
	st := p.save()
	p.take("TYPE")
	if p.s.is("(") {
		p.restore(st)
		var partial Stmt
		return p.typeDeclOrFunction(base, &partial)
	}
	s := &DerivedTypeStmt{StmtBase: base}
	if p.s.is("*") || p.s.peek().kind == tInt || p.s.peek().kind == tString {
		// TYPE *, list (DEC PRINT).
		io := &IOStmt{StmtBase: base}
		io.Control = []Expr{p.formatSpec()}
		if p.s.accept(",") {
			io.Items = p.ioList()
		}
		p.endOfStmt()
		return io
	}
	for p.s.accept(",") {
		s.Attrs = append(s.Attrs, p.attr())
	}
	p.s.accept("::")
	s.Name = p.ident()
	if p.s.accept("(") { // type parameters
		for !p.s.is(")") && !p.s.atEOS() {
			p.s.next()
		}
		p.expect(")")
	}
	p.endOfStmt()
	return s
}

func (p *parser) allocate(base StmtBase) Stmt {
	p.take(base.Keyword)
	s := &AllocateStmt{StmtBase: base}
	p.expect("(")
	// ALLOCATE (type-spec :: list), the type intrinsic or derived.
	if hasTopLevel(p.s.buf[p.s.i:], "::") {
		if t := p.s.peek(); p.s.isTypeName(t) {
			s.Type = p.typeSpec()
		} else {
			id := p.ident()
			s.Type = &TypeSpec{NamePos: id.NamePos, Name: "TYPE", Derived: id.Name}
			if p.s.is("(") { // type parameters
				p.s.next()
				p.argList(")")
				p.expect(")")
			}
		}
		p.expect("::")
	}
	s.Items = p.argList(")")
	p.expect(")")
	p.endOfStmt()
	return s
}
