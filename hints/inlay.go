package hints

import (
	"math/big"
	"slices"
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
	// Pips keeps the 1992 report's convention (loop ranges assumed
	// non-empty) instead of exact counting: pfls.complexity.pips.
	Pips bool
	// Profile, when set, is a profile that applies to the file: its
	// measured branch frequencies replace the guessed ones (Apply).
	Profile *MeasuredProfile
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
	opts.Apply(eng, f)
	var out []InlayHint
	seen := map[int]bool{}
	add := func(stmtAt int, c Cost, kind, what string) {
		line := f.Lines.Line(stmtAt)
		off := f.Lines.LineEnd(line)
		if off < start || off >= end || seen[off] {
			return
		}
		seen[off] = true
		out = append(out, InlayHint{
			Offset:  off,
			Label:   c.Label(opts.MaxLength),
			Tooltip: c.Tooltip(what),
			Kind:    kind,
		})
	}
	for _, r := range eng.File(f) {
		if opts.Units && r.Unit.Header != nil && !r.Summary.IsZero() {
			add(r.Unit.Abs(r.Unit.Header.Pos()), UnitCost(r), "unit", "Cost of "+r.Unit.Kind.String()+" "+r.Unit.Name)
		}
		if !opts.Loops {
			continue
		}
		for _, s := range r.Statements {
			if s.Kind != "DO" || s.Cost.IsZero() {
				continue
			}
			add(r.Unit.Abs(s.Stmt.Pos()), StmtCost(s, r), "loop", "Cost of this loop")
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// Cost is what a hint or hover shows of one loop or routine: its work
// (with the condition under which the polynomial shown holds, and every
// piece where the count is piecewise), its span where a parallel
// construct makes it differ, statistics and assumptions.
type Cost struct {
	Work    complexity.Poly
	When    []complexity.Cond
	Pieces  []complexity.Piece
	Span    complexity.Poly
	HasSpan bool
	Stats   complexity.Stats
	Notes   []string
}

// UnitCost is the cost of a routine.
func UnitCost(r *complexity.UnitResult) Cost {
	return Cost{r.Summary, r.When, r.Pieces, r.Span, r.HasSpan, r.Stats, append(append([]string(nil), r.Notes...), r.Unknowns...)}
}

// StmtCost is the cost of a statement or loop of the unit r (nil if not
// known); its notes say what each unknown in it stands for, from the
// unit's list where the statement's own notes do not.
func StmtCost(s *complexity.StmtResult, r *complexity.UnitResult) Cost {
	notes := s.Notes
	if r != nil {
		notes = withUnknowns(notes, r.Unknowns, s.Cost, s.Span)
	}
	return Cost{s.Cost, s.When, s.Pieces, s.Span, s.HasSpan, s.Stats, notes}
}

// withUnknowns adds to notes each "UNKNOWN_k: what" of unknowns whose
// UNKNOWN_k is in one of ps, unless a note already says it.
func withUnknowns(notes, unknowns []string, ps ...complexity.Poly) []string {
	out := notes
	for _, u := range unknowns {
		name, _, _ := strings.Cut(u, ": ")
		in := false
		for _, p := range ps {
			in = in || p.Has(name)
		}
		if !in || slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, u) }) {
			continue
		}
		out = append(slices.Clip(out), u)
	}
	return out
}

// Label is the short form, at most n characters: "work 4·N²+N+1 · span
// 4·N+2", with "for M ≥ 10" where the count is piecewise. A long label
// is cut in its polynomials, keeping its condition when it can.
func (c Cost) Label(n int) string {
	suffix := ""
	if len(c.Pieces) > 1 && len(c.When) > 0 {
		suffix = " for " + complexity.WhenString(c.When, true)
	}
	// Where exact counting was out of reach, the assumption made.
	for _, n := range c.Notes {
		if a, ok := strings.CutPrefix(n, "assumes "); ok {
			a, _, _ = strings.Cut(a, " (")
			suffix += " · assumes " + strings.NewReplacer(">=", "≥", "<=", "≤").Replace(a)
			break
		}
	}
	text := labelPoly(c.Work)
	if c.HasSpan {
		text = "work " + text + " · span " + labelPoly(c.Span)
	}
	if utf8.RuneCountInString(text+suffix) <= n {
		return text + suffix
	}
	if room := n - utf8.RuneCountInString(suffix); room >= 12 {
		if c.HasSpan {
			half := (room - len("work  · span ")) / 2
			if half >= 6 {
				return "work " + cut(labelPoly(c.Work), half) + " · span " + cut(labelPoly(c.Span), half) + suffix
			}
		}
		return cut(text, room) + suffix
	}
	return cut(text+suffix, n)
}

