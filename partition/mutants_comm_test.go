package partition

import (
	"reflect"
	"testing"
)

// Tests of comm.go written against the mutants left not covered (issue
// 21, docs/mutation-partition.md).

// TestStridedSections: sections with a stride are references like
// others: V(1:99:2) = U(2:100:2) reads, for V(1 + 2k), U(2 + 2k), one
// position on: with 25 elements a processor, V(25) needs U(26) of the
// next one, a shift of one REAL (hoisted out of the K loop, which writes
// no U); with equal sections, nothing.
func TestStridedSections(t *testing.T) {
	const dist = "!HPF$ DISTRIBUTE (BLOCK) :: U, V"
	for _, c := range []struct {
		body string
		want []string
	}{
		{"         V(1:99:2) = U(2:100:2)", []string{`open-shift U 1 x 4 -> "V": U(2:100:2) reads 1 from the neighbour along dimension 1`}},
		{"         V(1:99:2) = U(1:99:2)", nil},
	} {
		if got := moverMessages(t, "      REAL U(100)\n", dist, c.body); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: messages %q, want %q", c.body, got, c.want)
		}
	}
}
