package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFiles writes name → text into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIncludeFromDisk(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"sizes.inc": "      INTEGER N\n      PARAMETER (N = 64)\n"})
	inc := filepath.Join(dir, "sizes.inc")
	from := filepath.Join(dir, "main.f")
	text, path, err := IncludeFromDisk("sizes.inc", from, nil)
	if real, _ := filepath.EvalSymlinks(inc); err != nil || path != real || string(text) != "      INTEGER N\n      PARAMETER (N = 64)\n" {
		t.Errorf("IncludeFromDisk(sizes.inc) = %q, %q, %v", text, path, err)
	}
	if _, _, err := IncludeFromDisk("missing.inc", from, nil); err == nil {
		t.Error("IncludeFromDisk(missing.inc) reported a file")
	}
	src := "      PROGRAM P\n      INCLUDE 'sizes.inc'\n      REAL A(N)\n      A(1) = 0.0\n      END\n"
	f := Parse(from, []byte(src), &Config{Include: IncludeFromDisk})
	if errs := f.Errors(); len(errs) != 0 {
		t.Errorf("errors with the include found: %v", errs)
	}
	sym := f.Units[0].Scope.Lookup("N")
	if sym == nil {
		t.Fatal("N from the included file is not declared")
	}
	if v, ok := EvalInt(sym.Param, f.Units[0].Scope); !ok || v != 64 {
		t.Errorf("N = %d, %v; want 64 from the included PARAMETER", v, ok)
	}
}

// includeCase parses main.f (fixed form) in a folder of files and returns
// the messages of its include diagnostics, failing past a few seconds
// (cycles once took 11 s and 2 GB before a fatal stack overflow).
func includeCase(t *testing.T, dir string, files map[string]string, cfg *Config) (*File, []string) {
	t.Helper()
	writeFiles(t, dir, files)
	if cfg == nil {
		cfg = &Config{}
	}
	cfg.Include = IncludeFromDisk
	start := time.Now()
	main := filepath.Join(dir, "main.f")
	f := Parse(main, []byte(files["main.f"]), cfg)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("parse took %v", d)
	}
	var msgs []string
	for _, e := range f.Errors() {
		if e.Code == "include" {
			msgs = append(msgs, e.Msg)
		}
	}
	return f, msgs
}

func TestIncludeCycles(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"self", map[string]string{"main.f": "      PROGRAM P\n      INCLUDE 'main.f'\n      END\n"}, "INCLUDE cycle: main.f → main.f"},
		{"two files", map[string]string{
			"main.f": "      PROGRAM P\n      INCLUDE 'a.f'\n      END\n",
			"a.f":    "      INTEGER A\n      INCLUDE 'b.f'\n",
			"b.f":    "      INTEGER B\n      INCLUDE 'a.f'\n",
		}, "INCLUDE cycle: a.f → b.f → a.f"},
		{"header including itself", map[string]string{
			"main.f": "      PROGRAM P\n      INCLUDE 'h.inc'\n      X = 1\n      END\n",
			"h.inc":  "      REAL X\n      INCLUDE 'h.inc'\n",
		}, "INCLUDE cycle: h.inc → h.inc"},
		{"#include", map[string]string{
			"main.F": "",
			"main.f": "      PROGRAM P\n#include \"c.h\"\n      END\n",
			"c.h":    "#include \"c.h\"\n",
		}, "INCLUDE cycle: c.h → c.h"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, msgs := includeCase(t, t.TempDir(), c.files, nil)
			if len(msgs) != 1 || msgs[0] != c.want {
				t.Errorf("include diagnostics %q, want [%q]", msgs, c.want)
			}
		})
	}
}

