package hints

import (
	"sort"
	"strings"
	"unicode/utf8"

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
// [start, end), sorted by offset: at the end of each loop's first line
// the loop's cost, and at the end of each routine header its summary.
// Loops that cost nothing get no hint. eng holds the complexity results
// of the workspace (and caches them across edits).
func InlayHints(f *parser.File, eng *complexity.Engine, start, end int, opts InlayOptions) []InlayHint {
	if opts.MaxLength <= 0 {
		opts.MaxLength = 40
	}
	var out []InlayHint
	seen := map[int]bool{}
	add := func(stmtAt int, p complexity.Poly, kind, what string, stats complexity.Stats, notes []string) {
		line := f.Lines.Line(stmtAt)
		off := f.Lines.LineEnd(line)
		if off < start || off >= end || seen[off] {
			return
		}
		seen[off] = true
		out = append(out, InlayHint{
			Offset:  off,
			Label:   cut(p.Unicode(), opts.MaxLength),
			Tooltip: Tooltip(what, p, stats, notes),
			Kind:    kind,
		})
	}
	for _, r := range eng.File(f) {
		if opts.Units && r.Unit.Header != nil && !r.Summary.IsZero() {
			add(r.Unit.Abs(r.Unit.Header.Pos()), r.Summary, "unit", "Cost of "+r.Unit.Kind.String()+" "+r.Unit.Name, r.Stats, r.Notes)
		}
		if !opts.Loops {
			continue
		}
		for _, s := range r.Statements {
			if s.Kind != "DO" || s.Cost.IsZero() {
				continue
			}
			add(r.Unit.Abs(s.Stmt.Pos()), s.Cost, "loop", "Cost of this loop", s.Stats, s.Notes)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// Tooltip is the full text behind a complexity hint or hover: the
// polynomial, its statistics and the assumptions made.
func Tooltip(what string, p complexity.Poly, st complexity.Stats, notes []string) string {
	var b strings.Builder
	b.WriteString(what)
	b.WriteString(" (all operations counted by the cost table):\n\n    ")
	b.WriteString(p.String())
	b.WriteString("\n\n")
	b.WriteString(st.String())
	for _, n := range notes {
		b.WriteString("\n- ")
		b.WriteString(n)
	}
	return b.String()
}

// cut shortens s to at most n characters, ending it with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Engine computes and caches the complexity of the workspace's units. It
// is the complexity package's engine, named here so that the protocol
// layer depends on hints alone (DESIGN.md §2).
type Engine = complexity.Engine

// NewEngine returns an engine for a cost table: "all-one" (the default,
// also for ""), "fp-one", or the text of a cost table file named by
// tableName; keep lists variables to leave symbolic.
func NewEngine(table, tableText string, keep []string) (*Engine, error) {
	var cost *complexity.CostTable
	switch table {
	case "", "all-one":
		cost = complexity.AllOne()
	case "fp-one":
		cost = complexity.FPOne()
	default:
		t, err := complexity.ParseCostTable(table, tableText)
		if err != nil {
			return nil, err
		}
		cost = t
	}
	return complexity.NewEngine(complexity.Options{Cost: cost, Keep: complexity.Normalize(keep)}), nil
}

// StatementHover returns Markdown on the cost of the innermost statement
// or loop at the byte offset off: its polynomial, statistics and the
// assumptions made; "" when there is none.
func StatementHover(f *parser.File, eng *complexity.Engine, off int) string {
	var best *complexity.StmtResult
	bestLen := -1
	for _, r := range eng.File(f) {
		for _, s := range r.Statements {
			from, to := r.Unit.Abs(s.Stmt.Pos()), r.Unit.Abs(s.Stmt.End())
			if s.Kind == "DO" {
				// A loop is hovered on its DO line, its body belongs to the
				// statements inside.
				to = f.Lines.LineEnd(f.Lines.Line(from))
			}
			if off < from || off > to {
				continue
			}
			if bestLen < 0 || to-from < bestLen {
				best, bestLen = s, to-from
			}
		}
	}
	if best == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("**Cost** (" + best.Kind + "): `" + best.Cost.String() + "`\n\n")
	b.WriteString(best.Stats.String())
	for _, n := range best.Notes {
		b.WriteString("\n- " + n)
	}
	return b.String()
}
