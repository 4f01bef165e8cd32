package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

const groupSrc = `program g
  implicit none
  type point
     real(8) :: x, y
     integer, allocatable :: tags(:)
  end type point
  type(point) :: p
  integer :: n, steps
  real :: dt
  namelist /run/ n, steps /phys/ dt
  namelist /run/ p
  read (*, nml=run)
  print *, n, steps, dt, p%x
end program g
`

// TestHoverNamelistAndType: the hover of a NAMELIST group says so and
// lists its variables (from every NAMELIST statement naming it); that of
// a derived type's name lists its components; neither is a "scalar".
func TestHoverNamelistAndType(t *testing.T) {
	f := parser.Parse("g.f90", []byte(groupSrc), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("errors %v", errs)
	}
	for _, c := range []struct {
		at   string
		want []string
	}{
		{"run)", []string{"NAMELIST /RUN/", "NAMELIST group of 3 variables: N, STEPS, P"}},
		{"phys/", []string{"NAMELIST /PHYS/", "NAMELIST group of 1 variable: DT"}},
		{"point\n", []string{"TYPE POINT", "  REAL(8) :: x, y", "  INTEGER, ALLOCATABLE :: tags(:)", "END TYPE", "derived type with 3 components"}},
	} {
		h := Hover(f, strings.Index(groupSrc, c.at), nil)
		if h == nil {
			t.Errorf("%s: no hover", c.at)
			continue
		}
		lines := strings.Split(h.Markdown, "\n")
		for _, w := range c.want {
			found := false
			for _, l := range lines {
				found = found || strings.EqualFold(l, w)
			}
			if !found {
				t.Errorf("%s: hover lacks the line %q:\n%s", c.at, w, h.Markdown)
			}
		}
		if strings.Contains(h.Markdown, "scalar") {
			t.Errorf("%s: hover says scalar:\n%s", c.at, h.Markdown)
		}
	}
}
