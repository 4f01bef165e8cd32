package parser

import "sync"

// The scanner splits one logical statement into tokens on demand. Fixed
// form has no significant blanks, so a keyword can be glued to the name
// that follows it ("DO10I=1,10", "REALFUNCTIONF(X)"): the parser asks for
// keywords with keyword(), which splits them off the front of a name
// token, and asks for labels and lengths digit by digit.

type tokKind uint8

const (
	tEOS tokKind = iota
	tName
	tInt
	tReal
	tString
	tDot // a dotted operator such as .AND., or .TRUE./.FALSE.
	tBOZ
	tHollerith
	tOp
	tBad
)

// A token holds no pointer and fits in two words, so that the parser
// copies it cheaply and storing it needs no write barrier.
type token struct {
	s, e int32 // [s, e) in the statement buffer
	id   int32 // its upper-case spelling is the scanner's str(id)
	kind tokKind
}

// The first ids, the seeds, are the same in every scanner: "" (the end of a
// statement), then each one-character operator c at oneID(c), then the
// two-character operators.
const (
	idEmpty = 0
	idTwo   = 257 // twoCharOps[k] is at idTwo+k
	// numSeeds is the number of seeds (len(seedStrs)).
	numSeeds = idTwo + int32(len(twoCharOps))
)

func oneID(c byte) int32 { return int32(c) + 1 }

var twoCharOps = [...]string{"**", "//", "==", "/=", "<=", ">=", "=>", "::", "(/", "/)"}

var seedStrs = func() []string {
	t := make([]string, idTwo, idTwo+len(twoCharOps))
	for c := 0; c < 256; c++ {
		t[oneID(byte(c))] = oneChar[c]
	}
	return append(t, twoCharOps[:]...)
}()

type scanner struct {
	// names is an open-addressing hash table of the interned spellings'
	// ids (0 marks a free slot), shared by the statements of a parse; it
	// is at most half full. Unlike a map keyed by the strings, it holds
	// no pointer and hashes nothing again: the lexer hashes a name as it
	// reads it.
	names []int32
	nameN int      // the ids in names
	strs  []string // the spellings of the tokens with ids past the seeds, by id - numSeeds
	cache [256]int32
	buf   []byte
	off   []Pos
	end   Pos
	i     int
	fixed bool
	tok   token
	have  bool
}

func (s *scanner) init(st *rawStmt) {
	s.buf, s.off, s.end, s.i, s.fixed, s.have = st.buf, st.off, st.to, 0, st.fixed, false
}

// text returns the upper-case spelling of a token.
func (s *scanner) text(t token) string { return s.str(t.id) }

// str returns the spelling of id: the first ids are the seeds, shared by
// all scanners (not copied into each), the others are in strs.
func (s *scanner) str(id int32) string {
	if id < numSeeds {
		return seedStrs[id]
	}
	return s.strs[id-numSeeds]
}

// intern returns the id of the string of a name, a number, a dotted
// operator or a character constant, allocating it once per parse. A
// small direct-mapped cache in front of the map catches the names that
// repeat from statement to statement (I, J, A, N); its hash reads every
// byte, since names that differ only inside (DO100I, DO110I) are common.
func (s *scanner) intern(b []byte) int32 {
	h := uint(0)
	for _, c := range b {
		h = h*31 + uint(c)
	}
	return s.internHash(b, h)
}

// internHash is intern with the hash of b computed by the caller: from
// 0, h = h*31 + c for each byte c.
func (s *scanner) internHash(b []byte, h uint) int32 {
	h += uint(len(b))
	c := (h ^ h>>8) & uint(len(s.cache)-1)
	if id := s.cache[c]; sameSpelling(s.str(id), b) {
		return id
	}
	if s.names == nil {
		s.names = make([]int32, firstNames)
	}
	mask := uint(len(s.names) - 1)
	i := nameSlot(h) & mask
	for {
		id := s.names[i]
		if id == 0 {
			break
		}
		if s.str(id) == string(b) {
			s.cache[c] = id
			return id
		}
		i = (i + 1) & mask
	}
	id := s.add(sharedSpelling(b, h))
	s.names[i] = id
	s.cache[c] = id
	if s.nameN++; 2*s.nameN > len(s.names) {
		s.growNames()
	}
	return id
}

