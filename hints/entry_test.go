package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestEntryNames: an ENTRY statement's name is a procedure of its own
// (Fortran 2018 15.6.2.6): go to definition on a call of it lands on the
// name in the ENTRY statement, in the same file or another one, hover
// shows the entry and its subprogram, and the outline and the workspace
// symbols list it inside its subprogram.
// Before, the definition of CALL SCALE was the call itself and no outline
// named SCALE. Fixed form (a subroutine) and free form (a function in a
// module, called from another file).
func TestEntryNames(t *testing.T) {
	fixed := `      SUBROUTINE INIT(A, N)
      INTEGER N, I
      REAL A(N), S
      DO 10 I = 1, N
         A(I) = 0.0
   10 CONTINUE
      RETURN
      ENTRY SCALE(A, N, S)
      DO 20 I = 1, N
         A(I) = A(I) * S
   20 CONTINUE
      RETURN
      END
      PROGRAM MAIN
      REAL X(10)
      CALL INIT(X, 10)
      CALL SCALE(X, 10, 2.0)
      END
`
	f := parser.Parse("init.f", []byte(fixed), nil)
	entry := strings.Index(fixed, "SCALE(A")
	if locs := Definition(f, strings.Index(fixed, "CALL SCALE")+6, nil); len(locs) != 1 || locs[0].File != f || locs[0].Start != entry || locs[0].End != entry+5 {
		t.Errorf("definition of CALL SCALE: %+v, want %d", locs, entry)
	}
	if h := Hover(f, strings.Index(fixed, "CALL SCALE")+6, nil); h == nil || !strings.Contains(h.Markdown, "ENTRY SCALE(A, N, S)") ||
		!strings.Contains(h.Markdown, "entry point of SUBROUTINE INIT(A, N), line 8 of init.f") {
		t.Errorf("hover of CALL SCALE: %+v", h)
	}
	syms := DocumentSymbols(f)
	var kids []string
	for _, k := range syms[0].Children {
		kids = append(kids, k.Kind+" "+k.Name+" "+k.Detail)
	}
	if got, want := strings.Join(kids, "; "), "loop DO 10 I I = 1, N; subroutine SCALE ENTRY SCALE(A, N, S); loop DO 20 I I = 1, N"; got != want {
		t.Errorf("outline of INIT:\n got %s\nwant %s", got, want)
	}
	if ws := WorkspaceSymbols(f, "scale"); len(ws) != 1 || ws[0].Container != "INIT" || ws[0].SelStart != entry {
		t.Errorf("workspace symbols %+v", ws)
	}

	lib := `module stats
  implicit none
contains
  function mean(x) result(m)
    real, intent(in) :: x(:)
    real :: m
    m = sum(x) / size(x)
    return
  entry total(x) result(m)
    m = sum(x)
  end function mean
end module stats
`
	main := `program p
  use stats
  implicit none
  real :: v(3) = [1.0, 2.0, 3.0]
  print *, mean(v), total(v)
end program p
`
	g := parser.Parse("stats.f90", []byte(lib), nil)
	h := parser.Parse("p.f90", []byte(main), nil)
	at := strings.Index(lib, "total(x)")
	if locs := Definition(h, strings.Index(main, "total(v)")+1, []*parser.File{g}); len(locs) != 1 || locs[0].File != g || locs[0].Start != at {
		t.Errorf("definition of total(v): %+v, want stats.f90 at %d", locs, at)
	}
	if hv := Hover(h, strings.Index(main, "total(v)")+1, []*parser.File{g}); hv == nil || !strings.Contains(hv.Markdown, "ENTRY TOTAL(X)") ||
		!strings.Contains(hv.Markdown, "entry point of FUNCTION MEAN(X), line 9 of stats.f90") {
		t.Errorf("hover of total(v): %+v", hv)
	}
	if locs := Definition(g, at+1, nil); len(locs) != 1 || locs[0].Start != at {
		t.Errorf("definition of the ENTRY name itself: %+v", locs)
	}
	mean := DocumentSymbols(g)[0].Children[0]
	if len(mean.Children) != 1 || mean.Children[0].Name != "TOTAL" || mean.Children[0].Kind != "function" || mean.Children[0].Detail != "ENTRY TOTAL(X)" {
		t.Errorf("outline of MEAN: %+v", mean.Children)
	}
}
