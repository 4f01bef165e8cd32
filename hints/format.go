package hints

import (
	"strings"

	"github.com/pfls/pfls/parser"
)

// FormatOptions are the formatter's settings.
type FormatOptions struct {
	// Indent is the number of spaces per construct level in free form.
	Indent int
	// KeywordCase is "upper" or "lower" to rewrite the keywords that open,
	// continue and close constructs and program units; anything else
	// keeps them as written.
	KeywordCase string
}

// DefaultFormatOptions indent by 3, the default of fprettify and findent,
// the two formatters Fortran users run (Modern Fortran for VS Code calls
// them), so that pfls agrees with code they have already formatted.
func DefaultFormatOptions() FormatOptions { return FormatOptions{Indent: 3} }

// Format returns the text of f formatted conservatively:
//   - free form: each statement's first line is indented by its construct
//     depth (program units, DO, IF ... THEN, SELECT, WHERE, FORALL,
//     ASSOCIATE, BLOCK, CRITICAL, CHANGE TEAM, derived types, interfaces,
//     ENUM); ELSE, CASE, CONTAINS and the like one level out; continuation
//     lines move with their statement, except those that continue a
//     character constant without a leading &; indented comment lines
//     take the depth of the code around them (those in column 1 stay);
//     labelled lines, directives and preprocessor lines keep their
//     indentation, and so does a line that indenting would take past
//     132 characters (the free-form line length);
//   - fixed form: columns never move; only trailing blanks go, except on
//     a line that a continuation line follows (a character constant may
//     run on to column 72);
//   - in both, trailing blanks go (not after an unclosed character
//     constant, whose blanks they are) and keywords change case if asked.
//
// The text of comments and directives is never changed, and the tokens of
// the program are the same before and after (tested); formatting twice
// gives the result of formatting once.
func Format(f *parser.File, o FormatOptions) string {
	if o.Indent < 0 {
		o.Indent = 0
	}
	src := string(f.Src)
	lines := strings.SplitAfter(src, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	starts := make([]int, len(lines)+1)
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	lineOf := func(off int) int {
		lo, hi := 0, len(lines)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if starts[mid] <= off {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	// Keyword case: byte ranges of keyword tokens to rewrite.
	type span struct{ start, end int }
	var recase []span

	// What to do with each line: indent to a depth (-1: keep), or shift
	// a continuation line by its statement's delta.
	const keep = -1
	depthOf := make([]int, len(lines))
	shift := make([]int, len(lines))
	isCont := make([]bool, len(lines))
	for i := range depthOf {
		depthOf[i] = keep
	}
	stmts := parser.Statements(f.Name, f.Src, f.Config)
	free := f.Form != parser.Fixed
	depth := 0
	var labels []string // labels of open labelled DOs, innermost last
	var kinds []string  // kinds of open constructs, innermost last
	firstOnLine := map[int]bool{}
	for _, st := range stmts {
		if len(st.Tokens) == 0 {
			continue
		}
		toks := make([]string, len(st.Tokens))
		for i, t := range st.Tokens {
			toks[i] = strings.ToUpper(src[t.Start:t.End])
		}
		line := lineOf(st.Start)
		label := strings.TrimSpace(src[st.Start:st.Tokens[0].Start])
		if !isDigits(label) {
			label = ""
		}
		label = strings.TrimLeft(label, "0")
		directive := isDirectiveLine(lines[line])
		var c classified
		if !directive {
			c = classify(toks, kinds)
		}
		if o.KeywordCase == "upper" || o.KeywordCase == "lower" {
			for _, k := range c.keywords {
				recase = append(recase, span{st.Tokens[k].Start, st.Tokens[k].End})
			}
		}
		// The depth of this statement's line.
		d := depth
		switch {
		case c.close:
			d = max(depth-1, 0)
			depth = d
			if len(kinds) > 0 {
				kinds = kinds[:len(kinds)-1]
			}
			if label != "" && len(labels) > 0 && labels[len(labels)-1] == label {
				labels = labels[:len(labels)-1] // 10 END DO closes DO 10 once
			}
		case c.middle:
			d = max(depth-1, 0)
		}
		if label != "" {
			// A labelled statement ends every DO loop with that label.
			for len(labels) > 0 && labels[len(labels)-1] == label {
				labels = labels[:len(labels)-1]
				depth = max(depth-1, 0)
				d = depth
				if len(kinds) > 0 {
					kinds = kinds[:len(kinds)-1]
				}
			}
		}
		if c.open != "" {
			kinds = append(kinds, c.open)
			depth++
			if c.doLabel != "" {
				labels = append(labels, c.doLabel)
			}
		}
		if !free || directive || firstOnLine[line] {
			continue
		}
		firstOnLine[line] = true
		if label != "" || strings.HasPrefix(strings.TrimLeft(lines[line], " \t"), "&") {
			continue // labels stay where they are written
		}
		depthOf[line] = d
		// Continuation lines follow the first line.
		last := lineOf(max(st.End-1, st.Start))
		inString := quoteAtEnd(lines[line], 0)
		for l := line + 1; l <= last && l < len(lines); l++ {
			trimmed := strings.TrimLeft(lines[l], " \t")
			startsAmp := strings.HasPrefix(trimmed, "&")
			if !(inString != 0 && !startsAmp) && !isCommentLine(trimmed) && !strings.HasPrefix(trimmed, "#") {
				isCont[l] = true
				shift[l] = line
			}
			if !isCommentLine(trimmed) {
				inString = quoteAtEnd(lines[l], inString)
			}
		}
	}

	openEnd := stringOpenAtEnd(lines, free)
	var b strings.Builder
	b.Grow(len(src))
	// Comments take the depth of the next statement's line unless that
	// line closes a construct, then of the line before.
	nextDepth := make([]int, len(lines)+1)
	nextDepth[len(lines)] = 0
	for i := len(lines) - 1; i >= 0; i-- {
		nextDepth[i] = nextDepth[i+1]
		if depthOf[i] != keep {
			nextDepth[i] = depthOf[i]
		}
	}
	prevDepth := 0
	moved := make([]int, len(lines)) // how far a statement's first line moved
	ri := 0
	for i, l := range lines {
		body, nl := l, ""
		if strings.HasSuffix(body, "\n") {
			body, nl = body[:len(body)-1], "\n"
		}
		cr := ""
		if strings.HasSuffix(body, "\r") {
			body, cr = body[:len(body)-1], "\r"
		}
		// Keyword case inside this line.
		if len(recase) > 0 {
			var nb strings.Builder
			pos := starts[i]
			for ri < len(recase) && recase[ri].start < starts[i]+len(body) {
				r := recase[ri]
				ri++
				if r.start < pos {
					continue
				}
				nb.WriteString(src[pos:r.start])
				w := src[r.start:r.end]
				if o.KeywordCase == "upper" {
					w = strings.ToUpper(w)
				} else {
					w = strings.ToLower(w)
				}
				nb.WriteString(w)
				pos = r.end
			}
			if pos > starts[i] {
				nb.WriteString(src[pos : starts[i]+len(body)])
				body = nb.String()
			}
		}
		keepTrailing := openEnd[i] || !free && i+1 < len(lines) && isFixedContinuation(lines[i+1])
		if !keepTrailing {
			body = strings.TrimRight(body, " \t")
		}
		trimmed := strings.TrimLeft(body, " \t")
		indent := body[:len(body)-len(trimmed)]
		// reindent gives the line n blanks, unless that takes it past
		// the free-form line length, which it was not (compilers stop
		// reading a line there: gfortran rejects it).
		reindent := func(n int) {
			if n+len(trimmed) <= maxFreeLine || n <= len(indent) {
				body = strings.Repeat(" ", n) + trimmed
				moved[i] = n - len(indent)
			}
		}
		switch {
		case !free || trimmed == "":
		case depthOf[i] != keep:
			prevDepth = depthOf[i]
			reindent(depthOf[i] * o.Indent)
		case isCont[i]:
			first := lines[shift[i]]
			oldFirst := len(first) - len(strings.TrimLeft(first, " \t"))
			delta := moved[shift[i]]
			if strings.ContainsRune(indent, '\t') || strings.ContainsRune(first[:oldFirst], '\t') {
				break
			}
			reindent(max(len(indent)+delta, 0))
		case isCommentLine(trimmed) && indent != "" && !isDirectiveLine(trimmed):
			d := nextDepth[i+1]
			if i+1 < len(lines) && d < prevDepth {
				d = prevDepth
			}
			reindent(d * o.Indent)
		}
		b.WriteString(body + cr + nl)
	}
	return b.String()
}

// maxFreeLine is the length of a free-form line (Fortran 2003 and on:
// 132 characters).
const maxFreeLine = 132

// classified is what a statement does to the construct depth.
type classified struct {
	open     string // the kind of construct it opens, or ""
	doLabel  string // the label of a labelled DO
	middle   bool   // ELSE, CASE, CONTAINS: one level out for its line
	close    bool   // END ...
	keywords []int  // the indexes of its keyword tokens
}

var unitPrefixes = map[string]bool{"RECURSIVE": true, "PURE": true, "ELEMENTAL": true, "IMPURE": true,
	"MODULE": true, "NON_RECURSIVE": true, "INTEGER": true, "REAL": true, "DOUBLE": true, "PRECISION": true,
	"DOUBLEPRECISION": true, "COMPLEX": true, "LOGICAL": true, "CHARACTER": true, "TYPE": true, "CLASS": true}

var endKinds = map[string]bool{"": true, "DO": true, "IF": true, "SELECT": true, "WHERE": true, "FORALL": true,
	"ASSOCIATE": true, "BLOCK": true, "CRITICAL": true, "TEAM": true, "ENUM": true, "TYPE": true, "INTERFACE": true,
	"PROGRAM": true, "MODULE": true, "SUBMODULE": true, "SUBROUTINE": true, "FUNCTION": true, "PROCEDURE": true,
	"BLOCKDATA": true}

// parenKeywords are the statement keywords followed by a parenthesis.
var parenKeywords = map[string]bool{"IF": true, "WHERE": true, "FORALL": true, "SELECTCASE": true, "SELECTTYPE": true,
	"SELECTRANK": true, "ASSOCIATE": true, "CASE": true, "RANK": true, "ELSEIF": true, "ELSEWHERE": true, "TYPE": true, "CLASS": true}

// classify reads a statement's upper-case tokens; kinds are the open
// constructs around it.
func classify(toks []string, kinds []string) classified {
	var c classified
	off := 0
	// A construct name: NAME : keyword.
	if len(toks) > 2 && toks[1] == ":" && isNameTok(toks[0]) {
		off = 2
	}
	t := toks[off:]
	at := func(i int) string {
		if i < len(t) {
			return t[i]
		}
		return ""
	}
	kw := func(idx ...int) {
		for _, i := range idx {
			c.keywords = append(c.keywords, off+i)
		}
	}
	if at(1) == "=" || at(1) == "=>" || at(1) == "%" {
		return c // an assignment to a variable named like a keyword
	}
	if at(1) == "(" && !parenKeywords[t[0]] {
		// a call or array element assignment: X(...) = ...
		if closing := matchParen(t, 1); closing+1 < len(t) && (t[closing+1] == "=" || t[closing+1] == "=>") {
			return c
		}
	}
	switch w := at(0); {
	case strings.HasPrefix(w, "END") && w != "ENDFILE" && !(w == "END" && at(1) == "FILE"):
		rest := strings.TrimPrefix(w, "END")
		kw(0)
		if rest == "" && endKinds[at(1)] && at(1) != "" {
			rest = at(1)
			kw(1)
			if rest == "BLOCK" && at(2) == "DATA" {
				kw(2)
			}
		}
		if endKinds[rest] || rest == "BLOCKDATA" {
			c.close = true
		} else {
			c.keywords = nil
		}
	case w == "ELSE" || w == "ELSEIF" || w == "ELSEWHERE":
		c.middle = true
		kw(0)
		if at(1) == "IF" || at(1) == "WHERE" {
			kw(1)
		}
		if last := len(t) - 1; t[last] == "THEN" {
			kw(last)
		}
	case w == "CASE" && (at(1) == "(" || at(1) == "DEFAULT"):
		c.middle = true
		kw(0)
	case (w == "TYPE" || w == "CLASS") && (at(1) == "IS" || at(1) == "DEFAULT") && inKind(kinds, "SELECT"):
		c.middle = true
		kw(0, 1)
	case w == "RANK" && (at(1) == "(" || at(1) == "DEFAULT") && inKind(kinds, "SELECT"):
		c.middle = true
		kw(0)
	case w == "CONTAINS" && len(t) == 1:
		c.middle = true
		kw(0)
	case w == "PROGRAM" || w == "SUBMODULE" || w == "BLOCKDATA" || w == "INTERFACE":
		c.open = w
		kw(0)
	case w == "BLOCK" && at(1) == "DATA":
		c.open = "BLOCKDATA"
		kw(0, 1)
	case w == "BLOCK" && len(t) == 1, w == "CRITICAL" && len(t) == 1, w == "ENUM":
		c.open = w
		kw(0)
	case w == "ABSTRACT" && at(1) == "INTERFACE":
		c.open = "INTERFACE"
		kw(0, 1)
	case w == "MODULE" && at(1) != "PROCEDURE" && at(1) != "FUNCTION" && at(1) != "SUBROUTINE":
		c.open = "MODULE"
		kw(0)
	case w == "MODULE" && at(1) == "PROCEDURE":
		kw(0, 1)
		if !inKind(kinds, "INTERFACE") {
			c.open = "PROCEDURE" // a separate module procedure
		}
	case w == "TYPE" && at(1) != "(" && at(1) != "IS" && len(t) > 1:
		c.open = "TYPE"
		kw(0)
	case w == "DO" || w == "DOWHILE" || w == "DOCONCURRENT":
		c.open = "DO"
		kw(0)
		if at(1) == "WHILE" || at(1) == "CONCURRENT" {
			kw(1)
		}
		if isDigits(at(1)) {
			c.doLabel = strings.TrimLeft(at(1), "0")
		}
	case w == "IF" && at(1) == "(":
		if closing := matchParen(t, 1); closing == len(t)-2 && t[len(t)-1] == "THEN" {
			c.open = "IF"
			kw(0, len(t)-1)
		}
	case w == "SELECT" || w == "SELECTCASE" || w == "SELECTTYPE" || w == "SELECTRANK":
		c.open = "SELECT"
		kw(0)
		if at(1) == "CASE" || at(1) == "TYPE" || at(1) == "RANK" {
			kw(1)
		}
	case (w == "WHERE" || w == "FORALL") && at(1) == "(":
		if matchParen(t, 1) == len(t)-1 {
			c.open = w
			kw(0)
		}
	case w == "ASSOCIATE" && at(1) == "(":
		c.open = w
		kw(0)
	case w == "CHANGE" && at(1) == "TEAM":
		c.open = "TEAM"
		kw(0, 1)
	default:
		// SUBROUTINE or FUNCTION after prefixes and a type.
		depth := 0
		for i, x := range t {
			switch {
			case x == "(":
				depth++
			case x == ")":
				depth--
			case depth > 0 || x == "*" || isDigits(x):
			case (x == "SUBROUTINE" || x == "FUNCTION") && isNameTok(at(i+1)):
				c.open = x
				kw(i)
				return c
			case !unitPrefixes[x]:
				return c
			}
		}
	}
	return c
}

func inKind(kinds []string, k string) bool {
	return len(kinds) > 0 && kinds[len(kinds)-1] == k
}

// matchParen returns the index of the token closing the parenthesis at
// toks[open], or -1.
func matchParen(toks []string, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case "(", "(/", "[":
			depth++
		case ")", "/)", "]":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isNameTok(s string) bool {
	if s == "" || !(s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// isCommentLine reports whether a line without its leading blanks is a
// free-form comment (directives included).
func isCommentLine(trimmed string) bool { return strings.HasPrefix(trimmed, "!") }

// isDirectiveLine reports whether a line is a directive (!$OMP, !HPF$,
// !CMF$, !DIR$, !$ conditional compilation, ...) or a preprocessor line.
func isDirectiveLine(line string) bool {
	t := strings.ToUpper(strings.TrimLeft(line, " \t"))
	if strings.HasPrefix(t, "#") {
		return true
	}
	if !strings.HasPrefix(t, "!") {
		return false
	}
	word := t[1:]
	if i := strings.IndexAny(word, " \t"); i >= 0 {
		word = word[:i]
	}
	return strings.Contains(word, "$")
}

// isFixedContinuation reports whether a fixed-form line continues the
// statement before it, as the parser reads it: a character other than
// blank or 0 in column 6, or in tab form a digit 1-9 after the tab.
func isFixedContinuation(line string) bool {
	line = strings.TrimRight(line, "\r\n")
	if line == "" || strings.ContainsRune("Cc*!", rune(line[0])) {
		return false
	}
	if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "!") && len(line)-len(t) < 5 {
		return false
	}
	if t := strings.IndexByte(line[:min(6, len(line))], '\t'); t >= 0 {
		return t+1 < len(line) && line[t+1] >= '1' && line[t+1] <= '9'
	}
	return len(line) > 5 && line[5] != ' ' && line[5] != '0'
}

// quoteAtEnd returns the quote character still open at the end of a
// free-form line, starting with quote open (0: none); a comment ends the
// scan.
func quoteAtEnd(line string, quote byte) byte {
	line = strings.TrimRight(line, "\r\n")
	if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
		return quote // a blank or preprocessor line does not end a continued constant
	}
	i := 0
	if quote != 0 {
		// A continued constant resumes after a leading &.
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, "&") {
			i = len(line) - len(t) + 1
		}
	}
	for ; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0:
			if ch == quote {
				if i+1 < len(line) && line[i+1] == quote {
					i++
				} else {
					quote = 0
				}
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '!':
			return 0
		}
	}
	if quote != 0 {
		// A constant continued with & stays open; without & the line
		// ends it (a syntax error the parser reports).
		if !strings.HasSuffix(strings.TrimRight(line, " \t"), "&") {
			return 0
		}
	}
	return quote
}

// stringOpenAtEnd reports for each line whether it ends inside a
// character constant (continued, or left open by mistake): its trailing
// blanks belong to the constant.
func stringOpenAtEnd(lines []string, free bool) []bool {
	out := make([]bool, len(lines))
	var carry byte
	for i, l := range lines {
		l = strings.TrimRight(l, "\r\n")
		if free {
			t := strings.TrimLeft(l, " \t")
			if carry == 0 && strings.HasPrefix(t, "!") || t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			start := 0
			if carry != 0 && strings.HasPrefix(t, "&") {
				start = len(l) - len(t) + 1
			}
			q := scanQuotes(l[start:], carry, true)
			out[i] = q != 0
			carry = 0
			if q != 0 && strings.HasSuffix(strings.TrimRight(l, " \t"), "&") {
				carry = q
			}
			continue
		}
		if l == "" || strings.ContainsRune("Cc*!", rune(l[0])) || strings.HasPrefix(strings.TrimLeft(l, " "), "!") && !isFixedContinuation(l) {
			continue
		}
		if !isFixedContinuation(l) {
			carry = 0
		}
		if strings.ContainsRune(l[:min(6, len(l))], '\t') {
			out[i], carry = true, 0 // tab form: keep its blanks
			continue
		}
		if len(l) <= 6 {
			out[i] = carry != 0
			continue
		}
		q := scanQuotes(l[6:min(len(l), 72)], carry, true)
		out[i] = q != 0
		carry = q
	}
	return out
}

// scanQuotes returns the quote still open at the end of s, starting with
// quote open; with bang, a ! outside quotes ends the scan.
func scanQuotes(s string, quote byte, bang bool) byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				if i+1 < len(s) && s[i+1] == quote {
					i++
				} else {
					quote = 0
				}
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '!' && bang:
			return 0
		}
	}
	return quote
}
