package parser

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
)

// This file turns physical lines into logical statements: it drops
// comments (recording them), joins continuation lines, strips the
// insignificant blanks of fixed form, splits free-form lines at ";",
// recognises directive sentinels and preprocessor lines, and keeps for
// every byte of the statement buffer the source offset it came from.

type rawKind uint8

const (
	rawCode rawKind = iota
	rawDirective
	rawCpp
)

// rawStmt is one logical statement. buf is upper case outside character
// constants; off[i] is the position (relative to the unit base) of buf[i].
type rawStmt struct {
	kind     rawKind
	sentinel string // "HPF", "OMP", "CMF" for directives
	label    int
	labelPos Pos
	labelEnd Pos
	badLabel bool
	from, to Pos
	lineFrom int // absolute offset of the start of the statement's first line
	buf      []byte
	off      []Pos
	fixed    bool // blanks were removed (fixed-form code)
	tooLong  bool // the statement passed MaxStatementBytes; buf holds its start
	cppText  string
	cppDir   string
	cppRest  string
}

// reader produces rawStmts from a file, one unit at a time.
type reader struct {
	src     []byte
	pos     int // absolute offset of the next unread byte
	base    int // absolute offset of the current unit
	form    Form
	lineLen int
	cpp     *cppState
	cfg     *Config

	comments []Comment
	inactive []Range
	errs     []Error

	st       rawStmt
	semi     int // absolute offset after a ";" that ended a fixed-form statement
	quote    byte
	holLeft  int
	lastText int // absolute offset just past the last significant byte appended

	// lines holds the start of each line of src (the file's Mapper has
	// found them already), or nil: lineAt then looks for the "\n". lineK
	// is the line lineAt found last.
	lines []int
	lineK int

	memoFrom, memoNext     int // lineAt found no "\n" in [memoFrom, memoNext-1)
	memoStart, memoStartTo int // lineStartOf: the line starting at memoStart holds memoStartTo

	// classify's last line, [classFrom-1, classTo), and what it is: the
	// line after a statement is classified by continuations, then again
	// as the next statement's first line.
	classFrom, classTo int
	class              fixedInfo

	skipped []skippedLine // continuations' lines passed, reused from statement to statement

	// ahead is what continuations found when it stopped without a
	// continuation line: from from to to, only blank lines and the first
	// n comment lines of skipped, with the preprocessor state cpp.
	// nextFixed, starting at from in that state, records those comments
	// and goes on at to, instead of reading the lines again (in LAPACK
	// most lines are comments, in blocks between statements).
	ahead lookahead
}

type lookahead struct {
	from, to, n int
	cpp         *cppState
}

// skippedLine is a line that continuations passed looking for a
// continuation line: a comment, a preprocessor line, or a line of an
// inactive branch.
type skippedLine struct {
	from, to int
	inactive bool
}

func (r *reader) rel(abs int) Pos { return Pos(abs - r.base) }

func (r *reader) errorAbs(from, to int, msg string) {
	code := "syntax"
	if strings.HasPrefix(msg, "too large to analyse") {
		code = "too-large"
	}
	r.errs = append(r.errs, Error{Pos: r.rel(from), End: r.rel(to), Severity: SevError, Code: code, Msg: msg})
}

// lineAt returns the end of the line text (before "\r\n" or "\n") and the
// start of the next line for the line holding absolute offset i.
//
// The line found last is remembered: a line of many ";"-separated
// statements asks for its end once per statement, which would otherwise
// scan the rest of the line each time (quadratic in the line's length).
func (r *reader) lineAt(i int) (end, next int) {
	if r.lines != nil {
		return r.lineFromTable(i)
	}
	if r.memoNext > 0 && r.memoFrom <= i && i < r.memoNext {
		// No "\n" lies in [memoFrom, memoNext-1), so i's line ends there too.
		end, next = r.memoNext-1, r.memoNext
		if r.memoNext == len(r.src) && (len(r.src) == 0 || r.src[len(r.src)-1] != '\n') {
			end = len(r.src)
		}
	} else {
		j := bytes.IndexByte(r.src[i:], '\n')
		if j < 0 {
			end, next = len(r.src), len(r.src)
		} else {
			end, next = i+j, i+j+1
		}
		r.memoFrom, r.memoNext = i, next
	}
	if end > i && r.src[end-1] == '\r' {
		end--
	}
	return end, next
}

