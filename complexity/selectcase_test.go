package complexity

import "testing"

// TestSelectCase: a SELECT CASE weighs its arms equally when the
// selector is not known, CASE DEFAULT being one of them: three arms, X =
// 1 (1), X = Y + 1 (3) and X = Y + Z + 1 (5): (1 + 3 + 5)/3 = 3, plus 1
// for reading K (before, the default counted twice: 9/4). With a
// PARAMETER selector only the matching arm runs (F2018 11.1.9.2) and
// reading it is free: K = 2 matches CASE (2:3), 3; K = 7 matches no case
// and runs the default, 5; without CASE DEFAULT nothing runs, 0.
func TestSelectCase(t *testing.T) {
	body := `
  select case (k)
  case (1)
    x = 1
  case (2:3)
    x = y + 1
  case default
    x = y + z + 1
  end select
end subroutine
`
	for _, c := range []struct{ decl, body, want string }{
		{"integer k", body, "4"},
		{"integer, parameter :: k = 2", body, "3"},
		{"integer, parameter :: k = 7", body, "5"},
		{"integer, parameter :: k = 7", "\n  select case (k)\n  case (1)\n    x = 1\n  case (2:3)\n    x = y + 1\n  end select\nend subroutine\n", "0"},
	} {
		f := parseSrc(t, "subroutine s(x, y, z)\n  real x, y, z\n  "+c.decl+c.body)
		r := NewEngine(Options{}).File(f)[0]
		if got := r.Summary.String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.decl, got, c.want)
		}
	}
}
