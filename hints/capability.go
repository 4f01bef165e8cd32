package hints

import (
	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// CapabilityDiagnostics are the compiler-capability diagnostics of f
// (non-overlapped-broadcast, missing-align, loop-distribution,
// pipeline-granularity, unvectorized-message, unused-array,
// fine-grain-loop, beyond-compiler) under a capability profile (nil: Rice Fortran 77D),
// each with the estimate's numbers in its message.
func CapabilityDiagnostics(f *parser.File, o EstimateOptions, prof *capability.Profile) []Diagnostic {
	var out []Diagnostic
	for _, x := range capability.Capabilities(f, prof, partitionOptions(o)) {
		sev := parser.SevWarning
		if x.Severity == "information" {
			sev = parser.SevInformation
		}
		out = append(out, Diagnostic{Start: x.Start, End: x.End, Severity: sev, Code: x.Code, Message: x.Message})
	}
	return out
}

func partitionOptions(o EstimateOptions) partition.Options {
	return partition.Options{Machine: o.Machine, Procs: o.Procs, Values: o.Values}
}

// QuickFixes returns the fixes of the capability diagnostics whose lines
// meet [start, end]: each inserts the missing directive.
func QuickFixes(f *parser.File, start, end int, o EstimateOptions, prof *capability.Profile) []CodeAction {
	var out []CodeAction
	first, last := f.Lines.Line(start), f.Lines.Line(end)
	for _, x := range capability.Capabilities(f, prof, partitionOptions(o)) {
		if x.Fix == nil {
			continue
		}
		if l := f.Lines.Line(x.Start); l < first || l > last {
			continue
		}
		out = append(out, CodeAction{Title: x.Fix.Title, Kind: "quickfix", Preferred: true,
			Edits: []TextEdit{{File: f, Start: x.Fix.Offset, End: x.Fix.Offset, Text: x.Fix.Text}}})
	}
	return out
}
