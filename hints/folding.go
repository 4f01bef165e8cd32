package hints

import (
	"bytes"
	"sort"

	"github.com/pfls/pfls/parser"
)

// Fold is a foldable stretch of a file: Start is the offset of the start
// of its first line (which stays visible) and End the offset of the end
// of its last folded line. Kind is "comment" for comment blocks,
// "directive" for blocks of directive lines, "" for program units and
// constructs.
type Fold struct {
	Start, End int
	Kind       string
}

// Folds returns the foldable stretches of f: program units (contained
// ones too) and constructs (DO, IF and its arms, SELECT and its cases,
// WHERE, FORALL, BLOCK, ASSOCIATE, INTERFACE, derived TYPE) from their
// first line to the line before their END, which stays visible; runs of
// two or more directive lines (!HPF$, CHPF$, CMF$, !$OMP); runs of two or
// more comment lines.
func Folds(f *parser.File) []Fold {
	lines := f.Lines
	var out []Fold
	add := func(from, to int, kind string) {
		if to <= from {
			return
		}
		out = append(out, Fold{Start: lines.LineStart(from), End: lines.LineEnd(to), Kind: kind})
	}
	line := lines.Line
	allUnits(f, func(u *parser.Unit) {
		stmts := ownStmts(u)
		if len(stmts) > 0 {
			last := line(u.Abs(stmts[len(stmts)-1].End()) - 1)
			if u.EndStmt != nil {
				last = line(u.Abs(u.EndStmt.Pos())) - 1
			}
			add(line(u.Abs(stmts[0].Pos())), last, "")
		}
		// closing is the last line of a construct's stretch: the line
		// before its END, or its last line when it has none.
		closing := func(end parser.Stmt, whole parser.Node) int {
			if end != nil {
				return line(u.Abs(end.Pos())) - 1
			}
			return line(u.Abs(whole.End()) - 1)
		}
		arms := func(list []*parser.IfArm, last int) {
			for i, a := range list {
				to := last
				if i+1 < len(list) {
					to = line(u.Abs(list[i+1].Head.Pos())) - 1
				}
				add(line(u.Abs(a.Head.Pos())), to, "")
			}
		}
		for _, st := range stmts {
			parser.Inspect(st, func(n parser.Node) bool {
				switch c := n.(type) {
				case *parser.DoConstruct:
					to := closing(c.EndStmt, c)
					if c.EndStmt == nil && len(c.Body) > 0 {
						// A labelled DO: its terminal statement (perhaps
						// shared with inner loops) stays visible.
						to = line(u.Abs(c.End())-1) - 1
					}
					add(line(u.Abs(c.Do.Pos())), to, "")
				case *parser.IfConstruct:
					arms(c.Arms, closing(c.EndStmt, c))
				case *parser.Block:
					last := closing(c.EndStmt, c)
					to := last
					if len(c.Arms) > 0 && len(c.Body) > 0 {
						// WHERE ... ELSEWHERE: the head's own part ends
						// before the first arm.
						to = line(u.Abs(c.Arms[0].Head.Pos())) - 1
					}
					add(line(u.Abs(c.Head.Pos())), to, "")
					arms(c.Arms, last)
				}
				return true
			})
		}
	})
	out = append(out, lineRuns(f)...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].End > out[j].End
	})
	// Clients keep one fold per first line: the widest.
	dedup := out[:0]
	for i, fo := range out {
		if i > 0 && line(fo.Start) == line(dedup[len(dedup)-1].Start) {
			continue
		}
		dedup = append(dedup, fo)
	}
	return dedup
}

// lineRuns returns the runs of two or more directive lines and of two or
// more comment lines of f. A comment line is one whose first non-blank
// character starts a comment of the tree.
func lineRuns(f *parser.File) []Fold {
	lines := f.Lines
	n := lines.LineCount()
	comment := make([]bool, n)
	allUnits(f, func(u *parser.Unit) {
		for _, c := range u.Comments {
			at := u.Abs(c.Pos)
			l := lines.Line(at)
			ls := lines.LineStart(l)
			if l < n && len(bytes.TrimSpace(f.Src[ls:at])) == 0 {
				comment[l] = true
			}
		}
	})
	kindOf := func(l int) string {
		text := f.Src[lines.LineStart(l):lines.LineEnd(l)]
		if sentinelLen(text, f.Form) > 0 {
			return "directive"
		}
		if comment[l] {
			return "comment"
		}
		return ""
	}
	var out []Fold
	for l := 0; l < n; {
		k := kindOf(l)
		m := l + 1
		for k != "" && m < n && kindOf(m) == k {
			m++
		}
		if k != "" && m-l >= 2 {
			out = append(out, Fold{Start: lines.LineStart(l), End: lines.LineEnd(m - 1), Kind: k})
		}
		l = m
	}
	return out
}

// sentinelLen returns the length of the directive sentinel that starts
// the line (after blanks in free form), or 0: !HPF$, !$OMP, !CMF$ and,
// in fixed form, the same with C or * in column 1 and CMF$.
func sentinelLen(line []byte, form parser.Form) int {
	if form != parser.Fixed {
		line = bytes.TrimLeft(line, " \t")
	}
	if len(line) < 4 {
		return 0
	}
	up := bytes.ToUpper(line[:min(5, len(line))])
	if form == parser.Fixed && bytes.HasPrefix(up, []byte("CMF$")) {
		return 4
	}
	if len(up) < 5 {
		return 0
	}
	c := up[0]
	if c != '!' && (form != parser.Fixed || c != 'C' && c != '*') {
		return 0
	}
	switch string(up[1:5]) {
	case "HPF$", "$OMP", "CMF$":
		return 5
	}
	return 0
}