// sameSpelling reports whether s and b hold the same bytes. Most names
// are a few bytes long (I, J, N, MAX): a loop in line costs less than the
// call to the runtime's comparison that s == string(b) makes.
func sameSpelling(s string, b []byte) bool {
	if len(s) != len(b) {
		return false
	}
	if len(b) > 8 {
		return s == string(b)
	}
	for i := range b {
		if s[i] != b[i] {
			return false
		}
	}
	return true
}

// firstNames is the size of a parse's first table of names: most files
// have fewer than 128 different names and numbers.
const firstNames = 256

// nameSlot spreads the bits of a spelling's hash (h*31 + c over its
// bytes, plus its length) over the slots of the table.
func nameSlot(h uint) uint { return uint(uint32(h) * 0x9E3779B1 >> 7) }

// growNames moves the ids to a table twice as large.
func (s *scanner) growNames() {
	names := make([]int32, 2*len(s.names))
	mask := uint(len(names) - 1)
	for _, id := range s.names {
		if id == 0 {
			continue
		}
		i := nameSlot(spellingHash(s.str(id))) & mask
		for names[i] != 0 {
			i = (i + 1) & mask
		}
		names[i] = id
	}
	s.names = names
}

// spellings holds the spellings of the names, numbers and dotted
// operators of all parses, so that each new parse of a file, and each file
// of a workspace, finds the common ones (I, N, INFO, 1, .AND.) without
// allocating them again, and the trees and symbol tables of a workspace
// share them. It keeps at most maxSpellings spellings of at most
// maxSpellingLen bytes, the first ones seen: the names typed and deleted
// in an editor do not make it grow without end. Parses in parallel take
// turns at it (only for a name new to their file).
//
// The table is open-addressed by the scanner's hash of a spelling (which
// the lexer has computed already), at most half full, "" marking a free
// slot; it doubles from firstSpellings slots up to 2*maxSpellings.
var spellings struct {
	sync.Mutex
	table []string
	n     int
}

const (
	maxSpellings   = 1 << 16
	maxSpellingLen = 32
	firstSpellings = 1 << 10
)

// sharedSpelling returns string(b), from spellings when it is there; h
// is b's hash (as internHash's: h*31 + c over the bytes, plus the length).
func sharedSpelling(b []byte, h uint) string {
	if len(b) == 1 {
		return oneChar[b[0]]
	}
	if len(b) > maxSpellingLen || len(b) == 0 {
		return string(b)
	}
	spellings.Lock()
	defer spellings.Unlock()
	if spellings.table == nil {
		spellings.table = make([]string, firstSpellings)
	}
	t := spellings.table
	mask := uint(len(t) - 1)
	i := nameSlot(h) & mask
	for t[i] != "" {
		if t[i] == string(b) {
			return t[i]
		}
		i = (i + 1) & mask
	}
	s := string(b)
	if spellings.n < maxSpellings {
		t[i] = s
		if spellings.n++; 2*spellings.n > len(t) {
			growSpellings()
		}
	}
	return s
}

// growSpellings moves the spellings to a table twice as large.
func growSpellings() {
	t := make([]string, 2*len(spellings.table))
	mask := uint(len(t) - 1)
	for _, s := range spellings.table {
		if s == "" {
			continue
		}
		i := nameSlot(spellingHash(s)) & mask
		for t[i] != "" {
			i = (i + 1) & mask
		}
		t[i] = s
	}
	spellings.table = t
}

// spellingHash is the hash internHash and sharedSpelling are given for
// the spelling s.
func spellingHash(s string) uint {
	h := uint(0)
	for k := 0; k < len(s); k++ {
		h = h*31 + uint(s[k])
	}
	return h + uint(len(s))
}

// add gives a new id to the spelling of a token that is not interned
// (a BOZ or Hollerith constant), or to a spelling intern found new.
func (s *scanner) add(text string) int32 {
	if s.strs == nil {
		s.strs = make([]string, 0, 64)
	}
	s.strs = append(s.strs, text)
	return numSeeds + int32(len(s.strs)) - 1
}

// tok makes a token of [i, e) with the spelling id.
func tok(kind tokKind, i, e int, id int32) token {
	return token{kind: kind, s: int32(i), e: int32(e), id: id}
}

