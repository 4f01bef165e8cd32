package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// showFolds renders folds as "first-last kind" with 1-based lines.
func showFolds(f *parser.File, fs []Fold) string {
	var parts []string
	for _, fo := range fs {
		s := fmt.Sprintf("%d-%d", f.Lines.Line(fo.Start)+1, f.Lines.Line(fo.End)+1)
		if fo.Kind != "" {
			s += " " + fo.Kind
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func TestFolds(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"fixed.f", `C     Red-black relaxation,
C     in two sweeps.
      PROGRAM P
      REAL A(10,10)
CHPF$ DISTRIBUTE A(BLOCK,*)
CHPF$ INDEPENDENT
      DO 10 J = 1, 10
         DO 10 I = 1, 10
            A(I,J) = 0.
   10 CONTINUE
      IF (A(1,1) .GT. 0.) THEN
         A(1,1) = 1.
         A(2,2) = 1.
      ELSE
         A(1,1) = 2.
      END IF
      CALL S
      CONTAINS
      SUBROUTINE S
      PRINT *, 1
      END SUBROUTINE
      END
`, "1-2 comment, 3-21, 5-6 directive, 7-9, 8-9, 11-13, 14-15, 19-20"},
		{"free.f90", `module m
  type t
    integer :: k
  end type t
  interface g
    module procedure s
  end interface
contains
  subroutine s(x)
    real :: x(:)
    !$omp parallel
    !$omp do
    select case (size(x))
    case (1)
      x = 0
    case default
      where (x > 0)
        x = 1
      elsewhere
        x = 2
      end where
    end select
    ! one comment line does not fold
    associate (y => x(1))
      block
        real :: z
        z = y
      end block
    end associate
  end subroutine s
end module m
`, "1-30, 2-3, 5-6, 9-29, 11-12 directive, 13-21, 14-15, 16-21, 17-18, 19-20, 24-28, 25-27"},
	}
	for _, c := range cases {
		f := parser.Parse(c.name, []byte(c.src), nil)
		if got := showFolds(f, Folds(f)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
