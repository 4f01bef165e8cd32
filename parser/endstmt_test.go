package parser

import "testing"

// TestEndWhat checks the word after END in the spellings the parser must
// tell apart, in both forms and cases: the END statement keeps what it
// ends in What, and Keyword is END followed by it.
func TestEndWhat(t *testing.T) {
	cases := []struct{ src, what string }{
		{"end", ""},
		{"END DO", "DO"},
		{"enddo", "DO"},
		{"End If", "IF"},
		{"END SUBROUTINE S", "SUBROUTINE"},
		{"end block data", "BLOCKDATA"},
		{"END BLOCKDATA B", "BLOCKDATA"},
		{"END BLOCK", "BLOCK"},
		{"end select", "SELECT"},
		{"END INTERFACE", "INTERFACE"},
		{"endfunction f", "FUNCTION"},
		{"END TYPE T", "TYPE"},
		{"END FORALL", "FORALL"},
		{"END WHERE", "WHERE"},
	}
	for _, c := range cases {
		for _, name := range []string{"t.f90", "t.f"} {
			// The statement as the reader gives it: upper case, and in
			// fixed form without blanks.
			var b []byte
			for _, ch := range []byte(c.src) {
				if ch != ' ' || name == "t.f90" {
					b = append(b, upper(ch))
				}
			}
			var s scanner
			s.init(&rawStmt{buf: b, fixed: name == "t.f"})
			p := &parser{s: s}
			var partial Stmt
			st := p.endStmt(StmtBase{}, &partial)
			e, ok := st.(*EndStmt)
			if !ok {
				t.Errorf("%s %q: %T, want *EndStmt", name, c.src, st)
				continue
			}
			if e.What != c.what || e.Keyword != "END"+c.what {
				t.Errorf("%s %q: What %q Keyword %q, want %q and %q", name, c.src, e.What, e.Keyword, c.what, "END"+c.what)
			}
		}
	}
}
