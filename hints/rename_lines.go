package hints

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pfls/pfls/parser"
)

// freeFormLimit is the longest free-form line the standard allows.
const freeFormLimit = 132

// fitLines keeps every line of the renamed text within its last column:
// 72 in fixed form (or the configured line length), 132 in free form. A
// line the new name makes too long is broken with a continuation line
// (the edits of that line become one edit of the whole line); where that
// cannot be done safely (a comment or directive line, an inline comment,
// a Hollerith constant, a tab-formatted line, no break point outside a
// character constant) it refuses.
func fitLines(edits []TextEdit) ([]TextEdit, error) {
	type key struct {
		f    *parser.File
		line int
	}
	by := map[key][]TextEdit{}
	var keys []key
	for _, e := range edits {
		k := key{e.File, e.File.Lines.Line(e.Start)}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], e)
	}
	var out []TextEdit
	for _, k := range keys {
		es := by[k]
		f := k.f
		start, end := f.Lines.LineStart(k.line), f.Lines.LineEnd(k.line)
		for end > start && (f.Src[end-1] == '\n' || f.Src[end-1] == '\r') {
			end--
		}
		var b strings.Builder
		last := start
		for _, e := range es {
			b.Write(f.Src[last:e.Start])
			b.WriteString(e.Text)
			last = e.End
		}
		b.Write(f.Src[last:end])
		text := b.String()
		limit := lineLimit(f)
		oldWidth := width(string(f.Src[start:end]))
		if f.Form == parser.Fixed && limit >= 0 && oldWidth > limit && width(text) != oldWidth {
			// Text past the last column (sequence numbers) would move
			// into the statement or out of it.
			return nil, fmt.Errorf("%s:%d: the line has text past column %d, which the new name would shift; rename by hand", f.Name, k.line+1, limit)
		}
		if w := width(text); limit < 0 || w <= limit || w <= oldWidth {
			out = append(out, es...)
			continue
		}
		nl := "\n"
		if end < len(f.Src) && f.Src[end] == '\r' {
			nl = "\r\n"
		}
		broken, ok := breakLine(f, text, limit, nl)
		if !ok {
			form := "free-form"
			if f.Form == parser.Fixed {
				form = "fixed-form"
			}
			return nil, fmt.Errorf("%s:%d: the new name would make the line %d columns long, past the %s limit of %d, and the line cannot be continued safely; shorten the name or break the line first",
				f.Name, k.line+1, width(text), form, limit)
		}
		out = append(out, TextEdit{f, start, end, broken})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File.Name < out[j].File.Name
		}
		return out[i].Start < out[j].Start
	})
	return out, nil
}

func lineLimit(f *parser.File) int {
	if f.Form != parser.Fixed {
		return freeFormLimit
	}
	if f.Config != nil && f.Config.LineLength != 0 {
		return f.Config.LineLength
	}
	return 72
}

// width is the number of columns of a line, trailing blanks left out.
func width(line string) int {
	return len([]rune(strings.TrimRight(line, " \t")))
}

// breakLine splits a statement line that is too long into continuation
// lines, each within limit columns, at break points outside character
// constants: after a comma or an opening parenthesis, or at a blank.
func breakLine(f *parser.File, text string, limit int, nl string) (string, bool) {
	if strings.ContainsRune(text, '\t') || !isASCII(text) {
		return "", false
	}
	fixed := f.Form == parser.Fixed
	body := 0 // where statement text starts
	if fixed {
		if len(text) < 7 {
			return "", false
		}
		for _, c := range text[:5] {
			if c != ' ' && (c < '0' || c > '9') {
				return "", false // a comment or directive line
			}
		}
		body = 6
	} else {
		trimmed := strings.TrimLeft(text, " ")
		if strings.HasPrefix(trimmed, "!") || strings.HasPrefix(trimmed, "#") {
			return "", false
		}
	}
	// Quote state at every byte; no inline comment, no Hollerith.
	inQuote := make([]bool, len(text)+1)
	var q byte
	for i := body; i < len(text); i++ {
		c := text[i]
		inQuote[i] = q != 0
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '!':
			return "", false
		case (c == 'H' || c == 'h') && i > body && text[i-1] >= '0' && text[i-1] <= '9' && hollerithStart(text, body, i):
			return "", false
		}
	}
	if q != 0 {
		return "", false // a character constant continued on the next line
	}
	inQuote[len(text)] = false
	indent := ""
	if !fixed {
		indent = text[:len(text)-len(strings.TrimLeft(text, " "))]
	}
	mark := continuationMark(f)
	var b strings.Builder
	line := text
	for width(line) > limit {
		room := limit
		lo := 7
		if !fixed {
			room = limit - 2 // for " &"
			lo = len(indent) + 1
		}
		s := -1
		for i := min(room, len(line)-1); i >= lo; i-- {
			if quoted(line, i, fixed) {
				continue
			}
			if c := line[i-1]; c == ',' || c == '(' || line[i] == ' ' {
				s = i
				break
			}
		}
		if s < 0 {
			return "", false
		}
		head := strings.TrimRight(line[:s], " ")
		rest := strings.TrimLeft(line[s:], " ")
		if fixed {
			b.WriteString(head + nl)
			line = "     " + mark + "      " + rest
		} else {
			b.WriteString(head + " &" + nl)
			line = indent + "    " + rest
		}
	}
	b.WriteString(line)
	return b.String(), true
}

// quoted reports whether index i of a line (statement text from column 7
// in fixed form) lies inside a character constant.
func quoted(line string, i int, fixed bool) bool {
	var q byte
	j := 0
	if fixed {
		j = 6
	}
	for ; j < i && j < len(line); j++ {
		c := line[j]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		}
	}
	return q != 0
}

// hollerithStart reports whether the H at i ends a Hollerith count
// (digits not preceded by a letter, digit or underscore).
func hollerithStart(text string, body, i int) bool {
	j := i - 1
	for j >= body && text[j] >= '0' && text[j] <= '9' {
		j--
	}
	if j < body {
		return true
	}
	c := text[j]
	return !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c >= '0' && c <= '9')
}

// continuationMark is the character f already uses in column 6 of its
// continuation lines, '&' when it has none.
func continuationMark(f *parser.File) string {
	for _, line := range strings.Split(string(f.Src), "\n") {
		if len(line) > 6 && strings.TrimLeft(line[:5], " ") == "" && line[5] != ' ' && line[5] != '0' && line[5] != '\t' {
			return line[5:6]
		}
	}
	return "&"
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
