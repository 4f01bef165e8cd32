package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEstimateSymbolicText: a time that still depends on a symbol is
// written term by term with units (2.9 ms·NLOC + 2.15 ms), as the hover
// writes it, not as an exact rational polynomial in seconds
// (1671514661/100000000000000*NLOC + ...); the JSON keeps the exact form.
// NLOC read at run time has no value; set from N / NP it is a number.
func TestEstimateSymbolicText(t *testing.T) {
	src := `program j
  implicit none
  integer, parameter :: n = 1024
  integer :: np, nloc, i, j, it, ierr
  real(8) :: u(0:n+1, 0:n+1), v(0:n+1, 0:n+1)
  call mpi_comm_size(0, np, ierr)
  SET
  do it = 1, 10
     do j = 1, nloc
        do i = 1, n
           v(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
        end do
     end do
  end do
end program j
`
	dir := t.TempDir()
	write := func(name, set string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(src, "SET", set, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	code, out, errOut := runCmd("estimate", "--procs", "16", write("read.f90", "read *, nloc"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	current := regexp.MustCompile(`current [^:]*: (.*) \(symbolic\)`).FindStringSubmatch(out)
	if current == nil || !regexp.MustCompile(`^[0-9.]+ [mµn]?s·NLOC \+ [0-9.]+ [mµn]?s$`).MatchString(current[1]) {
		t.Errorf("symbolic time not in units:\n%s", out)
	}
	if strings.Contains(out, "/1000") {
		t.Errorf("a raw rational in the text:\n%s", out)
	}
	code, out, errOut = runCmd("estimate", "--procs", "16", write("set.f90", "nloc = n / np"))
	if code != 0 || strings.Contains(out, "symbolic") || !strings.Contains(out, "NLOC, assigned once at line 7, is 64") {
		t.Errorf("exit %d %s:\n%s", code, errOut, out)
	}
}
