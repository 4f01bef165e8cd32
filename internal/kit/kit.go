// Package kit runs the validation kit (validation/README.md): it
// compiles the MPI node programs, runs each at the kit's sizes, layouts
// and processor counts, estimates the equivalent Fortran D loop through
// partition's LoopReport, and summarises how the two agree (errors,
// crossovers, checksums), with SVG plots.
package kit

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pfls/pfls/machine"
)

// Kit is validation/kit.json: the kernels, their Fortran D sources and
// the layouts to compare.
type Kit struct {
	// Library lists the sources every program is built with (the
	// kernels' shared module), relative to the kit.
	Library []string `json:"library"`
	// Charge names the two builds of the module through which the
	// kernels charge their loops' operation counts, compiled before the
	// library: MPI's does nothing (real hardware times itself), SMPI's
	// charges the simulated host (Config.Charged).
	Charge  Charge   `json:"charge"`
	Kernels []Kernel `json:"kernels"`
}

// Charge is kit.json's "charge": the charge module for a real MPI and for
// SimGrid's SMPI, relative to the kit.
type Charge struct {
	MPI  string `json:"mpi"`
	SMPI string `json:"smpi"`
}

// Kernel is one kernel of the kit: an MPI node program and the loop of
// its Fortran D source that pfls estimates.
type Kernel struct {
	Name    string           `json:"name"`
	Program string           `json:"program"` // MPI node program (Fortran 90), relative to the kit
	Source  string           `json:"source"`  // the Fortran D source pfls estimates
	Line    int              `json:"line"`    // the loop estimated (the timed one)
	Set     map[string]int64 `json:"set"`     // values besides N (NCYCLE, ...)
	Sizes   []int64          `json:"sizes"`
	Quick   []int64          `json:"quick_sizes"`
	Layouts []Layout         `json:"layouts"`
	Extra   []string         `json:"args,omitempty"` // trailing program arguments (a block size)
}

// Layout pairs a node program's layout argument with the candidate
// distribution pfls names for it.
type Layout struct {
	Name         string `json:"name"`         // the node program's layout argument
	Distribution string `json:"distribution"` // the candidate distribution pfls names for it
}

// Point is one kernel run and its estimate.
type Point struct {
	Kernel   string  `json:"kernel"`
	Layout   string  `json:"layout"`
	Procs    int     `json:"procs"`
	N        int64   `json:"n"`
	Measured float64 `json:"measured"` // median over the repetitions, seconds
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Checksum float64 `json:"checksum"`
	Estimate float64 `json:"estimate"`
	Comm     float64 `json:"comm"` // estimated communication share of Estimate, seconds
	Error    float64 `json:"error"`
	// Oversubscribed: more ranks than cores; the estimate's computation
	// is scaled by P/cores.
	Oversubscribed bool `json:"oversubscribed,omitempty"`
}

// Summary is the comparison for one kernel at one processor count.
type Summary struct {
	Kernel           string   `json:"kernel"`
	Procs            int      `json:"procs"`
	Points           int      `json:"points"`
	MedianError      float64  `json:"medianError"`
	WorstError       float64  `json:"worstError"`
	MedianErrorComp  *float64 `json:"medianErrorComputation,omitempty"`
	MedianErrorComm  *float64 `json:"medianErrorCommunication,omitempty"`
	MeasuredCross    *float64 `json:"measuredCrossover,omitempty"`
	PredictedCross   *float64 `json:"predictedCrossover,omitempty"`
	CrossoverFactor  *float64 `json:"crossoverFactor,omitempty"`
	AboutTheSame     []int64  `json:"aboutTheSame,omitempty"` // sizes where noise exceeds the layouts' difference
	MeasuredFaster   []string `json:"measuredFaster"`         // per size, the faster layout measured
	PredictedFaster  []string `json:"predictedFaster"`
	Plot             string   `json:"plot,omitempty"`
	RatioPlot        string   `json:"ratioPlot,omitempty"`
	CrossoverPlot    string   `json:"crossoverPlot,omitempty"` // two layouts: the first's time over the second's
	ChecksumsAgree   bool     `json:"checksumsAgree"`
	ChecksumMismatch string   `json:"checksumMismatch,omitempty"`
}

// Report is what pfls validate prints and writes as results.json.
type Report struct {
	Machine machine.Provenance `json:"machine"`
	// Platform is the simulated machine the kit ran on (validate
	// --platform); "" on real MPI.
	Platform string    `json:"platform,omitempty"`
	Points   []Point   `json:"points"`
	Kernels  []Summary `json:"kernels"`
	// Failed: a run failed or the layouts' checksums differ.
	Failed bool `json:"-"`
}

// Load reads dir/kit.json and checks that every kernel has a name, a
// program, a source, a line, layouts and sizes.
func Load(dir string) (*Kit, error) {
	path := filepath.Join(dir, "kit.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var k Kit
	if err := dec.Decode(&k); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: unexpected data after the kit at byte %d", path, dec.InputOffset())
	}
	if len(k.Kernels) == 0 {
		return nil, fmt.Errorf("%s: no kernels", path)
	}
	for i, kk := range k.Kernels {
		switch {
		case kk.Name == "" || kk.Program == "" || kk.Source == "" || kk.Line < 1:
			return nil, fmt.Errorf("%s: kernel %d needs name, program, source and line", path, i+1)
		case len(kk.Layouts) == 0:
			return nil, fmt.Errorf("%s: kernel %s has no layouts", path, kk.Name)
		case len(kk.Sizes) == 0:
			return nil, fmt.Errorf("%s: kernel %s has no sizes", path, kk.Name)
		}
	}
	return &k, nil
}