func (s *scanner) pos(i int) Pos {
	if i < len(s.off) {
		return s.off[i]
	}
	return s.end
}

func (s *scanner) endPos(e int) Pos {
	if e > 0 && e <= len(s.off) {
		return s.off[e-1] + 1
	}
	return s.end
}

func (s *scanner) skipBlanks() {
	for s.i < len(s.buf) && s.buf[s.i] == ' ' {
		s.i++
	}
}

// nameChars holds the bytes that may follow a name's first letter.
var nameChars = func() (t [256]bool) {
	for c := range t {
		t[c] = isNameChar(byte(c))
	}
	return t
}()

func isLetter(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isNameChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '$'
}

func (s *scanner) peek() token {
	if !s.have {
		s.tok = s.lex()
		s.have = true
	}
	return s.tok
}

func (s *scanner) next() token {
	if !s.have {
		s.tok = s.lex()
	}
	s.have = false
	s.i = int(s.tok.e)
	return s.tok
}

// atEOS reports whether only blanks remain.
func (s *scanner) atEOS() bool { return s.peek().kind == tEOS }

// is reports whether the next token is the operator op.
func (s *scanner) is(op string) bool {
	if !s.have {
		s.tok = s.lex()
		s.have = true
	}
	if len(op) == 1 { // (constant in the callers: this is one comparison)
		return s.tok.kind == tOp && s.tok.id == oneID(op[0])
	}
	return s.tok.kind == tOp && s.str(s.tok.id) == op
}

func (s *scanner) accept(op string) bool {
	if s.is(op) {
		s.next()
		return true
	}
	return false
}

// after returns the first non-blank byte after the token t and the one
// after it (0 at the end of the statement).
func (s *scanner) after(t token) (byte, byte) {
	i := int(t.e)
	for i < len(s.buf) && s.buf[i] == ' ' {
		i++
	}
	var c, d byte
	if i < len(s.buf) {
		c = s.buf[i]
	}
	if i+1 < len(s.buf) {
		d = s.buf[i+1]
	}
	return c, d
}

// tokAfterComma returns the token after the current "," without consuming.
func (s *scanner) tokAfterComma() token {
	i, have, tok := s.i, s.have, s.tok
	s.next()
	t := s.peek()
	s.i, s.have, s.tok = i, have, tok
	return t
}

// rest returns the unread text of the statement.
func (s *scanner) rest() string {
	s.have = false
	s.skipBlanks()
	return string(s.buf[s.i:])
}

func (s *scanner) lex() token {
	s.skipBlanks()
	b := s.buf
	i := s.i
	if i >= len(b) {
		return tok(tEOS, i, i, idEmpty)
	}
	c := b[i]
	switch {
	case isLetter(c):
		// The name's hash for intern, computed as it is read.
		j, h := i+1, uint(c)
		for j < len(b) && nameChars[b[j]] {
			h = h*31 + uint(b[j])
			j++
		}
		// BOZ constants B'..', O'..', Z'..', X'..'.
		if j == i+1 && j < len(b) && (b[j] == '\'' || b[j] == '"') && (c == 'B' || c == 'O' || c == 'Z' || c == 'X') {
			if e, ok := s.stringEnd(j); ok {
				return tok(tBOZ, i, e, s.add(string(b[i:e])))
			}
		}
		// A kind parameter before a character constant: KIND_'text'.
		if j < len(b) && (b[j] == '\'' || b[j] == '"') && b[j-1] == '_' {
			e, _ := s.stringEnd(j)
			return tok(tString, i, e, s.intern(b[i:e]))
		}
		return tok(tName, i, j, s.internHash(b[i:j], h))
	case isDigit(c):
		return s.lexNumber(i)
	case c == '.':
		if i+1 < len(b) && isDigit(b[i+1]) {
			return s.lexNumber(i)
		}
		j := i + 1
		for j < len(b) && isLetter(b[j]) {
			j++
		}
		if j > i+1 && j < len(b) && b[j] == '.' {
			e := j + 1
			if w := string(b[i:e]); (w == ".TRUE." || w == ".FALSE.") && e < len(b) && b[e] == '_' {
				for e++; e < len(b) && isNameChar(b[e]); e++ {
				}
			}
			return tok(tDot, i, e, s.intern(b[i:e]))
		}
		return tok(tOp, i, i+1, oneID('.'))
	case c == '\'' || c == '"':
		e, _ := s.stringEnd(i)
		// A BOZ constant written with its letter after: '7F'X.
		if e < len(b) && (b[e] == 'B' || b[e] == 'O' || b[e] == 'Z' || b[e] == 'X') && (e+1 == len(b) || !isNameChar(b[e+1])) {
			return tok(tBOZ, i, e+1, s.add(string(b[i:e+1])))
		}
		// Interned like names: LAPACK's character constants repeat
		// ('N', 'T', 'Left').
		return tok(tString, i, e, s.intern(b[i:e]))
	}
	if i+1 < len(b) {
		if k := twoCharOp(b[i], b[i+1]); k >= 0 && !(k == twoParenSlash && i+2 < len(b) && b[i+2] == '=') {
			return tok(tOp, i, i+2, idTwo+k)
		}
	}
	if c >= 0x80 {
		// A stray non-ASCII character: take the whole UTF-8 sequence.
		j := i + 1
		for j < len(b) && b[j]&0xC0 == 0x80 {
			j++
		}
		return tok(tBad, i, j, s.add(string(b[i:j])))
	}
	return tok(tOp, i, i+1, oneID(c))
}

