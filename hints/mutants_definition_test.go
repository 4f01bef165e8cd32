package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestInnermostEdges: a contained procedure holds the offsets from the
// first letter of its header to the end of its END statement, both
// included; just after its END the module holds the offset.
func TestInnermostEdges(t *testing.T) {
	src := "module m\ncontains\n  subroutine s\n  end subroutine s\nend module m\n"
	f := parser.Parse("m.f90", []byte(src), nil)
	start := strings.Index(src, "subroutine s")
	end := strings.Index(src, "end subroutine s") + len("end subroutine s")
	for _, c := range []struct {
		off  int
		want string
	}{{start - 1, "M"}, {start, "S"}, {end, "S"}, {end + 1, "M"}} {
		if u := innermost(f, c.off); u == nil || u.Name != c.want {
			t.Errorf("innermost at %d: %v, want %s", c.off, u, c.want)
		}
	}
}

// TestNameAtParameterValue: a name in the value of a PARAMETER
// definition is a reference.
func TestNameAtParameterValue(t *testing.T) {
	src := "program p\n  integer, parameter :: n = 10\n  integer m\n  parameter (m = n*2)\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	at := strings.Index(src, "n*2")
	if r := NameAt(f, at); r == nil || r.Name != "N" || r.Start != at || r.Sym == nil {
		t.Errorf("NameAt(n*2) = %+v", r)
	}
}

// TestDefinitionHostFirst: a call resolves to the procedure its host
// contains before one of the same name elsewhere in the file.
func TestDefinitionHostFirst(t *testing.T) {
	src := "module a\ncontains\n  subroutine s\n  end subroutine s\nend module a\nmodule b\ncontains\n  subroutine s\n  end subroutine s\n  subroutine t\n    call s\n  end subroutine t\nend module b\n"
	f := parser.Parse("m.f90", []byte(src), nil)
	want := strings.Index(src, "module b")
	want += strings.Index(src[want:], "subroutine s") + len("subroutine ")
	locs := Definition(f, strings.Index(src, "call s")+len("call "), nil)
	if len(locs) != 1 || locs[0].Start != want {
		t.Errorf("definition of s %+v, want the one of module b at %d", locs, want)
	}
}

// TestDefinitionEdges: declarations at the first and at the last byte of
// the file (an implicitly declared main-program variable is declared
// where it first appears); a procedure named in EXTERNAL is defined by
// its header, not by the EXTERNAL; a main program by its name; a
// variable by its declaration, though a subroutine has its name; an entity
// 16 USE statements away (the limit of the search) by its declaration.
func TestDefinitionEdges(t *testing.T) {
	type span struct{ start, end int }
	for _, c := range []struct {
		src, at string
		want    span
	}{
		{"x = 1\ny = x\nend\n", "x\nend", span{0, 1}},
		{"y = x", "x", span{4, 5}},
		{"program p\n  external s\n  call s\nend program p\nsubroutine s\nend subroutine s\n", "s\nend program", span{57, 58}},
		{"program p\n  call p\nend program p\n", "p\nend", span{8, 9}},
		{"program p\n  real :: q\n  q = 1\nend program p\nsubroutine q\nend subroutine q\n", "q = 1", span{20, 21}},
	} {
		f := parser.Parse("d.f90", []byte(c.src), nil)
		locs := Definition(f, strings.Index(c.src, c.at), nil)
		if len(locs) != 1 || locs[0].File != f || locs[0].Start != c.want.start || locs[0].End != c.want.end {
			t.Errorf("%q at %q: %+v, want %v", c.src, c.at, locs, c.want)
		}
	}
	var b strings.Builder
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&b, "module m%d\n", i)
		if i < 16 {
			fmt.Fprintf(&b, "  use m%d\n", i+1)
		} else {
			b.WriteString("  real :: deep\n")
		}
		fmt.Fprintf(&b, "end module m%d\n", i)
	}
	b.WriteString("program p\n  use m1\n  deep = 1\nend program p\n")
	src := b.String()
	f := parser.Parse("chain.f90", []byte(src), nil)
	want := strings.Index(src, "deep")
	if locs := Definition(f, strings.LastIndex(src, "deep"), nil); len(locs) != 1 || locs[0].Start != want {
		t.Errorf("16 modules away: %+v, want the declaration at %d", locs, want)
	}
}

// TestReferencesVariableNamedLikeIntrinsic: a variable called SUM is
// referenced like any other; without the declaration, its two uses.
func TestReferencesVariableNamedLikeIntrinsic(t *testing.T) {
	src := "program p\n  real :: sum\n  sum = 1\n  print *, sum\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	at := strings.LastIndex(src, "sum")
	decl, use := strings.Index(src, "sum"), strings.Index(src, "sum =")
	for _, c := range []struct {
		includeDecl bool
		want        []int
	}{{true, []int{decl, use, at}}, {false, []int{use, at}}} {
		var got []int
		for _, l := range References(f, at, c.includeDecl, nil) {
			got = append(got, l.Start)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("includeDecl %v: %v, want %v", c.includeDecl, got, c.want)
		}
	}
}

// TestDefinitionUseCycle: modules that use each other (an error the
// compiler reports) do not send the search round for ever: a name none
// of them declares is the program's own, implicitly declared.
func TestDefinitionUseCycle(t *testing.T) {
	src := "module m\n  use n\nend module m\nmodule n\n  use m\nend module n\nprogram p\n  use m\n  x = 1\nend program p\n"
	f := parser.Parse("c.f90", []byte(src), nil)
	at := strings.Index(src, "x = 1")
	if locs := Definition(f, at, nil); len(locs) != 1 || locs[0].Start != at {
		t.Errorf("definition of x: %+v, want its first appearance at %d", locs, at)
	}
}
