package hints

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestRenameCompiles checks the fixtures' renames with a real compiler:
// for every group that gfortran accepts as it is, every rename of a
// marker that pfls accepts must leave a program gfortran accepts
// (-fsyntax-only). It is skipped when gfortran is not on the PATH.
func TestRenameCompiles(t *testing.T) {
	gf, err := exec.LookPath("gfortran")
	if err != nil {
		t.Skip("gfortran is not on the PATH")
	}
	incs, _ := filepath.Glob("testdata/rename/*.inc")
	compiles := func(files []*parser.File) (string, bool) {
		dir := t.TempDir()
		for _, inc := range incs {
			b, err := os.ReadFile(inc)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(inc)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := []string{"-fsyntax-only", "-J", dir, "-I", dir}
		for _, f := range files {
			p := filepath.Join(dir, f.Name)
			if err := os.WriteFile(p, f.Src, 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, p)
		}
		out, err := exec.Command(gf, args...).CombinedOutput()
		return string(out), err == nil
	}
	checked := 0
	for _, g := range loadRenameGroups(t) {
		if out, ok := compiles(g.files); !ok {
			t.Logf("%s: gfortran rejects the fixture itself, skipped:\n%s", g.name, firstLines(out, 3))
			continue
		}
		for _, c := range g.cases {
			edits, err := Rename(c.file, c.off, c.newName, othersOf(g.files, c.file))
			if err != nil {
				continue
			}
			checked++
			if out, ok := compiles(applyRename(g.files, edits)); !ok {
				t.Errorf("%s: rename %q -> %s: gfortran rejects the result:\n%s", c.file.Name, c.text, c.newName, out)
			}
		}
	}
	t.Logf("%d accepted renames compiled", checked)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
