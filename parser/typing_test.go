package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The typing simulation: every statement of real Fortran files is cut at
// each of its token boundaries (what the editor holds while the statement
// is being typed), and separately each of its tokens is deleted once.
// Every variant is parsed with symbols, with strict panics on, and must
// not panic. By default a sample runs in seconds; PFLS_TYPING=full takes
// every statement of every file, and PFLS_CORPUS adds the Fortran files
// under a folder (at most PFLS_TYPING_FILES of them, default 20 unless
// full). The whole pipeline's version is typing_test.go at the root.

// typingFile is a source file for the simulation.
type typingFile struct {
	name string
	src  []byte
}

func typingFiles(t *testing.T) (files []typingFile, full bool) {
	full = os.Getenv("PFLS_TYPING") == "full"
	var names []string
	for _, g := range []string{"../examples/*.f*", "testdata/*.[fF]*"} {
		m, _ := filepath.Glob(g)
		for _, n := range m {
			if !strings.HasSuffix(n, ".golden") {
				names = append(names, n)
			}
		}
	}
	if root := os.Getenv("PFLS_CORPUS"); root != "" {
		var corpus []string
		filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() && isFortranName(path) {
				corpus = append(corpus, path)
			}
			return nil
		})
		sort.Strings(corpus)
		limit := 20
		if full {
			limit = len(corpus)
		}
		if s := os.Getenv("PFLS_TYPING_FILES"); s != "" {
			if n, err := strconv.Atoi(s); err == nil && n >= 0 {
				limit = n
			}
		}
		if limit < len(corpus) {
			// An even spread over the corpus rather than its first folder.
			picked := make([]string, 0, limit)
			for i := 0; i < limit; i++ {
				picked = append(picked, corpus[i*len(corpus)/limit])
			}
			corpus = picked
		}
		names = append(names, corpus...)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, typingFile{n, b})
	}
	return files, full
}

// variant is one edited text: the kind ("cut" or "delete"), the text and
// the edit that made it from the original.
type variant struct {
	kind string
	src  []byte
	edit Edit
}

// typingVariants calls fn for the variants of the chosen statements of
// src: all of them when full, else every 7th statement.
func typingVariants(name string, src []byte, full bool, fn func(v variant)) {
	stmts := Statements(name, src, nil)
	for i, st := range stmts {
		if !full && i%7 != 3 {
			continue
		}
		// Cut: the statement typed up to a token boundary, the rest of
		// the file in place. The cut keeps the line end.
		end := st.End
		for j, tok := range st.Tokens {
			if j == 0 {
				continue
			}
			cut := tok.Start
			v := make([]byte, 0, len(src))
			v = append(append(v, src[:cut]...), src[end:]...)
			fn(variant{"cut", v, Edit{Start: cut, OldEnd: end, NewEnd: cut}})
		}
		for _, tok := range st.Tokens {
			v := make([]byte, 0, len(src))
			v = append(append(v, src[:tok.Start]...), src[tok.End:]...)
			fn(variant{"delete", v, Edit{Start: tok.Start, OldEnd: tok.End, NewEnd: tok.Start}})
		}
	}
}

// typingStats counts variants and panics per kind.
type typingStats struct {
	tried, panicked map[string]int
	examples        []string
}

func newTypingStats() *typingStats {
	return &typingStats{tried: map[string]int{}, panicked: map[string]int{}}
}

func (s *typingStats) run(name string, v variant, step func()) {
	s.tried[v.kind]++
	defer func() {
		if e := recover(); e != nil {
			s.panicked[v.kind]++
			if len(s.examples) < 20 {
				line := v.src[lineStartOf(v.src, v.edit.Start):]
				if i := strings.IndexByte(string(line), '\n'); i >= 0 {
					line = line[:i]
				}
				stack := string(debug.Stack())
				if i := strings.Index(stack, "panic("); i >= 0 {
					stack = stack[i:]
				}
				if len(stack) > 1500 {
					stack = stack[:1500]
				}
				s.examples = append(s.examples, fmt.Sprintf("%s (%s at %d) line %q: %v\n%s", name, v.kind, v.edit.Start, line, e, stack))
			}
		}
	}()
	step()
}

func (s *typingStats) report(t *testing.T) {
	t.Helper()
	var kinds []string
	for k := range s.tried {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	total := 0
	for _, k := range kinds {
		t.Logf("%-7s variants %8d, panics %d", k, s.tried[k], s.panicked[k])
		total += s.panicked[k]
	}
	for _, e := range s.examples {
		t.Errorf("panic: %s", e)
	}
	if total > len(s.examples) {
		t.Errorf("%d panics in all", total)
	}
}

func lineStartOf(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// TestTyping runs the typing simulation through the parser and symbol
// resolution (an incremental reparse of the original tree, which equals a
// fresh parse, as FuzzReparse checks).
func TestTyping(t *testing.T) {
	if !strictPanics {
		t.Fatal("strict panics are off: recovered panics would go unseen")
	}
	files, full := typingFiles(t)
	stats := newTypingStats()
	for _, tf := range files {
		orig := Parse(tf.name, tf.src, nil)
		typingVariants(tf.name, tf.src, full, func(v variant) {
			stats.run(tf.name, v, func() { orig.Reparse(v.src, v.edit) })
		})
	}
	stats.report(t)
}
