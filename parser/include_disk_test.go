package parser

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIncludeFromDisk(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "sizes.inc")
	if err := os.WriteFile(inc, []byte("      INTEGER N\n      PARAMETER (N = 64)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	from := filepath.Join(dir, "main.f")
	text, path, ok := IncludeFromDisk("sizes.inc", from)
	if !ok || path != inc || string(text) != "      INTEGER N\n      PARAMETER (N = 64)\n" {
		t.Errorf("IncludeFromDisk(sizes.inc) = %q, %q, %v", text, path, ok)
	}
	if _, _, ok := IncludeFromDisk("missing.inc", from); ok {
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
