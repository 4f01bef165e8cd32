package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"sort"
	"strings"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

type jsonStmt struct {
	Line       int         `json:"line"`
	Kind       string      `json:"kind"`
	Complexity string      `json:"complexity"`
	Value      any         `json:"value,omitempty"`
	Span       string      `json:"span,omitempty"`
	Pieces     []jsonPiece `json:"pieces,omitempty"`
}

type jsonUnit struct {
	Name       string      `json:"name"`
	Kind       string      `json:"kind"`
	Line       int         `json:"line"`
	Summary    string      `json:"summary"`
	Value      any         `json:"value,omitempty"`
	Span       string      `json:"span,omitempty"`
	Pieces     []jsonPiece `json:"pieces,omitempty"`
	Statements []jsonStmt  `json:"statements"`
}

// jsonPiece is one piece of a piecewise count: where it holds, and the
// polynomial there.
type jsonPiece struct {
	When    string `json:"when"`
	Summary string `json:"summary"`
}

func piecesJSON(ps []complexity.Piece) []jsonPiece {
	var out []jsonPiece
	for _, p := range ps {
		out = append(out, jsonPiece{When: complexity.WhenString(p.When, false), Summary: p.Cost.String()})
	}
	return out
}

func spanJSON(has bool, span complexity.Poly) string {
	if !has {
		return ""
	}
	return span.String()
}

type jsonCFile struct {
	Path  string     `json:"path"`
	Units []jsonUnit `json:"units"`
}

// runComplexity implements `pfls complexity [--cost all-one|fp-one|FILE]
// [--eval NAME=V,...] [--json] FILE...` (DESIGN.md §4).
func runComplexity(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("complexity", flag.ContinueOnError)
	inc := includeFlags(fs)
	fs.SetOutput(stderr)
	costName := fs.String("cost", "all-one", "cost table: all-one, fp-one or a cost table file")
	evalArg := fs.String("eval", "", "values of symbols, NAME=V,... (V an integer, p/q or decimal)")
	keepArg := fs.String("keep", "", "variables to keep symbolic, NAME,...")
	pips := fs.Bool("pips", false, "the 1992 report's convention: loop ranges assumed non-empty")
	asJSON := fs.Bool("json", false, "print JSON")
	profPath := fs.String("profile", "", "a profile.json of pfls profile: print the measured trip counts beside the model's; exit 1 on a disagreement where the model is exact")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "pfls complexity: no files given (usage: pfls complexity [--cost all-one|fp-one|FILE] [--eval NAME=V,...] [--keep NAME,...] [--pips] [--json] FILE...)")
		return 2
	}
	var cost *complexity.CostTable
	switch *costName {
	case "all-one":
		cost = complexity.AllOne()
	case "fp-one":
		cost = complexity.FPOne()
	default:
		text, err := os.ReadFile(*costName)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", fileErr(*costName, err))
			return 2
		}
		cost, err = complexity.ParseCostTable(*costName, string(text))
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %s:%v\n", *costName, err)
			return 2
		}
	}
	values, err := parseEval(*evalArg)
	if err != nil {
		fmt.Fprintf(stderr, "pfls: --eval: %v\n", err)
		return 2
	}
	var keep []string
	if *keepArg != "" {
		keep = complexity.Normalize(strings.Split(*keepArg, ","))
	}
	code := 0
	var files []*parser.File
	for _, path := range fs.Args() {
		f, err := parseFile(path, inc)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			code = 2
			continue
		}
		files = append(files, f)
	}
	if *profPath != "" {
		n, err := checkCounts(stdout, files, *profPath, values, keep)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: --profile: %v\n", err)
			return 2
		}
		if n > 0 {
			fmt.Fprintf(stderr, "pfls: %d loop(s) measured otherwise than the model counts\n", n)
			code = 1
		}
		return code
	}
	eng := complexity.NewEngine(complexity.Options{Cost: cost, Keep: keep, Pips: *pips})
	results := eng.Analyze(files...)
	// Every name given to --eval must occur somewhere.
	if len(values) > 0 {
		seen := map[string]bool{}
		for _, rs := range results {
			for _, r := range rs {
				for _, v := range complexity.CountVars(r.Count) {
					seen[v] = true
				}
				for _, s := range r.Statements {
					for _, v := range complexity.CountVars(s.Count) {
						seen[v] = true
					}
				}
			}
		}
		var unknown []string
		for name := range values {
			if !seen[name] {
				unknown = append(unknown, name)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			fmt.Fprintf(stderr, "pfls: --eval: %s does not occur in any complexity of the files given\n", strings.Join(unknown, ", "))
			return 2
		}
	}
	var out []jsonCFile
	for _, f := range files {
		rs := results[f.Name]
		if *asJSON {
			out = append(out, jsonFileOf(f, rs, values))
			continue
		}
		writeListing(stdout, f, rs, values)
	}
	if *asJSON {
		if out == nil {
			out = []jsonCFile{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Files []jsonCFile `json:"files"`
		}{out}); err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			return 2
		}
	}
	for _, f := range files {
		for _, e := range f.Errors() {
			if e.Severity == parser.SevError && code == 0 {
				l, c := f.Lines.RuneColumn(int(e.Pos))
				fmt.Fprintf(stderr, "%s:%d:%d: %s [%s]\n", f.Name, l+1, c+1, e.Msg, e.Code)
				code = 1
			}
		}
	}
	return code
}

