package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestComplexityListing(t *testing.T) {
	code, out, errOut := runCmd("complexity", "--pips", "../../examples/sub2.f")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"C     57/2*M^2 + 195/2*M + 1 (SUMMARY)\n      SUBROUTINE SUB2(M)\n",
		"C     9*I^2 - 12*I.M + 3*M^2 - 84*I + 72*M + 135 (DO)\n         DO 20 J = II, M + 2\n",
		"C     5 (STAT)\n            JJ = I + J - 2\n",
		"C     0 (STAT)\n      RETURN\n      END\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q\n%s", want, out)
		}
	}
	// Exact counting: the piece for large M with its condition, then
	// every piece.
	_, out, _ = runCmd("complexity", "../../examples/sub2.f")
	for _, want := range []string{
		"C     1/2*M^3 + 75/4*M^2 + 154*M - 83 for M >= 10, M even (SUMMARY)\n",
		"C       1 <= M <= 9: 57/2*M^2 + 195/2*M + 1\n",
		"C       M >= 10, M odd: 1/2*M^3 + 75/4*M^2 + 154*M - 329/4\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("exact listing lacks %q\n%s", want, out)
		}
	}
}

func TestComplexityJSON(t *testing.T) {
	code, out, errOut := runCmd("complexity", "--json", "--eval", "M=9", "../../examples/sub2.f")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Files []struct {
			Path  string
			Units []struct {
				Name, Kind, Summary string
				Line                int
				Value               float64
				Pieces              []struct{ When, Summary string }
				Statements          []struct {
					Line       int
					Kind       string
					Complexity string
					Value      any // a number, or what remains symbolic
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	u := doc.Files[0].Units[0]
	if u.Name != "SUB2" || u.Kind != "subroutine" || u.Line != 4 || u.Summary != "1/2*M^3 + 75/4*M^2 + 154*M - 83" || u.Value != 3187 {
		t.Errorf("unit = %+v", u)
	}
	// --eval picks the piece that holds: M = 9 is in 1 <= M <= 9, M = 20
	// and M = 100 in the cubic pieces (brute force: 14,497 and 702,817).
	if len(u.Pieces) != 4 || u.Pieces[1].When != "1 <= M <= 9" || u.Pieces[1].Summary != "57/2*M^2 + 195/2*M + 1" {
		t.Errorf("pieces = %+v", u.Pieces)
	}
	for m, want := range map[string]float64{"20": 14497, "100": 702817} {
		_, out, _ := runCmd("complexity", "--json", "--eval", "M="+m, "../../examples/sub2.f")
		if !strings.Contains(out, fmt.Sprintf(`"value": %v,`, want)) {
			t.Errorf("M = %s: want value %v in\n%s", m, want, out[:min(len(out), 400)])
		}
	}
	if s := u.Statements[0]; s.Line != 6 || s.Kind != "DO" || s.Value != 3187.0 {
		t.Errorf("first statement = %+v", s)
	}
	// Inner loops still depend on the outer indices.
	if s := u.Statements[2]; s.Value != "I <= 9: 9*I^2 - 192*I + 1026; I = 10: -9*I + 102; I >= 11: 3" {
		t.Errorf("third statement = %+v", s)
	}
	// Without --eval there is no value.
	_, out, _ = runCmd("complexity", "--json", "../../examples/sub2.f")
	if strings.Contains(out, `"value"`) {
		t.Errorf("value without --eval")
	}
}

func TestComplexityCostTablesAndErrors(t *testing.T) {
	code, out, _ := runCmd("complexity", "--cost", "fp-one", "--json", "../../complexity/testdata/collc.f")
	if code != 0 || !strings.Contains(out, `"summary": "4*I2.J2 + 10*IL.JL + 6*IL"`) {
		t.Errorf("fp-one COLLC: exit %d\n%s", code, out)
	}
	bad := writeTemp(t, "bad.cost", "[operation]\n+ 1 2\n")
	code, _, errOut := runCmd("complexity", "--cost", bad, "../../examples/sub2.f")
	if code != 2 || !strings.Contains(errOut, bad+":2:1: row \"+\" has 2 costs") {
		t.Errorf("malformed table: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd("complexity", "--eval", "Q=3", "../../examples/sub2.f")
	if code != 2 || !strings.Contains(errOut, "Q does not occur") {
		t.Errorf("unknown --eval name: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd("complexity", "--eval", "M=x", "../../examples/sub2.f")
	if code != 2 || !strings.Contains(errOut, "is not a number") {
		t.Errorf("malformed --eval value: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd("complexity", "--keep", "N", "--json", "../../examples/redblack.f")
	if code != 0 {
		t.Errorf("--keep: exit %d %s", code, errOut)
	}
}
