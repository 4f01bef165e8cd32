package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pfls/pfls/internal/mpirun"
	"github.com/pfls/pfls/internal/platform"
)

// simulated is the setup of a run on SimGrid's SMPI (--platform): the
// tools, the platform, and the folder holding its files.
type simulated struct {
	mpi      *mpirun.Tools
	platform *platform.Platform
	dir      string // the platform file (presets) and the hostfile; removed by close
	// speed is --host-speed: "" when the programs charge their
	// computation (the default), else this machine's flop rate, which
	// turns its computing time into simulated flops.
	speed string
}

// charged says whether the programs charge their computation's operation
// counts (smpi/simulate-computation:no) rather than SMPI timing it here.
func (s *simulated) charged() bool { return s.speed == "" }

// setupPlatform resolves --platform for the largest processor count,
// writes the platform (a preset's XML; a user's file is used where it
// is) and its hostfile into a temporary folder, and finds SMPI's tools
// for lang. The caller removes the folder with close.
func setupPlatform(arg string, procs []int, lang mpirun.Lang, hostSpeed string) (*simulated, error) {
	maxP := 0
	for _, p := range procs {
		maxP = max(maxP, p)
	}
	plat, err := platform.Resolve(arg, maxP)
	if err != nil {
		return nil, err
	}
	hosts, err := plat.Hostfile(maxP)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pfls-platform-")
	if err != nil {
		return nil, err
	}
	s := &simulated{platform: plat, dir: dir, speed: hostSpeed}
	xmlPath := filepath.Join(dir, plat.Name+".xml")
	if filepath.Ext(arg) == ".xml" {
		if xmlPath, err = filepath.Abs(arg); err != nil {
			s.close()
			return nil, err
		}
	} else if err := os.WriteFile(xmlPath, plat.XML, 0o644); err != nil {
		s.close()
		return nil, err
	}
	hostPath := filepath.Join(dir, "hostfile")
	if err := os.WriteFile(hostPath, hosts, 0o644); err != nil {
		s.close()
		return nil, err
	}
	s.mpi, err = mpirun.FindSMPI(lang, platform.SmpirunFlags(xmlPath, hostPath, s.speed))
	if err != nil {
		s.close()
		return nil, err
	}
	s.mpi.SMPIProcsFlags = plat.LaunchFlags
	return s, nil
}

func (s *simulated) close() { os.RemoveAll(s.dir) }

// describe is the platform for the provenance: what it is, the SimGrid
// version and how computation was simulated.
func (s *simulated) describe() string {
	if s.charged() {
		return fmt.Sprintf("%s; simulated by %s (SMPI), computation charged as counted operations at the node speed %s (smpi/simulate-computation:no)",
			s.platform.Description, s.mpi.Version, s.platform.HostSpeed())
	}
	return fmt.Sprintf("%s; simulated by %s (SMPI), computation timed on this machine and converted at smpi/host-speed %s",
		s.platform.Description, s.mpi.Version, s.speed)
}
