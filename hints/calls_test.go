package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

const callsA = `      PROGRAM MAIN
      EXTERNAL S
      REAL X(10), F
      CALL S(X)
      Y = F(2.0) + SQRT(X(1))
      CALL S(X)
      CALL EXTLIB(X)
      END
      REAL FUNCTION F(A)
      F = A
      END
      SUBROUTINE S(X)
      REAL X(10)
      CALL T(X)
      END
`

const callsB = `      SUBROUTINE T(X)
      REAL X(10)
      X(1) = 0.
      END
      SUBROUTINE U
      REAL Z(10)
      CALL S(Z)
      END
`

// showEdges renders edges as "NAME(kind) file:line,line".
func showEdges(es []CallEdge) string {
	var parts []string
	for _, e := range es {
		var lines []string
		for _, s := range e.Sites {
			lines = append(lines, fmt.Sprint(s.File.Lines.Line(s.Start)+1))
		}
		parts = append(parts, fmt.Sprintf("%s(%s) %s:%s", e.Item.Name, e.Item.Kind, e.Item.File.Name, strings.Join(lines, ",")))
	}
	return strings.Join(parts, "; ")
}

func TestCallHierarchy(t *testing.T) {
	a := parser.Parse("a.f", []byte(callsA), nil)
	b := parser.Parse("b.f", []byte(callsB), nil)
	others := []*parser.File{b}
	sOff := occurrence(callsA, "S(X)", 1)

	items := PrepareCalls(a, sOff, others)
	if len(items) != 1 || items[0].Name != "S" || items[0].Detail != "SUBROUTINE S(X)" ||
		a.Lines.Line(items[0].SelStart) != 11 || a.Lines.Line(items[0].Start) != 11 || a.Lines.Line(items[0].End) != 14 {
		t.Fatalf("prepare on a call of S: %+v", items)
	}
	// Incoming: MAIN twice (not its EXTERNAL line), U in the other file.
	if got, want := showEdges(IncomingCalls(a, sOff, others)), "MAIN(program) a.f:4,6; U(subroutine) b.f:7"; got != want {
		t.Errorf("incoming S:\n got %s\nwant %s", got, want)
	}
	// From the header in the other file, the same answer.
	tHeader := occurrence(callsB, "T(X)", 1)
	// A main program without a PROGRAM statement calls T too.
	c := parser.Parse("c.f", []byte("      REAL W(10)\n      CALL T(W)\n      END\n"), nil)
	if got, want := showEdges(IncomingCalls(b, tHeader, []*parser.File{a, c})), "S(subroutine) a.f:14; (main program)(program) c.f:2"; got != want {
		t.Errorf("incoming T:\n got %s\nwant %s", got, want)
	}
	// Outgoing from S: T, defined in b.f; the call site is in a.f.
	if got, want := showEdges(OutgoingCalls(a, sOff, others)), "T(subroutine) b.f:14"; got != want {
		t.Errorf("outgoing S:\n got %s\nwant %s", got, want)
	}
	// Outgoing from U: S. F is called by MAIN only; SQRT and EXTLIB are
	// not in the workspace.
	uOff := occurrence(callsB, "U\n", 1)
	if got, want := showEdges(OutgoingCalls(b, uOff, []*parser.File{a})), "S(subroutine) a.f:7"; got != want {
		t.Errorf("outgoing U:\n got %s\nwant %s", got, want)
	}
	fOff := occurrence(callsA, "F(A)", 1)
	if got, want := showEdges(IncomingCalls(a, fOff, others)), "MAIN(program) a.f:5"; got != want {
		t.Errorf("incoming F:\n got %s\nwant %s", got, want)
	}
	// Not a procedure: nothing.
	if items := PrepareCalls(a, occurrence(callsA, "X(10)", 1), others); items != nil {
		t.Errorf("prepare on a variable: %+v", items)
	}
	if items := PrepareCalls(a, occurrence(callsA, "EXTLIB", 1), others); items != nil {
		t.Errorf("prepare on an external procedure: %+v", items)
	}
}
