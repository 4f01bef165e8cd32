package capability

import (
	"container/list"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// TestUnitFindingsCache: after an edit of one unit that moves the units
// after it by a few bytes (not by lines), their findings come from the
// cache, moved to their new place, fixes included, and are exactly those
// a fresh analysis of the edited file gives. An edit that moves them by
// a line analyses them again (messages name lines). A unit that calls
// another is analysed again when that one changes.
func TestUnitFindingsCache(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	reset := func() {
		unitFindings = &findingsCache{byKey: map[[32]byte]*list.Element{}, lru: list.New()}
	}
	m := machine.DefaultMachine() // one model: the cache knows models by identity
	run := func(name, src string) []Finding {
		return Capabilities(parser.Parse(name, []byte(src), nil), nil, partition.Options{Procs: 16, Machine: m})
	}
	fd := read("tridvpk.f") + strings.Replace(read("redblack.f"), "PROGRAM REDBLK", "SUBROUTINE REDBLK", 1) + read("dgefa.f")
	cmf := "      SUBROUTINE FIRST(X)\n      REAL X(10)\n      X = 1.0\n      END\n" + read("example.fcm")
	for _, c := range []struct {
		name, src, from, to string
		hits                int
	}{
		{"three.f", fd, "C     forward substitution", "C     the forward substitution", 2},
		{"two.fcm", cmf, "X = 1.0", "X = 1.000", 1},
		{"three.f", fd, "C     forward substitution", "C     forward\nC     substitution", 0},
	} {
		reset()
		before := run(c.name, c.src)
		edited := strings.Replace(c.src, c.from, c.to, 1)
		warm := run(c.name, edited)
		hits := unitFindings.hits
		reset()
		fresh := run(c.name, edited)
		if len(before) == 0 || !reflect.DeepEqual(warm, fresh) {
			t.Errorf("%s, %q -> %q: from the cache\n%+v\nfresh\n%+v", c.name, c.from, c.to, warm, fresh)
		}
		if hits != c.hits {
			t.Errorf("%s, %q -> %q: %d units from the cache, want %d", c.name, c.from, c.to, hits, c.hits)
		}
		fixes := 0
		for _, x := range fresh {
			if x.Fix != nil {
				fixes++
			}
		}
		if strings.HasSuffix(c.name, ".fcm") && fixes == 0 {
			t.Errorf("%s: no finding with a fix to move", c.name)
		}
	}

	// CALLER calls WORK: editing WORK analyses CALLER again.
	prog := func(body string) string {
		return "      SUBROUTINE CALLER\n      REAL V(100)\n      DECOMPOSITION D(100)\n      ALIGN V WITH D\n      DISTRIBUTE D(BLOCK)\n      DO 10 I = 1, 100\n         CALL WORK(V)\n   10 CONTINUE\n      END\n" +
			"      SUBROUTINE WORK(V)\n      REAL V(100)\n" + body + "      END\n"
	}
	reset()
	run("calls.f", prog("      V(1) = 0.0\n"))
	run("calls.f", prog("      V(1) = 0.5\n"))
	if unitFindings.hits != 0 {
		t.Errorf("after an edit of the callee: %d units from the cache, want 0 (CALLER depends on WORK)", unitFindings.hits)
	}
}

// TestFilesDigest: the program's other files are told apart by their
// names and texts, not by their trees' addresses: the same text parsed
// twice gives one digest, another text or name another.
func TestFilesDigest(t *testing.T) {
	a := parser.Parse("m.f90", []byte("module m\nend module\n"), nil)
	b := parser.Parse("m.f90", []byte("module m\nend module\n"), nil)
	c := parser.Parse("m.f90", []byte("module m\n  integer :: k\nend module\n"), nil)
	d := parser.Parse("n.f90", []byte("module m\nend module\n"), nil)
	if FilesDigest([]*parser.File{a}) != FilesDigest([]*parser.File{b}) {
		t.Error("one text parsed twice: two digests")
	}
	if FilesDigest([]*parser.File{a}) == FilesDigest([]*parser.File{c}) || FilesDigest([]*parser.File{a}) == FilesDigest([]*parser.File{d}) {
		t.Error("another text or name: the same digest")
	}
	if FilesDigest([]*parser.File{a, d}) == FilesDigest([]*parser.File{d, a}) {
		t.Error("the order of the files does not count")
	}
}
