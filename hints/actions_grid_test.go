package hints

import (
	"os"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// TestGridActions: a candidate on a processor grid other than the one the
// directives give (2x8 or 8x2 where the even factorization is 4x4, 4x4
// where ONTO names a 2x8 arrangement) is offered in HPF by declaring a
// PROCESSORS arrangement of its shape, in the directive's sentinel and
// case, and distributing ONTO it; the edited file parses, and its
// distribution is the title's, grid included, for every array moved.
// Other DISTRIBUTEs onto the old arrangement keep it.
func TestGridActions(t *testing.T) {
	long := `      PROGRAM LONG
      PARAMETER (N = 256, M = 3*N)
      REAL U(M,N), V(M,N)
!HPF$ DISTRIBUTE (BLOCK,BLOCK) :: U, V
      DO 10 J = 2, N-1
         DO 10 I = 2, M-1
            V(I,J) = 0.25*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
   10 CONTINUE
      END
`
	onto := `      PROGRAM H
      PARAMETER (N = 256)
      REAL X(N,N), Y(N,N), W(N,N)
!hpf$ processors p(2,8)
!hpf$ template t(n,n)
!hpf$ align x(i,j) with t(i,j)
!hpf$ align y(i,j) with t(i,j)
!hpf$ distribute t(block,block) onto p
!hpf$ distribute (block,block) onto p :: w
      DO 10 J = 2, N - 1
         DO 10 I = 2, N - 1
            X(I,J) = Y(I-1,J) + Y(I+1,J) + Y(I,J-1) + Y(I,J+1)
   10 CONTINUE
      END
`
	declared := strings.Replace(long, "      REAL U(M,N), V(M,N)\n", "      REAL U(M,N), V(M,N)\n!HPF$ PROCESSORS P8X2(8,2)\n", 1)
	for _, c := range []struct {
		name, src, title string
		grid             []int
		write, keep      []string // lines the edit writes; lines it keeps
		declares         bool
	}{
		{"long.f", long, "U(BLOCK,BLOCK) on 8x2", []int{8, 2},
			[]string{"!HPF$ PROCESSORS P8X2(8,2)\n!HPF$ DISTRIBUTE (BLOCK,BLOCK) ONTO P8X2 :: U, V\n"}, nil, true},
		{"long.f", long, "U(CYCLIC,BLOCK) on 2x8", []int{2, 8},
			[]string{"!HPF$ PROCESSORS P2X8(2,8)\n!HPF$ DISTRIBUTE (CYCLIC,BLOCK) ONTO P2X8 :: U, V\n"}, nil, true},
		{"declared.f", declared, "U(BLOCK,BLOCK) on 8x2", []int{8, 2},
			[]string{"!HPF$ DISTRIBUTE (BLOCK,BLOCK) ONTO P8X2 :: U, V\n"}, nil, false},
		// The even 4x4 is not the 2x8 that ONTO p gives: its own
		// arrangement; w stays on p.
		{"onto.f", onto, "T(BLOCK,BLOCK)", []int{4, 4},
			[]string{"!hpf$ processors p4x4(4,4)\n!hpf$ distribute t(block,block) onto p4x4\n"},
			[]string{"!hpf$ distribute (block,block) onto p :: w\n"}, true},
	} {
		f := parser.Parse(c.name, []byte(c.src), nil)
		off := strings.Index(c.src, "      DO 10 J")
		var found *CodeAction
		for _, a := range LoopActions(f, off, EstimateSettings{Procs: 16}.Options(nil)) {
			if strings.HasPrefix(a.Title, "Distribute "+c.title+": ") {
				found = &a
			}
		}
		if found == nil {
			t.Errorf("%s: no action for %s", c.name, c.title)
			continue
		}
		out := string(applyEdits([]byte(c.src), found.Edits))
		g := parser.Parse(c.name, []byte(out), nil)
		if errs := g.Errors(); len(errs) > 0 {
			t.Errorf("%s: %q leaves errors %v\n%s", c.name, found.Title, errs, out)
			continue
		}
		d := partition.FromUnit(g.Units[0], 16, g.Dialect)
		if d.Name() != c.title {
			t.Errorf("%s: %q gives %s\n%s", c.name, found.Title, d.Name(), out)
		}
		for _, name := range []string{"U", "V", "X", "Y"} {
			l := d.Arrays[name]
			if l == nil {
				continue
			}
			var procs []int
			for _, df := range l.Dims {
				procs = append(procs, df.Procs)
			}
			if len(procs) != 2 || procs[0] != c.grid[0] || procs[1] != c.grid[1] {
				t.Errorf("%s: after %q, %s is on %v, want %v", c.name, found.Title, name, procs, c.grid)
			}
		}
		for _, w := range append(c.write, c.keep...) {
			if !strings.Contains(out, w) {
				t.Errorf("%s: %q does not leave %q:\n%s", c.name, found.Title, w, out)
			}
		}
		if n := strings.Count(strings.ToUpper(out), "PROCESSORS") - strings.Count(strings.ToUpper(c.src), "PROCESSORS"); (n == 1) != c.declares || n > 1 {
			t.Errorf("%s: %q declares %d arrangement(s)", c.name, found.Title, n)
		}
	}
}

// TestGridActionsFortranD: Fortran D has no processor arrangement, so a
// candidate on another grid is ranked but offered no edit.
func TestGridActionsFortranD(t *testing.T) {
	src, err := os.ReadFile("../examples/redblack.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("redblack.f", src, nil)
	off := strings.Index(string(src), "      DO 100 KC")
	r, err := report(f, f.Lines.Line(off)+1, EstimateSettings{Procs: 16}.Options(nil), partition.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Candidate("G(BLOCK,BLOCK) on 2x8") == nil || r.Candidate("G(BLOCK,BLOCK) on 8x2") == nil {
		t.Errorf("candidates %v: want 2x8 and 8x2 grids ranked", r.Names())
	}
	n := 0
	for _, a := range LoopActions(f, off, EstimateSettings{Procs: 16}.Options(nil)) {
		if strings.Contains(a.Title, " on ") {
			t.Errorf("Fortran D action %q", a.Title)
		}
		if strings.HasPrefix(a.Title, "Distribute ") {
			n++
		}
	}
	if n != 7 {
		t.Errorf("%d distribute actions, want 7 (the 8 formats but the current one)", n)
	}
}
