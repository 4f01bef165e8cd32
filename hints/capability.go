package hints

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// CapabilityDiagnostics are the compiler-capability diagnostics of f
// (non-overlapped-broadcast, missing-align, loop-distribution,
// pipeline-granularity, unvectorized-message, unused-array,
// fine-grain-loop, beyond-compiler) under a capability profile (nil: the
// built-in profile of each unit's dialect: HPF, Rice Fortran 77D, CM Fortran),
// each with the estimate's numbers in its message.
func CapabilityDiagnostics(f *parser.File, o EstimateOptions, prof *capability.Profile) []Diagnostic {
	var out []Diagnostic
	for _, x := range findings(f, o, prof) {
		sev := parser.SevWarning
		if x.Severity == "information" {
			sev = parser.SevInformation
		}
		out = append(out, Diagnostic{Start: x.Start, End: x.End, Severity: sev, Code: x.Code, Message: x.Message})
	}
	return out
}

// EstimatesLoops reports whether CapabilityDiagnostics estimates any
// loop of f under the settings: only then does it need the program's
// other files (EstimateSettings.Others).
func EstimatesLoops(f *parser.File, s EstimateSettings) bool {
	return capability.EstimatesLoops(f, s.Options(nil).Procs)
}

func partitionOptions(o EstimateOptions) partition.Options {
	return partition.Options{Machine: o.Machine, Procs: o.Procs, Values: o.Values, Others: o.Others}
}

// QuickFixes returns the fixes of the capability diagnostics whose lines
// meet [start, end]: each inserts the missing directive (and removes
// the one it replaces).
func QuickFixes(f *parser.File, start, end int, o EstimateOptions, prof *capability.Profile) []CodeAction {
	var out []CodeAction
	first, last := f.Lines.Line(start), f.Lines.Line(end)
	for _, x := range findings(f, o, prof) {
		if x.Fix == nil {
			continue
		}
		if l := f.Lines.Line(x.Start); l < first || l > last {
			continue
		}
		edits := []TextEdit{{File: f, Start: x.Fix.Offset, End: x.Fix.Offset, Text: x.Fix.Text}}
		if len(x.Fix.Edits) > 0 {
			edits = edits[:0]
			for _, e := range x.Fix.Edits {
				edits = append(edits, TextEdit{File: f, Start: e.Start, End: e.End, Text: e.Text})
			}
		}
		out = append(out, CodeAction{Title: x.Fix.Title, Kind: "quickfix", Preferred: true, Edits: edits})
	}
	return out
}

// findingsKey names one analysis: a parsed file (immutable: the server
// parses each version into a new one) under one set of options.
type findingsKey struct {
	f      *parser.File
	procs  int
	m      *machine.Machine
	values string
	prof   *capability.Profile
	others [32]byte // the other files, by their names and texts (capability.FilesDigest)
}

// recentFindings keeps the capability findings of the last few
// analyses, so that the diagnostics of a document version and the code
// actions asked for on it share one analysis.
var recentFindings struct {
	mu   sync.Mutex
	keys []findingsKey
	vals [][]capability.Finding
}

// capabilityRuns counts the analyses run, for tests.
var capabilityRuns atomic.Int64

// recentFindingsLen bounds the findings kept: a few open documents (each
// is analysed once per version; 8 covers the documents an editor shows
// side by side with room to spare).
const recentFindingsLen = 8

// findings returns the capability findings of f, computed once per file
// and options.
func findings(f *parser.File, o EstimateOptions, prof *capability.Profile) []capability.Finding {
	names := make([]string, 0, len(o.Values))
	for k, v := range o.Values {
		names = append(names, k+"="+v.RatString())
	}
	sort.Strings(names)
	key := findingsKey{f, o.Procs, o.Machine, strings.Join(names, ","), prof, capability.FilesDigest(o.Others)}
	c := &recentFindings
	c.mu.Lock()
	for i, k := range c.keys {
		if k == key {
			v := c.vals[i]
			c.mu.Unlock()
			return v
		}
	}
	c.mu.Unlock()
	v := capability.Capabilities(f, prof, partitionOptions(o))
	capabilityRuns.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys = append(c.keys, key)
	c.vals = append(c.vals, v)
	if len(c.keys) > recentFindingsLen {
		c.keys = append([]findingsKey(nil), c.keys[1:]...)
		c.vals = append([][]capability.Finding(nil), c.vals[1:]...)
	}
	return v
}
