package complexity

import (
	"fmt"
	"math/rand"
	"strings"
)

// Generators of hostile programs, shared by the hostile-input tests and
// the benchmarks.

// spaghetti returns a routine of n labelled statements, each followed by
// a conditional jump to a random label: one strongly connected knot of
// unstructured control flow.
func spaghetti(n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	b.WriteString("      SUBROUTINE S(Y)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%5d X = X + 1.0\n", i)
		fmt.Fprintf(&b, "      IF (X .GT. Y) GOTO %d\n", 1+r.Intn(n))
	}
	b.WriteString("      END\n")
	return b.String()
}

// gotoLoops returns a routine of n labelled statements made of nested
// GOTO loops, as old Fortran writes them: each label closes a loop back
// to an earlier label.
func gotoLoops(n int) string {
	var b strings.Builder
	b.WriteString("      SUBROUTINE G(Y)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%5d X = X + 1.0\n", i)
		if i%4 == 0 {
			fmt.Fprintf(&b, "      IF (X .GT. Y) GOTO %d\n", i-3)
		}
	}
	b.WriteString("      END\n")
	return b.String()
}

// paramChain returns a routine whose PARAMETER K(i+1) = K(i) + K(i), n
// deep, bounds a loop.
func paramChain(n int) string {
	var b strings.Builder
	b.WriteString("      SUBROUTINE P\n      PARAMETER (K0 = 1)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "      PARAMETER (K%d = K%d + K%d)\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "      DO 10 I = 1, K%d\n      X = X + 1.0\n   10 CONTINUE\n      END\n", n)
	return b.String()
}

// nestedDo returns a routine with n nested DO loops.
func nestedDo(n int) string {
	var b strings.Builder
	b.WriteString("      SUBROUTINE D(N)\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "      DO I%d = 1, N\n", i)
	}
	b.WriteString("      X = X + 1.0\n")
	for i := 0; i < n; i++ {
		b.WriteString("      END DO\n")
	}
	b.WriteString("      END\n")
	return b.String()
}

// hugePower returns a routine whose loop runs N**k times.
func hugePower(k int) string {
	return fmt.Sprintf("      SUBROUTINE H(N)\n      DO 10 I = 1, N**%d\n      X = X + 1.0\n   10 CONTINUE\n      END\n", k)
}
