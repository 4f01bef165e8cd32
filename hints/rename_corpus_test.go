package hints

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// corpusFiles parses up to limit fixed-form files of $PFLS_CORPUS (sorted
// by path), or skips the test when the variable is unset.
func corpusFiles(tb testing.TB, limit int) []*parser.File {
	tb.Helper()
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		tb.Skip("PFLS_CORPUS is not set")
	}
	var paths []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() && strings.HasSuffix(p, ".f") && info.Size() < 1<<20 {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	if len(paths) > limit {
		paths = paths[:limit]
	}
	var files []*parser.File
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, parser.Parse(p, src, nil))
	}
	return files
}

// TestRenameCorpus renames the local names of real files
// ($PFLS_CORPUS, $PFLS_RENAME_FILES of them, 40 by default) to a fresh
// name of the same first letter, with the first 200 files of the corpus
// as the workspace, and checks that every accepted rename keeps the
// meaning of the program.
func TestRenameCorpus(t *testing.T) {
	n := 40
	if s := os.Getenv("PFLS_RENAME_FILES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	ws := corpusFiles(t, max(n, 200))
	accepted, refused := 0, 0
	reasons := map[string]int{}
	for _, f := range ws[:min(n, len(ws))] {
		others := othersOf(ws, f)
		w := newWorkspace(f, others)
		done := map[bindKey]bool{}
		for _, r := range w.refs {
			if r.file != f || done[r.key] {
				continue
			}
			done[r.key] = true
			nn := strings.Trim(r.name, "/")[:1] + "ZQ9"
			edits, err := Rename(f, r.start, nn, others)
			if err != nil {
				refused++
				reasons[reasonOf(err.Error())]++
				continue
			}
			accepted++
			if msg := sameMeaning(ws, f, r.start, edits, true); msg != "" {
				t.Errorf("%s:%d: rename %s -> %s changed the program: %s", f.Name, f.Lines.Line(r.start)+1, r.name, nn, msg)
			}
		}
	}
	t.Logf("%d files, %d renames accepted and checked, %d refused %v", min(n, len(ws)), accepted, refused, reasons)
}

// reasonOf is the kind of a refusal, for the test's summary.
func reasonOf(msg string) string {
	for _, k := range []string{"intrinsic", "past the", "not defined in the workspace", "procedures have that name",
		"change type", "already", "routine", "continuation", "INCLUDE", "interface", "construct", "module"} {
		if strings.Contains(msg, k) {
			return k
		}
	}
	return msg
}

// BenchmarkRenameWorkspace renames a name of one file with 500 files of
// the corpus as the rest of the workspace.
func BenchmarkRenameWorkspace(b *testing.B) {
	ws := corpusFiles(b, 500)
	f := ws[0]
	w := newWorkspace(f, othersOf(ws, f))
	var off = -1
	for _, r := range w.refs {
		if r.file == f && r.key.kind == bindLocal {
			off = r.start
			break
		}
	}
	if off < 0 {
		b.Skip("no local name")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Rename(f, off, "ZZQ9", othersOf(ws, f)); err != nil {
			b.Fatal(err)
		}
	}
}
