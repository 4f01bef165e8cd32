package parser

import (
	"strings"
	"testing"
)

// TestCutForallWhereStatements: a FORALL or WHERE statement cut in its
// statement is a statement with a syntax error, and a FORALL or WHERE
// head that no END closes takes in none of the statements after it; a
// DO CONCURRENT cut in its header is still the loop its END DO closes
// (a DO without its header).
func TestCutForallWhereStatements(t *testing.T) {
	src := `program p
  real :: u(10,10)
  integer :: it, i, j
  do it = 1, 10
    forall (i=2:9, j=2:9) u(i,j) = 0.25*(u(i-1,j) + u(i,j+
    u = u + 1.0
  end do
  where (u > 0.0) u = u *
  u = 2.0
  forall (i=2:9)
  u = 3.0
  do concurrent (i=1:
    u(i,1) = 0.0
  end do
  where (u >
  u = 4.0
end program
`
	f := Parse("p.f90", []byte(src), nil)
	u := f.Units[0]
	var kinds []string
	for _, s := range u.Body {
		switch x := s.(type) {
		case *DoConstruct:
			kinds = append(kinds, "DO")
			if len(kinds) == 1 {
				if len(x.Body) != 2 {
					t.Fatalf("the DO holds %d statements, want the FORALL and U = U + 1.0", len(x.Body))
				}
				fa, ok := x.Body[0].(*ForallStmt)
				if !ok || fa.Body == nil {
					t.Fatalf("the cut FORALL is %T (body %v), want a FORALL statement", x.Body[0], fa != nil && fa.Body != nil)
				}
				if _, ok := fa.Body.(*BadStmt); !ok {
					t.Errorf("the cut FORALL's statement is %T, want a BadStmt", fa.Body)
				}
			}
		case *Block:
			t.Errorf("a %s construct at offset %d: none is closed in this program", x.Head.Base().Keyword, x.Pos())
		case *ForallStmt:
			kinds = append(kinds, "FORALL")
		case *WhereStmt:
			kinds = append(kinds, "WHERE")
		case *AssignStmt:
			kinds = append(kinds, "=")
		}
	}
	want := "DO WHERE = FORALL = DO WHERE ="
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("statements %s, want %s", got, want)
	}
	var msgs []string
	for _, e := range f.Errors() {
		msgs = append(msgs, e.Msg)
	}
	if len(msgs) != 5 {
		t.Errorf("%d errors, want 5 (three cut expressions, two heads without END): %q", len(msgs), msgs)
	}
}