func fileErr(path string, err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %v", path, pe.Err)
	}
	return err
}

// parseEval reads NAME=V,NAME=V.
func parseEval(s string) (map[string]*big.Rat, error) {
	out := map[string]*big.Rat{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(part, "=")
		name = strings.ToUpper(strings.TrimSpace(name))
		if !ok || name == "" {
			return nil, fmt.Errorf("%q is not NAME=VALUE", part)
		}
		r, ok := new(big.Rat).SetString(strings.TrimSpace(val))
		if !ok {
			return nil, fmt.Errorf("%s=%s: %q is not a number", name, val, val)
		}
		out[name] = r
	}
	return out, nil
}

// evalValue evaluates an exact count with the values given (the piece
// that holds there): a JSON number when it becomes constant, else the
// remaining polynomial as a string.
func evalValue(p complexity.Poly, values map[string]*big.Rat) any {
	if len(values) == 0 {
		return nil
	}
	q := complexity.EvalGuarded(p, values)
	if complexity.IsGuarded(q) {
		// Some condition still depends on a symbol without a value.
		ps, ok := complexity.Pieces(q)
		if !ok {
			return "piecewise"
		}
		var parts []string
		for _, pc := range ps {
			parts = append(parts, complexity.WhenString(pc.When, false)+": "+pc.Cost.String())
		}
		return strings.Join(parts, "; ")
	}
	if v, ok := q.Value(); ok {
		if f, _ := v.Float64(); !math.IsInf(f, 0) {
			return f
		}
		return v.RatString() // too large for a JSON number
	}
	return q.String()
}

func jsonFileOf(f *parser.File, rs []*complexity.UnitResult, values map[string]*big.Rat) jsonCFile {
	jf := jsonCFile{Path: f.Name, Units: []jsonUnit{}}
	for _, r := range rs {
		ju := jsonUnit{Name: r.Unit.Name, Kind: r.Unit.Kind.String(), Line: unitLine(f, r.Unit) + 1,
			Summary: r.Summary.String(), Value: evalValue(r.Count, values), Span: spanJSON(r.HasSpan, r.Span),
			Pieces: piecesJSON(r.Pieces), Statements: []jsonStmt{}}
		for _, s := range r.Statements {
			ju.Statements = append(ju.Statements, jsonStmt{
				Line: f.Lines.Line(r.Unit.Abs(s.Stmt.Pos())) + 1, Kind: s.Kind,
				Complexity: s.Cost.String(), Value: evalValue(s.Count, values),
				Span: spanJSON(s.HasSpan, s.Span), Pieces: piecesJSON(s.Pieces)})
		}
		jf.Units = append(jf.Units, ju)
	}
	return jf
}

// unitLine is the 0-based line of a unit's header, or of its first
// statement when it has none.
func unitLine(f *parser.File, u *parser.Unit) int {
	if u.Header != nil {
		return f.Lines.Line(u.Abs(u.Header.Pos()))
	}
	if len(u.Body) > 0 {
		return f.Lines.Line(u.Abs(u.Body[0].Pos()))
	}
	return f.Lines.Line(u.Base)
}

// writeListing prints the annotated listing of seed 004: above each
// statement a comment line with its polynomial and kind, and above each
// routine header its SUMMARY.
func writeListing(w io.Writer, f *parser.File, rs []*complexity.UnitResult, values map[string]*big.Rat) {
	notes := map[int][]string{}
	comment := "C"
	if f.Form == parser.Free {
		comment = "!"
	}
	annotate := func(line int, p, count complexity.Poly, kind string, when []complexity.Cond, pieces []complexity.Piece, hasSpan bool, span complexity.Poly) {
		text := p.String()
		if len(pieces) > 0 && len(when) > 0 {
			text += " for " + complexity.WhenString(when, false)
		}
		if hasSpan {
			text = "work " + text + ", span " + span.String()
		}
		if v := evalValue(count, values); v != nil {
			text += fmt.Sprintf(" = %v", v)
		}
		notes[line] = append(notes[line], fmt.Sprintf("%s     %s (%s)", comment, text, kind))
		if len(pieces) > 1 && len(values) == 0 && kind == "SUMMARY" {
			for _, pc := range pieces {
				notes[line] = append(notes[line], fmt.Sprintf("%s       %s: %s", comment, complexity.WhenString(pc.When, false), pc.Cost))
			}
		}
	}
	for _, r := range rs {
		annotate(unitLine(f, r.Unit), r.Summary, r.Count, "SUMMARY", r.When, r.Pieces, r.HasSpan, r.Span)
		for _, s := range r.Statements {
			annotate(f.Lines.Line(r.Unit.Abs(s.Stmt.Pos())), s.Cost, s.Count, s.Kind, s.When, s.Pieces, s.HasSpan, s.Span)
		}
	}
	for line := 0; line < f.Lines.LineCount(); line++ {
		for _, n := range notes[line] {
			fmt.Fprintln(w, n)
		}
		start, end := f.Lines.LineStart(line), f.Lines.LineEnd(line)
		if line == f.Lines.LineCount()-1 && start == end {
			break
		}
		fmt.Fprintln(w, string(f.Src[start:end]))
	}
}
