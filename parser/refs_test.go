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
