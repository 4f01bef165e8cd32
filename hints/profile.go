package hints

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// MeasuredProfile is a profile.json written by `pfls profile` (DESIGN.md
// §4), the part the editor shows: totals over the ranks per line.
type MeasuredProfile struct {
	Ranks int            `json:"ranks"`
	Lines []MeasuredLine `json:"lines"`
}

// MeasuredLine is one line of a profile: Count is a DO loop's iterations
// (Entries its entries), a branch's or routine's entries, or an MPI
// call's calls; Time is in seconds, summed over the ranks.
type MeasuredLine struct {
	Path    string  `json:"path"`
	Line    int     `json:"line"`
	Count   int64   `json:"count"`
	Time    float64 `json:"time"`
	Calls   int64   `json:"calls"`
	Bytes   int64   `json:"bytes"`
	Entries int64   `json:"entries"`
}

// ParseProfile reads a profile.json.
func ParseProfile(data []byte) (*MeasuredProfile, error) {
	var p MeasuredProfile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	if p.Ranks < 1 {
		return nil, fmt.Errorf("not a pfls profile: %d ranks", p.Ranks)
	}
	return &p, nil
}

// lineOf finds the measurement of a 1-based line of the file at path: by
// its path, else by its base name when one file of the profile has it.
func (p *MeasuredProfile) lineOf(path string, line int) (MeasuredLine, bool) {
	clean := filepath.Clean(path)
	var byBase []MeasuredLine
	bases := map[string]bool{}
	for _, l := range p.Lines {
		if filepath.Base(l.Path) == filepath.Base(clean) {
			bases[l.Path] = true
			if l.Line == line {
				byBase = append(byBase, l)
			}
		}
		if l.Line == line && filepath.Clean(l.Path) == clean {
			return l, true
		}
	}
	if len(bases) == 1 && len(byBase) == 1 {
		return byBase[0], true
	}
	return MeasuredLine{}, false
}

