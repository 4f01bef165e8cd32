package pfls_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
)

// TestTypingPipeline is the typing simulation of the whole pipeline: every
// chosen statement of real Fortran files is cut at each of its token
// boundaries (the text while it is being typed) and, separately, has each
// of its tokens deleted once; every variant goes through the parser (an
// incremental reparse, as in the server), the complexity engine (one per
// file, so its cache is exercised as in the server), and the hint
// producers: diagnostics, inlay hints and capability diagnostics. Strict
// panics are on, so a bug the parser would turn into an internal-error
// diagnostic is seen here. No stage may panic.
//
// By default every 11th statement of the repository's examples and parser
// test data runs (seconds). PFLS_TYPING=full takes every statement;
// PFLS_CORPUS adds the Fortran files under a folder (at most
// PFLS_TYPING_FILES of them, spread over the corpus; default 10 unless
// full). parser/typing_test.go runs the parser alone, which is cheaper.
func TestTypingPipeline(t *testing.T) {
	defer parser.SetStrictPanics(parser.SetStrictPanics(true))
	full := os.Getenv("PFLS_TYPING") == "full"
	names := typingNames(t, full)
	type key struct{ kind, stage string }
	tried := map[string]int{}
	panics := map[key]int{}
	var examples []string
	opts := hints.EstimateSettings{}.Options(nil)
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		orig := parser.Parse(name, src, nil)
		eng := complexity.NewEngine(complexity.Options{})
		for i, st := range parser.Statements(name, src, nil) {
			if !full && i%11 != 5 {
				continue
			}
			var edits []parser.Edit
			for j, tok := range st.Tokens {
				if j > 0 {
					edits = append(edits, parser.Edit{Start: tok.Start, OldEnd: st.End, NewEnd: tok.Start})
				}
			}
			cuts := len(edits)
			for _, tok := range st.Tokens {
				edits = append(edits, parser.Edit{Start: tok.Start, OldEnd: tok.End, NewEnd: tok.Start})
			}
			for k, e := range edits {
				kind := "cut"
				if k >= cuts {
					kind = "delete"
				}
				tried[kind]++
				v := append(append(make([]byte, 0, len(src)), src[:e.Start]...), src[e.OldEnd:]...)
				var f *parser.File
				stage := func(what string, fn func()) {
					defer func() {
						if r := recover(); r != nil {
							panics[key{kind, what}]++
							if len(examples) < 25 {
								examples = append(examples, fmt.Sprintf("%s: %s (%s at %d) %q: %v\n%s", what, name, kind, e.Start, lineAround(v, e.Start), r, panicStack()))
							}
						}
					}()
					fn()
				}
				stage("parser", func() { f = orig.Reparse(v, e) })
				if f == nil {
					continue
				}
				stage("complexity", func() { eng.File(f) })
				stage("hints.Diagnostics", func() { hints.Diagnostics(f) })
				stage("hints.InlayHints", func() { hints.InlayHints(f, eng, 0, len(v), hints.DefaultInlayOptions()) })
				stage("hints.CapabilityDiagnostics", func() { hints.CapabilityDiagnostics(f, opts, nil) })
			}
		}
	}
	for _, kind := range []string{"cut", "delete"} {
		t.Logf("%-6s variants %8d", kind, tried[kind])
	}
	var keys []key
	for k := range panics {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	for _, k := range keys {
		t.Errorf("%-6s %-28s panics %d", k.kind, k.stage, panics[k])
	}
	for _, e := range examples {
		t.Errorf("panic in %s", e)
	}
}

// TestHalfTypedPipeline runs statements cut short (each once crashed the
// parser or an analysis after it: bare CALL and ENTRY in symbol
// resolution, bare FORALL in the complexity model) through the whole
// pipeline, in both source forms.
func TestHalfTypedPipeline(t *testing.T) {
	defer parser.SetStrictPanics(parser.SetStrictPanics(true))
	opts := hints.EstimateSettings{}.Options(nil)
	for _, stmt := range []string{"CALL", "CALL (X)", "ENTRY", "FORALL", "FORALL (", "FORALL (I=1:N)", "DO I =", "DO 10 I = 1,",
		"IF (X) ", "SELECT CASE (", "WHERE (", "X =", "ASSIGN 10 TO", "PARAMETER (K = K + 1)"} {
		for _, name := range []string{"t.f", "t.f90"} {
			src := "      SUBROUTINE S(X, N)\n      REAL X(N)\n      DO 10 I = 1, N\n      " + stmt + "\n   10 CONTINUE\n      END\n"
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s %q: panic: %v\n%s", name, stmt, r, panicStack())
					}
				}()
				f := parser.Parse(name, []byte(src), nil)
				eng := complexity.NewEngine(complexity.Options{})
				eng.File(f)
				hints.Diagnostics(f)
				hints.InlayHints(f, eng, 0, len(src), hints.DefaultInlayOptions())
				hints.CapabilityDiagnostics(f, opts, nil)
			}()
		}
	}
}

// typingNames lists the files of the simulation.
func typingNames(t *testing.T, full bool) []string {
	var names []string
	for _, g := range []string{"examples/*.f*", "parser/testdata/*.[fF]*"} {
		m, _ := filepath.Glob(g)
		for _, n := range m {
			if !strings.HasSuffix(n, ".golden") {
				names = append(names, n)
			}
		}
	}
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		return names
	}
	var corpus []string
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() && fortranName(path) {
			corpus = append(corpus, path)
		}
		return nil
	})
	sort.Strings(corpus)
	limit := 10
	if full {
		limit = len(corpus)
	}
	if s := os.Getenv("PFLS_TYPING_FILES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			t.Fatalf("PFLS_TYPING_FILES=%q is not a count", s)
		}
		limit = n
	}
	for i := 0; i < limit && i < len(corpus); i++ {
		names = append(names, corpus[i*len(corpus)/min(limit, len(corpus))])
	}
	return names
}

func fortranName(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".f", ".for", ".f77", ".ftn", ".f90", ".f95", ".f03", ".f08", ".hpf", ".fcm":
		return true
	}
	return false
}

func lineAround(src []byte, off int) string {
	s := off
	for s > 0 && src[s-1] != '\n' {
		s--
	}
	e := off
	for e < len(src) && src[e] != '\n' {
		e++
	}
	return string(src[s:e])
}

// panicStack returns the stack from the panic on, cut short.
func panicStack() string {
	st := string(debug.Stack())
	if i := strings.Index(st, "panic("); i >= 0 {
		st = st[i:]
	}
	lines := strings.Split(st, "\n")
	if len(lines) > 16 {
		lines = lines[:16]
	}
	return strings.Join(lines, "\n")
}
