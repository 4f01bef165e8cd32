package parser

import (
	"testing"
	"unsafe"
)

// TestListsCarveSmall checks that the short lists of a tree take no more
// room than they need, to within a factor of two: each arm of an IF
// construct of one statement holds it in an array of two, and a body of
// three statements in one of four (two, then four, carved one after the
// other from the shared chunk).
func TestListsCarveSmall(t *testing.T) {
	src := "      SUBROUTINE S(X)\n" +
		"      IF (X .GT. 0) THEN\n" +
		"         Y = 1\n" +
		"      ELSE\n" +
		"         Y = 2\n" +
		"         Y = 3\n" +
		"         Y = 4\n" +
		"      END IF\n" +
		"      END\n"
	f := Parse("t.f", []byte(src), nil)
	c, ok := f.Units[0].Body[0].(*IfConstruct)
	if !ok || len(c.Arms) != 2 {
		t.Fatalf("want an IF construct with two arms, got %#v", f.Units[0].Body[0])
	}
	if a := c.Arms[0].Body; len(a) != 1 || cap(a) != 2 {
		t.Errorf("first arm: %d statements in an array of %d, want 1 in 2", len(a), cap(a))
	}
	if a := c.Arms[1].Body; len(a) != 3 || cap(a) != 4 {
		t.Errorf("second arm: %d statements in an array of %d, want 3 in 4", len(a), cap(a))
	}
}

// TestNodeSizes checks, on 64-bit machines, the sizes of the structs a
// tree holds most of, whose fields are ordered so that no padding comes
// between them: a field added or moved carelessly shows here.
func TestNodeSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes for 64-bit machines")
	}
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"StmtBase", unsafe.Sizeof(StmtBase{}), 48}, // 4 positions, Label, Construct, Keyword
		{"Call", unsafe.Sizeof(Call{}), 48},         // Fun, Args, 2 positions
		{"Symbol", unsafe.Sizeof(Symbol{}), 192},
	} {
		if c.got != c.want {
			t.Errorf("%s takes %d bytes, want %d", c.name, c.got, c.want)
		}
	}
}
