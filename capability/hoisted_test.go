package capability

import (
	"strings"
	"testing"
)

// TestNoSplitAdviceForTimeLoop: W is never written in the time loop, so
// its shifts are sent once before it; the time loop's iterations are
// not at block boundaries (its index runs along no array), and nothing
// it could split would hide them: the loop-distribution advice belongs
// to the loop over I only, whose shift of X is made every step.
func TestNoSplitAdviceForTimeLoop(t *testing.T) {
	const src = `      PROGRAM SMOOTH
      PARAMETER (N = 4096)
      REAL X(N), Y(N), W(0:N+1)
      DECOMPOSITION D(0:N+1)
      ALIGN X, Y, W WITH D
      DISTRIBUTE D(BLOCK)
      DO 30 IT = 1, 50
         DO 10 I = 1, N
            X(I) = W(I-1) + W(I+1)
   10    CONTINUE
         DO 20 I = 2, N
            Y(I) = X(I-1)
   20    CONTINUE
   30 CONTINUE
      PRINT *, Y(2)
      END
`
	var lines []string
	for _, f := range findings(t, "smooth.f", src, "") {
		if f.Code == "loop-distribution" {
			lines = append(lines, strings.SplitN(src[f.Start:], "\n", 2)[0])
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "DO 20 I") {
		t.Errorf("loop-distribution on %q, want on DO 20 I only", lines)
	}
}
