package parser

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// annotation is an inline expectation: a comment `! ERROR "regexp"`. On a
// line of its own it applies to the nearest line above that is not an
// annotation; after code (free form) it applies to its own line.
type annotation struct {
	line int
	re   *regexp.Regexp
	used bool
}

var annotationRE = regexp.MustCompile(`!\s*ERROR\s+"((?:[^"\\]|\\.)*)"`)

func annotations(t *testing.T, src []byte) []*annotation {
	var out []*annotation
	lines := strings.Split(string(src), "\n")
	target := 0
	for i, l := range lines {
		m := annotationRE.FindStringSubmatchIndex(l)
		if m == nil {
			target = i
			continue
		}
		re, err := regexp.Compile(l[m[2]:m[3]])
		if err != nil {
			t.Fatalf("line %d: bad annotation: %v", i+1, err)
		}
		at := target
		if strings.TrimSpace(l[:m[0]]) != "" {
			at = i
			target = i
		}
		out = append(out, &annotation{line: at, re: re})
	}
	return out
}

// checkErrors matches a file's errors against its annotations: every error
// must be expected on its line, and every expectation met.
func checkErrors(t *testing.T, name string, src []byte, f *File) {
	t.Helper()
	anns := annotations(t, src)
	for _, e := range f.Errors() {
		line, col := f.Lines.RuneColumn(int(e.Pos))
		found := false
		for _, a := range anns {
			if a.line == line && !a.used && a.re.MatchString(e.Msg) {
				a.used, found = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s:%d:%d: unexpected error: %s [%s]", name, line+1, col+1, e.Msg, e.Code)
		}
	}
	for _, a := range anns {
		if !a.used {
			t.Errorf("%s:%d: expected an error matching %q", name, a.line+1, a.re)
		}
	}
}

func testFiles(t *testing.T) []string {
	files, err := filepath.Glob("testdata/*.[fF]*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".golden") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatal("no test files")
	}
	return out
}

func TestInlineErrors(t *testing.T) {
	for _, name := range testFiles(t) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		checkErrors(t, name, src, Parse(name, src, testConfig()))
	}
}

// testConfig resolves INCLUDE lines inside testdata.
func testConfig() *Config {
	return &Config{Include: func(name, from string, _ *Config) ([]byte, string, error) {
		p := filepath.Join(filepath.Dir(from), name)
		b, err := os.ReadFile(p)
		return b, p, err
	}}
}

// TestGolden compares the dump of each test file's tree with its golden
// file; run with -update to rewrite them after a deliberate change.
func TestGolden(t *testing.T) {
	for _, name := range testFiles(t) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		Dump(&buf, Parse(name, src, testConfig()))
		golden := name + ".golden"
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: tree differs from %s (run go test -run Golden -update and review the diff)\n%s", name, golden, firstDiff(buf.String(), string(want)))
		}
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + g[i] + "\nwant: " + w[i]
		}
	}
	return "lengths differ"
}

// TestExamples: every example program of the papers parses without error.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../examples/*")
	if len(files) < 5 {
		t.Fatalf("found %d examples, want at least 5", len(files))
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f := Parse(name, src, nil)
		for _, e := range f.Errors() {
			line, col := f.Lines.RuneColumn(int(e.Pos))
			t.Errorf("%s:%d:%d: %s", name, line+1, col+1, e.Msg)
		}
	}
}