// lineFromTable is lineAt with the table of line starts: the reader
// mostly asks for the line it asked for last, or the next one.
func (r *reader) lineFromTable(i int) (end, next int) {
	lines, k := r.lines, r.lineK
	if k >= len(lines) || lines[k] > i || k+1 < len(lines) && lines[k+1] <= i {
		if k+2 < len(lines) && lines[k+1] <= i && i < lines[k+2] {
			k++
		} else {
			k = sort.SearchInts(lines, i+1) - 1
		}
		r.lineK = k
	}
	if k+1 < len(lines) {
		end, next = lines[k+1]-1, lines[k+1] // (the "\n" that ends line k)
	} else {
		end, next = len(r.src), len(r.src)
	}
	if end > i && r.src[end-1] == '\r' {
		end--
	}
	return end, next
}

// lineStartOf returns the start of the line holding i, remembered like
// lineAt's end.
func (r *reader) lineStartOf(i int) int {
	if r.memoStartTo > 0 && r.memoStart <= i {
		if i <= r.memoStartTo {
			return r.memoStart
		}
		// Further along: the same line if no "\n" lies between.
		if bytes.IndexByte(r.src[r.memoStartTo:i], '\n') < 0 {
			r.memoStartTo = i
			return r.memoStart
		}
	}
	ls := bytes.LastIndexByte(r.src[:i], '\n') + 1
	r.memoStart, r.memoStartTo = ls, i
	return ls
}

func (r *reader) reset(kind rawKind) *rawStmt {
	// Field by field, the strings only when set: a whole-struct store goes
	// through the runtime (typedmemmove) while the collector runs.
	st := &r.st
	st.buf, st.off = st.buf[:0], st.off[:0]
	st.kind, st.label, st.labelPos, st.labelEnd, st.badLabel = kind, 0, NoPos, NoPos, false
	st.from, st.to, st.lineFrom, st.fixed, st.tooLong = 0, 0, 0, false, false
	if st.sentinel != "" || st.cppText != "" || st.cppDir != "" || st.cppRest != "" {
		st.sentinel, st.cppText, st.cppDir, st.cppRest = "", "", "", ""
	}
	r.quote = 0
	r.holLeft = 0
	return st
}

