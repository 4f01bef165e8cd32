package hints

import (
	"os"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestCapabilityFindingsShared: the diagnostics of a file and the quick
// fixes asked for on it share one analysis; another version of the file
// (a new parse) or other settings get their own.
func TestCapabilityFindingsShared(t *testing.T) {
	src, err := os.ReadFile("../examples/example.fcm")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("example.fcm", src, nil)
	o := EstimateSettings{Procs: 16}.Options(nil)
	before := capabilityRuns.Load()
	ds := CapabilityDiagnostics(f, o, nil)
	fixes := QuickFixes(f, 0, len(src), o, nil)
	// Settings converted again without a model file (as the server does
	// per request) must hit the same cache entry.
	again := CapabilityDiagnostics(f, EstimateSettings{Procs: 16}.Options(nil), nil)
	if len(ds) == 0 || len(fixes) == 0 || len(again) != len(ds) {
		t.Fatalf("%d diagnostics, %d fixes, %d on the second call", len(ds), len(fixes), len(again))
	}
	if n := capabilityRuns.Load() - before; n != 1 {
		t.Errorf("%d analyses for one file and one setting, want 1", n)
	}
	CapabilityDiagnostics(f, EstimateSettings{Procs: 8}.Options(o.Machine), nil)
	CapabilityDiagnostics(parser.Parse("example.fcm", src, nil), o, nil)
	if n := capabilityRuns.Load() - before; n != 3 {
		t.Errorf("%d analyses after new settings and a new parse, want 3", n)
	}
}
