package parser

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestRefsWalk checks that the resolver's direct walk of statements for
// the names they use (refs) finds what Inspect finds, in the same order:
// every program of the parser's, the examples' and the hints' test data
// gives the same tree, symbols and errors both ways.
func TestRefsWalk(t *testing.T) {
	n := 0
	for _, root := range append([]string{"testdata"}, digestRoots...) {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !isFortranName(path) {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var direct, inspect bytes.Buffer
			Dump(&direct, Parse(path, src, nil))
			refsByInspect = true
			Dump(&inspect, Parse(path, src, nil))
			refsByInspect = false
			if !bytes.Equal(direct.Bytes(), inspect.Bytes()) {
				t.Errorf("%s: the direct walk of refs and Inspect's give different trees", path)
			}
			n++
			return nil
		})
	}
	if n < 50 {
		t.Fatalf("compared %d programs, want at least 50", n)
	}
}

// TestExprStringBounds checks ExprString on the bounds of a DO loop: a
// literal and a name are their spellings, an operation is written without
// blanks, and a missing step is "".
func TestExprStringBounds(t *testing.T) {
	src := "      SUBROUTINE S(N, M)\n" +
		"      DO 10 I = 1, N\n" +
		"      DO 10 J = M, n - 1, 2\n" +
		"   10 CONTINUE\n" +
		"      END\n"
	f := Parse("t.f", []byte(src), nil)
	outer, ok := f.Units[0].Body[0].(*DoConstruct)
	if !ok {
		t.Fatalf("want a DO construct, got %T", f.Units[0].Body[0])
	}
	inner, ok := outer.Body[0].(*DoConstruct)
	if !ok {
		t.Fatalf("want a nested DO construct, got %T", outer.Body[0])
	}
	for _, c := range []struct {
		x    Expr
		want string
	}{
		{outer.Do.Lo, "1"}, {outer.Do.Hi, "N"}, {outer.Do.Step, ""},
		{inner.Do.Lo, "M"}, {inner.Do.Hi, "N-1"}, {inner.Do.Step, "2"},
	} {
		if got := ExprString(c.x); got != c.want {
			t.Errorf("ExprString = %q, want %q", got, c.want)
		}
	}
}
