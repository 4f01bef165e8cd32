package parser

import "testing"

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
