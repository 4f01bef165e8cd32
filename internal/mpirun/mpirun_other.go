//go:build !unix

package mpirun

import (
	"os"
	"os/exec"
)

// stopSignals end a run's context: Ctrl-C (the only signal every
// system delivers).
var (
	stopSignals = []os.Signal{os.Interrupt}
	pipeSignals []os.Signal
)

// ownGroup does nothing: without Unix process groups a run is stopped
// through its launcher (MS-MPI's mpiexec ends its ranks with itself).
func ownGroup(*exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

func runningAsRoot() bool { return false }
