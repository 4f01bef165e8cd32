// Package gen writes the synthetic Fortran programs that the parser and
// server benchmarks and tests share: n routines of about 100 lines, each
// with nested DO loops, COMMON, IF blocks and continuation lines.
package gen

import (
	"fmt"
	"strings"
)

// Fixed makes a fixed-form file of n routines with nested
// labelled DO loops, COMMON and continuation lines (about 100 lines each).
func Fixed(n int) []byte {
	var b strings.Builder
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "C     routine %d of the generated benchmark file\n", r)
		fmt.Fprintf(&b, "      SUBROUTINE SUB%d(A, B, N, M)\n", r)
		b.WriteString("      INTEGER N, M, I, J, K\n")
		b.WriteString("      REAL A(N,M), B(N,M), S, T\n")
		fmt.Fprintf(&b, "      COMMON /BLK%d/ S, T\n", r%7)
		for l := 0; l < 9; l++ {
			fmt.Fprintf(&b, "      DO %d J = 1, M\n", 100+l*10)
			fmt.Fprintf(&b, "         DO %d I = 2, N - 1\n", 100+l*10)
			b.WriteString("            A(I,J) = 0.25 * (B(I-1,J) + B(I+1,J)\n")
			b.WriteString("     &               + B(I,MAX(J-1,1)) + B(I,MIN(J+1,M)))\n")
			b.WriteString("            IF (A(I,J) .GT. S) THEN\n")
			b.WriteString("               S = A(I,J)\n")
			b.WriteString("            ELSE\n")
			b.WriteString("               T = T + A(I,J) * 2.0E0 - 1.5\n")
			b.WriteString("            END IF\n")
			fmt.Fprintf(&b, "  %d    CONTINUE\n", 100+l*10)
		}
		b.WriteString("      RETURN\n")
		b.WriteString("      END\n")
	}
	return []byte(b.String())
}

// Free makes a free-form file of n routines in the same shape.
func Free(n int) []byte {
	var b strings.Builder
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "! routine %d of the generated benchmark file\n", r)
		fmt.Fprintf(&b, "subroutine sub%d(a, b, n, m)\n", r)
		b.WriteString("  implicit none\n  integer, intent(in) :: n, m\n  integer :: i, j\n")
		b.WriteString("  real, intent(inout) :: a(n, m), b(n, m)\n  real :: s, t\n")
		fmt.Fprintf(&b, "  common /blk%d/ s, t\n", r%7)
		for l := 0; l < 9; l++ {
			b.WriteString("  do j = 1, m\n")
			b.WriteString("    do i = 2, n - 1\n")
			b.WriteString("      a(i, j) = 0.25 * (b(i-1, j) + b(i+1, j) &\n")
			b.WriteString("              + b(i, max(j-1, 1)) + b(i, min(j+1, m)))\n")
			b.WriteString("      if (a(i, j) > s) then\n        s = a(i, j)\n      else\n")
			b.WriteString("        t = t + a(i, j) * 2.0e0 - 1.5\n      end if\n")
			b.WriteString("    end do\n  end do\n")
		}
		fmt.Fprintf(&b, "end subroutine sub%d\n", r)
	}
	return []byte(b.String())
}
