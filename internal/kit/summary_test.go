package kit

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummarize: errors split by what dominates, the measured and the
// predicted crossover interpolated on log N with their factor, "about the
// same" where the ranges overlap, and checksums compared per N.
func TestSummarize(t *testing.T) {
	kk := Kernel{Name: "k", Layouts: []Layout{{Name: "column"}, {Name: "block"}}}
	var pts []Point
	for _, n := range []int64{32, 64, 128, 256} {
		x := float64(n)
		// column: 1 + x/64, block: 2 + x/128 → measured crossover at 128;
		// predicted: block 1.5 + x/128 → crossover at 64.
		pts = append(pts,
			Point{Layout: "column", N: n, Measured: 1 + x/64, Min: 1 + x/64, Max: 1 + x/64, Estimate: 1 + x/64, Comm: 0.1, Checksum: 1},
			Point{Layout: "block", N: n, Measured: 2 + x/128, Min: 2 + x/128, Max: 2 + x/128, Estimate: 1.5 + x/128, Comm: 2, Checksum: 1})
	}
	for i := range pts {
		pts[i].Error = (pts[i].Estimate - pts[i].Measured) / pts[i].Measured
	}
	s := summarize(kk, 4, pts)
	if s.MeasuredCross == nil || math.Abs(*s.MeasuredCross-128) > 1e-9 {
		t.Errorf("measured crossover %v, want 128", s.MeasuredCross)
	}
	if s.PredictedCross == nil || math.Abs(*s.PredictedCross-64) > 1e-9 || s.CrossoverFactor == nil || math.Abs(*s.CrossoverFactor-2) > 1e-9 {
		t.Errorf("predicted crossover %v, factor %v; want 64 and 2", s.PredictedCross, s.CrossoverFactor)
	}
	if s.MedianErrorComp == nil || *s.MedianErrorComp != 0 || s.MedianErrorComm == nil || *s.MedianErrorComm <= 0 {
		t.Errorf("errors: computation %v, communication %v", s.MedianErrorComp, s.MedianErrorComm)
	}
	if got := strings.Join(s.MeasuredFaster, " "); got != "column column block block" {
		t.Errorf("measured faster %q", got)
	}
	if !s.ChecksumsAgree || len(s.AboutTheSame) != 1 || s.AboutTheSame[0] != 128 {
		t.Errorf("checksums %v, about the same at %v (want 128, where both take 3)", s.ChecksumsAgree, s.AboutTheSame)
	}
	pts[1].Checksum = 2
	if s := summarize(kk, 4, pts); s.ChecksumsAgree || !strings.Contains(s.ChecksumMismatch, "N=32") {
		t.Errorf("a checksum mismatch not found: %+v", s)
	}
}

// TestLoadErrors: kit.json is checked as it is read.
func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"kernels": []}`, "no kernels"},
		{`{"kernels": [{"name": "k"}]}`, "needs name, program, source and line"},
		{`{"kernels": [{"name": "k", "program": "p", "source": "s", "line": 1, "sizes": [8]}]}`, "has no layouts"},
		{`{"kernels": [], "extra": 1}`, "unknown field"},
		{`{"kernels": [{"name": "k", "program": "p", "source": "s", "line": 1, "sizes": [8], "layouts": [{"name": "a"}]}]} {}`, "unexpected data"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "kit.json"), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.text, err, c.want)
		}
	}
	if k, err := Load("../../validation"); err != nil || len(k.Kernels) < 3 {
		t.Errorf("the repository's kit: %v", err)
	}
}

// TestPlotCrossover: the crossover plot has the ratio of the two layouts,
// measured and predicted, at every N where both ran, and the line of 1.
func TestPlotCrossover(t *testing.T) {
	kk := Kernel{Name: "k", Layouts: []Layout{{Name: "column"}, {Name: "block"}}}
	pts := []Point{
		{Layout: "column", N: 64, Measured: 1, Estimate: 2},
		{Layout: "block", N: 64, Measured: 4, Estimate: 4},
		{Layout: "column", N: 32, Measured: 3, Estimate: 3},
		{Layout: "block", N: 32, Measured: 2, Estimate: 1},
		{Layout: "column", N: 128, Measured: 1, Estimate: 1}, // no block run: left out
	}
	path := filepath.Join(t.TempDir(), "c.svg")
	if err := plotCrossover(path, kk, 4, pts); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(data)
	for _, want := range []string{"k at P = 4: column time / block time (below 1: column faster)", ">measured<", ">predicted<", ">equal<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in the plot", want)
		}
	}
	// Three series of two points each (N = 32, 64; N = 128 has no pair).
	if n := strings.Count(svg, "<circle"); n != 6 {
		t.Errorf("%d points drawn, want 6:\n%s", n, svg)
	}
}
