package parser

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// digestRoots are the folders, relative to the parser package, whose
// Fortran programs TestDumpDigests parses: the papers' examples and the
// programs of the hints tests (markers, renames, formatting, whole
// programs).
var digestRoots = []string{"../examples", "../hints/testdata"}

const digestGolden = "testdata/dumps.sha256"

// TestDumpDigests parses every program under digestRoots and compares
// the SHA-256 of each tree's Dump with testdata/dumps.sha256. It guards
// changes to the parser's machinery (allocation, lexing, the resolver)
// that must leave every tree as it was: a digest that changes names the
// file whose tree did. After a deliberate change to the trees, run
// go test ./parser -run DumpDigests -update, and review the diff of
// the golden files of TestGolden for what changed.
func TestDumpDigests(t *testing.T) {
	var names []string
	for _, root := range digestRoots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && isFortranName(path) {
				names = append(names, filepath.ToSlash(path))
			}
			return nil
		})
	}
	sort.Strings(names)
	if len(names) < 50 {
		t.Fatalf("found %d programs under %v, want at least 50", len(names), digestRoots)
	}
	var got bytes.Buffer
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var dump bytes.Buffer
		Dump(&dump, Parse(name, src, nil))
		fmt.Fprintf(&got, "%x  %s\n", sha256.Sum256(dump.Bytes()), strings.TrimPrefix(name, "../"))
	}
	if *update {
		if err := os.WriteFile(digestGolden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(digestGolden)
	if err != nil {
		t.Fatalf("%v (run go test -run DumpDigests -update to create it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		wantLines := map[string]bool{}
		for _, l := range strings.Split(string(want), "\n") {
			wantLines[l] = true
		}
		for _, l := range strings.Split(got.String(), "\n") {
			if !wantLines[l] {
				t.Errorf("tree changed: %s", l)
			}
		}
		t.Errorf("the dumps differ from %s (after a deliberate change: go test -run DumpDigests -update)", digestGolden)
	}
}
