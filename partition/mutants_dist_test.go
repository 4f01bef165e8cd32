package partition

import (
	"reflect"
	"testing"
)

// Tests of dist.go written against the mutants that lived (issue 21,
// docs/mutation-partition.md).

// TestFromUnitGridOnto: the current distribution records the grid of its
// ONTO arrangement (2 x 8 at P = 16) and names it; without ONTO it is the
// even factorization (4 x 4), not named.
func TestFromUnitGridOnto(t *testing.T) {
	for _, c := range []struct {
		onto, name string
		grid       []int
	}{
		{" ONTO PR", "T(BLOCK,BLOCK) on 2x8", []int{2, 8}},
		{"", "T(BLOCK,BLOCK)", []int{4, 4}},
	} {
		u := parseUnit(t, "p.f", "      PROGRAM P\n      REAL A(64,64)\n!HPF$ PROCESSORS PR(2,8)\n!HPF$ TEMPLATE T(64,64)\n!HPF$ ALIGN A(I,J) WITH T(I,J)\n!HPF$ DISTRIBUTE T(BLOCK,BLOCK)"+c.onto+"\n      END\n")
		d := FromUnit(u, 16, "")
		if d.Name() != c.name || !reflect.DeepEqual(d.Grid, c.grid) {
			t.Errorf("DISTRIBUTE T(BLOCK,BLOCK)%s at P = 16: %s on %v, want %s on %v", c.onto, d.Name(), d.Grid, c.name, c.grid)
		}
		if got, want := layoutString(d.Arrays["A"]), "A(BLOCK/"+itoa(c.grid[0])+",BLOCK/"+itoa(c.grid[1])+")"; got != want {
			t.Errorf("%s: %s, want %s", c.name, got, want)
		}
	}
}

// TestCanonicalUnknownPosition: in a CM Fortran unit an array in the
// default layout has no DISTRIBUTE to be written in; among arrays mapped
// alike, one whose DISTRIBUTE position is known and one without are
// ordered by name (writtenBefore), so X (distributed by an HPF
// DISTRIBUTE) names Z (the default layout, BLOCK x BLOCK on 2 x 2 like
// X's): Z's template is X, X's its own.
func TestCanonicalUnknownPosition(t *testing.T) {
	u := parseUnit(t, "p.fcm", `      PROGRAM P
      REAL T(8,8,8), X(8,8), Z(8,8), W(8)
CMF$ LAYOUT W(:SERIAL)
!HPF$ DISTRIBUTE T(BLOCK,BLOCK,*)
!HPF$ DISTRIBUTE X(BLOCK,BLOCK)
      END
`)
	d := FromUnit(u, 4, "cmf")
	if d.Dialect != "cmf" || d.Template != "T" {
		t.Fatalf("dialect %q, template %q, want cmf, T", d.Dialect, d.Template)
	}
	for name, want := range map[string]string{"X": "X", "Z": "X"} {
		l := d.Arrays[name]
		if l.Template != want || layoutString(l) != name+"(BLOCK/2,BLOCK/2)" {
			t.Errorf("%s: %s on template %q, want %s(BLOCK/2,BLOCK/2) on %q", name, layoutString(l), l.Template, name, want)
		}
	}
}
