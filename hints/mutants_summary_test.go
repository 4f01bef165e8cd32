package hints

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestFileNamesIncludeChain: the names of a file are also those of the
// files it INCLUDEs, down the chain as far as the parser follows it (16
// files deep); the INCLUDE it refuses past that, found by no file,
// names nothing.
func TestFileNamesIncludeChain(t *testing.T) {
	include := func(name, from string, c *parser.Config) ([]byte, string, error) {
		var k int
		if _, err := fmt.Sscanf(name, "i%d.h", &k); err != nil || k > 20 {
			return nil, "", fmt.Errorf("no %s", name)
		}
		return []byte(fmt.Sprintf("  call p%d(q%d)\n  include 'i%d.h'\n", k, k, k+1)), "/src/" + name, nil
	}
	src := "subroutine s\n  include 'i1.h'\nend subroutine s\n"
	f := parser.Parse("/src/s.f90", []byte(src), &parser.Config{Include: include})
	var got []string
	for n := range FileNames(f) {
		got = append(got, n)
	}
	want := []string{"S"}
	for k := 1; k <= 16; k++ {
		want = append(want, fmt.Sprintf("P%d", k), fmt.Sprintf("Q%d", k))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("names\n got %s\nwant %s", strings.Join(got, " "), strings.Join(want, " "))
	}
}

// TestSignatureCalleesEdges: the names before each "(" of the statement
// up to the offset, here the end of a text with no final newline: a name
// at the statement's start, one separated from its "(" by a space, none
// for a "(" after an operator or at the start of the text.
func TestSignatureCalleesEdges(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"  a(1) = g(", "A G"},
		{"  call foo (a, ", "FOO"},
		{"  x = (a + g(", "G"},
		{"  (a, b", ""},
		{"(", ""},
	} {
		f := parser.Parse("/src/p.f90", []byte(c.src), &parser.Config{})
		got := SignatureCallees(f, len(c.src))
		if strings.Join(got, " ") != c.want || len(got) != len(strings.Fields(c.want)) {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}

// TestCompleteWithEdges: the units of the summaries are offered for a
// word at the very start of the file, for an empty word, at the end of
// a text with no final newline, in lower case after a lower-case letter
// up to z, else as the summaries write them.
func TestCompleteWithEdges(t *testing.T) {
	units := []Completion{{Label: "SOLVE", Kind: "procedure", Detail: "SUBROUTINE SOLVE"}, {Label: "ZETA", Kind: "procedure", Detail: "SUBROUTINE ZETA"}}
	for _, c := range []struct{ src, want string }{
		{"so", "solve"},
		{"program p\n  call ", "SOLVE ZETA"},
		{"program p\n  call ze", "zeta"},
		{"program p\n  call Ze", "ZETA"},
	} {
		f := parser.Parse("/src/p.f90", []byte(c.src), &parser.Config{})
		items, _ := CompleteWith(f, len(c.src), nil, units)
		var got []string
		for _, it := range items {
			if strings.HasPrefix(it.Detail, "SUBROUTINE ") {
				got = append(got, it.Label)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q: units %q, want %q", c.src, got, c.want)
		}
	}
}
