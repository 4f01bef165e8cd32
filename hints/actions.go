package hints

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// EstimateSettings are the editor's settings for estimates
// (pfls.estimate.procs, .machine, .values), as plain data.
type EstimateSettings struct {
	Procs   int                `json:"procs"`   // processors (default 16)
	Machine string             `json:"machine"` // machine model file ("" : the model inside pfls)
	Values  map[string]float64 `json:"values"`  // values of symbols and PARAMETERs
}

// EstimateOptions are the resolved settings: the machine model loaded.
type EstimateOptions struct {
	Procs   int
	Machine *machine.Machine
	Values  map[string]*big.Rat
}

// Options converts the settings; m is the loaded model (nil: the default).
func (s EstimateSettings) Options(m *machine.Machine) EstimateOptions {
	o := EstimateOptions{Procs: s.Procs, Machine: m, Values: map[string]*big.Rat{}}
	if o.Procs < 1 {
		o.Procs = 16
	}
	if o.Procs > partition.MaxProcs {
		o.Procs = partition.MaxProcs
	}
	if o.Machine == nil {
		o.Machine = machine.DefaultMachine()
	}
	for k, v := range s.Values {
		if r := new(big.Rat).SetFloat64(v); r != nil {
			o.Values[strings.ToUpper(k)] = r
		}
	}
	return o
}

// CodeAction is an action offered on a line: an edit of the file, or a
// command the server runs (Command with Args).
type CodeAction struct {
	Title     string // short: at most about 60 characters
	Detail    string // what the title leaves out: the comparison behind it
	Kind      string // "refactor.rewrite", "quickfix" or "source"
	Edits     []TextEdit
	Command   string
	Args      []any
	Preferred bool
}

// EstimateCommand is the command that estimates a loop.
const EstimateCommand = "pfls.estimateLoop"

// report builds the report of the loop whose DO statement starts on a
// 1-based line (the first such loop), or nil.
func report(f *parser.File, line int, o EstimateOptions, ro partition.ReportOptions) (*partition.LoopReport, error) {
	loops := parser.LoopsAt(f, line)
	if len(loops) == 0 {
		return nil, nil
	}
	return partition.NewReport(f, loops[0], partitionOptions(o), ro)
}

func fmtSeconds(p partition.Poly) string {
	v, ok := complexity.Seconds(p)
	if !ok {
		return p.String() + " s"
	}
	return capability.HumanSeconds(v)
}

// LoopActions returns the actions on the DO line at off: "Estimate this
// loop", and one rewrite of the distribution per candidate, titled with
// its estimated time and the change against the current one ("Distribute
// G(:,BLOCK): 2.19 ms, -14%"; the detail names the current distribution
// and its time), the fastest preferred when it beats the current one.
func LoopActions(f *parser.File, off int, o EstimateOptions) []CodeAction {
	loops := parser.LoopsAt(f, f.Lines.Line(off)+1)
	if len(loops) == 0 {
		return nil
	}
	out := []CodeAction{{Title: "Estimate this loop", Kind: "source", Command: EstimateCommand, Args: []any{loops[0].Line(f)},
		Detail: "the loop's run time under each candidate distribution"}}
	r, err := partition.NewReport(f, loops[0], partitionOptions(o), partition.ReportOptions{})
	if err != nil || r.Current.Template == "" {
		return out // the command says what is wrong with the values
	}
	current, cur := r.Current, r.Estimate
	curT, curOK := complexity.Seconds(cur.Time)
	first := true
	for _, c := range r.Ranked {
		if c.Dist.Name() == current.Name() {
			continue
		}
		edits, ok := distributeEdits(f, r.Unit, current, c.Dist, f.Dialect)
		if !ok {
			continue
		}
		title := fmt.Sprintf("Distribute %s: %s", c.Dist.Name(), fmtSeconds(c.Est.Time))
		detail := fmt.Sprintf("%s: %s; %s now: %s", c.Dist.Name(), fmtSeconds(c.Est.Time), current.Name(), fmtSeconds(cur.Time))
		t, ok := complexity.Seconds(c.Est.Time)
		same := false
		switch {
		case r.AboutTheSame(c.Est, cur):
			// Closer than the machine's run-to-run noise: neither is
			// faster, so do not prefer one.
			same = true
			title += ", within noise"
			detail += fmt.Sprintf(" (about the same as %s: the difference is within the machine's run-to-run noise of %.0f%%)",
				current.Name(), 100*r.Machine.Noise)
		case ok && curOK && curT > 0:
			pct := fmt.Sprintf("%+.0f%%", 100*(t-curT)/curT)
			title += ", " + pct
			detail += fmt.Sprintf(" (%s vs %s)", pct, current.Name())
		}
		out = append(out, CodeAction{Title: title, Detail: detail, Kind: "refactor.rewrite", Edits: edits,
			Preferred: first && ok && curOK && t < curT && !same})
		first = false
	}
	return out
}