// oneChar holds the one-character strings, so that lexing an operator
// allocates nothing. The printable ones are cut from a constant: they are
// in the program's read-only data, not in the heap, so that the collector
// passes over the tree's many pointers to them (the operators of Binary
// and Unary, one-letter names, one-digit literals) at almost no cost.
var oneChar = func() (t [256]string) {
	for i := range t {
		if ' ' <= i && i <= '~' {
			t[i] = printable[i-' ' : i-' '+1]
		} else {
			t[i] = string([]byte{byte(i)})
		}
	}
	return t
}()

// printable holds the printable ASCII characters, in order.
const printable = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// The indices in twoCharOps of "::" and "(/".
const (
	twoColons     = 7
	twoParenSlash = 8
)

// twoCharOp returns the index in twoCharOps of the operator spelled by
// two characters, or -1.
func twoCharOp(a, b byte) int32 {
	// One switch on the first character (a jump table), then one test:
	// most operators are one character, and fail at the first.
	switch a {
	case '*':
		if b == '*' {
			return 0
		}
	case '/':
		switch b {
		case '/':
			return 1
		case '=':
			return 3
		case ')':
			return 9
		}
	case '=':
		switch b {
		case '=':
			return 2
		case '>':
			return 6
		}
	case '<':
		if b == '=' {
			return 4
		}
	case '>':
		if b == '=' {
			return 5
		}
	case ':':
		if b == ':' {
			return twoColons
		}
	case '(':
		if b == '/' {
			return twoParenSlash
		}
	}
	return -1
}

