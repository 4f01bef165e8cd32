package hints

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestSignatureHelpCallText: the call around the cursor is found in the
// statement's text however it is written: a blank before the
// parenthesis, the name at the start of the statement, a closing
// parenthesis or a comma outside any call before it, a keyword as the
// first argument; an array element is no call, nor a name EXTERNAL
// takes from the intrinsics. "@" marks the cursor.
func TestSignatureHelpCallText(t *testing.T) {
	const sum = "SUM(ARRAY, DIM, [MASK])"
	for _, c := range []struct {
		src    string
		label  string // "" when there is no signature
		active int
	}{
		{"program p\n  x = sum (a, @\nend program p\n", sum, 1},
		{"sum(a, @", sum, 1},
		{"program p\n  print *, sum(a, @\nend program p\n", sum, 1},
		{"program p\n  x = a) + sum(b, @\nend program p\n", sum, 1},
		{"program p\n  x = sum(mask=@\nend program p\n", sum, 2},
		{"program p\n  x = sum(a, dim=1, mask=m, @\nend program p\n", sum, -1},
		{"program p\n  x = reshape(s, shape=t, @\nend program p\n", "RESHAPE(SOURCE, SHAPE, [PAD], [ORDER])", 2},
		{"program p\n  x = atan(y=a, @\nend program p\n", "ATAN(Y, X)", 1},
		{"(@", "", 0},
		{"program p\n  real :: sum(10)\n  x = sum(@\nend program p\n", "", 0},
		{"program p\n  real :: sqrt\n  x = sqrt(@\nend program p\n", "SQRT(X)", 0},
		{"program p\n  external sum\n  x = sum(a, @\nend program p\n", "", 0},
	} {
		src := strings.Replace(c.src, "@", "", 1)
		f := parser.Parse("t.f90", []byte(src), nil)
		sig := SignatureHelp(f, strings.Index(c.src, "@"), nil)
		switch {
		case c.label == "" && sig != nil:
			t.Errorf("%q: signature %+v, want none", c.src, sig)
		case c.label != "" && (sig == nil || sig.Label != c.label || sig.Active != c.active):
			t.Errorf("%q: signature %+v, want %s with parameter %d active", c.src, sig, c.label, c.active)
		}
	}
}

// TestSignatureHelpUserProcedure: a procedure of the file is described
// from its header and the declarations of its dummies: type and bounds,
// intent, OPTIONAL, a dummy procedure, an alternate return, an
// implicitly typed dummy; one without arguments has no active one.
func TestSignatureHelpUserProcedure(t *testing.T) {
	src := `program p
  real :: grid(10)
  call solve(grid, @
  call none(@
contains
  subroutine solve(a, n, f, *, k)
    real, intent(inout) :: a(10)
    integer, optional, intent(in) :: n
    external f
    k = 1
  end subroutine solve
  subroutine none()
  end subroutine none
end program p
`
	at := strings.Index(src, "@")
	at2 := strings.LastIndex(src, "@") - 1
	src = strings.ReplaceAll(src, "@", "")
	f := parser.Parse("t.f90", []byte(src), nil)
	sig := SignatureHelp(f, at, nil)
	want := SignatureForm{
		Label:  "SOLVE(A, [N], F, *, K)",
		Spans:  [][2]int{{6, 7}, {10, 11}, {14, 15}, {17, 18}, {20, 21}},
		Params: []string{"`A`: REAL A(10), intent(inout)", "`N`: INTEGER N, intent(in), optional", "`F`: procedure F", "`*`: alternate return label", "`K`: INTEGER K (implicit)"},
		Doc:    "SUBROUTINE SOLVE(A, N, F, *, K)",
		Active: 1,
	}
	if sig == nil || len(sig.Forms) != 1 || !reflect.DeepEqual(sig.Forms[0], want) || sig.Active != 1 ||
		!reflect.DeepEqual(sig.Params, []string{"A", "N", "F", "*", "K"}) {
		t.Errorf("solve: %+v\nwant the one form %+v", sig, want)
	}
	if sig := SignatureHelp(f, at2, nil); sig == nil || sig.Label != "NONE()" || sig.Active != -1 || len(sig.Params) != 0 {
		t.Errorf("none: %+v, want NONE() with no active parameter", sig)
	}
}

// TestSignatureHelpFunction: a function of the file, typed in its header
// or not, is described like a subroutine: its header is the doc.
func TestSignatureHelpFunction(t *testing.T) {
	src := "program p\n  y = g(1) + h(@\ncontains\n  function g(x)\n    g = x\n  end function g\n  real function h(x)\n    h = x\n  end function h\nend program p\n"
	at := strings.Index(src, "@")
	src = strings.Replace(src, "@", "", 1)
	f := parser.Parse("t.f90", []byte(src), nil)
	for _, c := range []struct {
		off        int
		label, doc string
	}{
		{strings.Index(src, "g(") + 2, "G(X)", "FUNCTION G(X)"},
		{at, "H(X)", "REAL FUNCTION H(X)"},
	} {
		sig := SignatureHelp(f, c.off, nil)
		if sig == nil || sig.Label != c.label || sig.Forms[0].Doc != c.doc || sig.Active != 0 {
			t.Errorf("at %d: %+v, want %s (%s)", c.off, sig, c.label, c.doc)
		}
	}
}
