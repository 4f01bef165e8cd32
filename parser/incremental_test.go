package parser

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pfls/pfls/internal/gen"
)

func dumpString(f *File) string {
	var b bytes.Buffer
	Dump(&b, f)
	return b.String()
}

// applyEdit replaces [start, end) of src by text.
func applyEdit(src []byte, start, end int, text string) ([]byte, Edit) {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	out = append(out, src[end:]...)
	return out, Edit{Start: start, OldEnd: end, NewEnd: start + len(text)}
}

// checkReparse applies one edit incrementally and from scratch and
// requires identical trees and line tables; it returns the new file.
func checkReparse(t *testing.T, name string, f *File, start, end int, text string) *File {
	t.Helper()
	src, e := applyEdit(f.Src, start, end, text)
	inc := f.Reparse(src, e)
	fresh := Parse(name, src, f.Config)
	if got, want := dumpString(inc), dumpString(fresh); got != want {
		t.Fatalf("edit %+v %q: incremental tree differs from a fresh parse\n%s", e, text, firstDiff(got, want))
	}
	if !reflect.DeepEqual(inc.Lines.lines, fresh.Lines.lines) {
		t.Fatalf("edit %+v %q: line table differs", e, text)
	}
	return inc
}

const fixedProgram = `C     a program of three units
      SUBROUTINE A(N)
      INTEGER N
      DO 10 I = 1, N
         X = X + 1
   10 CONTINUE
      END
C     comment between units
      SUBROUTINE B(M)
      REAL Y(M)
      Y(1) = 2
      END

      FUNCTION C(K)
      C = K
     &  + 1
      END
`

func TestReparseEdits(t *testing.T) {
	at := func(s string) int {
		i := strings.Index(fixedProgram, s)
		if i < 0 {
			t.Fatalf("%q not in program", s)
		}
		return i
	}
	cases := []struct {
		name       string
		start, end int
		text       string
	}{
		{"inside a routine", at("X + 1") + 4, at("X + 1") + 5, "2"},
		{"insert a statement", at("   10 CONTINUE"), at("   10 CONTINUE"), "      X = 3\n"},
		{"split a unit", at("      Y(1) = 2"), at("      Y(1) = 2"), "      END\n      SUBROUTINE B2\n"},
		{"join two units", at("      END\nC     comment"), at("C     comment"), ""},
		{"remove a continuation line", at("     &  + 1\n"), at("     &  + 1\n") + len("     &  + 1\n"), ""},
		{"add a continuation line", at("      END\n\n      FUNCTION"), at("      END\n\n      FUNCTION"), "     &  + 2\n"},
		{"continue an END", at("C     comment between"), at("C     comment between"), "     &X\n"},
		{"break a label", at("   10 CONTINUE") + 3, at("   10 CONTINUE") + 4, "2"},
		{"DO to assignment", at("1, N"), at("1, N") + 2, "1."},
		{"delete everything", 0, len(fixedProgram), ""},
		{"edit at the very end", len(fixedProgram), len(fixedProgram), "      END\n"},
		{"edit at the start", 0, 0, "      PROGRAM P\n      END\n"},
		{"make a unit header a comment", at("      SUBROUTINE B"), at("      SUBROUTINE B") + 1, "C"},
		{"turn a comment into code", at("C     comment between"), at("C     comment between") + 1, " "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("t.f", []byte(fixedProgram), nil)
			checkReparse(t, "t.f", f, c.start, c.end, c.text)
		})
	}
}

func TestReparseFree(t *testing.T) {
	src := "module m\ncontains\n  subroutine s(x)\n    real :: x\n    x = x + &\n      1\n  end subroutine\nend module\nprogram p\n  use m\n  call s(1.0); call s(2.0)\nend program\n"
	f := Parse("t.f90", []byte(src), nil)
	i := strings.Index(src, "x + &")
	f = checkReparse(t, "t.f90", f, i+4, i+5, "")  // remove the "&": the statement ends early
	f = checkReparse(t, "t.f90", f, i+4, i+4, "&") // and put it back
	j := strings.Index(string(f.Src), "; call")
	checkReparse(t, "t.f90", f, j, j+1, "\n")
}

// TestReparseReuses checks that an edit inside one routine of a large file
// reparses only that routine: every other unit is shared with the old tree.
func TestReparseReuses(t *testing.T) {
	src := gen.Fixed(200)
	f := Parse("big.f", src, nil)
	if len(f.Units) != 200 {
		t.Fatalf("got %d units, want 200", len(f.Units))
	}
	mid := f.Units[100]
	off := mid.Base + mid.Len/2
	// Find a digit to change inside the unit.
	for src[off] < '0' || src[off] > '9' {
		off++
	}
	nsrc, e := applyEdit(src, off, off+1, "7")
	g := f.Reparse(nsrc, e)
	same := 0
	for i := range g.Units {
		if len(g.Units[i].Body) > 0 && len(f.Units[i].Body) > 0 && g.Units[i].Body[0] == f.Units[i].Body[0] {
			same++
		}
	}
	if same < 198 {
		t.Errorf("reused %d of 200 units, want at least 198", same)
	}
	if got, want := dumpString(g), dumpString(Parse("big.f", nsrc, nil)); got != want {
		t.Fatalf("reparse differs from a fresh parse: %s", firstDiff(got, want))
	}
}

