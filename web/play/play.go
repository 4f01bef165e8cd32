// Package play is the playground's side of the analyses: what the page in
// the browser asks for (hints, diagnostics with their quick fixes, hovers,
// code actions, "Estimate this loop" with its plot), answered by the same
// hints producers the language server uses, as plain data with positions
// in lines and UTF-16 columns (the JavaScript string's units). It knows
// nothing of JavaScript: web/wasm wraps it for the page, and its tests run
// on any platform.
package play

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/internal/svgplot"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// MaxSource bounds the text analysed, as the language server bounds its
// documents (lsp.MaxDocumentSize, 4 MB): a playground holds small programs.
const MaxSource = 4 << 20

// Pos is a position: a 0-based line and a 0-based column in UTF-16 code
// units, which a JavaScript string indexes by.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// Range is a stretch of the text.
type Range struct {
	From Pos `json:"from"`
	To   Pos `json:"to"`
}

// Hint is an inlay hint: a label at the end of a loop's first line or a
// routine header, with its full text as a tooltip.
type Hint struct {
	At      Pos    `json:"at"`
	Label   string `json:"label"`
	Tooltip string `json:"tooltip"`
	Kind    string `json:"kind"`
}

// Edit replaces a range of the text.
type Edit struct {
	Range
	Text string `json:"text"`
}

// Action is a code action: edits of the text, or the estimate command on
// a 1-based line (Command "pfls.estimateLoop").
type Action struct {
	Title     string `json:"title"`
	Detail    string `json:"detail,omitempty"`
	Kind      string `json:"kind"`
	Edits     []Edit `json:"edits,omitempty"`
	Command   string `json:"command,omitempty"`
	Line      int    `json:"line,omitempty"`
	Preferred bool   `json:"preferred,omitempty"`
}

// Diagnostic is a problem in the text with the quick fixes that mend it.
type Diagnostic struct {
	Range
	Severity string   `json:"severity"` // "error", "warning", "info" or "hint"
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Fixes    []Action `json:"fixes,omitempty"`
}