// TestIncludeFanOut: files that include the next one twice, ten deep,
// would make 2^10 reads without the per-unit budget.
func TestIncludeFanOut(t *testing.T) {
	files := map[string]string{"main.f": "      PROGRAM P\n      INCLUDE '" + filepathName(0) + "'\n      END\n"}
	for i := 0; i < 12; i++ {
		files[filepathName(i)] = "      INTEGER V" + string(rune('A'+i)) + "\n      INCLUDE '" + filepathName(i+1) + "'\n      INCLUDE '" + filepathName(i+1) + "'\n"
	}
	files[filepathName(12)] = "      INTEGER LAST\n"
	f, msgs := includeCase(t, t.TempDir(), files, nil)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "too large to analyse (more than 256 INCLUDEs") {
		t.Errorf("include diagnostics %q, want one about the INCLUDE budget", msgs)
	}
	if f.Units[0].Scope.Lookup("VA") == nil {
		t.Error("the first included declaration is lost")
	}
}

func filepathName(i int) string { return "i" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + ".h" }

func TestIncludeRefused(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"outside.inc": "      INTEGER OUT\n", "ws/shared.inc": "      INTEGER SHARED\n", "ws/src/dir.inc/x": ""})
	big := strings.Repeat("C     comment line of a header that is far too long\n", MaxIncludeBytes/50+10)
	writeFiles(t, root, map[string]string{"ws/src/big.inc": big})
	ws := filepath.Join(root, "ws")
	src := filepath.Join(ws, "src")
	if err := os.Symlink(filepath.Join(root, "outside.inc"), filepath.Join(src, "link.inc")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		include string
		cfg     Config
		want    string // "" : read without a diagnostic
	}{
		{"missing.inc", Config{}, "INCLUDE 'missing.inc': not found (looked in "},
		{"/dev/zero", Config{}, "outside the including file's folder"},
		{"/dev/zero", Config{IncludeAnywhere: true}, "/dev/zero is not a regular file (a device)"},
		{"dir.inc", Config{}, "is not a regular file (a folder)"},
		{"big.inc", Config{}, "too large to analyse"},
		{"../../outside.inc", Config{Roots: []string{ws}}, "outside the including file's folder"},
		{filepath.Join(root, "outside.inc"), Config{Roots: []string{ws}}, "outside the including file's folder"},
		{"link.inc", Config{Roots: []string{ws}}, "outside the including file's folder"},
		{"../shared.inc", Config{}, "outside the including file's folder"},
		{"../shared.inc", Config{Roots: []string{ws}}, ""},
		{"shared.inc", Config{IncludePath: []string{ws}}, ""},
		{"../../outside.inc", Config{IncludeAnywhere: true}, ""},
	}
	for _, c := range cases {
		t.Run(c.include, func(t *testing.T) {
			cfg := c.cfg
			_, msgs := includeCase(t, src, map[string]string{"main.f": "      PROGRAM P\n      INCLUDE '" + c.include + "'\n      END\n"}, &cfg)
			switch {
			case c.want == "" && len(msgs) > 0:
				t.Errorf("diagnostics %q, want none", msgs)
			case c.want != "" && (len(msgs) != 1 || !strings.Contains(msgs[0], c.want)):
				t.Errorf("diagnostics %q, want one containing %q", msgs, c.want)
			}
		})
	}
}

// TestCROnly reads a file with old Mac line ends: its lines are lines.
func TestCROnly(t *testing.T) {
	src := "      PROGRAM P\r      REAL X\r      X = 1\r      END\r"
	f := Parse("t.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) != 0 {
		t.Errorf("errors: %v", errs)
	}
	if n := f.Lines.LineCount(); n != 5 {
		t.Errorf("%d lines, want 5", n)
	}
	if len(f.Units) != 1 || len(f.Units[0].Body) != 2 {
		t.Fatalf("want one unit of two statements, got %s", dumpString(f))
	}
	// An edit that joins a "\r" with a new "\n" reparses like a fresh parse.
	i := strings.Index(src, "\r      X")
	checkReparse(t, "t.f", f, i+1, i+1, "\n")
	checkReparse(t, "t.f", f, i, i+1, "\r\n")
}
