package parser

import (
	"fmt"
	"testing"
)

// TestLookaheadComments checks that the comment lines continuations
// passed while looking for a continuation line are read once: after the
// first statement the reader knows that lines 2 to 5 are comments and
// blanks, and the next statement records the comments and starts at line
// 6, as when it read them itself. A preprocessor line among them (whose
// effect continuations only tries) leaves nothing to reuse.
func TestLookaheadComments(t *testing.T) {
	src := "      X = 1\n" + // 0-11
		"C a\n" + // 12-15
		"* b\n" + // 16-19
		"\n" + // 20
		"C c\n" + // 21-24
		"      Y = 2\n" + // 25-36
		"#define Z\n" + // 37-46
		"C d\n" + // 47-50
		"      Z = 3\n"
	r := reader{src: []byte(src), form: Fixed, lineLen: 72}
	if st := r.next(); string(st.buf) != "X=1" {
		t.Fatalf("first statement %q", st.buf)
	}
	if want := (lookahead{from: 12, to: 25, n: 3}); r.ahead != want {
		t.Errorf("after X = 1: lookahead %+v, want %+v", r.ahead, want)
	}
	if st := r.next(); string(st.buf) != "Y=2" || r.ahead.to != 0 {
		t.Fatalf("second statement %q, lookahead %+v (want none: a #define follows)", st.buf, r.ahead)
	}
	if got := fmt.Sprint(r.comments); got != "[{12 15} {16 19} {21 24}]" {
		t.Errorf("comments %s, want [{12 15} {16 19} {21 24}]", got)
	}
	if st := r.next(); st.kind != rawCpp {
		t.Fatalf("third statement %q, want the #define", st.buf)
	}
	if st := r.next(); string(st.buf) != "Z=3" {
		t.Fatalf("fourth statement %q", st.buf)
	}
	if got := fmt.Sprint(r.comments); got != "[{12 15} {16 19} {21 24} {47 50}]" {
		t.Errorf("comments %s, want [{12 15} {16 19} {21 24} {47 50}]", got)
	}
}

// TestFreeStatementText checks the text free form gives a statement:
// upper case outside character and Hollerith constants, each run of
// blanks one blank, "&" continuations joined, the comment after "&"
// recorded, and each byte's offset in the source.
func TestFreeStatementText(t *testing.T) {
	src := "x  =   a+b   &  ! note\n" + // 0-22
		"   & * 'It''s  so' // 3habc\n" // 23-50
	r := reader{src: []byte(src), form: Free, lineLen: 132}
	st := r.next()
	if want := "X = A+B * 'It''s  so' // 3Habc"; string(st.buf) != want {
		t.Errorf("text %q, want %q", st.buf, want)
	}
	// X at 0; the blank after it at 1; A at 7; "*" at 28; the quote at 30;
	// "h" of 3habc at 46 ("H" in the text, its characters as written).
	for _, c := range []struct{ i, off int }{{0, 0}, {1, 1}, {4, 7}, {8, 28}, {10, 30}, {26, 46}} {
		if got := int(st.off[c.i]); got != c.off {
			t.Errorf("byte %d (%q) at %d, want %d", c.i, st.buf[c.i], got, c.off)
		}
	}
	if got := fmt.Sprint(r.comments); got != "[{16 22}]" {
		t.Errorf("comments %s, want [{16 22}]", got)
	}
}

// TestLineFromTable checks the reader's line ends taken from the table of
// line starts against hand-computed ones, in any order of asking (the
// table's cursor moves forward, back and far): "ab\r\n" ends before its
// "\r", an empty line ends where it starts, the last line has no "\n".
func TestLineFromTable(t *testing.T) {
	src := "ab\r\n\ncd\nef"
	// offset: line end, next line start
	want := map[int][2]int{
		0: {2, 4}, 1: {2, 4}, 2: {2, 4}, 3: {3, 4}, // "\r" at 2, "\n" at 3
		4: {4, 5}, // the empty line
		5: {7, 8}, 6: {7, 8}, 7: {7, 8},
		8: {10, 10}, 9: {10, 10}, 10: {10, 10},
	}
	for _, order := range [][]int{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		{10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
		{0, 8, 4, 5, 0, 10, 3, 4, 9, 1},
	} {
		r := reader{src: []byte(src), lines: NewMapper([]byte(src)).lines}
		for _, i := range order {
			end, next := r.lineAt(i)
			if w := want[i]; end != w[0] || next != w[1] {
				t.Errorf("order %v: lineAt(%d) = %d, %d; want %d, %d", order, i, end, next, w[0], w[1])
			}
		}
	}
}
