package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestCheckExamplesClean(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*")
	if len(files) < 5 {
		t.Fatalf("found %d examples", len(files))
	}
	// The examples have no errors; the capability diagnostics of seed 000
	// and 001 are the ones the papers find in them.
	code, out, errOut := runCmd(append([]string{"check"}, files...)...)
	if code != 0 || errOut != "" || strings.Contains(out, ": error: ") {
		t.Errorf("check examples: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"dgefa.f:12:7: warning: each iteration of the K loop waits",
		"[non-overlapped-broadcast]",
		"example.fcm:11:10: warning: B is not aligned with A",
		"[missing-align]",
		"tridvpk.f:14:10: information: the Rice Fortran 77D compiler profile pipelines this loop nest",
		"B_opt = ",
		"redblack.f:15:10: information: the iterations of this loop at block boundaries",
		"[loop-distribution]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q\n%s", want, out)
		}
	}
}

func TestCheckSARIF(t *testing.T) {
	code, out, errOut := runCmd("check", "--format", "sarif", "../../examples/example.fcm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "pfls" {
		t.Fatalf("sarif %+v", log)
	}
	r := log.Runs[0].Results
	if len(r) != 1 || r[0].RuleID != "missing-align" || r[0].Level != "warning" ||
		r[0].Locations[0].PhysicalLocation.Region.StartLine != 11 ||
		r[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "../../examples/example.fcm" {
		t.Errorf("results %+v", r)
	}
	if code, _, _ := runCmd("check", "--format", "xml", "../../examples/sub2.f"); code != 2 {
		t.Errorf("--format xml accepted")
	}
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const badProgram = "      PROGRAM P\n      IMPLICIT NONE\n      X = (1 +\n      Y = 2\n      END\n"

func TestCheckText(t *testing.T) {
	p := writeTemp(t, "bad.f", badProgram)
	code, out, _ := runCmd("check", p)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := []string{
		p + ":3:15: error: expected an expression, found end of statement [syntax]",
		p + ":4:7: error: Y is not declared (IMPLICIT NONE) [undeclared]",
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCheckJSON(t *testing.T) {
	p := writeTemp(t, "bad.f", badProgram)
	code, out, _ := runCmd("check", "--json", p)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var doc struct {
		Files []struct {
			Path        string `json:"path"`
			Diagnostics []struct {
				Line, Column, EndLine, EndColumn int
				Severity, Code, Message          string
			} `json:"diagnostics"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if len(doc.Files) != 1 || doc.Files[0].Path != p || len(doc.Files[0].Diagnostics) != 2 {
		t.Fatalf("unexpected document: %s", out)
	}
	d := doc.Files[0].Diagnostics[1]
	if d.Line != 4 || d.Column != 7 || d.EndLine != 4 || d.EndColumn != 8 || d.Severity != "error" || d.Code != "undeclared" {
		t.Errorf("second diagnostic = %+v", d)
	}
	// Every key of the contract is present.
	for _, key := range []string{`"line"`, `"column"`, `"endLine"`, `"endColumn"`, `"severity"`, `"code"`, `"message"`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestCheckUnreadableAndUsage(t *testing.T) {
	good := writeTemp(t, "good.f", "      X = 1\n      END\n")
	code, out, errOut := runCmd("check", "/no/such/file.f", good)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if errOut != "pfls: /no/such/file.f: no such file or directory\n" {
		t.Errorf("stderr = %q", errOut)
	}
	if out != "" {
		t.Errorf("the good file should still be checked, cleanly: %q", out)
	}
	if code, _, errOut := runCmd("check"); code != 2 || !strings.Contains(errOut, "no files") {
		t.Errorf("no files: exit %d, %q", code, errOut)
	}
	if code, _, _ := runCmd("frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	if code, out, _ := runCmd("version"); code != 0 || !strings.HasPrefix(out, "pfls ") {
		t.Errorf("version: %d %q", code, out)
	}
}

// TestHelp: `pfls help CMD` and `pfls CMD --help` print the same text on
// stdout, exit 0, and list every flag with its default.
func TestHelp(t *testing.T) {
	for cmd, flags := range map[string][]string{
		"check":      {"--format", "--json", "--machine", "--procs", "--profile", "--include"},
		"complexity": {"--cost", "--eval", "--keep", "--pips", "--json", "--include"},
		"estimate":   {"--machine", "--procs", "--set", "--vary", "--line", "--plot", "--json", "--machine-info"},
		"train":      {"--np", "--quick", "--out", "--platform", "--host-speed"},
		"validate":   {"--kit", "--machine", "--np", "--sizes", "--out", "--json"},
		"serve":      nil,
	} {
		var a, b, errs strings.Builder
		if code := run([]string{"help", cmd}, &a, &errs); code != 0 {
			t.Errorf("pfls help %s: exit %d, %s", cmd, code, errs.String())
		}
		if code := run([]string{cmd, "--help"}, &b, &errs); code != 0 {
			t.Errorf("pfls %s --help: exit %d, %s", cmd, code, errs.String())
		}
		if a.String() != b.String() || !strings.HasPrefix(a.String(), "usage: pfls "+cmd) {
			t.Errorf("pfls help %s:\n%s\npfls %s --help:\n%s", cmd, a.String(), cmd, b.String())
		}
		lines := strings.Split(a.String(), "\n")
		listed := map[string]bool{}
		for i, l := range lines {
			if !strings.HasPrefix(l, "  --") {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimSpace(l), " ")
			listed[name] = true
			if i+1 >= len(lines) || !strings.Contains(lines[i+1], "(default") {
				t.Errorf("pfls help %s: %s has no default: %q", cmd, name, lines[i+1])
			}
		}
		for _, f := range flags {
			if !listed[f] {
				t.Errorf("pfls help %s: %s not listed:\n%s", cmd, f, a.String())
			}
		}
	}
	var out, errs strings.Builder
	if code := run([]string{"complexity", "--bogus"}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "usage: pfls complexity") {
		t.Errorf("a bad flag: exit %d, stderr %q", code, errs.String())
	}
	if code := run([]string{"help", "nosuch"}, &out, &errs); code != 2 {
		t.Errorf("pfls help nosuch: exit %d", code)
	}
}
