package hints

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// A rename fixture is a group of Fortran files in testdata/rename that
// share the part of their name before the first dot (usemod.f90 and
// usemod.main.f90 are one workspace). A comment
//
//	!@rename("TEXT", NEW)      or      !@rename("TEXT"#K, NEW)
//
// renames the name at the K-th (default first) occurrence of TEXT in its
// file, marker lines left out, to NEW; the cursor is at the start of TEXT,
// or where a "|" in TEXT stands. The group's golden file
// (GROUP.golden) holds, per marker, the changed lines or the error.
var renameMarker = regexp.MustCompile(`!@rename\("([^"]*)"(?:#(\d+))?,\s*([^)\s]*)\)`)

// fixtureConfig reads INCLUDE'd files from testdata/rename.
var fixtureConfig = &parser.Config{Include: func(name, from string, _ *parser.Config) ([]byte, string, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "rename", filepath.Base(name)))
	return b, name, err
}}

type renameCase struct {
	file    *parser.File
	text    string
	nth     int
	newName string
	off     int
}

type renameGroup struct {
	name  string
	files []*parser.File
	cases []renameCase
}

func loadRenameGroups(t *testing.T) []renameGroup {
	t.Helper()
	paths, err := filepath.Glob("testdata/rename/*")
	if err != nil {
		t.Fatal(err)
	}
	byGroup := map[string][]string{}
	for _, p := range paths {
		base := filepath.Base(p)
		if strings.HasSuffix(base, ".golden") || strings.HasSuffix(base, ".inc") {
			continue // INCLUDE'd files are read through the Config
		}
		g := base[:strings.Index(base, ".")]
		byGroup[g] = append(byGroup[g], p)
	}
	var out []renameGroup
	for g, ps := range byGroup {
		sort.Strings(ps)
		grp := renameGroup{name: g}
		for _, p := range ps {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f := parser.Parse(filepath.Base(p), src, fixtureConfig)
			grp.files = append(grp.files, f)
			for _, m := range renameMarker.FindAllStringSubmatch(string(src), -1) {
				c := renameCase{file: f, text: m[1], nth: 1, newName: m[3]}
				if m[2] != "" {
					c.nth, _ = strconv.Atoi(m[2])
				}
				bar := strings.Index(c.text, "|")
				c.off = occurrence(string(src), strings.Replace(c.text, "|", "", 1), c.nth)
				if c.off >= 0 && bar > 0 {
					c.off += bar
				}
				if c.off < 0 {
					t.Fatalf("%s: %q#%d not found", p, c.text, c.nth)
				}
				grp.cases = append(grp.cases, c)
			}
		}
		out = append(out, grp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// occurrence returns the offset of the n-th occurrence of text in src
// outside marker lines, or -1.
func occurrence(src, text string, n int) int {
	off := 0
	for _, line := range strings.SplitAfter(src, "\n") {
		if !strings.Contains(line, "!@rename") {
			for i := 0; ; {
				j := strings.Index(line[i:], text)
				if j < 0 {
					break
				}
				n--
				if n == 0 {
					return off + i + j
				}
				i += j + 1
			}
		}
		off += len(line)
	}
	return -1
}

func othersOf(files []*parser.File, f *parser.File) []*parser.File {
	var out []*parser.File
	for _, o := range files {
		if o != f {
			out = append(out, o)
		}
	}
	return out
}

// applyRename applies edits and re-parses the files they touch; the
// result is the workspace in the same order.
func applyRename(files []*parser.File, edits []TextEdit) []*parser.File {
	by := map[*parser.File][]TextEdit{}
	for _, e := range edits {
		by[e.File] = append(by[e.File], e)
	}
	out := make([]*parser.File, len(files))
	for i, f := range files {
		es := by[f]
		if len(es) == 0 {
			out[i] = f
			continue
		}
		out[i] = parser.Parse(f.Name, []byte(applyTo(f.Src, es)), f.Config)
	}
	return out
}

func applyTo(src []byte, es []TextEdit) string {
	sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	var b strings.Builder
	last := 0
	for _, e := range es {
		b.Write(src[last:e.Start])
		b.WriteString(e.Text)
		last = e.End
	}
	b.Write(src[last:])
	return b.String()
}

// describe renders the result of one rename for the golden file: the
// changed lines of every file, or the error.
func describe(files []*parser.File, edits []TextEdit, err error) string {
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var b strings.Builder
	after := applyRename(files, edits)
	for i, f := range files {
		if after[i] == f {
			continue
		}
		old := strings.Split(string(f.Src), "\n")
		nw := strings.Split(string(after[i].Src), "\n")
		for _, k := range newLines(old, nw) {
			fmt.Fprintf(&b, "%s:%d: %s\n", f.Name, k+1, nw[k])
		}
	}
	if b.Len() == 0 {
		return "no change\n"
	}
	return b.String()
}

// newLines returns the indexes of the lines of nw that are not in a
// longest common subsequence of old and nw.
func newLines(old, nw []string) []int {
	n, m := len(old), len(nw)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if old[i] == nw[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []int
	i, j := 0, 0
	for j < m {
		switch {
		case i < n && old[i] == nw[j]:
			i, j = i+1, j+1
		case i < n && lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			out = append(out, j)
			j++
		}
	}
	return out
}

func TestRenameGolden(t *testing.T) {
	groups := loadRenameGroups(t)
	if len(groups) == 0 {
		t.Fatal("no rename fixtures")
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			var b strings.Builder
			for _, c := range g.cases {
				fmt.Fprintf(&b, "== %s: rename %q#%d -> %s\n", c.file.Name, c.text, c.nth, c.newName)
				edits, err := Rename(c.file, c.off, c.newName, othersOf(g.files, c.file))
				b.WriteString(describe(g.files, edits, err))
				if err == nil {
					if msg := sameMeaning(g.files, c.file, c.off, edits, false); msg != "" {
						t.Errorf("%s: rename %q -> %s changed the program: %s", c.file.Name, c.text, c.newName, msg)
					}
				}
			}
			golden := filepath.Join("testdata", "rename", g.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if string(want) != b.String() {
				t.Errorf("%s differs; got:\n%s", golden, b.String())
			}
		})
	}
}

// sameMeaning re-parses the workspace after a rename and checks that it
// means the same: every reference is still there, references that shared
// a binding still share one and no others, every name keeps its type,
// only the renamed binding's references changed their spelling, and no
// new syntax error appeared. It returns "" or what differs. It looks at
// every file, or with touched only at f and the files the edits change.
func sameMeaning(files []*parser.File, f *parser.File, off int, edits []TextEdit, touched bool) string {
	before := newWorkspace(f, othersOf(files, f))
	target := before.refAt(f, off).key
	after := applyRename(files, edits)
	idx := -1
	for i := range files {
		if files[i] == f {
			idx = i
		}
	}
	w2 := newWorkspace(after[idx], othersOf(after, after[idx]))
	newFile := map[*parser.File]*parser.File{}
	for i := range files {
		newFile[files[i]] = after[i]
	}
	if touched {
		for _, e := range edits {
			before.load(e.File)
			w2.load(newFile[e.File])
		}
	} else {
		before.loadAll()
		w2.loadAll()
	}
	// The references of each file, in source order, pair up one to one
	// (a line the rename broke in two moves its references, it does not
	// change their order).
	inOrder := func(w *workspace) map[*parser.File][]*ref {
		m := map[*parser.File][]*ref{}
		for i := range w.refs {
			r := &w.refs[i]
			m[r.file] = append(m[r.file], r)
		}
		for _, rs := range m {
			sort.SliceStable(rs, func(i, j int) bool { return rs[i].start < rs[j].start })
		}
		return m
	}
	oldRefs, newRefs := inOrder(before), inOrder(w2)
	pair := map[*ref]*ref{}
	for f, rs := range oldRefs {
		nrs := newRefs[newFile[f]]
		if len(nrs) != len(rs) {
			return fmt.Sprintf("%s: %d references before, %d after", f.Name, len(rs), len(nrs))
		}
		for i, r := range rs {
			if nrs[i].role != r.role {
				return fmt.Sprintf("%s at %s:%d is gone", r.name, f.Name, f.Lines.Line(r.start)+1)
			}
			pair[r] = nrs[i]
		}
	}
	fwd, back := map[bindKey]bindKey{}, map[bindKey]bindKey{}
	for i := range before.refs {
		r := &before.refs[i]
		nr := pair[r]
		renamed := r.key == target
		if renamed == (nr.name == r.name) && !(renamed && strings.EqualFold(nr.name, r.name)) {
			return fmt.Sprintf("%s at %s:%d became %s", r.name, r.file.Name, r.file.Lines.Line(r.start)+1, nr.name)
		}
		if k, ok := fwd[r.key]; ok && k != nr.key {
			return fmt.Sprintf("%s at %s:%d now means something else than the other references to it", r.name, r.file.Name, r.file.Lines.Line(r.start)+1)
		}
		if k, ok := back[nr.key]; ok && k != r.key {
			return fmt.Sprintf("%s at %s:%d now means the same as another name", r.name, r.file.Name, r.file.Lines.Line(r.start)+1)
		}
		fwd[r.key], back[nr.key] = nr.key, r.key
		if r.role == roleKeyword && namesDummy(before, r) != namesDummy(w2, nr) {
			return fmt.Sprintf("keyword %s= at %s:%d no longer names a dummy argument of %s", r.name, r.file.Name, r.file.Lines.Line(r.start)+1, r.info)
		}
		if r.role == rolePlain {
			t1 := typeOf(before.resolve(r.file, r.unit, r.name, 0))
			t2 := typeOf(w2.resolve(nr.file, nr.unit, nr.name, 0))
			if t1 != t2 {
				return fmt.Sprintf("%s at %s:%d changed type from %q to %q", r.name, r.file.Name, r.file.Lines.Line(r.start)+1, t1, t2)
			}
		}
	}
	for i := range files {
		if !before.loaded[files[i]] {
			continue
		}
		if e1, e2 := countErrors(files[i]), countErrors(after[i]); e2 > e1 {
			return fmt.Sprintf("%s: %d errors before, %d after", files[i].Name, e1, e2)
		}
	}
	return ""
}

// namesDummy reports whether the keyword of an actual argument names a
// dummy argument of the procedure called.
func namesDummy(w *workspace, r *ref) bool {
	for _, ua := range w.procs[r.info] {
		if sym := ua.u.Scope.Syms[r.name]; sym != nil && sym.Dummy {
			return true
		}
	}
	return false
}

func typeOf(r resolution) string {
	if r.sym == nil || r.viaUse {
		return ""
	}
	return r.sym.Type
}

func countErrors(f *parser.File) int {
	n := 0
	for _, u := range f.Units {
		n += len(u.Errors)
	}
	return n
}

// TestRenameMeaning is the property test: every name of every fixture is
// renamed to a fresh name of the same first letter, a fresh name of
// another letter, and each name the workspace already uses; every rename
// that is accepted must keep the meaning of the program (sameMeaning).
func TestRenameMeaning(t *testing.T) {
	accepted, refused := 0, 0
	for _, g := range loadRenameGroups(t) {
		names := map[string]bool{}
		for _, f := range g.files {
			w := newWorkspace(f, nil)
			for _, r := range w.refs {
				if !strings.HasPrefix(r.name, "/") {
					names[r.name] = true
				}
			}
		}
		var candidates []string
		for n := range names {
			candidates = append(candidates, n)
		}
		sort.Strings(candidates)
		for _, f := range g.files {
			w := newWorkspace(f, othersOf(g.files, f))
			done := map[bindKey]bool{}
			for _, r := range w.refs {
				if r.file != f || done[r.key] && r.role != roleKeyword && r.role != roleUseLocal {
					continue
				}
				done[r.key] = true
				first := strings.Trim(r.name, "/")[:1]
				other := "Q"
				if first == "Q" {
					other = "Z"
				}
				for _, nn := range append([]string{first + "ZQ9", other + "ZQ9"}, candidates...) {
					edits, err := Rename(f, r.start, nn, othersOf(g.files, f))
					if err != nil {
						refused++
						continue
					}
					accepted++
					if msg := sameMeaning(g.files, f, r.start, edits, false); msg != "" {
						t.Errorf("%s:%d: rename %s -> %s changed the program: %s", f.Name, f.Lines.Line(r.start)+1, r.name, nn, msg)
					}
				}
			}
		}
	}
	t.Logf("%d renames accepted and checked, %d refused", accepted, refused)
	if accepted == 0 {
		t.Fatal("no rename accepted")
	}
}
