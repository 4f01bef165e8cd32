package parser

import (
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestTwoCharOps checks that twoCharOp and the named indices agree with
// the table of two-character operators, whose ids the parser compares
// with instead of their spellings.
func TestTwoCharOps(t *testing.T) {
	for k, op := range twoCharOps {
		if got := twoCharOp(op[0], op[1]); got != int32(k) {
			t.Errorf("twoCharOp(%q) = %d, want %d", op, got, k)
		}
	}
	if twoCharOps[twoColons] != "::" || twoCharOps[twoParenSlash] != "(/" {
		t.Errorf("twoColons names %q and twoParenSlash %q, want \"::\" and \"(/\"", twoCharOps[twoColons], twoCharOps[twoParenSlash])
	}
	var s scanner
	s.init(&rawStmt{buf: []byte("A(1::2) = (/ 1 /)")})
	var ids []int32
	for t := s.next(); t.kind != tEOS; t = s.next() {
		if t.kind == tOp {
			ids = append(ids, t.id)
		}
	}
	want := []int32{oneID('('), idTwo + twoColons, oneID(')'), oneID('='), idTwo + twoParenSlash, idTwo + 9}
	if len(ids) != len(want) {
		t.Fatalf("operator ids %v, want %v", ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Errorf("operator %d has id %d, want %d", i, ids[i], want[i])
		}
	}
}

// TestInternTable interns more names than the first table holds, so that
// it grows several times, and checks that each name keeps its id and
// spelling, that different names get different ids, and that the table
// stays at most half full.
func TestInternTable(t *testing.T) {
	var s scanner
	const n = 5000
	ids := make([]int32, n)
	seen := map[int32]bool{}
	for i := range n {
		name := []byte("N" + strconv.Itoa(i*7919))
		ids[i] = s.intern(name)
		if seen[ids[i]] {
			t.Fatalf("%s got the id %d of an earlier name", name, ids[i])
		}
		seen[ids[i]] = true
	}
	for i := range n {
		name := "N" + strconv.Itoa(i*7919)
		if id := s.intern([]byte(name)); id != ids[i] || s.str(id) != name {
			t.Fatalf("%s: id %d spelled %q, want id %d", name, id, s.str(id), ids[i])
		}
	}
	if s.nameN != n || len(s.names) < 2*n {
		t.Errorf("%d names in a table of %d slots, want %d in at least %d", s.nameN, len(s.names), n, 2*n)
	}
}

// TestSharedSpellings checks that two parses share the spelling of a
// name (the same bytes, not a copy), that a name longer than
// maxSpellingLen is not kept, and that the shared table, grown past its
// first size here, stays at most half full and finds every name it holds.
func TestSharedSpellings(t *testing.T) {
	spellings.Lock()
	room := maxSpellings - spellings.n
	spellings.Unlock()
	if room < 3*firstSpellings {
		t.Skipf("the shared table has room for %d spellings only, after the other tests", room)
	}
	var a, b scanner
	for i := range 3 * firstSpellings {
		name := []byte("SHARED" + strconv.Itoa(i))
		x, y := a.str(a.intern(name)), b.str(b.intern(name))
		if x != string(name) || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Fatalf("%s: the two scanners' spellings %q and %q are not one string", name, x, y)
		}
	}
	long := []byte(strings.Repeat("L", maxSpellingLen+1))
	if x, y := a.str(a.intern(long)), b.str(b.intern(long)); x != string(long) || unsafe.StringData(x) == unsafe.StringData(y) {
		t.Errorf("a spelling of %d bytes is shared", len(long))
	}
	spellings.Lock()
	defer spellings.Unlock()
	n, size := spellings.n, len(spellings.table)
	if size <= firstSpellings || size&(size-1) != 0 || 2*n > size {
		t.Errorf("%d spellings in a table of %d slots", n, size)
	}
	held := 0
	for _, s := range spellings.table {
		if s != "" {
			held++
		}
	}
	if held != n {
		t.Errorf("the table holds %d spellings, counts %d", held, n)
	}
}
