package parser

import (
	"strconv"
	"testing"
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