// linesOf are the measurements of the file at path: by its path, else
// by its base name when one file of the profile has it.
func (p *MeasuredProfile) linesOf(path string) []MeasuredLine {
	clean := filepath.Clean(path)
	var exact, byBase []MeasuredLine
	bases := map[string]bool{}
	for _, l := range p.Lines {
		if filepath.Clean(l.Path) == clean {
			exact = append(exact, l)
		}
		if filepath.Base(l.Path) == filepath.Base(clean) {
			bases[l.Path] = true
			byBase = append(byBase, l)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	if len(bases) == 1 {
		return byBase
	}
	return nil
}

// Branches are the branch counts the profile measured in f, for the
// complexity model (complexity.Branches): the counts of the lines that
// are neither loops nor MPI calls, which are the arms of IF and SELECT
// constructs and their fall-throughs (routines' headers are there too,
// on lines no branch has). nil without a profile or counts.
func (p *MeasuredProfile) Branches(f *parser.File) *complexity.Branches {
	if p == nil {
		return nil
	}
	taken := map[int]int64{}
	for _, l := range p.linesOf(f.Name) {
		if l.Entries == 0 && l.Calls == 0 {
			taken[l.Line] = l.Count
		}
	}
	return complexity.NewBranches(taken)
}

// Apply gives the engine the options' convention and, for f, the branch
// counts of the options' profile (none without one), before an analysis
// of f.
func (o InlayOptions) Apply(eng *Engine, f *parser.File) {
	eng.SetPips(o.Pips)
	eng.SetBranches(f.Name, o.Profile.Branches(f))
}

// ProfileHover is the hover text of the measurements on the line at off:
// for a DO loop its time per execution and rank beside the estimate on
// the profile's processor count ("measured 12.3 ms · predicted 10.1 ms
// (+22%)") and its measured trip count; for a routine its calls and time;
// for an MPI call its calls and bytes. "" when the line was not measured.
func ProfileHover(f *parser.File, off int, p *MeasuredProfile, o EstimateOptions) string {
	if p == nil {
		return ""
	}
	line := f.Lines.Line(off) + 1
	m, ok := p.lineOf(f.Name, line)
	if !ok {
		return ""
	}
	ranks := float64(p.Ranks)
	var b strings.Builder
	fmt.Fprintf(&b, "**Measured** (pfls profile, %d rank", p.Ranks)
	if p.Ranks > 1 {
		b.WriteString("s")
	}
	b.WriteString(")\n\n")
	if r, per, ok := p.measuredRoutine(f, line); ok {
		fmt.Fprintf(&b, "%s", routineText(r, per, p.Ranks))
		return b.String()
	}
	switch {
	case m.Entries > 0:
		perEntry := m.Time / float64(m.Entries)
		text := "measured " + capability.HumanSeconds(perEntry)
		if pred, ok := predicted(f, line, p.Ranks, o); ok && m.Time > 0 {
			text += " · predicted " + capability.HumanSeconds(pred)
			if pred > 0 {
				text += fmt.Sprintf(" (%+.0f%%)", 100*(perEntry-pred)/pred)
			}
		}
		if m.Time == 0 {
			text = "not timed (an inner loop, or one left by a jump)"
		}
		fmt.Fprintf(&b, "%s per execution of the loop\n\n", text)
		fmt.Fprintf(&b, "trip count %s (measured: %d iterations in %d executions)", trim(float64(m.Count)/float64(m.Entries)), m.Count, m.Entries)
	case m.Calls > 0:
		fmt.Fprintf(&b, "%d MPI calls, %d bytes, %s per rank", m.Calls, m.Bytes, capability.HumanSeconds(m.Time/ranks))
	default:
		fmt.Fprintf(&b, "entered %d times", m.Count)
		if m.Time > 0 {
			fmt.Fprintf(&b, ", %s per rank", capability.HumanSeconds(m.Time/ranks))
		}
	}
	return b.String()
}

// predicted is the estimate of the loop on a line on procs processors,
// in seconds, when it is a number.
func predicted(f *parser.File, line, procs int, o EstimateOptions) (float64, bool) {
	o.Procs = max(1, min(procs, partition.MaxProcs))
	r, err := report(f, line, o, partition.ReportOptions{})
	if err != nil || r == nil || r.Estimate == nil {
		return 0, false
	}
	return complexity.Seconds(r.Estimate.Time)
}

func trim(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// measuredRoutine is the measurement of the routine whose header is on
// a line of f: its calls (entries, over all ranks) and its inclusive time
// per call.
func (p *MeasuredProfile) measuredRoutine(f *parser.File, line int) (MeasuredLine, float64, bool) {
	if headerAt(f, line) == nil {
		return MeasuredLine{}, 0, false
	}
	m, ok := p.lineOf(f.Name, line)
	if !ok || m.Count <= 0 || m.Entries > 0 || m.Calls > 0 {
		return m, 0, false
	}
	return m, m.Time / float64(m.Count), true
}

// headerAt is the program unit whose header (PROGRAM, SUBROUTINE,
// FUNCTION, ...) starts on a 1-based line of f, or nil.
func headerAt(f *parser.File, line int) *parser.Unit {
	var visit func(u *parser.Unit) *parser.Unit
	visit = func(u *parser.Unit) *parser.Unit {
		if u.Header != nil && f.Lines.Line(u.Abs(u.Header.Pos()))+1 == line {
			return u
		}
		for _, c := range u.Contains {
			if h := visit(c); h != nil {
				return h
			}
		}
		return nil
	}
	for _, u := range f.Units {
		if h := visit(u); h != nil {
			return h
		}
	}
	return nil
}

// routineText is what a routine's hover and hint tooltip say of its
// measurement: the time per call (inclusive: the routines it calls
// included), the calls, and the time per rank in all.
func routineText(m MeasuredLine, perCall float64, ranks int) string {
	calls := "calls"
	if m.Count == 1 {
		calls = "call"
	}
	return fmt.Sprintf("measured %s per call · %d %s (%s per rank in all, the routines it calls included)",
		capability.HumanSeconds(perCall), m.Count, calls, capability.HumanSeconds(m.Time/float64(ranks)))
}

// ProfileNameHover is the measured part of the hover of a name: on the
// name of a program unit in its header, the unit's measured time per
// call and calls (or, with a stale profile, why they are not shown); ""
// elsewhere.
func ProfileNameHover(f *parser.File, off int, p *MeasuredProfile, stale string) string {
	if p == nil {
		return ""
	}
	line := f.Lines.Line(off) + 1
	r, u := NameAt(f, off), headerAt(f, line)
	if r == nil || u == nil || !strings.EqualFold(r.Name, u.Name) {
		return ""
	}
	if stale != "" {
		return StaleProfileHover(f, off, p, stale)
	}
	if _, _, ok := p.measuredRoutine(f, line); !ok {
		return ""
	}
	return ProfileHover(f, off, p, EstimateOptions{})
}

// ProfileCommand is the command that profiles the program of a document
// ("Profile this program": `pfls profile` on its file).
const ProfileCommand = "pfls.profile"

// measuredLoop is the measured time per execution of a timed DO loop on a
// line of f (per rank: the profile sums times and entries over ranks).
func (p *MeasuredProfile) measuredLoop(f *parser.File, line int) (MeasuredLine, float64, bool) {
	m, ok := p.lineOf(f.Name, line)
	if !ok || m.Entries <= 0 {
		return m, 0, false
	}
	return m, m.Time / float64(m.Entries), true
}

// measures reports whether the profile measured lines of the file at
// path (by its path, else by a base name only one file has).
func (p *MeasuredProfile) measures(path string) bool {
	clean := filepath.Clean(path)
	bases := map[string]bool{}
	for _, l := range p.Lines {
		if filepath.Clean(l.Path) == clean {
			return true
		}
		if filepath.Base(l.Path) == filepath.Base(clean) {
			bases[l.Path] = true
		}
	}
	return len(bases) == 1
}

// ProfileInlay adds a profile's measurements to the loop and routine
// hints hs of f: a timed loop's label gets " · measured 12.3 ms" (its
// time per execution), a routine's " · measured 1.2 ms/call", when that
// fits in maxLen characters, the polynomial being cut for it as
// Cost.Label cuts; a loop's tooltip gets the measured time and trip
// count, a routine's its time per call and calls. stale, when not "", is
// why the profile no longer applies to the file's text: the tooltips say
// so (all of them, edits may have moved the lines measured), and no
// measured number is shown.
func ProfileInlay(f *parser.File, hs []InlayHint, p *MeasuredProfile, stale string, maxLen int) []InlayHint {
	if p == nil {
		return hs
	}
	if maxLen <= 0 {
		maxLen = 40
	}
	for i, h := range hs {
		if h.Kind != "loop" && h.Kind != "unit" {
			continue
		}
		if stale != "" {
			// Edits may have moved the lines measured: every hint of a
			// file the profile measured says why it shows no measurement.
			if p.measures(f.Name) {
				hs[i].Tooltip += "\n\n**Measured**: not shown, " + stale
			}
			continue
		}
		line := f.Lines.Line(h.Offset) + 1
		var tip, suffix string
		if h.Kind == "unit" {
			m, per, ok := p.measuredRoutine(f, line)
			if !ok {
				continue
			}
			tip = routineText(m, per, p.Ranks)
			if m.Time > 0 {
				suffix = " · measured " + capability.HumanSeconds(per) + "/call"
			}
		} else {
			m, per, ok := p.measuredLoop(f, line)
			if !ok {
				continue
			}
			tip = fmt.Sprintf("trip count %s (measured: %d iterations in %d executions)", trim(float64(m.Count)/float64(m.Entries)), m.Count, m.Entries)
			if m.Time > 0 {
				tip = "measured " + capability.HumanSeconds(per) + " per execution of the loop\n\n" + tip
				suffix = " · measured " + capability.HumanSeconds(per)
			}
		}
		if suffix != "" {
			label := h.Label
			if room := maxLen - utf8.RuneCountInString(suffix); utf8.RuneCountInString(label) > room && room >= 12 {
				label = cut(label, room)
			}
			if utf8.RuneCountInString(label+suffix) <= maxLen {
				hs[i].Label = label + suffix
			}
		}
		hs[i].Tooltip += fmt.Sprintf("\n\n**Measured** (pfls profile, %d rank%s): %s", p.Ranks, plural(p.Ranks), tip)
	}
	return hs
}

// StaleProfileHover is the measured part of a hover when the profile no
// longer applies to the file (stale says why): "" on a line it did not
// measure.
func StaleProfileHover(f *parser.File, off int, p *MeasuredProfile, stale string) string {
	if p == nil {
		return ""
	}
	if _, ok := p.lineOf(f.Name, f.Lines.Line(off)+1); !ok {
		return ""
	}
	return "**Measured**: not shown, " + stale
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// unknownTrip matches the note of an unknown that stands for a loop's
// iterations (complexity's "UNKNOWN_1: the iterations of the DO WHILE
// loop at line 12").
var unknownTrip = regexp.MustCompile(`(UNKNOWN_[0-9]+): the iterations of the [^:]*?loop at line ([0-9]+)`)

// MeasuredCost is the part of the complexity hover of the statement at
// off that a profile changes: the unknown trip counts it measured (mean
// iterations per execution of their loops) replace the unknowns, the
// cost is given with them, and the statistics count those ranges as
// measured instead of unknown. "" when the profile measured none of them.
func MeasuredCost(f *parser.File, eng *complexity.Engine, off int, p *MeasuredProfile) string {
	if p == nil {
		return ""
	}
	eng.SetBranches(f.Name, p.Branches(f))
	best, unit := statementAt(f, eng, off)
	if best == nil {
		return ""
	}
	env := map[string]*big.Rat{}
	var lines []string
	for _, n := range append(append([]string(nil), best.Notes...), unit.Unknowns...) {
		for _, sm := range unknownTrip.FindAllStringSubmatch(n, -1) {
			if !best.Cost.Has(sm[1]) {
				continue // an unknown of another statement
			}
			line, _ := strconv.Atoi(sm[2])
			m, ok := p.lineOf(f.Name, line)
			if !ok || m.Entries <= 0 || env[sm[1]] != nil {
				continue
			}
			env[sm[1]] = big.NewRat(m.Count, m.Entries)
			lines = append(lines, fmt.Sprintf("- %s = %s: the loop at line %d (%d iterations in %d executions)", sm[1], trim(float64(m.Count)/float64(m.Entries)), line, m.Count, m.Entries))
		}
	}
	if len(env) == 0 {
		return ""
	}
	st := best.Stats
	measured := min(len(env), st.RangeUnknown)
	st.RangeUnknown -= measured
	var b strings.Builder
	b.WriteString("**Measured trip counts** (pfls profile) in place of unknowns:\n\n")
	b.WriteString(strings.Join(lines, "\n"))
	b.WriteString("\n\n**Cost with them**: `" + best.Cost.Eval(env).String() + "`\n\n")
	stats := strings.Replace(st.String(), "; ranges: ", fmt.Sprintf("; ranges: %d measured, ", measured), 1)
	b.WriteString(stats)
	return b.String()
}
