//go:build unix

package mpirun

import (
	"os"
	"os/exec"
	"syscall"
)

// stopSignals end a run's context: Ctrl-C, a polite kill, the terminal
// going away; pipeSignals too (a write to a pipe nobody reads), and they
// stay caught for the whole command.
var (
	stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
	pipeSignals = []os.Signal{syscall.SIGPIPE}
)

// ownGroup starts mpirun in a process group of its own, so that a signal
// to the group reaches the ranks it starts and not pfls.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func terminateGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }

func runningAsRoot() bool { return os.Geteuid() == 0 }
