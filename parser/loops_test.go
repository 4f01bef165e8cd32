package parser

import (
	"reflect"
	"strconv"
	"testing"
)

// TestLoopsAt: a DO is found on its line inside every construct (BLOCK,
// IF, SELECT CASE, another DO) and in contained procedures; line 0 gives
// the outermost loops of each unit.
func TestLoopsAt(t *testing.T) {
	src := `program p
  integer :: i, j, k, n
  real :: a(10)
  block
    do i = 1, 10
      a(i) = 0
    end do
  end block
  if (n > 0) then
    do j = 1, n
      select case (j)
      case (1)
        do k = 1, 2
          a(k) = 1
        end do
      end select
    end do
  end if
contains
  subroutine s(m)
    integer :: m, l
    do l = 1, m
    end do
  end subroutine
end program
`
	f := Parse("p.f90", []byte(src), nil)
	vars := func(ls []Loop) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Do.Do.Var.Name+"@"+strconv.Itoa(l.Line(f)))
		}
		return out
	}
	for _, c := range []struct {
		line int
		want []string
	}{
		{5, []string{"I@5"}},
		{10, []string{"J@10"}},
		{13, []string{"K@13"}},
		{22, []string{"L@22"}},
		{6, nil},
		{0, []string{"I@5", "J@10", "L@22"}},
	} {
		if got := vars(LoopsAt(f, c.line)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("LoopsAt(%d) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestDialect: the dialect is the file's, set once by Parse and kept by
// Reparse.
func TestDialect(t *testing.T) {
	src := []byte("      PROGRAM P\n      END\n")
	f := Parse("x.FCM", src, nil)
	if f.Dialect != DialectCMF {
		t.Errorf("x.FCM: dialect %q", f.Dialect)
	}
	g := f.Reparse([]byte("      PROGRAM Q\n      END\n"), Edit{Start: 14, OldEnd: 15, NewEnd: 15})
	if g.Dialect != DialectCMF {
		t.Errorf("reparsed: dialect %q", g.Dialect)
	}
	if d := Parse("x.f", src, nil).Dialect; d != "" {
		t.Errorf("x.f: dialect %q", d)
	}
}
