package complexity

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestCutForallWhere is a property test of the parser's recovery, seen
// through the costs: a FORALL, WHERE or DO CONCURRENT line of a real
// program cut after any of its tokens (the rest of the statement
// deleted, its line breaks kept, as while typing) leaves every construct
// where it was (the same DO, IF, WHERE and FORALL constructs on the same
// lines) and every loop that does not contain the cut statement with its
// cost. A FORALL or WHERE statement cut in its statement stays a
// statement; a construct head left without END takes in nothing. The
// programs: the realistic suite, the examples, the marker fixtures and
// this package's test programs.
func TestCutForallWhere(t *testing.T) {
	var files []string
	for _, g := range []string{"../hints/testdata/programs/*", "../examples/*", "../hints/testdata/markers/*", "testdata/*"} {
		m, _ := filepath.Glob(g)
		for _, f := range m {
			switch filepath.Ext(f) {
			case ".f", ".f90", ".hpf", ".fcm":
				files = append(files, f)
			}
		}
	}
	if len(files) < 10 {
		t.Fatalf("only %d programs found", len(files))
	}
	cuts, stmts := 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		orig := parser.Parse(name, src, nil)
		if len(orig.Errors()) > 0 {
			continue
		}
		shape0 := constructShape(orig)
		loops0 := loopCosts(orig)
		for _, sp := range cutTargets(orig) {
			stmts++
			text := string(src[sp[0]:sp[1]])
			for _, at := range tokenEnds(text) {
				cut := make([]byte, 0, len(src))
				cut = append(cut, src[:sp[0]+at]...)
				cut = append(cut, strings.Repeat("\n", strings.Count(text[at:], "\n"))...)
				cut = append(cut, src[sp[1]:]...)
				f := parser.Parse(name, cut, nil)
				cuts++
				where := fmt.Sprintf("%s cut to %q", name, strings.TrimSpace(text[:at]))
				if got := constructShape(f); got != shape0 {
					t.Fatalf("%s: constructs\n%s\nwant\n%s", where, got, shape0)
				}
				first := orig.Lines.Line(sp[0]) + 1
				last := orig.Lines.Line(sp[1]-1) + 1
				for line, c := range loopCosts(f) {
					if line.lo <= first && line.hi >= last {
						continue // the loop holds the cut statement
					}
					if line.lo >= first && line.lo <= last {
						continue // the cut statement itself (DO CONCURRENT)
					}
					if want, ok := loops0[line]; !ok || want != c {
						t.Fatalf("%s: loop at lines %d-%d costs %s, want %s", where, line.lo, line.hi, c, want)
					}
				}
			}
		}
	}
	if stmts < 15 || cuts < 300 {
		t.Fatalf("%d statements cut in %d ways: the programs have too few FORALL and WHERE lines", stmts, cuts)
	}
	t.Logf("%d FORALL, WHERE and DO CONCURRENT statements of %d programs cut in %d ways", stmts, len(files), cuts)
}

// cutTargets returns the byte ranges (absolute) of the FORALL and WHERE
// statements and heads and the DO CONCURRENT heads of a file.
func cutTargets(f *parser.File) [][2]int {
	var out [][2]int
	for _, u := range f.Units {
		inspectUnit(u, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.ForallStmt:
				out = append(out, [2]int{u.Abs(x.Pos()), u.Abs(x.End())})
				return false
			case *parser.WhereStmt:
				if !x.Else {
					out = append(out, [2]int{u.Abs(x.Pos()), u.Abs(x.End())})
				}
				return false
			case *parser.DoStmt:
				if x.Concurrent != nil {
					out = append(out, [2]int{u.Abs(x.Pos()), u.Abs(x.End())})
				}
			}
			return true
		})
	}
	return out
}

// tokenEnds returns the offsets in a statement's text just after each of
// its tokens (names and numbers whole, each other character one token),
// short of the whole statement.
func tokenEnds(text string) []int {
	word := func(c byte) bool {
		return c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
	}
	var out []int
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '&':
			i++
			continue
		case c == '!':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case word(c):
			for i < len(text) && word(text[i]) {
				i++
			}
		default:
			i++
		}
		if strings.TrimSpace(text[i:]) != "" {
			out = append(out, i)
		}
	}
	return out
}

type lineRange struct{ lo, hi int }

// constructShape lists the constructs of a file, by kind and lines.
func constructShape(f *parser.File) string {
	var b strings.Builder
	line := func(u *parser.Unit, p parser.Pos) int { return f.Lines.Line(u.Abs(p)) + 1 }
	for _, u := range f.Units {
		fmt.Fprintf(&b, "%s:", u.Name)
		inspectUnit(u, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.DoConstruct:
				fmt.Fprintf(&b, " DO %d-%d", line(u, x.Pos()), line(u, x.End()-1))
			case *parser.IfConstruct:
				fmt.Fprintf(&b, " IF %d-%d", line(u, x.Pos()), line(u, x.End()-1))
			case *parser.Block:
				fmt.Fprintf(&b, " %s %d-%d", x.Head.Base().Keyword, line(u, x.Pos()), line(u, x.End()-1))
			}
			return true
		})
		b.WriteString("\n")
	}
	return b.String()
}

// loopCosts gives the cost of every DO loop of a file, by its lines.
func loopCosts(f *parser.File) map[lineRange]string {
	out := map[lineRange]string{}
	for _, r := range NewEngine(Options{}).File(f) {
		lines := map[parser.Stmt]lineRange{}
		inspectUnit(r.Unit, func(n parser.Node) bool {
			if c, ok := n.(*parser.DoConstruct); ok {
				lines[c.Do] = lineRange{f.Lines.Line(r.Unit.Abs(c.Pos())) + 1, f.Lines.Line(r.Unit.Abs(c.End()-1)) + 1}
			}
			return true
		})
		for _, s := range r.Statements {
			if l, ok := lines[s.Stmt]; ok {
				out[l] = s.Cost.String()
			}
		}
	}
	return out
}

func inspectUnit(u *parser.Unit, f func(parser.Node) bool) {
	for _, s := range u.Body {
		parser.Inspect(s, f)
	}
}
