package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProfileProgram: the hook of "Profile this program" runs `pfls
// profile` (this test binary as pfls) on a serial program: its stderr
// lines come as progress, the last one ("... wrote DIR") as the answer,
// and the profile is written under .pfls/ next to the file, where the
// server looks. A run whose context ends is stopped and says why.
func TestProfileProgram(t *testing.T) {
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("needs gfortran")
	}
	t.Setenv("PFLS_TEST_MAIN", "1")
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	prog := "program p\n  integer :: i\n  real :: s\n  s = 0\n  do i = 1, 1000\n     s = s + i\n  end do\n  print *, s\nend program p\n"
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []string
	last, err := profileProgram(context.Background(), src, func(l string) { lines = append(lines, l) })
	if err != nil {
		t.Fatalf("%v (progress %q)", err, lines)
	}
	if !strings.Contains(last, "wrote ") || len(lines) == 0 || lines[len(lines)-1] != last {
		t.Errorf("last %q, progress %q", last, lines)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".pfls", "*", "profile.json"))
	if len(matches) != 1 {
		t.Fatalf("profiles %q", matches)
	}
	data, err := os.ReadFile(matches[0])
	if err != nil || !strings.Contains(string(data), `"count": 1000,`) {
		t.Errorf("profile: %v\n%.400s", err, data)
	}

	spin := filepath.Join(dir, "spin.f90")
	if err := os.WriteFile(spin, []byte("program spin\n  integer :: i\n  i = 0\n  do while (i >= 0)\n     i = mod(i + 1, 7)\n  end do\nend program spin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := profileProgram(ctx, spin, func(string) {}); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("stopped run: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("stopped after %v", d)
	}
}
