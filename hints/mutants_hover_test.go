package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestHoverHostNamelistAndEmptyType: a NAMELIST group of the host,
// named in a contained procedure, lists the host's variables of the
// group; a derived type without components is shown as its TYPE line
// alone, with no empty definition block.
func TestHoverHostNamelistAndEmptyType(t *testing.T) {
	src := `program p
  type empty
  end type empty
  real :: r, u
  namelist /nl/ r, u
  call s
contains
  subroutine s
    write(*, nml=nl)
  end subroutine s
end program p
`
	f := parser.Parse("p.f90", []byte(src), nil)
	for _, c := range []struct{ at, want string }{
		{"nl)", "```fortran\nNAMELIST /NL/\n```\n\nNAMELIST group of 2 variables: R, U\n\ndeclared on line 5\n"},
		{"empty\n", "```fortran\nTYPE EMPTY\n```\n\nderived type with 0 components\n\ndeclared on line 2\n"},
	} {
		h := Hover(f, strings.Index(src, c.at), nil)
		if h == nil || h.Markdown != c.want {
			t.Errorf("%q: %+v, want %q", c.at, h, c.want)
		}
	}
}

// TestHoverTypeComponents: the components of a derived type in the
// declarations' own types: a derived type, a character length, a kind,
// an attribute with its bounds.
func TestHoverTypeComponents(t *testing.T) {
	src := `module m
  type point
    real :: x, y
  end type point
  type rec
    type(point) :: p
    character(len=10) :: name
    real(8), dimension(3) :: w, v(2)
  end type rec
end module m
`
	f := parser.Parse("m.f90", []byte(src), nil)
	want := "```fortran\nTYPE REC\n  TYPE(POINT) :: P\n  CHARACTER(LEN=10) :: NAME\n  REAL(8), DIMENSION(3) :: W, V(2)\nEND TYPE\n```\n\nderived type with 4 components\n\ndeclared on line 5\n"
	if h := Hover(f, strings.Index(src, "rec\n"), nil); h == nil || h.Markdown != want {
		t.Errorf("hover %+v\nwant %q", h, want)
	}
}

// TestHoverIntrinsicExtension: a vendor intrinsic the intrinsics table
// does not describe (IRAND, SIZEOF) is called an extension where it is
// referenced in an expression; a dummy named like one and declared
// EXTERNAL is an external procedure with its type.
func TestHoverIntrinsicExtension(t *testing.T) {
	src := `subroutine q(x, loc)
  real :: x
  integer, external :: loc
  x = sizeof(x) + irand(1) + loc(1)
end subroutine q
`
	f := parser.Parse("q.f90", []byte(src), nil)
	for _, c := range []struct{ at, want string }{
		{"sizeof", "```fortran\nINTRINSIC SIZEOF\n```\nintrinsic procedure (an extension of the standard)\n"},
		{"irand", "```fortran\nINTRINSIC IRAND\n```\nintrinsic procedure (an extension of the standard)\n"},
		{"loc(1)", "```fortran\nEXTERNAL LOC\n```\nexternal procedure returning INTEGER\n"},
	} {
		if h := Hover(f, strings.Index(src, c.at), nil); h == nil || h.Markdown != c.want {
			t.Errorf("%q: %+v, want %q", c.at, h, c.want)
		}
	}
}
