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