// Result is what one analysis of the text gives.
type Result struct {
	Hints       []Hint       `json:"hints"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Error is set when an analysis failed (a panic, reported instead of
	// taking the page down); the other results are still given.
	Error string `json:"error,omitempty"`
}

// Hover is the hover text at a position, Markdown.
type Hover struct {
	Range    *Range `json:"range,omitempty"`
	Markdown string `json:"markdown"`
}

// Estimate is the "Estimate this loop" report and its plot: time against
// the symbol the crossovers are searched in, for the current distribution
// and the candidates ("" when the loop has no such symbol).
type Estimate struct {
	Text string `json:"text"`
	SVG  string `json:"svg,omitempty"`
}

// Session holds the document the page shows, parsed, and the complexity
// engine whose cache carries over from one edit to the next. It is not
// safe for concurrent use (the page calls it from one thread).
type Session struct {
	eng   *hints.Engine
	file  *parser.File
	errs  bool // the file has errors
	procs int
	// machine is the model inside pfls, loaded once: the capability
	// findings are kept per machine, so the diagnostics and the quick
	// fixes of one text share one analysis.
	machine *machine.Machine
}

// NewSession returns a session with the built-in cost table (all-one) and
// the machine model inside pfls.
func NewSession() *Session {
	eng, err := hints.NewEngine("all-one", "", nil)
	if err != nil {
		panic(err) // the built-in table always loads
	}
	return &Session{eng: eng, procs: 16, machine: machine.DefaultMachine()}
}

// options are the estimate settings: the processor count chosen on the
// page and the built-in machine model.
func (s *Session) options() hints.EstimateOptions {
	return hints.EstimateSettings{Procs: s.procs}.Options(s.machine)
}

// protect runs fn and turns a panic into an error message.
func protect(what string, fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("internal error in %s: %v\n%s", what, r, debug.Stack())
		}
	}()
	fn()
	return ""
}

// Analyse parses text as the file name (its extension picks the source
// form and dialect: .f fixed form, .f90 and .hpf free form, .fcm CM
// Fortran) for procs processors (0: 16) and returns its complexity hints
// and its syntax and declaration diagnostics. The parse is kept for the
// capability diagnostics, hovers and actions that follow: the page shows
// the hints first and asks for the slower capability diagnostics next.
func (s *Session) Analyse(name, text string, procs int) Result {
	if procs <= 0 {
		procs = 16
	}
	s.procs = procs
	s.file, s.errs = nil, false
	res := Result{Hints: []Hint{}, Diagnostics: []Diagnostic{}}
	if len(text) > MaxSource {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Severity: "warning", Code: "too-large",
			Message: fmt.Sprintf("the text is %d bytes; the playground analyses at most %d", len(text), MaxSource)})
		return res
	}
	var f *parser.File
	if msg := protect("the parser", func() { f = parser.Parse(name, []byte(text), &parser.Config{}) }); msg != "" {
		res.Error = msg
		return res
	}
	s.file = f
	var errs []string
	var ds []hints.Diagnostic
	if msg := protect("diagnostics", func() { ds = hints.Diagnostics(f) }); msg != "" {
		errs = append(errs, msg)
	}
	s.errs = hasErrors(ds)
	for _, d := range ds {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Range: s.rangeOf(d.Start, d.End), Severity: severity(d.Severity), Code: d.Code, Message: d.Message})
	}
	var hs []hints.InlayHint
	if msg := protect("inlay hints", func() { hs = hints.InlayHints(f, s.eng, 0, len(f.Src), hints.DefaultInlayOptions()) }); msg != "" {
		errs = append(errs, msg)
	}
	for _, h := range hs {
		res.Hints = append(res.Hints, Hint{At: s.pos(h.Offset), Label: h.Label, Tooltip: h.Tooltip, Kind: h.Kind})
	}
	res.Error = strings.Join(errs, "\n")
	return res
}

// Capabilities are the compiler-capability diagnostics of the last text
// analysed, each with the quick fixes of its line. Like the language
// server, it gives none while the text has errors: they speak of a
// program that compiles.
func (s *Session) Capabilities() Result {
	res := Result{Hints: []Hint{}, Diagnostics: []Diagnostic{}}
	f := s.file
	if f == nil || s.errs {
		return res
	}
	var errs []string
	var ds []hints.Diagnostic
	if msg := protect("capability diagnostics", func() { ds = hints.CapabilityDiagnostics(f, s.options(), nil) }); msg != "" {
		errs = append(errs, msg)
	}
	for _, d := range ds {
		pd := Diagnostic{Range: s.rangeOf(d.Start, d.End), Severity: severity(d.Severity), Code: d.Code, Message: d.Message}
		// The fixes of the findings on the diagnostic's own line; they
		// share the analysis above.
		var fixes []hints.CodeAction
		if msg := protect("quick fixes", func() { fixes = hints.QuickFixes(f, d.Start, d.Start, s.options(), nil) }); msg != "" {
			errs = append(errs, msg)
		}
		pd.Fixes = s.actions(fixes)
		res.Diagnostics = append(res.Diagnostics, pd)
	}
	res.Error = strings.Join(errs, "\n")
	return res
}

func hasErrors(ds []hints.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == parser.SevError {
			return true
		}
	}
	return false
}

func severity(s parser.Severity) string {
	switch s {
	case parser.SevError:
		return "error"
	case parser.SevWarning:
		return "warning"
	case parser.SevInformation:
		return "info"
	}
	return "hint"
}

// HoverAt is the hover at a position of the last text analysed: the name's
// declaration, or else the cost of the statement or loop there; nil when
// there is nothing to say.
func (s *Session) HoverAt(p Pos) (h *Hover, err error) {
	f := s.file
	if f == nil {
		return nil, nil
	}
	off := s.offset(p)
	msg := protect("hover", func() {
		if n := hints.Hover(f, off, nil); n != nil {
			rg := s.rangeOf(n.Start, n.End)
			h = &Hover{Range: &rg, Markdown: n.Markdown}
			return
		}
		if text := hints.StatementHover(f, s.eng, off); text != "" {
			h = &Hover{Markdown: text}
		}
	})
	if msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	return h, nil
}

// Actions are the code actions on the lines from and to (0-based) of the
// last text analysed: the quick fixes of the capability diagnostics there,
// then, on a DO line, "Estimate this loop" and the distribution rewrites,
// as the language server offers them.
func (s *Session) Actions(from, to int) (out []Action, err error) {
	f := s.file
	out = []Action{}
	if f == nil {
		return out, nil
	}
	start, end := s.offset(Pos{from, 0}), s.offset(Pos{to, 0})
	msg := protect("code actions", func() {
		o := s.options()
		if !s.errs {
			out = append(out, s.actions(hints.QuickFixes(f, start, end, o, nil))...)
		}
		out = append(out, s.actions(hints.LoopActions(f, start, o))...)
	})
	if msg != "" {
		return out, fmt.Errorf("%s", msg)
	}
	return out, nil
}

// actions converts code actions; the estimate command keeps its line.
func (s *Session) actions(as []hints.CodeAction) []Action {
	var out []Action
	for _, a := range as {
		pa := Action{Title: a.Title, Detail: a.Detail, Kind: a.Kind, Command: a.Command, Preferred: a.Preferred}
		for _, e := range a.Edits {
			pa.Edits = append(pa.Edits, Edit{Range: s.rangeOf(e.Start, e.End), Text: e.Text})
		}
		if a.Command == hints.EstimateCommand && len(a.Args) == 1 {
			pa.Line, _ = a.Args[0].(int)
		}
		out = append(out, pa)
	}
	return out
}

// EstimateLoop is "Estimate this loop" for the loop on a 1-based line:
// the report the language server shows, and a plot of the estimated time
// of the shortlisted distributions against the symbol the array extents
// depend on, drawn as `pfls estimate --plot` draws it.
func (s *Session) EstimateLoop(line int) (est Estimate, err error) {
	f := s.file
	if f == nil {
		return est, fmt.Errorf("nothing analysed yet")
	}
	msg := protect("the estimate", func() {
		o := s.options()
		est.Text, err = hints.EstimateLoopText(f, line, o)
		if err != nil {
			return
		}
		reports, rerr := partition.ReportsAt(f, line, partition.Options{Machine: o.Machine, Procs: o.Procs, Values: o.Values},
			partition.ReportOptions{Crossovers: true})
		if rerr != nil || len(reports) == 0 || reports[0].Symbol == "" {
			return // the text says what there is; no symbol to plot against
		}
		r := reports[0]
		var series []svgplot.Series
		for _, sw := range r.Sweeps(r.PlotHi()) {
			series = append(series, svgplot.Series{Name: sw.Name, X: sw.X, Y: sw.Y})
		}
		var b bytes.Buffer
		title := fmt.Sprintf("loop at line %d at P = %d", line, o.Procs)
		if svgplot.WritePlot(&b, title, r.Symbol, "estimated time (s)", series) == nil {
			est.SVG = b.String()
		}
	})
	if msg != "" {
		return est, fmt.Errorf("%s", msg)
	}
	return est, err
}

// pos converts a byte offset of the current file.
func (s *Session) pos(off int) Pos {
	l, c := s.file.Lines.UTF16Column(off)
	return Pos{l, c}
}

func (s *Session) rangeOf(start, end int) Range {
	return Range{s.pos(start), s.pos(end)}
}

// offset converts a position of the current file to a byte offset.
func (s *Session) offset(p Pos) int {
	off, _ := s.file.Lines.OffsetUTF16(p.Line, p.Col)
	return off
}
