package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEstimateJSONContract(t *testing.T) {
	code, out, errOut := runCmd("estimate", "--json", "--line", "13", "../../examples/redblack.f")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Path  string
		Procs int
		Loops []struct {
			Line    int
			Current struct {
				Distribution string
				Time, Comm   float64
			}
			Candidates []struct {
				Distribution string
				Time, Comm   float64
			}
			Crossovers []struct {
				Symbol       string
				Value        int64
				Below, Above string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Procs != 16 || len(doc.Loops) != 1 || doc.Loops[0].Line != 13 {
		t.Fatalf("document %+v", doc)
	}
	l := doc.Loops[0]
	if l.Current.Distribution != "G(BLOCK,BLOCK)" || l.Current.Time <= l.Current.Comm || l.Current.Comm <= 0 {
		t.Errorf("current %+v", l.Current)
	}
	for i := 1; i < len(l.Candidates); i++ {
		if l.Candidates[i].Time < l.Candidates[i-1].Time {
			t.Errorf("candidates not fastest first: %+v", l.Candidates)
		}
	}
	if len(l.Crossovers) == 0 || l.Crossovers[0].Symbol != "N" {
		t.Errorf("crossovers %+v", l.Crossovers)
	}
	for _, key := range []string{`"distribution"`, `"time"`, `"comm"`, `"candidates"`, `"crossovers"`, `"below"`, `"above"`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestEstimateTextPlotAndErrors(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "rb.svg")
	code, out, errOut := runCmd("estimate", "--plot", svg, "--set", "N=128", "../../examples/redblack.f")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "current G(BLOCK,BLOCK)") || !strings.Contains(out, "crossover at N = ") {
		t.Errorf("text output:\n%s", out)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Errorf("plot is not XML: %v", err)
			}
			break
		}
	}
	if !strings.Contains(string(data), "G(:,BLOCK)") {
		t.Errorf("plot lacks the strip curve")
	}
	if code, _, errOut := runCmd("estimate", "--line", "2", "../../examples/redblack.f"); code != 2 || !strings.Contains(errOut, "no DO loop starts on this line") {
		t.Errorf("bad --line: %d %q", code, errOut)
	}
	bad := writeTemp(t, "m.json", `{"name": 1}`)
	if code, _, errOut := runCmd("estimate", "--machine", bad, "../../examples/redblack.f"); code != 2 || !strings.Contains(errOut, bad) {
		t.Errorf("bad machine file: %d %q", code, errOut)
	}
	if code, _, _ := runCmd("estimate", "--procs", "0", "../../examples/redblack.f"); code != 2 {
		t.Errorf("--procs 0 accepted")
	}
}

func TestEstimateLimits(t *testing.T) {
	if code, _, errOut := runCmd("estimate", "--procs", "100000000", "../../examples/redblack.f"); code != 2 || !strings.Contains(errOut, "want 1 to 65536") {
		t.Errorf("huge --procs: %d %q", code, errOut)
	}
	bad := writeTemp(t, "bad.f", "      PROGRAM P\n      DO 10 I = 1, 4\n      X = (1 +\n   10 CONTINUE\n      END\n")
	if code, _, errOut := runCmd("estimate", bad); code != 1 || !strings.Contains(errOut, "expected an expression") {
		t.Errorf("estimate of a file with errors: %d %q", code, errOut)
	}
	code, out, _ := runCmd("complexity", "--json", "--eval", "M=1e400", "../../examples/sub2.f")
	if code != 0 || !strings.Contains(out, `"value": "`) {
		t.Errorf("huge --eval value: %d\n%s", code, out)
	}
}