func TestGeneratedFilesParseClean(t *testing.T) {
	for name, src := range map[string][]byte{"gen.f": gen.Fixed(20), "gen.f90": gen.Free(20)} {
		f := Parse(name, src, nil)
		for _, e := range f.Errors() {
			l, c := f.Lines.RuneColumn(int(e.Pos))
			t.Errorf("%s:%d:%d: %s", name, l+1, c+1, e.Msg)
		}
	}
}

// FuzzReparse applies a random edit to a seed program and requires the
// incremental reparse to equal a parse from scratch.
func FuzzReparse(f *testing.F) {
	seeds := [][]byte{[]byte(fixedProgram)}
	for _, name := range []string{"../examples/redblack.f", "../examples/dgefa.f", "testdata/free_basics.f90", "testdata/directives.f",
		"../examples/tridvpk.f", "../examples/example.fcm", "testdata/fixed_edge.f", "testdata/preprocessor.F"} {
		if b, err := os.ReadFile(name); err == nil {
			seeds = append(seeds, b)
		}
	}
	texts := []string{"", "\n", "      END\n", "     &", "C", "!", "&", ";", "'", "10 ", "DO 10 I=1,2\n", "#ifdef X\n", "#endif\n", "SUBROUTINE Q\n", "  end\n"}
	// Half-typed statements, as the editor holds them while typing.
	texts = append(texts, halfTyped...)
	for i := range seeds {
		for j, txt := range texts {
			f.Add(i, uint16(j*37+i*11), uint8(j%5), txt, i%2 == 0)
		}
	}
	f.Fuzz(func(t *testing.T, seed int, at uint16, del uint8, text string, free bool) {
		if seed < 0 {
			seed = -seed
		}
		src := seeds[seed%len(seeds)]
		name := "t.f"
		if free {
			name = "t.f90"
		}
		file := Parse(name, src, nil)
		start := int(at) % (len(src) + 1)
		end := min(start+int(del)%8, len(src))
		checkReparse(t, name, file, start, end, text)
	})
}

// halfTyped are statements cut short while being typed: each once
// crashed the parser or an analysis after it, or could.
var halfTyped = []string{"CALL", "CALL F(", "ENTRY", "ENTRY E(", "ASSIGN 10", "X =", "DO 10 I =", "DO I = 1,", "IF (X",
	"IF (X) ", "ELSE IF (", "SELECT CASE (", "FORALL", "FORALL (I=1:", "WHERE (", "GO TO (", "PARAMETER (K=",
	"!HPF$ ALIGN", "!HPF$ DISTRIBUTE", "!HPF$ ALIGN A(I) WITH", "CHPF$ DISTRIBUTE T(BLOCK) ONTO", "ALIGN X(I) WITH",
	"DECOMPOSITION", "DISTRIBUTE D(", "CMF$ LAYOUT A(", "INCLUDE", "INCLUDE '", "#include", "#include \"", "COMMON /"}

// FuzzParse parses arbitrary text in both forms: no panic, no hang, and
// every error and top-level unit inside the text.
func FuzzParse(f *testing.F) {
	f.Add([]byte(fixedProgram))
	f.Add([]byte("      X = 'A\n     &B'\n"))
	f.Add([]byte("x = 1; y = 2 &\n & + 3 ! c\n"))
	f.Add([]byte("#if 1\n#else\nbad\n#endif\n"))
	for _, name := range []string{"../examples/redblack.f", "../examples/dgefa.f", "../examples/tridvpk.f", "../examples/sub2.f",
		"../examples/example.fcm", "testdata/free_basics.f90", "testdata/directives.f", "testdata/fixed_edge.f"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, h := range halfTyped {
		f.Add([]byte("      SUBROUTINE S(X)\n      " + h + "\n      END\n"))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, name := range []string{"t.f", "t.f90"} {
			file := Parse(name, src, nil)
			end := 0
			for _, u := range file.Units {
				if u.Base != end {
					t.Fatalf("%s: unit at %d, want %d (units must partition the file)", name, u.Base, end)
				}
				end = u.Base + u.Len
			}
			if end != len(src) && len(file.Units) > 0 {
				t.Fatalf("%s: units end at %d of %d", name, end, len(src))
			}
			for _, e := range file.Errors() {
				if e.Pos < 0 || int(e.End) > len(src) || e.End < e.Pos {
					t.Fatalf("%s: error %q at %d-%d outside the text of %d bytes", name, e.Msg, e.Pos, e.End, len(src))
				}
			}
		}
	})
}
