package hints

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestFormatGolden formats testdata/format/*.f90 with the default options
// and compares with the .golden files (-update rewrites them).
func TestFormatGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "format", "*.f90"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := Format(parser.Parse(path, src, nil), DefaultFormatOptions())
		golden := strings.TrimSuffix(path, ".f90") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: formatted text differs from %s:\n%s", path, golden, got)
		}
	}
}

func TestFormatKeywordCase(t *testing.T) {
	src := "program p\nif (x > 0) then\ny = 1\nElse\ny = 2\nendif\nend program p\n"
	f := parser.Parse("k.f90", []byte(src), nil)
	got := Format(f, FormatOptions{Indent: 2, KeywordCase: "upper"})
	want := "PROGRAM p\n  IF (x > 0) THEN\n    y = 1\n  ELSE\n    y = 2\n  ENDIF\nEND PROGRAM p\n"
	if got != want {
		t.Errorf("upper:\n%s\nwant\n%s", got, want)
	}
	if got := Format(parser.Parse("k.f90", []byte(want), nil), FormatOptions{Indent: 2, KeywordCase: "lower"}); got != strings.ToLower(want) {
		t.Errorf("lower:\n%s", got)
	}
}

// Fixed form: columns never move; trailing blanks go except before a
// continuation line (a character constant may run to column 72).
func TestFormatFixed(t *testing.T) {
	src := "      PROGRAM P   \n      X = 'AB     \n     &CD'\nC comment   \n         DO 10 I = 1, N  \n   10 CONTINUE\n      END\n"
	want := "      PROGRAM P\n      X = 'AB     \n     &CD'\nC comment\n         DO 10 I = 1, N\n   10 CONTINUE\n      END\n"
	if got := Format(parser.Parse("f.f", []byte(src), nil), DefaultFormatOptions()); got != want {
		t.Errorf("fixed form:\n%q\nwant\n%q", got, want)
	}
}

// tokenTexts is the token stream of a text: every token's text (upper
// case when fold), statement by statement.
func tokenTexts(name string, src []byte, fold bool) []string {
	var out []string
	for _, st := range parser.Statements(name, src, nil) {
		for _, tk := range st.Tokens {
			s := string(src[tk.Start:tk.End])
			if fold {
				s = strings.ToUpper(s)
			}
			out = append(out, s)
		}
		out = append(out, "⏎")
	}
	return out
}

// formatFixtures are the Fortran files of the test data and the examples.
func formatFixtures(t *testing.T) []string {
	var files []string
	for _, dir := range []string{"testdata", filepath.Join("..", "examples")} {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				switch strings.ToLower(filepath.Ext(path)) {
				case ".f", ".f90", ".hpf", ".fcm", ".for":
					files = append(files, path)
				}
			}
			return nil
		})
	}
	if len(files) < 50 {
		t.Fatalf("only %d fixtures", len(files))
	}
	return files
}

// checkFormat asserts the formatter's properties on one text: it is
// idempotent, and the program's tokens, its syntax errors and its tree
// (parser.Dump without offsets) are the same before and after.
func checkFormat(t *testing.T, path string, src []byte, o FormatOptions) bool {
	f := parser.Parse(path, src, nil)
	once := Format(f, o)
	f1 := parser.Parse(path, []byte(once), nil)
	if twice := Format(f1, o); twice != once {
		t.Errorf("%s %+v: formatting twice differs from once", path, o)
		return false
	}
	fold := o.KeywordCase != ""
	a, b := tokenTexts(path, src, fold), tokenTexts(path, []byte(once), fold)
	if strings.Join(a, " ") != strings.Join(b, " ") {
		for i := range a {
			if i >= len(b) || a[i] != b[i] {
				t.Errorf("%s %+v: token %d was %q, is %q", path, o, i, a[i], b[min(i, len(b)-1)])
				break
			}
		}
		return false
	}
	if len(f.Errors()) != len(f1.Errors()) {
		t.Errorf("%s %+v: %d errors before, %d after", path, o, len(f.Errors()), len(f1.Errors()))
		return false
	}
	// The trees, read back, are the same but for their offsets.
	if a, b := treeWithoutOffsets(f), treeWithoutOffsets(f1); a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := range al {
			if i >= len(bl) || al[i] != bl[i] {
				t.Errorf("%s %+v: the tree differs at dump line %d: %q, now %q", path, o, i+1, al[i], bl[min(i, len(bl)-1)])
				break
			}
		}
		return false
	}
	return true
}

// offsetField is a numeric field of parser.Dump: positions, lengths.
var offsetField = regexp.MustCompile(`\b\w+=(-?\d+|-)(\s|$)`)

// treeWithoutOffsets is parser.Dump without its numeric fields, which
// formatting moves.
func treeWithoutOffsets(f *parser.File) string {
	var b strings.Builder
	parser.Dump(&b, f)
	out := offsetRange.ReplaceAllString(offsetField.ReplaceAllString(b.String(), "$2"), "$1")
	// A text of blanks is a unit of nothing, which trailing blanks removed
	// leave out: the header line of such a unit does not count. The
	// wording of syntax errors may depend on a column (their number is
	// compared apart).
	return errorLine.ReplaceAllString(emptyUnit.ReplaceAllString(out, ""), "")
}

var (
	emptyUnit = regexp.MustCompile(`(?m)^Unit none "" *\n`)
	errorLine = regexp.MustCompile(`(?m)^ *Error .*\n`)
)

// offsetRange is the extent of a comment, an inactive region or an error
// in parser.Dump.
var offsetRange = regexp.MustCompile(`(Comment|Inactive|Error) \d+-\d+`)

func TestFormatProperties(t *testing.T) {
	opts := []FormatOptions{DefaultFormatOptions(), {Indent: 2, KeywordCase: "upper"}, {Indent: 4, KeywordCase: "lower"}, {Indent: 0}}
	changed := 0
	files := formatFixtures(t)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range opts {
			if !checkFormat(t, path, src, o) {
				break
			}
		}
		if Format(parser.Parse(path, src, nil), DefaultFormatOptions()) != string(src) {
			changed++
		}
	}
	t.Logf("%d fixtures, %d changed by the default format", len(files), changed)
}

// The properties over LAPACK (PFLS_CORPUS, skipped without it): one file
// in ten, with keyword case upper.
func TestFormatCorpus(t *testing.T) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		t.Skip("PFLS_CORPUS unset")
	}
	n := 0
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(strings.ToLower(path), ".f") && !strings.HasSuffix(strings.ToLower(path), ".f90") {
			return nil
		}
		n++
		if n%10 != 0 {
			return nil
		}
		src, err := os.ReadFile(path)
		if err == nil {
			checkFormat(t, path, src, FormatOptions{Indent: 3, KeywordCase: "upper"})
		}
		return nil
	})
	t.Logf("%d files, one in ten checked", n)
}

// FuzzFormat: on any free-form text the formatter keeps its properties
// (idempotent, same tokens, errors and tree). Seeds: the fixture.
func FuzzFormat(f *testing.F) {
	src, err := os.ReadFile(filepath.Join("testdata", "format", "constructs.f90"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(src))
	f.Add("program p\nif (x) then\n  s = 'a &\n  b'\nend if\nend\n")
	f.Add("do 10 i=1,n\ndo 10 j=1,n\n10 a(i,j)=0\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		for _, name := range []string{"fuzz.f90", "fuzz.f"} {
			checkFormat(t, name, []byte(text), FormatOptions{Indent: 2, KeywordCase: "upper"})
		}
	})
}

// TestFormatLineLength: indenting never takes a free-form line past 132
// characters, where compilers stop reading it (gfortran: "Line
// truncated", an error); the line and its continuation lines stay where
// they are, and a line already longer may still move left.
func TestFormatLineLength(t *testing.T) {
	long := "x = " + strings.Repeat("1+", 61) + "1"   // 127 characters
	cont := "y = " + strings.Repeat("2+", 61) + "2 &" // 129 characters
	src := "program p\ndo i=1,2\ndo j=1,2\n" + long + "\n" + cont + "\n  + 3\nend do\nend do\n" +
		"     " + long + "zzzzzz\nend\n"
	want := "program p\n   do i=1,2\n      do j=1,2\n" + long + "\n" + cont + "\n  + 3\n      end do\n   end do\n" +
		"   " + long + "zzzzzz\nend\n"
	f := parser.Parse("long.f90", []byte(src), nil)
	got := Format(f, DefaultFormatOptions())
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 132 && !strings.Contains(l, "zzz") {
			t.Errorf("line of %d characters: %q", len(l), l)
		}
	}
	checkFormat(t, "long.f90", []byte(src), DefaultFormatOptions())
}
