package capability

import (
	"strings"
	"testing"
)

// TestUnusedArrayHugeSize: the memory an unused array takes is counted
// without wrapping around: REAL(8) A(100000,100000,100000,100000) is
// 8·10²⁰ bytes, 7.45·10¹¹ GiB (the int64 product wrapped: 6.32·10⁹ GiB).
func TestUnusedArrayHugeSize(t *testing.T) {
	src := `program big
  implicit none
  integer, parameter :: n = 100000
  real(8) :: huge4(n,n,n,n), w(10)
  w = 1.0d0
  print *, w(1)
end program big
`
	var msg string
	for _, x := range findings(t, "big.f90", src, "") {
		if x.Code == "unused-array" {
			msg = x.Message
		}
	}
	if !strings.Contains(msg, "it takes 7.45e+11 GiB per processor") {
		t.Errorf("message %q", msg)
	}
}
