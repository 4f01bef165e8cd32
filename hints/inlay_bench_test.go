package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

func genFixed(n int) []byte { return genRoutines(n, false) }

// genRoutines is n routines of 100 lines, each with nine loop nests; in
// Fortran D (fortranD) their arrays are aligned with a decomposition
// distributed by columns, their sizes PARAMETERs.
func genRoutines(n int, fortranD bool) []byte {
	var b strings.Builder
	for r := 0; r < n; r++ {
		if fortranD {
			fmt.Fprintf(&b, "      SUBROUTINE SUB%d(A, B)\n      PARAMETER (N = 512, M = 512)\n      REAL A(N,M), B(N,M), S, T\n      COMMON /BLK%d/ S, T\n", r, r%7)
			b.WriteString("      DECOMPOSITION D(N,M)\n      ALIGN A, B WITH D\n      DISTRIBUTE D(:,BLOCK)\n")
		} else {
			fmt.Fprintf(&b, "      SUBROUTINE SUB%d(A, B, N, M)\n      INTEGER N, M, I, J\n      REAL A(N,M), B(N,M), S, T\n      COMMON /BLK%d/ S, T\n", r, r%7)
		}
		for l := 0; l < 9; l++ {
			lbl := 100 + 10*l
			fmt.Fprintf(&b, "      DO %d J = 1, M\n         DO %d I = 2, N - 1\n", lbl, lbl)
			b.WriteString("            A(I,J) = 0.25 * (B(I-1,J) + B(I+1,J)\n     &               + B(I,MAX(J-1,1)) + B(I,MIN(J+1,M)))\n")
			b.WriteString("            IF (A(I,J) .GT. S) THEN\n               S = A(I,J)\n            ELSE\n               T = T + A(I,J) * 2.0E0 - 1.5\n            END IF\n")
			fmt.Fprintf(&b, "  %d    CONTINUE\n", lbl)
		}
		b.WriteString("      RETURN\n      END\n")
	}
	return []byte(b.String())
}

// BenchmarkEditToInlayHints is the typing loop: a one-character edit
// inside one routine of a 20,000-line file, reparse, and the complexity
// hints of the 100 lines around it (target: at most 10 ms).
func BenchmarkEditToInlayHints(b *testing.B) {
	src := genFixed(200)
	f := parser.Parse("gen.f", src, nil)
	eng := complexity.NewEngine(complexity.Options{})
	InlayHints(f, eng, 0, len(src), DefaultInlayOptions())
	u := f.Units[100]
	off := u.Base + u.Len/2
	for src[off] < '0' || src[off] > '9' {
		off++
	}
	line := f.Lines.Line(off)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next := append([]byte(nil), f.Src...)
		next[off] = byte('0' + i%10)
		f = f.Reparse(next, parser.Edit{Start: off, OldEnd: off + 1, NewEnd: off + 1})
		InlayHints(f, eng, f.Lines.LineStart(line-50), f.Lines.LineStart(line+50), DefaultInlayOptions())
	}
}
