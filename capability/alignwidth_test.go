package capability

import (
	"strings"
	"testing"
)

// TestAlignFixWithinColumn72: in fixed form a directive past column 72
// loses its end (the compiler ignores the columns after it: here
// "...TEMPLATEOFTHEGRIDXYZ(I,J,K)" would be cut inside its subscripts),
// and a directive line cannot be continued safely; the missing-align
// finding is reported but offers no fix whose line does not fit. With a
// short target name the same program gets its fix.
func TestAlignFixWithinColumn72(t *testing.T) {
	src := `      PROGRAM LONGN
      PARAMETER (N = 64)
      REAL TEMPERATUREFIELDNEWVALUES(N,N,N), P(N,N,N)
!HPF$ TEMPLATE TEMPLATEOFTHEGRIDXYZ(N,N,N)
!HPF$ DISTRIBUTE TEMPLATEOFTHEGRIDXYZ(BLOCK,BLOCK,*)
!HPF$ DISTRIBUTE TEMPERATUREFIELDNEWVALUES(*,*,BLOCK)
!HPF$ ALIGN P(I,J,K) WITH TEMPLATEOFTHEGRIDXYZ(I,J,K)
      P = 1.0
      DO 10 K = 1, N
         DO 10 J = 1, N
            DO 10 I = 1, N
               TEMPERATUREFIELDNEWVALUES(I,J,K) = P(I,J,K) * 2.0
   10 CONTINUE
      PRINT *, TEMPERATUREFIELDNEWVALUES(1,1,1)
      END
`
	for _, c := range []struct {
		target  string
		wantFix bool
	}{{"TEMPERATUREFIELDNEWVALUES", false}, {"TNEW", true}} {
		text := strings.ReplaceAll(src, "TEMPERATUREFIELDNEWVALUES", c.target)
		found := false
		for _, x := range findings(t, "long.f", text, "") {
			if x.Code != "missing-align" {
				continue
			}
			found = true
			if (x.Fix != nil) != c.wantFix {
				t.Errorf("%s: fix %+v, want one: %v", c.target, x.Fix, c.wantFix)
			}
			if x.Fix == nil {
				continue
			}
			for _, e := range x.Fix.Edits {
				for _, l := range strings.Split(strings.TrimSuffix(e.Text, "\n"), "\n") {
					if len(l) > 72 {
						t.Errorf("%s: fix writes %q, %d columns", c.target, l, len(l))
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no missing-align finding", c.target)
		}
	}
}
