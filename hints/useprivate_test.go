package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestUsedModulePrivate: a PRIVATE entity of a module is not accessible
// by USE (Fortran 2018 8.5.2, 14.2.2), so a name of the user's that
// shares its spelling is the user's own (here an implicitly typed local
// variable): its definition and hover are never the module's
// declaration. The module's PUBLIC entities still are, and a submodule,
// which has its parent's entities by host association, private ones
// included, still finds them.
func TestUsedModulePrivate(t *testing.T) {
	mod := `module grid
  implicit none
  private
  public :: nx, setup
  integer :: nx = 64
  integer :: scratch = 0
  real, private :: work(64)
contains
  subroutine setup()
    scratch = 1
  end subroutine setup
end module grid
`
	sub := `submodule (grid) grid_impl
contains
  subroutine touch()
    scratch = scratch + 1
  end subroutine touch
end submodule grid_impl
`
	mod2 := `module field
  integer, private :: hidden = 3
  integer :: shown = 4
end module field
`
	main := `program p
  use grid
  use field
  scratch = nx + shown
  hidden = 2
  print *, scratch, hidden
end program p
`
	g := parser.Parse("grid.f90", []byte(mod), nil)
	s := parser.Parse("grid_impl.f90", []byte(sub), nil)
	f2 := parser.Parse("field.f90", []byte(mod2), nil)
	m := parser.Parse("p.f90", []byte(main), nil)
	others := []*parser.File{g, f2}
	for _, x := range []struct {
		at     string
		inFile *parser.File // nil: not in a module
		decl   string
	}{
		{"nx +", g, "nx = 64"},
		{"shown\n", f2, "shown = 4"},
		{"scratch =", nil, ""},
		{"hidden =", nil, ""},
	} {
		off := strings.Index(main, x.at) + 1
		locs := Definition(m, off, others)
		if x.inFile != nil {
			want := strings.Index(string(x.inFile.Src), x.decl)
			if len(locs) != 1 || locs[0].File != x.inFile || locs[0].Start != want {
				t.Errorf("definition of %q: %+v, want %s at %d", x.at, locs, x.inFile.Name, want)
			}
			continue
		}
		for _, l := range locs {
			if l.File == g || l.File == f2 {
				t.Errorf("definition of %q is the module's private entity: %s at %d", x.at, l.File.Name, l.Start)
			}
		}
		if h := Hover(m, off, others); h != nil && strings.Contains(h.Markdown, "declared in grid.f90") || h != nil && strings.Contains(h.Markdown, "declared in field.f90") {
			t.Errorf("hover of %q describes the module's private entity: %s", x.at, h.Markdown)
		}
	}
	// The submodule sees the parent's private SCRATCH.
	off := strings.Index(sub, "scratch + 1") + 1
	want := strings.Index(mod, "scratch = 0")
	if locs := Definition(s, off, []*parser.File{g}); len(locs) != 1 || locs[0].File != g || locs[0].Start != want {
		t.Errorf("submodule: definition of scratch %+v, want grid.f90 at %d", locs, want)
	}
}