// distributeEdits rewrites or inserts the distribution of the current
// template in the file's dialect: a Fortran D DISTRIBUTE statement, an
// !HPF$ DISTRIBUTE directive, or a CMF$ LAYOUT line.
func distributeEdits(f *parser.File, u *parser.Unit, current, to *partition.Distribution, dialect string) ([]TextEdit, bool) {
	var dir *parser.Directive
	var layout *parser.Directive
	for _, s := range u.Body {
		d, ok := s.(*parser.Directive)
		if !ok {
			continue
		}
		switch spec := d.Spec.(type) {
		case *parser.DistributeSpec:
			for _, t := range spec.Targets {
				if t.Name == current.Template {
					dir = d
				}
			}
		case *parser.LayoutSpec:
			if spec.Target.Name == current.Template {
				layout = d
			}
		}
	}
	switch {
	case dir != nil && dir.Sentinel == "":
		text := "DISTRIBUTE " + current.Template + "(" + strings.Join(to.Formats, ",") + ")"
		return []TextEdit{{f, u.Abs(dir.KeyPos), u.Abs(dir.To), text}}, true
	case dir != nil && dir.Sentinel == "HPF":
		spec := dir.Spec.(*parser.DistributeSpec)
		if len(spec.Targets) > 1 {
			return nil, false // DISTRIBUTE (...) :: T, U: rewriting it would change U too
		}
		formats := make([]string, len(to.Formats))
		n := 0
		for i, fm := range to.Formats {
			formats[i] = fm
			if fm == ":" {
				formats[i] = "*"
			} else {
				n++
			}
		}
		text := "DISTRIBUTE " + current.Template + "(" + strings.Join(formats, ",") + ")"
		if spec.Onto != nil {
			if sym := u.Scope.Lookup(spec.Onto.Name); sym != nil && sym.Rank() == n {
				text += " ONTO " + spec.Onto.Name
			}
		}
		return []TextEdit{{f, u.Abs(dir.KeyPos), u.Abs(dir.To), text}}, true
	case dialect == "cmf" || layout != nil || dir != nil && dir.Sentinel == "CMF":
		dims := make([]string, len(to.Formats))
		for i, fm := range to.Formats {
			switch fm {
			case ":":
				dims[i] = ":SERIAL"
			case "BLOCK":
				dims[i] = ":NEWS"
			default:
				return nil, false // CM Fortran has no cyclic layout
			}
		}
		text := "LAYOUT " + current.Template + "(" + strings.Join(dims, ", ") + ")"
		if layout != nil {
			return []TextEdit{{f, u.Abs(layout.KeyPos), u.Abs(layout.To), text}}, true
		}
		sym := u.Scope.Lookup(current.Template)
		if sym == nil {
			return nil, false
		}
		// Insert a LAYOUT line after the array's declaration statement.
		declEnd := u.Abs(sym.Decl)
		for _, s := range u.Body {
			if s.Pos() <= sym.Decl && sym.Decl < s.End() {
				declEnd = u.Abs(s.End())
			}
		}
		at := f.Lines.LineStart(f.Lines.Line(declEnd) + 1)
		prefix := "CMF$  "
		if f.Form == parser.Free {
			prefix = "!CMF$ "
		}
		return []TextEdit{{f, at, at, prefix + text + "\n"}}, true
	}
	return nil, false
}

// EstimateLoopText is the report of the "Estimate this loop" command for
// the loop on a line (1-based): the current distribution's times and
// breakdown, and the candidates.
func EstimateLoopText(f *parser.File, line int, o EstimateOptions) (string, error) {
	if line < 1 || line > f.Lines.LineCount() {
		return "", fmt.Errorf("line %d is outside %s", line, f.Name)
	}
	r, err := report(f, line, o, partition.ReportOptions{})
	if err != nil {
		return "", fmt.Errorf("%s:%d: %w", f.Name, line, err)
	}
	if r == nil {
		return "", fmt.Errorf("%s:%d: no DO loop starts on this line", f.Name, line)
	}
	cur := r.Estimate
	var b strings.Builder
	fmt.Fprintf(&b, "Loop at line %d on %d processors, %s: %s (communication %s, computation %s)",
		line, o.Procs, r.Current.Name(), fmtSeconds(cur.Time), fmtSeconds(cur.Comm), fmtSeconds(cur.Compute))
	for _, m := range cur.Messages {
		fmt.Fprintf(&b, "\n- %s of %s: %s × %s bytes, %s (%s)", m.Pattern, m.Array, m.Count.String(), m.Bytes.String(), fmtSeconds(m.Time), m.Why)
	}
	if len(r.Ranked) > 0 {
		b.WriteString("\nCandidates, fastest first:")
		for _, c := range r.Ranked {
			fmt.Fprintf(&b, "\n- %s: %s (communication %s)", c.Dist.Name(), fmtSeconds(c.Est.Time), fmtSeconds(c.Est.Comm))
		}
	}
	for _, n := range r.Notes {
		b.WriteString("\nNote: " + n)
	}
	return b.String(), nil
}
