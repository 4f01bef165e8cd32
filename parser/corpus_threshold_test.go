package parser

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// TestCorpusThresholds parses every Fortran file under $PFLS_CORPUS and
// fails when parsing regresses against figures measured on that corpus:
// any panic, more files with a syntax error than
// $PFLS_CORPUS_MAX_ERROR_FILES, more statements that could not be parsed
// than $PFLS_CORPUS_MAX_BAD_STMTS, or fewer statements or program units
// than $PFLS_CORPUS_MIN_STMTS and $PFLS_CORPUS_MIN_UNITS (a parser that
// swallows lines into one statement, or units into one, parses fewer).
// A threshold left unset is not checked; .ci/run sets them for the LAPACK
// source package it fetches. Skipped without $PFLS_CORPUS.
func TestCorpusThresholds(t *testing.T) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		t.Skip("PFLS_CORPUS is not set")
	}
	var files []string
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && isFortranName(path) {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no Fortran files under %s", root)
	}
	saved := strictPanics
	strictPanics = false
	defer func() { strictPanics = saved }()
	var c corpusCounts
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		f, panicked := parseRecovering(path, src)
		if panicked != "" {
			c.panics++
			t.Errorf("%s: panic: %s", path, panicked)
			continue
		}
		c.add(f)
	}
	t.Logf("files %d, units %d, statements %d, unparsed statements %d, files with syntax errors %d, syntax errors %d, panics %d",
		len(files), c.units, c.stmts, c.bad, c.errorFiles, c.syntaxErrors, c.panics)
	check := func(name string, got int, atMost bool) {
		v := os.Getenv(name)
		if v == "" {
			return
		}
		limit, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("%s=%q: %v", name, v, err)
		}
		if atMost && got > limit {
			t.Errorf("%d, above %s=%d: parsing regressed", got, name, limit)
		}
		if !atMost && got < limit {
			t.Errorf("%d, below %s=%d: parsing regressed", got, name, limit)
		}
	}
	check("PFLS_CORPUS_MAX_ERROR_FILES", c.errorFiles, true)
	check("PFLS_CORPUS_MAX_BAD_STMTS", c.bad, true)
	check("PFLS_CORPUS_MIN_STMTS", c.stmts, false)
	check("PFLS_CORPUS_MIN_UNITS", c.units, false)
}

// corpusCounts are the figures of a corpus that parsing regressions move.
type corpusCounts struct {
	units, stmts, bad        int
	errorFiles, syntaxErrors int
	panics                   int
}

// add counts f's units (contained ones too), statements, unparsed
// statements and syntax errors.
func (c *corpusCounts) add(f *File) {
	syntax := 0
	for _, e := range f.Errors() {
		if e.Code == "syntax" {
			syntax++
		}
	}
	c.syntaxErrors += syntax
	if syntax > 0 {
		c.errorFiles++
	}
	var unit func(u *Unit)
	unit = func(u *Unit) {
		c.units++
		for _, s := range u.Body {
			Inspect(s, func(n Node) bool {
				switch n.(type) {
				case *BadStmt:
					c.bad++
					c.stmts++
				case Stmt:
					c.stmts++
				}
				return true
			})
		}
		for _, v := range u.Contains {
			unit(v)
		}
	}
	for _, u := range f.Units {
		unit(u)
	}
}
