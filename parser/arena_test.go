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

// TestCommentsShareChunk checks that the comments of consecutive units,
// carved from one chunk, stay apart: each unit's list has no spare
// capacity, so appending to the first unit's comments leaves the
// second's unchanged, and each unit keeps exactly its own comments.
func TestCommentsShareChunk(t *testing.T) {
	src := "C     one\n" +
		"      SUBROUTINE A\n" +
		"C     two\n" +
		"      END\n" +
		"C     three\n" +
		"C     four\n" +
		"      SUBROUTINE B\n" +
		"      END\n"
	f := Parse("t.f", []byte(src), nil)
	if len(f.Units) != 2 {
		t.Fatalf("want 2 units, got %d", len(f.Units))
	}
	a, b := f.Units[0].Comments, f.Units[1].Comments
	if len(a) != 2 || len(b) != 2 {
		t.Fatalf("want 2 comments in each unit, got %d and %d", len(a), len(b))
	}
	if cap(a) != len(a) || cap(b) != len(b) {
		t.Errorf("spare capacity: %d/%d and %d/%d", len(a), cap(a), len(b), cap(b))
	}
	// Unit B starts after A's END line, at byte 10+19+10+10 = 49, with
	// "C     three" (12 bytes with its line end), then "C     four".
	if f.Units[1].Base != 49 || b[0].Pos != 0 || b[1].Pos != 12 {
		t.Errorf("unit B at %d, its comments at %d and %d; want 49, 0 and 12", f.Units[1].Base, b[0].Pos, b[1].Pos)
	}
	before := b[0]
	_ = append(a, Comment{Pos: 99, End: 100})
	if b[0] != before {
		t.Errorf("appending to unit A's comments changed unit B's: %v", b[0])
	}
}

// TestLookupCacheLetters checks that the one-letter names, the commonest
// in Fortran, take different slots of the resolver's look-up cache, so
// that A(I,J) = B(I-1,J) does not evict A with I and B with J at each
// name.
func TestLookupCacheLetters(t *testing.T) {
	var r resolver
	seen := map[uint]string{}
	for c := 'A'; c <= 'Z'; c++ {
		name := string(c)
		k := r.slot(name)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share slot %d", name, other, k)
		}
		seen[k] = name
	}
}
