package parser

import (
	"strings"
	"testing"
)

// Hostile inputs: one test per family of input that once crashed, hung or
// ran away. Each asserts a clear diagnostic and that the rest of the file
// is still analysed.

// errorsMatching returns the messages of f's errors containing sub.
func errorsMatching(f *File, sub string) []string {
	var out []string
	for _, e := range f.Errors() {
		if strings.Contains(e.Msg, sub) {
			out = append(out, e.Msg)
		}
	}
	return out
}

// TestHalfTypedStatements parses statements cut short as they are while
// being typed; each must give a syntax error, not a panic, and leave the
// following routine's symbols alone.
func TestHalfTypedStatements(t *testing.T) {
	for _, stmt := range []string{
		"CALL", "CALL (X)", "ENTRY", "ENTRY (X)", "ASSIGN", "ASSIGN 10 TO", "X =", "DO 10 I = 1,", "DO I =",
		"IF (X", "IF (X) ", "IF (X) THEN", "ELSE IF (", "SELECT CASE (", "FORALL", "FORALL (", "WHERE (",
		"GO TO (", "READ (", "COMMON /", "PARAMETER (N", "DATA X /", "EQUIVALENCE (", "INCLUDE",
	} {
		for _, form := range []string{"t.f", "t.f90"} {
			src := "      SUBROUTINE A(X)\n      " + stmt + "\n      END\n      SUBROUTINE B(Y)\n      Y = 1\n      END\n"
			f := Parse(form, []byte(src), nil)
			if len(f.Units) != 2 {
				t.Errorf("%s %q: %d units, want 2", form, stmt, len(f.Units))
				continue
			}
			if len(f.Errors()) == 0 {
				t.Errorf("%s %q: no error", form, stmt)
			}
			if f.Units[1].Scope.Lookup("Y") == nil {
				t.Errorf("%s %q: the next routine lost its symbols", form, stmt)
			}
		}
	}
}

// TestFailureBoundary makes resolving (and, separately, nesting) one unit
// fail, and checks that the failure becomes one internal-error diagnostic
// on that unit's header while the other units keep their symbols and
// diagnostics.
func TestFailureBoundary(t *testing.T) {
	src := "      SUBROUTINE A\n      IMPLICIT NONE\n      X = 1\n      END\n" +
		"      SUBROUTINE B\n      Y = 2\n      END\n" +
		"      SUBROUTINE C\n      Z = 3\n      END\n"
	for _, stage := range []string{"resolve", "blocks"} {
		t.Run(stage, func(t *testing.T) {
			saved := strictPanics
			strictPanics = false
			testHook = func(s string, u *Unit) {
				if s == stage && u.Name == "B" {
					panic("boom")
				}
			}
			defer func() { strictPanics, testHook = saved, nil }()
			f := Parse("t.f", []byte(src), nil)
			if len(f.Units) != 3 {
				t.Fatalf("%d units, want 3", len(f.Units))
			}
			var internal []Error
			for _, e := range f.Errors() {
				if e.Code == "internal" {
					internal = append(internal, e)
				}
			}
			if len(internal) != 1 || !strings.Contains(internal[0].Msg, "subroutine B") || !strings.Contains(internal[0].Msg, "boom") {
				t.Fatalf("internal errors %v, want one naming subroutine B", internal)
			}
			if at := int(internal[0].Pos); at != strings.Index(src, "SUBROUTINE B") {
				t.Errorf("internal error at %d, want the header of B at %d", at, strings.Index(src, "SUBROUTINE B"))
			}
			if len(errorsMatching(f, "X is not declared")) != 1 {
				t.Errorf("unit A lost its diagnostic: %v", f.Errors())
			}
			if f.Units[2].Scope.Lookup("Z") == nil || f.Units[0].Scope.Lookup("X") == nil {
				t.Error("units A and C lost their symbols")
			}
			if stage == "blocks" && f.Units[1].Scope.Lookup("Y") == nil {
				t.Error("unit B lost its statements when nesting failed")
			}
		})
	}
}
