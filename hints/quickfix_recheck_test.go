package hints

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// alignPair reads the arrays a missing-align message names: "B is not
// aligned with A, ...".
var alignPair = regexp.MustCompile(`^(\w+) is not aligned with (\w+),`)

// recheckFixes applies each quick fix of the file at path on its own,
// parses and analyses the result again, and reports what is wrong: an
// error the file did not have, the finding the fix was for still there,
// the new directive written before the declaration of what it names, or
// (noneLeft: the programs written for this test) not in the case of the
// program's directives.
// It returns the number of fixes checked.
func recheckFixes(t *testing.T, path string, noneLeft bool) int {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	o := EstimateSettings{Procs: 16}.Options(nil)
	f := parser.Parse(path, src, nil)
	fixes := QuickFixes(f, 0, len(src), o, nil)
	pairs := map[string]bool{}
	for _, d := range CapabilityDiagnostics(f, o, nil) {
		if m := alignPair.FindStringSubmatch(d.Message); d.Code == "missing-align" && m != nil {
			pairs[m[1]+" "+m[2]] = true
		}
	}
	for _, x := range fixes {
		fixed := applyEdits(src, x.Edits)
		g := parser.Parse(path, fixed, nil)
		if len(g.Errors()) > len(f.Errors()) {
			t.Errorf("%s: %q leaves errors %v\n%s", path, x.Title, g.Errors(), fixed)
		}
		var fixedPair, text string
		for _, e := range x.Edits {
			if e.Text != "" {
				text = e.Text
			}
		}
		if m := regexp.MustCompile(`(?i)ALIGN (?:\(.*\) )?(\w+)`).FindStringSubmatch(text); m != nil {
			for p := range pairs {
				if strings.HasPrefix(p, strings.ToUpper(m[1])+" ") {
					fixedPair = p
				}
			}
		}
		if fixedPair == "" {
			t.Errorf("%s: %q fixes none of the findings %v", path, x.Title, pairs)
		}
		for _, d := range CapabilityDiagnostics(g, o, nil) {
			if d.Code != "missing-align" {
				continue
			}
			m := alignPair.FindStringSubmatch(d.Message)
			if noneLeft || m != nil && m[1]+" "+m[2] == fixedPair {
				t.Errorf("%s: after %q, line %d: %s\n%s", path, x.Title, g.Lines.Line(d.Start)+1, d.Message, fixed)
			}
		}
		// Written in the case of the program's directives.
		if lower := bytes.Contains(src, []byte("!hpf$")); noneLeft && (lower && text != strings.ToLower(text) || !lower && text != strings.ToUpper(text)) {
			t.Errorf("%s: %q is not in the case of the program's directives", path, text)
		}
		// What the new ALIGN names is declared before it.
		at := strings.Index(string(fixed), text)
		with := regexp.MustCompile(`(?i)WITH (\w+)`).FindStringSubmatch(text)
		if at < 0 || with == nil {
			t.Errorf("%s: %q: new directive %q not found", path, x.Title, text)
			continue
		}
		if u := innermost(g, at); u != nil && u.Scope != nil {
			if s := u.Scope.Syms[strings.ToUpper(with[1])]; s != nil && u.Abs(s.Decl) > at {
				t.Errorf("%s: %q writes its ALIGN before %s is declared\n%s", path, x.Title, with[1], fixed)
			}
		}
	}
	return len(fixes)
}

// TestQuickFixesRecheck: every missing-align quick fix, applied, leaves a
// file whose analysis no longer has the finding. The programs of
// testdata/quickfix are written as users write them, where the target of
// the ALIGN already has a mapping of its own (a DISTRIBUTE or ALIGN, alone
// or in a list, a CM Fortran LAYOUT) or the DECOMPOSITION or TEMPLATE the
// ALIGN names is declared after the arrays; each gets a fix, and no
// missing-align is left once it is in. The same holds for every other
// program of the test data and the examples that gets a fix.
func TestQuickFixesRecheck(t *testing.T) {
	users, _ := filepath.Glob("testdata/quickfix/*")
	if len(users) < 7 {
		t.Fatalf("only %d programs in testdata/quickfix", len(users))
	}
	for _, p := range users {
		if n := recheckFixes(t, p, true); n == 0 {
			t.Errorf("%s: no quick fix", p)
		}
	}
	total := 0
	for _, dir := range []string{"testdata", filepath.Join("..", "examples")} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(path, filepath.Join("testdata", "quickfix")) {
				return nil
			}
			switch strings.ToLower(filepath.Ext(path)) {
			case ".f", ".f90", ".hpf", ".fcm", ".for":
				total += recheckFixes(t, path, false)
			}
			return nil
		})
	}
	if total == 0 {
		t.Errorf("no quick fix in the test data and the examples")
	}
}

// TestAlignFixAfterDecomposition: in a Fortran D program that declares
// its arrays before their decompositions, the ALIGN the fix writes comes
// after DECOMPOSITION DA, which it names, and B's own ALIGN WITH DB goes.
func TestAlignFixAfterDecomposition(t *testing.T) {
	src, err := os.ReadFile("testdata/quickfix/fd-decomposition.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("fd-decomposition.f", src, nil)
	fixes := QuickFixes(f, 0, len(src), EstimateSettings{Procs: 16}.Options(nil), nil)
	if len(fixes) != 1 {
		t.Fatalf("fixes %+v", fixes)
	}
	fixed := string(applyEdits(src, fixes[0].Edits))
	dec, align := strings.Index(fixed, "DECOMPOSITION DA(N,N)"), strings.Index(fixed, "      ALIGN B WITH DA\n")
	if dec < 0 || align < dec || strings.Contains(fixed, "ALIGN B WITH DB") {
		t.Errorf("fixed program:\n%s", fixed)
	}
}
