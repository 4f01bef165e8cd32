package partition

import (
	"testing"

	"github.com/pfls/pfls/parser"
)

// Tests of unitdefs.go written against the mutants that lived (issue
// 21, docs/mutation-partition.md).

// TestTopDefsDoIndex: a scalar assigned once at the top (K = 4) that is
// also a DO index has no one value: it is no set-up value; NLOC,
// assigned once and nothing else, is.
func TestTopDefsDoIndex(t *testing.T) {
	src := "      PROGRAM P\n      INTEGER K, NLOC, I\n      REAL A(100)\n      K = 4\n      NLOC = 25\n      DO 10 K = 1, 100\n         A(K) = 0.0\n   10 CONTINUE\n      DO 20 I = 1, NLOC\n         A(I) = 1.0\n   20 CONTINUE\n      END\n"
	f := parser.Parse("p.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	defs := (&est{f: f, u: u, sc: u.Scope}).topDefs()
	if defs["K"] != nil || defs["NLOC"] == nil {
		t.Errorf("set-up values K %v, NLOC %v: want NLOC's only", defs["K"], defs["NLOC"])
	}
}

// TestTopDefsChainDepth: chains of set-up values are followed 8
// definitions deep (maxDefDepth): N8, from N1 = 1 through N8 = N7 + 1,
// is 8; N9 one further stays a name.
func TestTopDefsChainDepth(t *testing.T) {
	src := "      PROGRAM P\n      INTEGER N1, N2, N3, N4, N5, N6, N7, N8, N9\n      N1 = 1\n"
	for i := 2; i <= 9; i++ {
		src += "      N" + itoa(i) + " = N" + itoa(i-1) + " + 1\n"
	}
	src += "      END\n"
	f := parser.Parse("p.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := &est{f: f, u: u, sc: u.Scope}
	for name, want := range map[string]string{"N8": "8", "N9": "N9"} {
		p, ok := e.value(&parser.Ident{Name: name}, nil, 0)
		if !ok || p.String() != want {
			t.Errorf("%s: %v (ok %v), want %s", name, p, ok, want)
		}
	}
}

// TestTopDefsNotANumber: a set-up value whose right side is no number
// (M = N + 1 with N read at run time) stays a name in the unit itself
// (only a callee's is taken in its caller's names).
func TestTopDefsNotANumber(t *testing.T) {
	src := "      PROGRAM P\n      INTEGER N, M\n      READ (5, *) N\n      M = N + 1\n      END\n"
	f := parser.Parse("p.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := &est{f: f, u: u, sc: u.Scope}
	if p, ok := e.value(&parser.Ident{Name: "M"}, nil, 0); !ok || p.String() != "M" {
		t.Errorf("M: %v (ok %v), want M", p, ok)
	}
}
