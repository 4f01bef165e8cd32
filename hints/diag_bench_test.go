package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/internal/gen"
	"github.com/pfls/pfls/parser"
)

// genFortranD is genFixed's 20,000 lines (at n = 200) as Fortran D: each
// routine's arrays aligned with a decomposition distributed by columns,
// so that the capability analysis estimates each of its nine loop nests.
func genFortranD(n int) []byte {
	var b strings.Builder
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "      SUBROUTINE SUB%d(A, B)\n      PARAMETER (N = 512, M = 512)\n      REAL A(N,M), B(N,M), S, T\n      COMMON /BLK%d/ S, T\n", r, r%7)
		b.WriteString("      DECOMPOSITION D(N,M)\n      ALIGN A, B WITH D\n      DISTRIBUTE D(:,BLOCK)\n")
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

// BenchmarkEditToDiagnostics is what the server does after an edit of a
// 20,000-line file before it publishes diagnostics: reparse after one
// character, the syntax and declaration diagnostics, and the capability
// diagnostics (issue 17's target: at most 100 ms). "f77" is the plain
// generated file (no distributed data: the capability analysis only looks
// for unused arrays); "fortrand" distributes every routine's arrays, so
// that all 1,800 loop nests are estimated. cpu-ms/op is the process's CPU
// time per edit.
func BenchmarkEditToDiagnostics(b *testing.B) {
	for _, c := range []struct {
		name string
		src  []byte
	}{{"f77", genFixed(200)}, {"fortrand", genFortranD(200)}} {
		b.Run(c.name, func(b *testing.B) {
			src := c.src
			f := parser.Parse("gen.f", src, nil)
			o := EstimateSettings{Procs: 16}.Options(nil)
			if ds := Diagnostics(f); hasErrorDiag(ds) {
				b.Fatalf("the generated file has errors: %v", ds[0].Message)
			}
			u := f.Units[100]
			off := u.Base + u.Len/2
			for src[off] < '0' || src[off] > '9' {
				off++
			}
			b.ReportAllocs()
			cpu := gen.StartCPU(b)
			for i := 0; i < b.N; i++ {
				next := append([]byte(nil), f.Src...)
				next[off] = byte('0' + i%10)
				f = f.Reparse(next, parser.Edit{Start: off, OldEnd: off + 1, NewEnd: off + 1})
				diagSink = append(Diagnostics(f), CapabilityDiagnostics(f, o, nil)...)
			}
			cpu.Stop()
		})
	}
}

// diagSink keeps the benchmark's diagnostics alive.
var diagSink []Diagnostic

func hasErrorDiag(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == parser.SevError {
			return true
		}
	}
	return false
}