// Tooltip is the full text behind a complexity hint: the work and the
// span, every piece with where it holds, the statistics and the
// assumptions made.
func (c Cost) Tooltip(what string) string {
	var b strings.Builder
	b.WriteString(what)
	b.WriteString(" (all operations counted by the cost table):\n\n    ")
	if c.HasSpan {
		b.WriteString("work ")
	}
	b.WriteString(c.Work.String())
	if len(c.Pieces) > 1 && len(c.When) > 0 {
		b.WriteString("   for " + complexity.WhenString(c.When, false))
	}
	if c.HasSpan {
		b.WriteString("\n    span " + c.Span.String() + "   (the largest iteration of each parallel construct)")
	}
	if len(c.Pieces) > 1 {
		b.WriteString("\n\nPieces (work, exact):")
		for _, p := range c.Pieces {
			b.WriteString("\n    " + complexity.WhenString(p.When, false) + ": " + p.Cost.String())
		}
	}
	b.WriteString("\n\n")
	b.WriteString(c.Stats.String())
	for _, n := range c.Notes {
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

// arrayElements is the number of elements an array assignment (V(2:N-1)
// = ..., a WHERE, a FORALL) stands for: the model's count where it gives
// one (StmtResult.Elements), else its work over its span, the cost of
// one element, when that is a whole number or a polynomial with whole
// coefficients and not 1.
func arrayElements(r *complexity.StmtResult, c Cost) (complexity.Poly, bool) {
	switch r.Stmt.(type) {
	case *parser.AssignStmt, *parser.WhereStmt, *parser.ForallStmt:
	default:
		return complexity.Poly{}, false
	}
	if !r.Elements.IsZero() {
		// The model's own count (parts paid once, a section's bounds,
		// make the work no multiple of the span); where it has pieces,
		// the one for large values, as the work shown.
		n := r.Elements
		if ps, ok := complexity.Pieces(n); ok && len(ps) > 0 {
			n = complexity.LargePiece(ps).Cost
		}
		if v, ok := n.Value(); ok && v.Cmp(big.NewRat(1, 1)) <= 0 {
			return complexity.Poly{}, false
		}
		return n, true
	}
	if c.Span.IsZero() || !c.Span.IsConst() {
		return complexity.Poly{}, false
	}
	q, ok := c.Work.Div(c.Span)
	if !ok || q.Equal(complexity.Int(1)) || q.IsZero() {
		return complexity.Poly{}, false
	}
	// Whole coefficients; only the constant may be negative (V(2:N-1) has
	// N - 2 elements), and something must grow.
	positive := false
	for _, t := range q.Terms() {
		if !t.Coef.IsInt() || (t.Coef.Sign() < 0 && len(t.Factors) > 0) {
			return complexity.Poly{}, false
		}
		positive = positive || (t.Coef.Sign() > 0 && len(t.Factors) > 0)
	}
	if !positive && !q.IsConst() {
		return complexity.Poly{}, false
	}
	if q.IsConst() {
		if v := q.Terms(); len(v) == 1 && v[0].Coef.Sign() < 0 {
			return complexity.Poly{}, false
		}
	}
	return q, true
}

// StatementHover returns Markdown on the cost of the innermost statement
// or loop at the byte offset off: its polynomial, statistics and the
// assumptions made; "" when there is none.
func StatementHover(f *parser.File, eng *complexity.Engine, off int) string {
	best, unit := statementAt(f, eng, off)
	if best == nil {
		return ""
	}
	return statementHover(f, best, unit)
}

// statementAt is the innermost statement or loop at off, with its unit;
// nil if none.
func statementAt(f *parser.File, eng *complexity.Engine, off int) (*complexity.StmtResult, *complexity.UnitResult) {
	var best *complexity.StmtResult
	var unit *complexity.UnitResult
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
				best, unit, bestLen = s, r, to-from
			}
		}
	}
	return best, unit
}

func statementHover(f *parser.File, best *complexity.StmtResult, unit *complexity.UnitResult) string {
	var b strings.Builder
	c := StmtCost(best, unit)
	if c.HasSpan {
		b.WriteString("**Work** (" + best.Kind + "): `" + best.Cost.String() + "`")
	} else {
		b.WriteString("**Cost** (" + best.Kind + "): `" + best.Cost.String() + "`")
	}
	if len(c.Pieces) > 1 && len(c.When) > 0 {
		b.WriteString(" for " + complexity.WhenString(c.When, true))
	}
	b.WriteString("\n\n")
	if c.HasSpan {
		b.WriteString("**Span** (largest iteration of each parallel construct): `" + c.Span.String() + "`\n\n")
		if n, ok := arrayElements(best, c); ok {
			b.WriteString("**Elements**: `" + n.String() + "` (the work is one element's cost times the elements, plus what the statement pays once: its sections' bounds, its reductions)\n\n")
		}
	}
	if len(c.Pieces) > 1 {
		b.WriteString("Every piece:\n\n")
		for _, p := range c.Pieces {
			b.WriteString("- " + complexity.WhenString(p.When, true) + ": `" + p.Cost.String() + "`\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(best.Stats.String())
	for _, n := range c.Notes {
		b.WriteString("\n- " + n)
	}
	return b.String()
}
