package partition

import (
	"fmt"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// TestMPICallsPinned: every MPI routine the node-program reader knows,
// alone in a loop of 50 iterations, with its count and datatype: the
// pattern, the count and count × type size bytes; a receive is not
// priced again (its send was) and a barrier moves no bytes.
func TestMPICallsPinned(t *testing.T) {
	send := "U, 100, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, IERR"
	cases := []struct{ call, want string }{
		{"MPI_SEND(" + send + ")", "vector-shift 50×800"},
		{"MPI_ISEND(U, 100, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, REQ, IERR)", "vector-shift 50×800"},
		{"MPI_SSEND(" + send + ")", "vector-shift 50×800"},
		{"MPI_RSEND(" + send + ")", "vector-shift 50×800"},
		{"MPI_BSEND(U, 100, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, IERR)", "vector-shift 50×400"},
		{"MPI_RECV(U, 100, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, STATUS, IERR)", ""},
		{"MPI_IRECV(U, 100, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, REQ, IERR)", ""},
		{"MPI_SENDRECV(U, 100, MPI_DOUBLE_PRECISION, 1, 0, U, 100, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, STATUS, IERR)", "exchange 50×800"},
		{"MPI_SENDRECV_REPLACE(U, 100, MPI_DOUBLE_COMPLEX, 1, 0, 0, 0, MPI_COMM_WORLD, STATUS, IERR)", "exchange 50×1600"},
		{"MPI_BCAST(U, 100, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, IERR)", "broadcast 50×800"},
		{"MPI_BCAST(C, 100, MPI_CHARACTER, 0, MPI_COMM_WORLD, IERR)", "broadcast 50×100"},
		{"MPI_REDUCE(U, V, 100, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, IERR)", "reduction-broadcast 50×800"},
		{"MPI_ALLREDUCE(U, V, 100, MPI_REAL, MPI_SUM, MPI_COMM_WORLD, IERR)", "reduction-broadcast 50×400"},
		{"MPI_ALLTOALL(U, 100, MPI_DOUBLE_PRECISION, V, 100, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, IERR)", "alltoall 50×800"},
		{"MPI_BARRIER(MPI_COMM_WORLD, IERR)", "reduction-broadcast 50×0"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		name := c.call[:len(c.call)-len(c.call[indexByte(c.call, '('):])]
		seen[name] = true
		src := fmt.Sprintf(`PROGRAM NODE
INCLUDE 'mpif.h'
INTEGER IERR, REQ, STATUS(10)
DOUBLE PRECISION U(100), V(100)
CHARACTER C(100)
DO K = 1, 50
  CALL %s
END DO
END
`, c.call)
		f := parser.Parse("node.f90", []byte(src), nil)
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		u := f.Units[0]
		e := EstimateLoop(f, u, firstLoop(t, u, 6, f), FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
		got := ""
		for _, m := range e.Messages {
			if got != "" {
				got += "; "
			}
			got += fmt.Sprintf("%s %g×%g", m.Pattern, secs(t, m.Count), secs(t, m.Bytes))
		}
		if got != c.want {
			t.Errorf("%s: messages %q, want %q", name, got, c.want)
		}
	}
	for name := range mpiPatterns {
		if !seen[name] {
			t.Errorf("%s is read but not pinned here", name)
		}
	}
}

func indexByte(s string, b byte) int {
	for i := range len(s) {
		if s[i] == b {
			return i
		}
	}
	return len(s)
}
