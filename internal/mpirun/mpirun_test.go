package mpirun

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestLaunch: Open MPI gets --oversubscribe for more ranks than cores,
// MPICH does not need it, and a hostfile goes in each library's own flag.
func TestLaunch(t *testing.T) {
	for _, c := range []struct {
		flavour, hostfile string
		procs, cores      int
		want              []string
	}{
		{"Open MPI", "", 2, 2, []string{"mpirun", "-np", "2"}},
		{"Open MPI", "", 4, 2, []string{"mpirun", "--oversubscribe", "-np", "4", "(4 ranks on 2 cores)"}},
		{"MPICH", "", 4, 2, []string{"mpirun", "-np", "4"}},
		{"Open MPI", "/h", 8, 2, []string{"mpirun", "--hostfile", "/h", "-np", "8"}},
		{"MPICH", "/h", 8, 2, []string{"mpirun", "-f", "/h", "-np", "8"}},
	} {
		tools := &Tools{Flavour: c.flavour, Hostfile: c.hostfile}
		if got := tools.Launch(c.procs, c.cores).Describe(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q P=%d on %d cores: %v, want %v", c.flavour, c.hostfile, c.procs, c.cores, got, c.want)
		}
	}
}

// TestLaunchSMPI: smpirun gets the platform's options and no
// oversubscription flag, whatever the cores of this machine.
func TestLaunchSMPI(t *testing.T) {
	tools := &Tools{Flavour: SMPI, Launcher: "/opt/simgrid/bin/smpirun", Hostfile: "/ignored",
		SMPIFlags: []string{"-platform", "/t/p.xml", "-hostfile", "/t/hosts", "--cfg=smpi/host-speed:1Gf"}}
	want := []string{"smpirun", "-platform", "/t/p.xml", "-hostfile", "/t/hosts", "--cfg=smpi/host-speed:1Gf", "-np", "16"}
	if got := tools.Launch(16, 2).Describe(); !reflect.DeepEqual(got, want) {
		t.Errorf("SMPI P=16 on 2 cores: %v, want %v", got, want)
	}
	// options that depend on the processor count come after the platform's
	tools.SMPIProcsFlags = func(p int) []string { return []string{fmt.Sprintf("--cfg=p:%d", p)} }
	want = []string{"smpirun", "-platform", "/t/p.xml", "-hostfile", "/t/hosts", "--cfg=smpi/host-speed:1Gf", "--cfg=p:8", "-np", "8"}
	if got := tools.Launch(8, 2).Describe(); !reflect.DeepEqual(got, want) {
		t.Errorf("SMPI P=8 with per-count options: %v, want %v", got, want)
	}
}

// TestTailBuffer: the end of a long standard error, without rule lines.
func TestTailBuffer(t *testing.T) {
	var b tailBuffer
	if b.String() != "  (nothing on standard error)" {
		t.Errorf("empty: %q", b.String())
	}
	for i := 0; i < 2000; i++ {
		b.Write([]byte("----------\nline " + strings.Repeat("x", i%7) + "\n"))
	}
	b.Write([]byte("the reason\n"))
	lines := strings.Split(b.String(), "\n")
	if len(lines) != 20 || lines[19] != "  the reason" || strings.Contains(b.String(), "---") || len(b.b) > 8192 {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

// TestBusy: a share between 0 and 1 and a load average.
func TestBusy(t *testing.T) {
	share, load := Busy(50 * time.Millisecond)
	if share < 0 || share > 1 || load == "" {
		t.Errorf("Busy = %g, %q", share, load)
	}
}
