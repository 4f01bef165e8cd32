package hints

import (
	"os"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// showTokens renders tokens as "text:type+mod+mod", one line of the file
// per line of the result.
func showTokens(f *parser.File, ts []SemToken) string {
	var b strings.Builder
	line := -1
	for _, t := range ts {
		if l := f.Lines.Line(t.Start); l != line {
			if line >= 0 {
				b.WriteString("\n")
			}
			line = l
		} else {
			b.WriteString(" ")
		}
		b.WriteString(string(f.Src[t.Start:t.End]) + ":" + t.Type)
		for _, m := range t.Mods {
			b.WriteString("+" + m)
		}
	}
	return b.String()
}

func TestSemTokens(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"fd.f", `C     Fortran D
      PROGRAM P
      PARAMETER (N = 8)
      REAL X(N), Y(N)
      DECOMPOSITION D(N)
      ALIGN X WITH D
      DISTRIBUTE D(BLOCK)
CHPF$ PROCESSORS PR(4)
CHPF$ DISTRIBUTE D(CYCLIC) ONTO PR
      DO 10 I = 1, N
         X(I) = SQRT(Y(I)) + 2.5
   10 CONTINUE
      CALL S(X, 'done')
      END
      SUBROUTINE S(A, M)
      REAL A(*)
      CHARACTER*(*) M
      END
`, `C     Fortran D:comment
PROGRAM:keyword P:function+declaration
PARAMETER:keyword N:variable+declaration+readonly 8:number
REAL:keyword X:variable+declaration+distributed N:variable+readonly Y:variable+declaration N:variable+readonly
DECOMPOSITION:keyword+directive D:type+declaration+distributed N:variable+readonly
ALIGN:keyword+directive X:variable+distributed WITH:keyword+directive D:type+distributed
DISTRIBUTE:keyword+directive D:type+distributed BLOCK:keyword+directive
CHPF$:macro PROCESSORS:keyword+directive PR:type+declaration 4:number
CHPF$:macro DISTRIBUTE:keyword+directive D:type+distributed CYCLIC:keyword+directive ONTO:keyword+directive PR:type
DO:keyword I:variable 1:number N:variable+readonly
X:variable+distributed I:variable SQRT:function+defaultLibrary Y:variable I:variable 2.5:number
CONTINUE:keyword
CALL:keyword S:function X:variable+distributed 'done':string
END:keyword
SUBROUTINE:keyword S:function+declaration A:parameter M:parameter
REAL:keyword A:parameter+declaration
CHARACTER:keyword M:parameter+declaration
END:keyword`},
		{"omp.f90", `program q
  integer :: i, s
  !$omp parallel do &
  !$omp reduction(+:s)
  do i = 1, 4
    if (i > 2) then
      s = s + i
    end if
  end do
end program q
`, `program:keyword q:function+declaration
integer:keyword i:variable+declaration s:variable+declaration
!$omp:macro parallel:keyword+directive do:keyword+directive
!$omp:macro reduction:keyword+directive s:variable
do:keyword i:variable 1:number 4:number
if:keyword i:variable 2:number then:keyword
s:variable s:variable i:variable
end:keyword if:keyword
end:keyword do:keyword
end:keyword program:keyword q:function+declaration`},
	}
	for _, c := range cases {
		f := parser.Parse(c.name, []byte(c.src), nil)
		if got := showTokens(f, SemTokens(f)); got != c.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

// BenchmarkSemTokens classifies examples/redblack.f, as a client asks on
// every edit.
func BenchmarkSemTokens(b *testing.B) {
	src, err := os.ReadFile("../examples/redblack.f")
	if err != nil {
		b.Fatal(err)
	}
	f := parser.Parse("redblack.f", src, nil)
	for i := 0; i < b.N; i++ {
		SemTokens(f)
	}
}