// stringEnd returns the end of the character constant whose opening quote
// is at i; ok is false when it is not terminated.
func (s *scanner) stringEnd(i int) (int, bool) {
	b := s.buf
	q := b[i]
	for j := i + 1; j < len(b); j++ {
		if b[j] == q {
			if j+1 < len(b) && b[j+1] == q {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return len(b), false
}

func (s *scanner) lexNumber(i int) token {
	b := s.buf
	j := i
	for j < len(b) && isDigit(b[j]) {
		j++
	}
	kind := tInt
	// Hollerith nH... (the reader kept its blanks).
	if j < len(b) && b[j] == 'H' && j > i {
		if n, ok := hollerithCount(b[:j]); ok {
			e := min(j+1+n, len(b))
			return tok(tHollerith, i, e, s.add(string(b[i:e])))
		}
	}
	if j < len(b) && b[j] == '.' {
		// 1.EQ.2 is an integer and an operator; 1.E5 and 1. are reals.
		k := j + 1
		for k < len(b) && isLetter(b[k]) {
			k++
		}
		if !(k > j+1 && k < len(b) && b[k] == '.') {
			kind = tReal
			j++
			for j < len(b) && isDigit(b[j]) {
				j++
			}
		}
	}
	if j < len(b) && (b[j] == 'E' || b[j] == 'D' || b[j] == 'Q') {
		k := j + 1
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if k < len(b) && isDigit(b[k]) {
			for k < len(b) && isDigit(b[k]) {
				k++
			}
			kind = tReal
			j = k
		}
	}
	// Kind parameter: 1.0_8, 1_DP; or the kind of a character constant, 4_'text'.
	if j+1 < len(b) && b[j] == '_' && (isNameChar(b[j+1]) || kind == tInt && (b[j+1] == '\'' || b[j+1] == '"')) {
		j++
		for j < len(b) && isNameChar(b[j]) {
			j++
		}
		if kind == tInt && j < len(b) && (b[j] == '\'' || b[j] == '"') {
			e, _ := s.stringEnd(j)
			return tok(tString, i, e, s.intern(b[i:e]))
		}
	}
	return tok(kind, i, j, s.intern(b[i:j]))
}

// keyword consumes kw if the next token is a name that starts with it. In
// fixed form the keyword may be glued to what follows; in free form only
// the compounds that the standard lets be written without a blank
// (ENDDO, GOTO, ELSEIF, DOUBLEPRECISION, ...) are split.
func (s *scanner) keyword(kw string) bool {
	t := s.peek()
	text := s.text(t)
	if t.kind != tName || len(text) < len(kw) || text[:len(kw)] != kw {
		return false
	}
	if len(text) == len(kw) {
		s.next()
		return true
	}
	if !s.fixed && !freeCompound(kw, text[len(kw):]) {
		return false
	}
	s.have = false
	s.i = int(t.s) + len(kw)
	return true
}

// peekKeyword reports whether keyword(kw) would succeed, without consuming.
func (s *scanner) peekKeyword(kw string) bool {
	i, have, tok := s.i, s.have, s.tok
	ok := s.keyword(kw)
	s.i, s.have, s.tok = i, have, tok
	return ok
}

// freeSecond lists the second words that free form lets follow a first
// keyword without a blank.
var freeSecond = map[string]bool{
	"DO": true, "IF": true, "TO": true, "PRECISION": true, "COMPLEX": true, "DATA": true,
	"CASE": true, "TYPE": true, "OUT": true, "WHERE": true, "SELECT": true, "SUBROUTINE": true,
	"FUNCTION": true, "PROGRAM": true, "MODULE": true, "SUBMODULE": true, "FORALL": true,
	"INTERFACE": true, "BLOCK": true, "BLOCKDATA": true, "ASSOCIATE": true, "CRITICAL": true,
	"ENUM": true, "PROCEDURE": true, "FILE": true, "PARALLEL": true, "PARALLELDO": true,
	"SECTIONS": true, "SINGLE": true, "MASTER": true, "WORKSHARE": true, "TASK": true,
	"PARALLELSECTIONS": true, "PARALLELWORKSHARE": true, "SIMD": true, "DOSIMD": true,
	"ORDERED": true, "TEAM": true,
}

func freeCompound(first, rest string) bool {
	switch first {
	case "END", "GO", "ELSE", "DOUBLE", "BLOCK", "SELECT", "IN", "PARALLEL", "DO":
		return freeSecond[rest]
	}
	return false
}

// digits reads an unsigned integer at the current position, character by
// character (so "10I" in "DO10I=1,10" gives 10); ok is false if none.
func (s *scanner) digits() (n int, from, to Pos, ok bool) {
	s.have = false
	s.skipBlanks()
	i := s.i
	for s.i < len(s.buf) && isDigit(s.buf[s.i]) {
		if n < 1e9 {
			n = n*10 + int(s.buf[s.i]-'0')
		}
		s.i++
	}
	if s.i == i {
		return 0, NoPos, NoPos, false
	}
	return n, s.pos(i), s.endPos(s.i), true
}

// nameUntil reads a name that may have the keyword kw glued to its end in
// fixed form ("BWITHD" in "ALIGN A, B WITH D"): it stops before kw.
func (s *scanner) nameUntil(kw string) (token, bool) {
	t := s.peek()
	if t.kind != tName {
		return t, false
	}
	if s.fixed {
		text := s.text(t)
		for k := 1; k+len(kw) <= len(text); k++ {
			if text[k:k+len(kw)] == kw {
				t.e = t.s + int32(k)
				t.id = s.intern(s.buf[t.s:t.e])
				s.have = false
				s.i = int(t.e)
				return t, true
			}
		}
	}
	return s.next(), true
}
