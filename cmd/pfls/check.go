package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
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
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the diagnostics as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "pfls check: no files given (usage: pfls check [--json] FILE...)")
		return 2
	}
	code := 0
	var files []jsonFile
	for _, path := range fs.Args() {
		f, err := parseFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			code = 2
			continue
		}
		jf := jsonFile{Path: path, Diagnostics: []jsonDiagnostic{}}
		for _, d := range hints.Diagnostics(f) {
			l, c := f.Lines.RuneColumn(d.Start)
			el, ec := f.Lines.RuneColumn(d.End)
			jd := jsonDiagnostic{Line: l + 1, Column: c + 1, EndLine: el + 1, EndColumn: ec + 1,
				Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
			if d.Severity == parser.SevError && code == 0 {
				code = 1
			}
			if *asJSON {
				jf.Diagnostics = append(jf.Diagnostics, jd)
				continue
			}
			fmt.Fprintf(stdout, "%s:%d:%d: %s: %s [%s]\n", path, jd.Line, jd.Column, jd.Severity, jd.Message, jd.Code)
		}
		files = append(files, jf)
	}
	if *asJSON {
		if files == nil {
			files = []jsonFile{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Files []jsonFile `json:"files"`
		}{files}); err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			return 2
		}
	}
	return code
}

// parseFile reads and parses one file; INCLUDE lines are looked up next to
// the including file.
func parseFile(path string) (*parser.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, fmt.Errorf("%s: %v", path, pe.Err)
		}
		return nil, err
	}
	cfg := &parser.Config{Include: includeFromDisk}
	return parser.Parse(path, src, cfg), nil
}

func includeFromDisk(name, from string) ([]byte, string, bool) {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(from), name)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, "", false
	}
	return b, p, true
}
