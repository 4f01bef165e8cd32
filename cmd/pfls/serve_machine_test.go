package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/machine"
)

// TestMachineModelReloads: the server reads a model file again when it
// changes (a retrain), keeps the loaded one while it does not, and
// refuses a file that is not a regular file.
func TestMachineModelReloads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.json")
	write := func(name string, when time.Time) {
		m := machine.DefaultMachine()
		m.Name = name
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, when, when); err != nil {
			t.Fatal(err)
		}
	}
	e := newEstimates()
	st := hints.EstimateSettings{Procs: 4, Machine: path}
	t0 := time.Now().Add(-time.Hour)
	write("first", t0)
	o1, err := e.options(st)
	if err != nil || o1.Machine.Name != "first" {
		t.Fatalf("first load: %v %v", o1.Machine, err)
	}
	if o, _ := e.options(st); o.Machine != o1.Machine {
		t.Errorf("an unchanged file was read again")
	}
	write("second", t0.Add(time.Minute))
	if o, err := e.options(st); err != nil || o.Machine.Name != "second" {
		t.Errorf("after a retrain: %q %v, want the new model", o.Machine.Name, err)
	}
	if _, err := e.options(hints.EstimateSettings{Procs: 4, Machine: filepath.Dir(path)}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder as model: %v", err)
	}
}