func (r *reader) put(c byte, abs int) {
	if len(r.st.buf) >= MaxStatementBytes {
		r.st.tooLong = true
		return
	}
	r.st.buf = append(r.st.buf, c)
	r.st.off = append(r.st.off, r.rel(abs))
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// next returns the next statement, or nil at the end of the file.
func (r *reader) next() *rawStmt {
	if r.form == Free {
		return r.nextFree()
	}
	return r.nextFixed()
}

// fixedDirective reports whether a fixed-form comment line is a directive
// line and where its text (after the sentinel) starts.
func fixedDirective(line []byte) (name string, textAt int, ok bool) {
	if len(line) < 4 {
		return "", 0, false
	}
	c := line[0]
	if c != 'C' && c != 'c' && c != '*' && c != '!' {
		return "", 0, false
	}
	if (line[1] == 'M' || line[1] == 'm') && (line[2] == 'F' || line[2] == 'f') && line[3] == '$' && (c == 'C' || c == 'c') {
		return "CMF", 4, true
	}
	if len(line) < 5 {
		return "", 0, false
	}
	s := [4]byte{upper(line[1]), upper(line[2]), upper(line[3]), upper(line[4])}
	switch string(s[:]) {
	case "$OMP":
		return "OMP", 5, true
	case "HPF$":
		return "HPF", 5, true
	}
	return "", 0, false
}

// fixedLine classifies a fixed-form line.
type lineKind uint8

const (
	lineBlank lineKind = iota
	lineComment
	lineCpp
	lineDirective
	lineInitial
	lineCont
)

type fixedInfo struct {
	kind      lineKind
	sentinel  string
	textStart int // absolute offset where the statement text starts
	textEnd   int // absolute offset where significant text ends (column limit)
	labelEnd  int // absolute end of the label field
	tab       bool
}

// classify is classifyFixed, remembering the last line; the result is
// valid until the next call.
func (r *reader) classify(ls, le int) *fixedInfo {
	if r.classFrom != ls+1 || r.classTo != le {
		r.class = r.classifyFixed(ls, le)
		r.classFrom, r.classTo = ls+1, le
	}
	return &r.class
}

func (r *reader) classifyFixed(ls, le int) fixedInfo {
	line := r.src[ls:le]
	info := fixedInfo{}
	if len(line) == 0 {
		return info
	}
	c := line[0]
	if c == '#' {
		info.kind = lineCpp
		return info
	}
	if name, at, ok := fixedDirective(line); ok {
		info.kind = lineDirective
		info.sentinel = name
		// Column 6 (after a 5-character sentinel) marks continuation.
		if at == 5 && len(line) > 5 && line[5] != ' ' && line[5] != '0' && line[5] != '\t' {
			info.kind = lineCont
		}
		start := at
		if at == 5 {
			start = 6
		}
		if start > len(line) {
			start = len(line)
		}
		info.textStart = ls + start
		info.textEnd = r.limit(ls, le, 0)
		if info.textEnd < info.textStart {
			info.textEnd = info.textStart
		}
		return info
	}
	if c == 'C' || c == 'c' || c == '*' || c == '!' || c == 'D' || c == 'd' {
		info.kind = lineComment
		return info
	}
	// Blank lines, and lines whose first non-blank character in the label
	// field is "!", are comments.
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i == len(line) {
		return info
	}
	if line[i] == '!' && i < 5 {
		info.kind = lineComment
		return info
	}
	// Tab form: a tab in the label field ends it; a digit after the tab
	// marks a continuation line.
	if t := bytes.IndexByte(line[:min(6, len(line))], '\t'); t >= 0 {
		info.tab = true
		info.labelEnd = ls + t
		rest := t + 1
		if rest < len(line) && line[rest] >= '1' && line[rest] <= '9' {
			info.kind = lineCont
			rest++
		} else {
			info.kind = lineInitial
		}
		info.textStart = ls + rest
		info.textEnd = r.limit(ls+rest, le, 6)
		if isBlank(line[rest:]) && info.kind == lineInitial {
			// A label and nothing else still counts as a statement line.
			if isBlank(line[:t]) {
				info.kind = lineBlank
			}
		}
		return info
	}
	info.labelEnd = ls + min(5, len(line))
	if len(line) > 5 && line[5] != ' ' && line[5] != '0' {
		info.kind = lineCont
	} else {
		info.kind = lineInitial
	}
	start := min(6, len(line))
	info.textStart = ls + start
	info.textEnd = r.limit(ls, le, 0)
	if info.textEnd < info.textStart {
		info.textEnd = info.textStart
	}
	return info
}

// limit returns the absolute offset of the end of the significant part of
// a fixed-form line that starts (for column counting) at from, col columns
// already counted.
func (r *reader) limit(from, le, col int) int {
	n := r.lineLen - col
	if le-from <= n {
		return le
	}
	i := from
	for i < le && n > 0 {
		if r.src[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(r.src[i:le])
			i += size
		}
		n--
	}
	return i
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

func (r *reader) addComment(from, to int) {
	if to > from {
		r.comments = append(r.comments, Comment{Pos: r.rel(from), End: r.rel(to)})
	}
}

// skipInactive consumes lines in a preprocessor branch not taken, up to
// the next "#" line, and records them.
func (r *reader) skipInactive() {
	start := r.pos
	last := r.pos
	for r.pos < len(r.src) {
		le, next := r.lineAt(r.pos)
		if first := firstNonBlank(r.src[r.pos:le]); first >= 0 && r.src[r.pos+first] == '#' {
			break
		}
		last = le
		r.pos = next
	}
	if last > start {
		r.inactive = append(r.inactive, Range{Pos: r.rel(start), End: r.rel(last)})
	}
}

func firstNonBlank(b []byte) int {
	for i, c := range b {
		if c != ' ' && c != '\t' {
			return i
		}
	}
	return -1
}

// readCpp reads a preprocessor line (with backslash continuations) starting
// at r.pos and applies it to the preprocessor state.
func (r *reader) readCpp() *rawStmt {
	st := r.reset(rawCpp)
	st.lineFrom = r.pos
	start := r.pos
	var text []byte
	for {
		le, next := r.lineAt(r.pos)
		line := r.src[r.pos:le]
		r.pos = next
		if len(line) > 0 && line[len(line)-1] == '\\' && next < len(r.src) {
			text = append(text, line[:len(line)-1]...)
			text = append(text, ' ')
			continue
		}
		text = append(text, line...)
		st.from, st.to = r.rel(start), r.rel(le)
		break
	}
	st.cppText = string(text)
	var msg string
	r.cpp, st.cppDir, st.cppRest, msg = r.cpp.apply(st.cppText)
	if msg != "" {
		r.errorAbs(start, r.base+int(st.to), msg)
	}
	return st
}

// nextFixed reads one fixed-form statement.
func (r *reader) nextFixed() *rawStmt {
	if a := r.ahead; a.to > 0 && a.from == r.pos && a.cpp == r.cpp {
		for _, k := range r.skipped[:a.n] {
			r.addComment(k.from, k.to)
		}
		r.pos = a.to
	}
	r.ahead = lookahead{}
	for r.pos < len(r.src) {
		if r.cpp.inactive() {
			if first := firstNonBlank(r.lineText(r.pos)); first < 0 || r.src[r.pos+first] != '#' {
				r.skipInactive()
				continue
			}
		}
		ls := r.pos
		le, next := r.lineAt(ls)
		if ls > 0 && r.src[ls-1] != '\n' {
			// After a ";": the rest of the line is a statement of its own.
			if st := r.fixedAfterSemicolon(ls, le, next); st != nil {
				return st
			}
			continue
		}
		info := r.classify(ls, le)
		switch info.kind {
		case lineBlank:
			r.pos = next
			continue
		case lineComment:
			r.addComment(ls, le)
			r.pos = next
			continue
		case lineCpp:
			return r.readCpp()
		}
		var st *rawStmt
		if info.kind == lineDirective || (info.kind == lineCont && info.sentinel != "") {
			st = r.reset(rawDirective)
			st.sentinel = info.sentinel
			if info.kind == lineCont {
				r.errorAbs(ls, le, "directive continuation line without an initial line")
			}
			st.from = r.rel(ls)
		} else {
			st = r.reset(rawCode)
			st.fixed = true
			if info.kind == lineCont {
				r.errorAbs(ls, le, "continuation line without an initial line")
			}
			r.readLabel(st, ls, info.labelEnd)
		}
		st.lineFrom = ls
		r.lastText = info.textStart
		r.semi = 0
		r.appendFixed(info.textStart, info.textEnd, le, st.kind == rawCode)
		r.pos = next
		if r.semi > 0 && st.kind == rawCode {
			r.pos = r.semi
			r.finish(st)
			if len(st.buf) == 0 && st.label == 0 {
				continue
			}
			return st
		}
		r.continuations(st)
		r.finish(st)
		if len(st.buf) == 0 && st.label == 0 && !st.badLabel {
			continue // only a "!" comment, or blanks after column 6
		}
		return st
	}
	return nil
}

// continuations appends the fixed-form continuation lines that follow
// (comment lines may come between them) to st, and leaves r.pos after the
// last one. A ";" ends the statement where it stands.
func (r *reader) continuations(st *rawStmt) {
	r.ahead = lookahead{}
	for r.pos < len(r.src) {
		// Look past comment lines and preprocessor lines (real code puts
		// #if between continuation lines), in a tentative preprocessor
		// state that is kept only if a continuation line follows.
		j := r.pos
		cpp := r.cpp
		var cinfo fixedInfo
		skipped := r.skipped[:0]
		plain := true // only blank and comment lines passed
		for j < len(r.src) {
			cle, cnext := r.lineAt(j)
			if cpp.inactive() && (cle == j || r.src[j] != '#') {
				skipped = append(skipped, skippedLine{j, cle, true})
				plain = false
				j = cnext
				continue
			}
			cinfo = *r.classify(j, cle)
			if cinfo.kind == lineCpp && st.kind == rawCode {
				cpp, _, _, _ = cpp.apply(string(r.src[j:cle]))
				skipped = append(skipped, skippedLine{j, cle, false})
				plain = false
				j = cnext
				continue
			}
			if cinfo.kind != lineBlank && cinfo.kind != lineComment {
				break
			}
			if cinfo.kind == lineComment && st.kind == rawDirective {
				break
			}
			if cinfo.kind == lineComment {
				skipped = append(skipped, skippedLine{j, cle, false})
			}
			j = cnext
		}
		r.skipped = skipped
		if j >= len(r.src) || cinfo.kind != lineCont || cinfo.sentinel != st.sentinel || cpp.inactive() {
			if plain && j > r.pos {
				r.ahead = lookahead{from: r.pos, to: j, n: len(skipped), cpp: r.cpp}
			}
			return
		}
		// Keep what was passed: comments, preprocessor lines (recorded as
		// comments) and the lines of branches not taken.
		r.cpp = cpp
		for _, k := range skipped {
			if k.inactive {
				r.inactive = append(r.inactive, Range{Pos: r.rel(k.from), End: r.rel(k.to)})
			} else {
				r.addComment(k.from, k.to)
			}
		}
		cle, cnext := r.lineAt(j)
		r.appendFixed(cinfo.textStart, cinfo.textEnd, cle, st.kind == rawCode)
		r.pos = cnext
		if r.semi > 0 && st.kind == rawCode {
			r.pos = r.semi
			return
		}
	}
}

// fixedAfterSemicolon reads the statement that follows a ";" on a
// fixed-form line: from ls (mid-line) to the line's column limit, with its
// continuation lines. It returns nil if only blanks or a comment follow.
func (r *reader) fixedAfterSemicolon(ls, le, next int) *rawStmt {
	lineStart := r.lineStartOf(ls)
	limit := r.limit(lineStart, le, 0)
	st := r.reset(rawCode)
	st.fixed = true
	st.lineFrom = ls
	r.lastText = ls
	r.semi = 0
	if ls < limit {
		r.appendFixed(ls, limit, le, true)
	}
	r.pos = next
	if r.semi > 0 {
		r.pos = r.semi
	} else {
		r.continuations(st)
	}
	r.finish(st)
	if len(st.buf) == 0 {
		return nil
	}
	return st
}

func (r *reader) lineText(i int) []byte {
	le, _ := r.lineAt(i)
	return r.src[i:le]
}

func (r *reader) finish(st *rawStmt) {
	switch {
	case st.labelPos != NoPos:
		st.from = st.labelPos
	case st.kind == rawCode && len(st.off) > 0:
		st.from = st.off[0]
	}
	st.to = r.rel(r.lastText)
	if st.to < st.from {
		st.to = st.from
	}
	r.quote = 0 // an unterminated character constant is reported by the lexer
}

// readLabel reads the label field [ls, end) of a fixed-form line.
func (r *reader) readLabel(st *rawStmt, ls, end int) {
	n, start, stop := 0, -1, -1
	for i := ls; i < end; i++ {
		c := r.src[i]
		switch {
		case c == ' ' || c == '\t':
		case '0' <= c && c <= '9':
			if start < 0 {
				start = i
			}
			stop = i + 1
			if n < 1e6 {
				n = n*10 + int(c-'0')
			}
		default:
			if !st.badLabel {
				r.errorAbs(i, i+1, "invalid character in label field")
			}
			st.badLabel = true
		}
	}
	if start >= 0 {
		st.label, st.labelPos, st.labelEnd = n, r.rel(start), r.rel(stop)
		if n == 0 {
			r.errorAbs(start, stop, "statement label must not be zero")
		}
	}
}

// appendFixed appends the significant text [from, to) of one fixed-form line;
// le is the end of the physical line (a "!" comment runs to it).
func (r *reader) appendFixed(from, to, le int, strip bool) {
	src := r.src
	for j := from; j < to; j++ {
		c := src[j]
		if r.holLeft == 0 && r.quote == 0 && strip {
			// The common case, in a loop of its own: code bytes that are
			// copied upper case, and blanks that are dropped.
			k := j
			buf, off, base, last := r.st.buf, r.st.off, r.base, r.lastText
			// Each byte adds one at most to buf: up to end, buf stays
			// within MaxStatementBytes without a test per byte.
			end := min(to, k+MaxStatementBytes-len(buf))
			for ; k < end; k++ {
				u := plainFixed[src[k]]
				if u == 0 {
					break
				}
				if u == ' ' {
					continue
				}
				buf = append(buf, u)
				off = append(off, Pos(k-base))
				last = k + 1
			}
			r.st.buf, r.st.off, r.lastText = buf, off, last
			if k == to {
				return
			}
			j, c = k, src[k]
		}
		if r.holLeft > 0 {
			r.put(c, j)
			r.holLeft--
			r.lastText = j + 1
			continue
		}
		if r.quote != 0 {
			r.put(c, j)
			r.lastText = j + 1
			if c == r.quote {
				if j+1 < to && src[j+1] == r.quote {
					r.put(src[j+1], j+1)
					j++
					r.lastText = j + 1
				} else {
					r.quote = 0
				}
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\f':
			if !strip {
				if n := len(r.st.buf); n > 0 && r.st.buf[n-1] != ' ' {
					r.put(' ', j)
				}
			}
		case '!':
			r.addComment(j, le)
			return
		case ';':
			// gfortran takes ";" between statements in fixed form too:
			// the statement ends, and the next starts after it.
			r.semi = j + 1
			return
		case '\'', '"':
			r.quote = c
			r.put(c, j)
			r.lastText = j + 1
		case 'H', 'h':
			r.put('H', j)
			r.lastText = j + 1
			if n, ok := hollerithCount(r.st.buf[:len(r.st.buf)-1]); ok {
				r.holLeft = n
			}
		default:
			r.put(upper(c), j)
			r.lastText = j + 1
		}
	}
}

// plainFixed maps the bytes that fixed-form code copies as they are
// (upper case) to what is copied, blanks to ' ', and every byte that
// needs a look (quotes, "!", ";", H, blanks that are not spaces, non-ASCII)
// to 0.
var plainFixed = func() (t [256]byte) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = upper(byte(c))
	}
	for _, c := range "'\"!;Hh" {
		t[c] = 0
	}
	t[' '] = ' '
	return t
}()

// plainFree is plainFixed for free form, where "&" needs a look too.
var plainFree = func() (t [256]byte) {
	t = plainFixed
	t['&'] = 0
	return t
}()

// hollerithCount reports whether the buffer ends in the count of a
// Hollerith constant (nH...): digits preceded by one of ( , / = or by a
// "*" that follows a repeat count.
func hollerithCount(b []byte) (int, bool) {
	i := len(b)
	for i > 0 && b[i-1] >= '0' && b[i-1] <= '9' {
		i--
	}
	if i == len(b) || len(b)-i > 4 {
		return 0, false
	}
	j := i
	if j > 0 && b[j-1] == ' ' {
		j--
	}
	if j == 0 {
		return 0, false
	}
	switch b[j-1] {
	case '(', ',', '/', '=', '[':
	case '*':
		if j < 2 || b[j-2] < '0' || b[j-2] > '9' {
			return 0, false
		}
	default:
		return 0, false
	}
	n := 0
	for _, c := range b[i:] {
		n = n*10 + int(c-'0')
	}
	return n, n > 0
}

// freeDirective reports whether a free-form line (from its first non-blank
// character "!") starts a directive, and the length of its sentinel.
func freeDirective(b []byte) (name string, n int, ok bool) {
	if len(b) < 5 || b[0] != '!' {
		return "", 0, false
	}
	s := [4]byte{upper(b[1]), upper(b[2]), upper(b[3]), upper(b[4])}
	switch string(s[:]) {
	case "$OMP":
		name = "OMP"
	case "HPF$":
		name = "HPF"
	case "CMF$":
		name = "CMF"
	default:
		return "", 0, false
	}
	if len(b) > 5 && b[5] != ' ' && b[5] != '\t' && b[5] != '&' {
		return "", 0, false
	}
	return name, 5, true
}

// nextFree reads one free-form statement.
func (r *reader) nextFree() *rawStmt {
	src := r.src
	for r.pos < len(src) {
		atLineStart := r.pos == 0 || src[r.pos-1] == '\n'
		if atLineStart && r.cpp.inactive() {
			if first := firstNonBlank(r.lineText(r.pos)); first < 0 || src[r.pos+first] != '#' {
				r.skipInactive()
				continue
			}
		}
		le, next := r.lineAt(r.pos)
		i := r.pos
		for i < le && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if i == le {
			r.pos = next
			continue
		}
		c := src[i]
		if c == '#' && atLineStart {
			return r.readCpp()
		}
		if c == ';' {
			r.pos = i + 1
			continue
		}
		var st *rawStmt
		if c == '!' {
			name, n, ok := freeDirective(src[i:le])
			if !ok {
				r.addComment(i, le)
				r.pos = next
				continue
			}
			st = r.reset(rawDirective)
			st.sentinel = name
			st.from = r.rel(i)
			i += n
		} else {
			st = r.reset(rawCode)
			if c == '&' {
				i++
			}
			// A label: up to five digits followed by a blank.
			j := i
			for j < le && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			if j > i && (j == le || src[j] == ' ' || src[j] == '\t' || src[j] == ';') {
				n := 0
				for _, d := range src[i:j] {
					if n < 1e6 {
						n = n*10 + int(d-'0')
					}
				}
				st.label, st.labelPos, st.labelEnd = n, r.rel(i), r.rel(j)
				if j-i > 5 {
					r.errorAbs(i, j, "statement label has more than five digits")
				} else if n == 0 {
					r.errorAbs(i, j, "statement label must not be zero")
				}
				i = j
			}
		}
		st.lineFrom = r.pos
		r.lastText = i
		r.scanFree(st, i, le, next)
		r.finish(st)
		if len(st.buf) == 0 && st.label == 0 {
			continue
		}
		return st
	}
	return nil
}

// scanFree appends statement text from i on the line ending at le, following
// "&" continuations, and leaves r.pos after the statement.
func (r *reader) scanFree(st *rawStmt, i, le, next int) {
	src := r.src
	for {
		j := i
		for ; j < le; j++ {
			c := src[j]
			if r.quote == 0 && r.holLeft == 0 && plainFree[c] != 0 && len(r.st.buf) < MaxStatementBytes {
				// The common case, in a loop of its own: code bytes that
				// are copied upper case, and blanks that are kept, one
				// of a run. (It copies c at least.)
				k := j
				buf, off, base, last := r.st.buf, r.st.off, r.base, r.lastText
				// Each byte adds one at most to buf: up to end, buf stays
				// within MaxStatementBytes without a test per byte.
				end := min(le, k+MaxStatementBytes-len(buf))
				for ; k < end; k++ {
					u := plainFree[src[k]]
					if u == 0 {
						break
					}
					if u == ' ' {
						if n := len(buf); n > 0 && buf[n-1] != ' ' {
							buf = append(buf, ' ')
							off = append(off, Pos(k-base))
						}
						continue
					}
					buf = append(buf, u)
					off = append(off, Pos(k-base))
					last = k + 1
				}
				r.st.buf, r.st.off, r.lastText = buf, off, last
				j = k - 1
				continue
			}
			if r.quote != 0 {
				if c == '&' && isBlank(src[j+1:le]) {
					break // continued character constant
				}
				r.put(c, j)
				r.lastText = j + 1
				if c == r.quote {
					if j+1 < le && src[j+1] == r.quote {
						r.put(src[j+1], j+1)
						j++
						r.lastText = j + 1
					} else {
						r.quote = 0
					}
				}
				continue
			}
			if r.holLeft > 0 {
				r.put(c, j)
				r.holLeft--
				r.lastText = j + 1
				continue
			}
			switch c {
			case ' ', '\t', '\r', '\f':
				if n := len(st.buf); n > 0 && st.buf[n-1] != ' ' {
					r.put(' ', j)
				}
				continue
			case '!':
				r.addComment(j, le)
				r.pos = next
				r.trimBlank()
				return
			case ';':
				r.pos = j + 1
				r.trimBlank()
				return
			case '&':
				if k := firstNonBlank(src[j+1 : le]); k < 0 || src[j+1+k] == '!' {
					if k >= 0 {
						r.addComment(j+1+k, le)
					}
					goto continued
				}
				r.put(c, j)
				r.lastText = j + 1
			case '\'', '"':
				r.quote = c
				r.put(c, j)
				r.lastText = j + 1
			case 'H', 'h':
				r.put('H', j)
				r.lastText = j + 1
				if n, ok := hollerithCount(st.buf[:len(st.buf)-1]); ok && len(st.buf) > 1 {
					r.holLeft = n
				}
			default:
				r.put(upper(c), j)
				r.lastText = j + 1
			}
		}
		if j >= le {
			r.pos = next
			r.trimBlank()
			return
		}
	continued:
		// Find the next line that is not blank or a comment.
		k := next
		for k < len(src) {
			kle, knext := r.lineAt(k)
			f := firstNonBlank(src[k:kle])
			if f < 0 {
				k = knext
				continue
			}
			if src[k+f] == '!' {
				if _, n, ok := freeDirective(src[k+f : kle]); ok && st.kind == rawDirective {
					i = k + f + n
					le, next = kle, knext
					for i < le && (src[i] == ' ' || src[i] == '\t') {
						i++
					}
					if i < le && src[i] == '&' {
						i++
					}
					goto resume
				}
				r.addComment(k+f, kle)
				k = knext
				continue
			}
			if src[k+f] == '#' && f == 0 && st.kind == rawCode {
				// A preprocessor line between continuation lines.
				var msg string
				r.cpp, _, _, msg = r.cpp.apply(string(src[k:kle]))
				if msg != "" {
					r.errorAbs(k, kle, msg)
				}
				r.addComment(k, kle)
				k = knext
				for k < len(src) && r.cpp.inactive() {
					ile, inext := r.lineAt(k)
					if f := firstNonBlank(src[k:ile]); f == 0 && src[k] == '#' {
						break
					}
					r.inactive = append(r.inactive, Range{Pos: r.rel(k), End: r.rel(ile)})
					k = inext
				}
				continue
			}
			if st.kind == rawDirective || src[k+f] == '#' {
				break
			}
			le, next = kle, knext
			i = k + f
			if src[i] == '&' {
				i++
			} else if r.quote != 0 {
				i = k
			}
			goto resume
		}
		r.pos = k
		r.trimBlank()
		return
	resume:
		// A continuation line that does not start with "&" separates
		// tokens like a blank; one that does joins them.
		if r.quote == 0 && i > 0 && src[i-1] != '&' {
			if n := len(st.buf); n > 0 && st.buf[n-1] != ' ' {
				r.put(' ', i)
			}
		}
	}
}

func (r *reader) trimBlank() {
	if n := len(r.st.buf); n > 0 && r.st.buf[n-1] == ' ' {
		r.st.buf = r.st.buf[:n-1]
		r.st.off = r.st.off[:n-1]
	}
}
