package hints

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

func applyEdits(src []byte, edits []TextEdit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.Start], append([]byte(e.Text), out[e.End:]...)...)
	}
	return out
}

// TestLoopActions: on a DO line, "Estimate this loop" and one action per
// candidate distribution whose edit, applied, leaves a file that parses
// and is distributed as the title says, in the file's own dialect.
func TestLoopActions(t *testing.T) {
	hpf := `      PROGRAM H
      PARAMETER (N = 256)
      REAL X(N,N), Y(N,N)
!HPF$ PROCESSORS P(4,4)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN X(I,J) WITH T(I,J)
!HPF$ ALIGN Y(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO P
      DO 10 J = 2, N - 1
         DO 10 I = 2, N - 1
            X(I,J) = Y(I-1,J) + Y(I+1,J) + Y(I,J-1) + Y(I,J+1)
   10 CONTINUE
      END
`
	cases := []struct {
		name, src, line, dialectWord string
	}{
		{"redblack.f", "", "      DO 100 KC", "DISTRIBUTE G("},
		{"hpf.f", hpf, "      DO 10 J", "!HPF$ DISTRIBUTE T("},
		{"example.fcm", "", "      DO K = 1, 10", "CMF$  LAYOUT A("},
	}
	for _, c := range cases {
		src := []byte(c.src)
		if c.src == "" {
			b, err := os.ReadFile("../examples/" + c.name)
			if err != nil {
				t.Fatal(err)
			}
			src = b
		}
		f := parser.Parse(c.name, src, nil)
		off := strings.Index(string(src), c.line)
		acts := LoopActions(f, off, EstimateSettings{Procs: 16}.Options(nil))
		if len(acts) < 3 || acts[0].Command != EstimateCommand {
			t.Fatalf("%s: actions %+v", c.name, acts)
		}
		preferred := 0
		for _, a := range acts[1:] {
			if a.Preferred {
				preferred++
			}
			name := strings.TrimPrefix(a.Title[:strings.Index(a.Title, "): ")+1], "Distribute ")
			nsrc := applyEdits(src, a.Edits)
			g := parser.Parse(c.name, nsrc, nil)
			if errs := g.Errors(); len(errs) > 0 {
				t.Errorf("%s: %q leaves errors %v\n%s", c.name, a.Title, errs, nsrc)
				continue
			}
			if !strings.Contains(string(nsrc), c.dialectWord) {
				t.Errorf("%s: %q does not write %q", c.name, a.Title, c.dialectWord)
			}
			dialect := ""
			if strings.HasSuffix(c.name, ".fcm") {
				dialect = "cmf"
			}
			if got := partition.FromUnit(g.Units[0], 16, dialect).Name(); got != name {
				t.Errorf("%s: %q gives %s", c.name, a.Title, got)
			}
		}
		if preferred > 1 {
			t.Errorf("%s: %d preferred actions", c.name, preferred)
		}
	}
}

// TestLoopActionsAboutTheSame: where a candidate's estimate is within
// the machine's run-to-run noise of the current one, its action says
// "about the same" and is not preferred.
func TestLoopActionsAboutTheSame(t *testing.T) {
	src, err := os.ReadFile("../examples/redblack.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("redblack.f", src, nil)
	off := strings.Index(string(src), "      DO 100 KC")
	m := machine.DefaultMachine()
	m.Noise = 10 // every candidate is within 1000% of every other
	acts := LoopActions(f, off, EstimateSettings{Procs: 16}.Options(m))
	if len(acts) < 3 {
		t.Fatalf("actions %+v", acts)
	}
	for _, a := range acts[1:] {
		if !strings.HasSuffix(a.Title, ", within noise") || !strings.Contains(a.Detail, "about the same as G(BLOCK,BLOCK)") || a.Preferred {
			t.Errorf("%q, %q (preferred %v): want about the same, not preferred", a.Title, a.Detail, a.Preferred)
		}
	}
	m.Noise = 0
	acts = LoopActions(f, off, EstimateSettings{Procs: 16}.Options(m))
	for _, a := range acts[1:] {
		if strings.Contains(a.Title, "noise") || !strings.HasSuffix(a.Title, "%") || strings.Contains(a.Detail, "about the same") || !strings.Contains(a.Detail, "% vs G(BLOCK,BLOCK)") {
			t.Errorf("%q, %q: without noise, want a percentage", a.Title, a.Detail)
		}
	}
	for _, a := range acts {
		if n := len([]rune(a.Title)); n > 60 {
			t.Errorf("%q: %d characters, want at most 60", a.Title, n)
		}
	}
	if acts[0].Kind != "source" {
		t.Errorf("%q: kind %q, want source", acts[0].Title, acts[0].Kind)
	}
}

func TestEstimateLoopText(t *testing.T) {
	src, err := os.ReadFile("../examples/dgefa.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("dgefa.f", src, nil)
	text, err := EstimateLoopText(f, 12, EstimateSettings{Procs: 8}.Options(nil))
	if err != nil || !strings.Contains(text, "on 8 processors, D(:,CYCLIC)") || !strings.Contains(text, "broadcast of A") {
		t.Errorf("%v\n%s", err, text)
	}
	if _, err := EstimateLoopText(f, 2, EstimateSettings{}.Options(nil)); err == nil || !strings.Contains(err.Error(), "no DO loop") {
		t.Errorf("line without a loop: %v", err)
	}
}

func TestQuickFixesAndCapabilityDiagnostics(t *testing.T) {
	src, err := os.ReadFile("../examples/example.fcm")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("example.fcm", src, nil)
	o := EstimateSettings{Procs: 16}.Options(nil)
	ds := CapabilityDiagnostics(f, o, nil)
	if len(ds) != 1 || ds[0].Code != "missing-align" || ds[0].Severity != parser.SevWarning {
		t.Fatalf("diagnostics %+v", ds)
	}
	line := f.Lines.Line(ds[0].Start)
	fixes := QuickFixes(f, f.Lines.LineStart(line), f.Lines.LineEnd(line), o, nil)
	if len(fixes) != 1 || fixes[0].Kind != "quickfix" || fixes[0].Edits[0].Text != "CMF$ ALIGN B(I,J) WITH A(I,J)\n" {
		t.Fatalf("fixes %+v", fixes)
	}
	g := parser.Parse("example.fcm", applyEdits(src, fixes[0].Edits), nil)
	if len(g.Errors()) != 0 {
		t.Errorf("after the fix: errors %v", g.Errors())
	}
	for _, d := range CapabilityDiagnostics(g, o, nil) {
		if d.Code == "missing-align" {
			t.Errorf("after the fix: %+v", d)
		}
	}
	// Elsewhere in the file, no fix.
	if fixes := QuickFixes(f, 0, 10, o, nil); len(fixes) != 0 {
		t.Errorf("fix offered on line 1: %+v", fixes)
	}
}
