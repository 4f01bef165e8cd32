package hints

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unique"

	"github.com/pfls/pfls/parser"
)

// TestSummarize: a file's summary holds its workspace symbols, its
// program units as completion offers them, the modules it defines and
// uses, the places it names global names, and the names its tree holds,
// those of INCLUDE'd files included, but not the words of its comments
// and strings.
func TestSummarize(t *testing.T) {
	src := "module geo\n  use iso_c_binding\n  use Util, only: norm\n  real :: radius\ncontains\n" +
		"  real function area(r)\n    real :: r\n    area = 3.14 * r * r ! AREA of a DISK\n  end function area\nend module geo\n" +
		"program main\n  use geo\n  include 'blk.h'\n  print *, 'HELLO', area(radius)\nend program main\n"
	include := func(name, from string, c *parser.Config) ([]byte, string, error) {
		if name != "blk.h" {
			return nil, "", fmt.Errorf("no %s", name)
		}
		return []byte("  common /blk/ total\n"), "/src/blk.h", nil
	}
	f := parser.Parse("/src/geo.f90", []byte(src), &parser.Config{Include: include})
	s := Summarize(f)
	var syms []string
	for _, sy := range s.Symbols {
		syms = append(syms, sy.Kind+" "+sy.Name+" in "+sy.Container+" at "+src[sy.SelStart:sy.SelEnd])
	}
	want := "module GEO in  at geo; function AREA in GEO at area; program MAIN in  at main"
	if got := strings.Join(syms, "; "); got != want {
		t.Errorf("symbols:\n got %s\nwant %s", got, want)
	}
	var units []string
	for _, u := range s.Units {
		units = append(units, u.Label+" "+u.Kind+" "+u.Detail)
	}
	if got, want := strings.Join(units, "; "), "GEO procedure MODULE GEO; AREA procedure REAL FUNCTION AREA(R)"; got != want {
		t.Errorf("units:\n got %s\nwant %s", got, want)
	}
	if got := strings.Join(s.Modules, " "); got != "GEO" {
		t.Errorf("modules %q", got)
	}
	if got := strings.Join(s.Uses, " "); got != "ISO_C_BINDING UTIL GEO" {
		t.Errorf("uses %q", got)
	}
	var names []string
	for n := range FileNames(f) {
		names = append(names, n)
	}
	sort.Strings(names)
	if got, want := strings.Join(names, " "), "AREA BLK GEO ISO_C_BINDING MAIN NORM R RADIUS TOTAL UTIL"; got != want {
		t.Errorf("names:\n got %s\nwant %s", got, want)
	}
	for _, n := range []string{"TOTAL", "NORM", "BLK", "AREA"} {
		if !s.Mentions([]unique.Handle[string]{unique.Make("X"), unique.Make(n)}) {
			t.Errorf("%s not mentioned", n)
		}
	}
	for _, n := range []string{"DISK", "HELLO", "X"} {
		if s.Mentions([]unique.Handle[string]{unique.Make(n)}) {
			t.Errorf("%s, in a comment or string or nowhere, mentioned", n)
		}
	}
	var globals []string
	for i, o := range s.Globals {
		g := o.Name.Value() + " " + src[s.Spans[2*i]:s.Spans[2*i+1]]
		if o.Header {
			g += " (header)"
		}
		globals = append(globals, g)
	}
	// As References matches them in other files: module and unit names,
	// the function AREA called from MAIN (not its result variable).
	if got, want := strings.Join(globals, "; "), "GEO geo; ISO_C_BINDING iso_c_binding; UTIL Util; NORM norm; GEO geo; AREA area (header); MAIN main; GEO geo; AREA area; MAIN main"; got != want {
		t.Errorf("globals:\n got %s\nwant %s", got, want)
	}
	if !s.Defines(map[string]bool{"AREA": true}) || !s.Defines(map[string]bool{"MAIN": true}) || s.Defines(map[string]bool{"RADIUS": true}) {
		t.Errorf("Defines: AREA and MAIN are units, RADIUS is not")
	}
}

// TestCompleteWith: the units of closed files are offered like those of
// open ones: by prefix, in the prefix's case, once, and not in comments
// or directives.
func TestCompleteWith(t *testing.T) {
	src := "program p\n  call so\n  x = ab\n  ! so\n!$omp parallel so\nend program p\n"
	f := parser.Parse("/src/p.f90", []byte(src), &parser.Config{})
	other := parser.Parse("/src/o.f90", []byte("subroutine solo\nend subroutine solo\n"), &parser.Config{})
	units := []Completion{{Label: "SOLVE", Kind: "procedure", Detail: "SUBROUTINE SOLVE(N)"}, {Label: "SOLO", Kind: "procedure", Detail: "other"},
		{Label: "ABS", Kind: "procedure", Detail: "FUNCTION ABS(X)"}}
	labels := func(marker string) string {
		off := strings.Index(src, marker) + len(marker)
		items, _ := CompleteWith(f, off, []*parser.File{other}, units)
		var out []string
		for _, it := range items {
			if it.Kind != "keyword" {
				out = append(out, it.Label+"="+it.Detail)
			}
		}
		return strings.Join(out, " ")
	}
	// SO is the implicit variable the line itself makes; SOLO is the open
	// file's, not the summary's.
	if got, want := labels("call so"), "so=SO solo=SUBROUTINE SOLO() solve=SUBROUTINE SOLVE(N)"; got != want {
		t.Errorf("call so:\n got %s\nwant %s", got, want)
	}
	if got, want := labels("x = ab"), "ab=REAL AB abs=FUNCTION ABS(X)"; got != want {
		t.Errorf("x = ab: a unit hides the intrinsic of its name:\n got %s\nwant %s", got, want)
	}
	if got := labels("! so"); got != "" {
		t.Errorf("comment: %s", got)
	}
	if got := labels("parallel so"); strings.Contains(got, "SOLVE") || strings.Contains(got, "solve") {
		t.Errorf("directive: %s", got)
	}
}

// TestSignatureCallees: the names before an opening parenthesis in the
// statement up to the offset, continuation lines included, not in
// strings nor after the offset.
func TestSignatureCallees(t *testing.T) {
	src := "program p\n  x = 1\n  call foo(a, 'g(', &\n    bar(b, c), baz(1), qux(2)\nend program p\n"
	f := parser.Parse("/src/p.f90", []byte(src), &parser.Config{})
	off := strings.Index(src, "baz(1") + 4
	if got, want := strings.Join(SignatureCallees(f, off), " "), "FOO BAR BAZ"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
