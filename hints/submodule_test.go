package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestSubmoduleSeesParent: inside a SUBMODULE's procedures the parent
// module's variables and constants are known by host association
// (Fortran 2018 14.2.3): no "not declared" error under IMPLICIT NONE, go
// to definition lands on the parent's declaration and hover describes
// it, with the parent in the same file or in another one; a local of the
// same name hides it. Before, PI was "not declared (IMPLICIT NONE)", its
// definition was its own use and its hover "implicitly typed".
func TestSubmoduleSeesParent(t *testing.T) {
	parent := `module geometry
  implicit none
  real, parameter :: pi = 3.14159265
  real :: factor = 1.0
  interface
    module function area(r) result(a)
      real, intent(in) :: r
      real :: a
    end function area
    module function perimeter(r) result(p)
      real, intent(in) :: r
      real :: p
    end function perimeter
  end interface
end module geometry
`
	child := `submodule (geometry) geometry_impl
  implicit none
contains
  module function area(r) result(a)
    real, intent(in) :: r
    real :: a
    a = factor * pi * r * r
  end function area
  module function perimeter(r) result(p)
    real, intent(in) :: r
    real :: p, factor
    factor = 2.0
    p = factor * pi * r
  end function perimeter
end submodule geometry_impl
`
	for _, sameFile := range []bool{true, false} {
		var f, home *parser.File
		var others []*parser.File
		src := child
		if sameFile {
			src = parent + child
			f = parser.Parse("geometry.f90", []byte(src), nil)
			home = f
		} else {
			home = parser.Parse("geometry.f90", []byte(parent), nil)
			f = parser.Parse("geometry_impl.f90", []byte(src), nil)
			others = []*parser.File{home}
		}
		for _, d := range Diagnostics(f) {
			t.Errorf("same file %v: %s at %q", sameFile, d.Message, src[d.Start:d.End])
		}
		base := 0
		if sameFile {
			base = len(parent)
		}
		use := base + strings.Index(child, "a = factor * pi")
		for _, c := range []struct {
			at, decl, hover string
		}{
			{"factor", "factor = 1.0", "REAL FACTOR"},
			{"pi", "pi = 3.14", "REAL PI = 3.14159265"},
		} {
			off := use + strings.Index(child[use-base:], c.at) + 1
			want := strings.Index(parent, c.decl)
			locs := Definition(f, off, others)
			if len(locs) != 1 || locs[0].File != home || locs[0].Start != want {
				t.Errorf("same file %v: definition of %s: %+v, want %d in %s", sameFile, c.at, locs, want, home.Name)
			}
			h := Hover(f, off, others)
			if h == nil || !strings.Contains(h.Markdown, c.hover) || strings.Contains(h.Markdown, "implicitly typed") {
				t.Errorf("same file %v: hover of %s: %+v", sameFile, c.at, h)
			}
			if h != nil && !sameFile && !strings.Contains(h.Markdown, "declared in geometry.f90, line") {
				t.Errorf("hover of %s does not say where: %s", c.at, h.Markdown)
			}
		}
		// PERIMETER's own FACTOR hides the parent's.
		local := base + strings.Index(child, "p = factor") + 5
		locs := Definition(f, local, others)
		if want := base + strings.Index(child, "p, factor") + 3; len(locs) != 1 || locs[0].File != f || locs[0].Start != want {
			t.Errorf("same file %v: definition of the local FACTOR: %+v, want %d", sameFile, locs, want)
		}
	}
}

// TestUsedModuleEntities: a name a USE statement makes accessible has its
// definition in the module that declares it, in another file, through a
// module that uses it in turn, under a rename (LOCAL => REMOTE, and the
// REMOTE name itself) and in an ONLY list; hover describes the module's
// entity. Before, the definition
// of such a name was its own use and its hover "(untyped) PI".
func TestUsedModuleEntities(t *testing.T) {
	consts := `module consts
  implicit none
  real, parameter :: pi = 3.14159265
  integer :: nsteps = 100
end module consts
`
	physics := `module physics
  use consts
  implicit none
  real :: g = 9.81
end module physics
`
	main := `program sim
  use physics, only: g, steps => nsteps
  use consts, only: pi
  implicit none
  integer :: i
  real :: t
  t = 0.0
  do i = 1, steps
    t = t + g * pi
  end do
  print *, t
end program sim
`
	c := parser.Parse("consts.f90", []byte(consts), nil)
	p := parser.Parse("physics.f90", []byte(physics), nil)
	m := parser.Parse("sim.f90", []byte(main), nil)
	for _, d := range Diagnostics(m) {
		t.Errorf("%s", d.Message)
	}
	others := []*parser.File{c, p}
	for _, x := range []struct {
		at, in     string
		file       *parser.File
		decl, text string
	}{
		{"steps\n", main[strings.Index(main, "do i"):], c, "nsteps = 100", "INTEGER NSTEPS"},
		{"nsteps", main, c, "nsteps = 100", "INTEGER NSTEPS"},
		{"g * pi", main, p, "g = 9.81", "REAL G"},
		{"pi\n", main, c, "pi = 3.14", "REAL PI = 3.14159265"},
		{"pi\n", main[strings.Index(main, "only: pi")+6:], c, "pi = 3.14", "REAL PI"},
	} {
		base := strings.Index(main, x.in)
		off := base + strings.Index(x.in, x.at) + 1
		want := strings.Index(string(x.file.Src), x.decl)
		locs := Definition(m, off, others)
		if len(locs) != 1 || locs[0].File != x.file || locs[0].Start != want {
			t.Errorf("definition of %q at %d: %+v, want %s at %d", x.at, off, locs, x.file.Name, want)
		}
		if h := Hover(m, off, others); h == nil || !strings.Contains(h.Markdown, x.text) || !strings.Contains(h.Markdown, "declared in "+x.file.Name) {
			t.Errorf("hover of %q: %+v", x.at, h)
		}
	}
}
