package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckIncludeFolders: an INCLUDE outside the including file's folder
// and the current folder is refused with the reason, and read with
// --include naming its folder or with --include-anywhere.
func TestCheckIncludeFolders(t *testing.T) {
	root := t.TempDir()
	src, inc := filepath.Join(root, "src"), filepath.Join(root, "inc")
	for _, d := range []string{src, inc} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	prog := filepath.Join(src, "a.f")
	if err := os.WriteFile(prog, []byte("      PROGRAM P\n      INCLUDE '../inc/c.h'\n      X = N\n      END\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inc, "c.h"), []byte("      PARAMETER (N=5)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(src)
	code, stdout, _ := runCmd("check", "a.f")
	if code != 1 || !strings.Contains(stdout, "a.f:2:7: error: INCLUDE '../inc/c.h'") || !strings.Contains(stdout, "outside the including file's folder") {
		t.Errorf("without --include: exit %d, %q", code, stdout)
	}
	for _, args := range [][]string{{"check", "--include", inc, "a.f"}, {"check", "--include-anywhere", "a.f"}} {
		if code, stdout, stderr := runCmd(args...); code != 0 || stdout != "" {
			t.Errorf("%v: exit %d, %q %q", args, code, stdout, stderr)
		}
	}
}
