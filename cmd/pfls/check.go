package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// jsonDiagnostic is one diagnostic of `check --json` (DESIGN.md §4):
// 1-based lines and columns counted in characters.
type jsonDiagnostic struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

type jsonFile struct {
	Path        string           `json:"path"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	inc := includeFlags(fs)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the diagnostics as JSON (same as --format json)")
	format := fs.String("format", "text", "output format: text, json or sarif")
	procs := fs.Int("procs", 16, "processors, for the compiler-capability diagnostics")
	machineFile := fs.String("machine", "", "machine model file (default: the model inside pfls)")
	profileFile := fs.String("profile", "", "compiler capability profile file (default: by dialect: HPF, Rice Fortran 77D for Fortran D, CM Fortran)")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if *asJSON {
		*format = "json"
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(stderr, "pfls check: unknown --format %q (want text, json or sarif)\n", *format)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "pfls check: no files given (usage: pfls check [--json|--format sarif] [--procs P] [--machine FILE] [--profile FILE] FILE...)")
		return 2
	}
	if *procs < 1 || *procs > partition.MaxProcs {
		fmt.Fprintf(stderr, "pfls check: --procs %d: want 1 to %d\n", *procs, partition.MaxProcs)
		return 2
	}
	machine, err := loadMachine(*machineFile)
	if err != nil {
		fmt.Fprintf(stderr, "pfls: %v\n", err)
		return 2
	}
	var profile *capability.Profile
	if *profileFile != "" {
		fh, err := os.Open(*profileFile)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", fileErr(*profileFile, err))
			return 2
		}
		profile, err = capability.LoadProfile(fh)
		fh.Close()
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %s: %v\n", *profileFile, err)
			return 2
		}
	}
	opts := hints.EstimateSettings{Procs: *procs}.Options(machine)
	code := 0
	var files []jsonFile
	for _, path := range fs.Args() {
		f, err := parseFile(path, inc)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			code = 2
			continue
		}
		diags := hints.Diagnostics(f)
		if !hasErrors(diags) {
			// Capability diagnostics speak of a program that compiles.
			diags = append(diags, hints.CapabilityDiagnostics(f, opts, profile)...)
		}
		sort.SliceStable(diags, func(i, j int) bool { return diags[i].Start < diags[j].Start })
		jf := jsonFile{Path: path, Diagnostics: []jsonDiagnostic{}}
		for _, d := range diags {
			l, c := f.Lines.RuneColumn(d.Start)
			el, ec := f.Lines.RuneColumn(d.End)
			jd := jsonDiagnostic{Line: l + 1, Column: c + 1, EndLine: el + 1, EndColumn: ec + 1,
				Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
			if d.Severity == parser.SevError && code == 0 {
				code = 1
			}
			jf.Diagnostics = append(jf.Diagnostics, jd)
			if *format == "text" {
				fmt.Fprintf(stdout, "%s:%d:%d: %s: %s [%s]\n", path, jd.Line, jd.Column, jd.Severity, jd.Message, jd.Code)
			}
		}
		files = append(files, jf)
	}
	if files == nil {
		files = []jsonFile{}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	switch *format {
	case "json":
		if err := enc.Encode(struct {
			Files []jsonFile `json:"files"`
		}{files}); err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			return 2
		}
	case "sarif":
		if err := enc.Encode(sarifOf(files)); err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			return 2
		}
	}
	return code
}

func hasErrors(ds []hints.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == parser.SevError {
			return true
		}
	}
	return false
}

func loadMachine(path string) (*machine.Machine, error) {
	if path == "" {
		return nil, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fileErr(path, err)
	}
	defer fh.Close()
	m, err := machine.LoadMachine(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// sarifOf writes the diagnostics as a SARIF 2.1.0 log, for CI systems.
func sarifOf(files []jsonFile) map[string]any {
	levels := map[string]string{"error": "error", "warning": "warning", "information": "note", "hint": "note"}
	rules := map[string]bool{}
	var results []map[string]any
	for _, f := range files {
		for _, d := range f.Diagnostics {
			rules[d.Code] = true
			results = append(results, map[string]any{
				"ruleId":  d.Code,
				"level":   levels[d.Severity],
				"message": map[string]any{"text": d.Message},
				"locations": []any{map[string]any{"physicalLocation": map[string]any{
					"artifactLocation": map[string]any{"uri": filepath.ToSlash(f.Path)},
					"region": map[string]any{"startLine": d.Line, "startColumn": d.Column,
						"endLine": d.EndLine, "endColumn": d.EndColumn},
				}}},
			})
		}
	}
	var ruleList []map[string]any
	var ids []string
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		ruleList = append(ruleList, map[string]any{"id": id})
	}
	if results == nil {
		results = []map[string]any{}
	}
	if ruleList == nil {
		ruleList = []map[string]any{}
	}
	return map[string]any{
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool":    map[string]any{"driver": map[string]any{"name": "pfls", "version": version, "rules": ruleList}},
			"results": results,
		}},
	}
}

// parseFile reads and parses one file; INCLUDE lines are looked up next to
// the including file.
func parseFile(path string, inc *includeSettings) (*parser.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, fmt.Errorf("%s: %v", path, pe.Err)
		}
		return nil, err
	}
	// INCLUDE reads inside the including file's folder, the current folder
	// (the command line's workspace) and the --include folders, or
	// anywhere with --include-anywhere.
	cfg := &parser.Config{Include: parser.IncludeFromDisk, IncludePath: inc.dirs, IncludeAnywhere: inc.anywhere}
	if wd, err := os.Getwd(); err == nil {
		cfg.Roots = []string{wd}
	}
	return parser.Parse(path, src, cfg), nil
}

// includeSettings are the INCLUDE settings of a command line.
type includeSettings struct {
	dirs     []string
	anywhere bool
}

// includeFlags adds --include DIR (repeatable, or comma-separated) and
// --include-anywhere to a command's flags.
func includeFlags(fs *flag.FlagSet) *includeSettings {
	inc := &includeSettings{}
	fs.Func("include", "a folder searched for INCLUDE'd files (repeatable, or DIR,DIR)", func(v string) error {
		for _, d := range strings.Split(v, ",") {
			if d != "" {
				inc.dirs = append(inc.dirs, d)
			}
		}
		return nil
	})
	fs.BoolVar(&inc.anywhere, "include-anywhere", false, "let INCLUDE read files outside the current folder and the --include folders")
	return inc
}
