package hints

import (
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// InlayHint is a label shown in the editor at a byte offset.
type InlayHint struct {
	Offset  int    // where the label goes: the end of the DO line or of a routine header
	Label   string // short text, cut to InlayOptions.MaxLength
	Tooltip string // the full polynomial, the statistics and the assumptions
	Kind    string // "loop" or "unit"
}

// InlayOptions selects which hints are produced.
type InlayOptions struct {
	Loops     bool // a hint at the end of each DO, FORALL and parallel loop line
	Units     bool // a hint on each routine header with its summary
	MaxLength int  // labels longer than this are cut (0: 40)
}

// DefaultInlayOptions turns every kind on.
func DefaultInlayOptions() InlayOptions { return InlayOptions{Loops: true, Units: true, MaxLength: 40} }

// InlayHints returns the complexity hints of f whose offsets fall in
// [start, end), sorted by offset. eng holds the complexity results of the
// workspace (and caches them across edits).
func InlayHints(f *parser.File, eng *complexity.Engine, start, end int, opts InlayOptions) []InlayHint {
	return nil
}
