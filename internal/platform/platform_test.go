package platform

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestRadical(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: "0-3", want: []int{0, 1, 2, 3}},
		{in: "0-1,8, 10-11", want: []int{0, 1, 8, 10, 11}},
		{in: "5", want: []int{5}},
		{in: "", bad: true},
		{in: "3-1", bad: true},
		{in: "a-b", bad: true},
	} {
		got, err := Radical(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("Radical(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Radical(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestHostsOfFile(t *testing.T) {
	xml := `<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <host id="frontend" speed="1Gf"/>
    <cluster id="c" prefix="c-" suffix=".lan" radical="0-2,7" speed="1Gf" bw="125MBps" lat="50us"/>
    <host id="gpu" speed="10Gf"/>
  </zone>
</platform>`
	got, err := Hosts([]byte(xml))
	want := []string{"frontend", "c-0.lan", "c-1.lan", "c-2.lan", "c-7.lan", "gpu"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Hosts = %v, %v; want %v", got, err, want)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "site.xml")
	os.WriteFile(path, []byte(strings.Replace(xml, `speed="1Gf"`, `speed="3Gf,1Gf"`, 1)), 0o644)
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.HostSpeed() != "3Gf" {
		t.Errorf("Load(site.xml): host speed %q; want the first host's first power state, 3Gf", p.HostSpeed())
	}
	for _, bad := range []string{
		`<html><body/></html>`,
		`<platform version="4.1"></platform>`,
		`<platform version="3"><host id="a"/></platform>`,
		`<platform version="4.1"><host id="a"/><host id="a"/></platform>`,
		`<platform version="4.1"><host id="a"/>`,
	} {
		if h, err := Hosts([]byte(bad)); err == nil {
			t.Errorf("Hosts(%q) = %v, want an error", bad, h)
		}
	}
}

func TestPresets(t *testing.T) {
	for _, c := range []struct {
		name  string
		procs int
		hosts int
		topo  string
	}{
		{"ncube2", 16, 16, `topo_parameters="2,2,2,2"`},
		{"ncube2", 12, 16, `topo_parameters="2,2,2,2"`},
		{"ncube2", 1024, 1024, `topo_parameters="2,2,2,2,2,2,2,2,2,2"`},
		{"ncube2", 2, 2, `topo_parameters="2"`},
		{"cluster", 16, 16, `topo_parameters="2;16,1;1,1;1,2"`},
		{"cluster", 100, 128, `topo_parameters="2;32,4;1,1;1,2"`},
	} {
		p, err := Preset(c.name, c.procs)
		if err != nil {
			t.Fatalf("Preset(%s, %d): %v", c.name, c.procs, err)
		}
		if !strings.Contains(string(p.XML), c.topo) {
			t.Errorf("Preset(%s, %d): no %s in\n%s", c.name, c.procs, c.topo, p.XML)
		}
		// The hosts pfls places ranks on are the ones the XML declares.
		declared, err := Hosts(p.XML)
		if err != nil {
			t.Fatalf("Preset(%s, %d): its XML does not parse: %v", c.name, c.procs, err)
		}
		if len(declared) != c.hosts || len(p.Hosts) != c.hosts {
			t.Errorf("Preset(%s, %d): %d hosts declared, %d placed; want %d", c.name, c.procs, len(declared), len(p.Hosts), c.hosts)
		}
		a, b := append([]string(nil), declared...), append([]string(nil), p.Hosts...)
		sort.Strings(a)
		sort.Strings(b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Preset(%s, %d): placed hosts are not the declared ones", c.name, c.procs)
		}
	}
	for _, c := range []struct {
		name  string
		procs int
	}{{"ncube2", 2048}, {"ncube2", 0}, {"hal9000", 4}} {
		if _, err := Preset(c.name, c.procs); err == nil {
			t.Errorf("Preset(%s, %d): want an error", c.name, c.procs)
		}
	}
}

// The presets' all-to-all is SMPI's ring, on ncube2 at a power of two of
// nodes the hypercube's pairwise exchange: SMPI's default starts all
// P(P - 1) messages at once, which at P >= 64 takes this machine minutes
// a call to simulate.
func TestAlltoallAlgorithm(t *testing.T) {
	for _, name := range Presets {
		p, err := Preset(name, 64)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(p.XML), `<prop id="smpi/alltoall" value="ring"/>`) {
			t.Errorf("%s: no ring all-to-all in its <config>:\n%s", name, p.XML)
		}
	}
	for _, c := range []struct {
		name  string
		procs int
		want  string
	}{
		{"ncube2", 64, "[--cfg=smpi/alltoall:pair]"},
		{"ncube2", 2, "[--cfg=smpi/alltoall:pair]"},
		{"ncube2", 48, "[]"},
		{"cluster", 64, "[]"},
	} {
		p, _ := Preset(c.name, c.procs)
		if got := fmt.Sprint(p.LaunchFlags(c.procs)); got != c.want {
			t.Errorf("%s: LaunchFlags(%d) = %s; want %s", c.name, c.procs, got, c.want)
		}
	}
}

// On the hypercube, ranks are placed in Gray-code order: consecutive
// ranks (a ring) sit on nodes whose numbers differ in one bit, one link
// apart.
func TestNcubeGrayOrder(t *testing.T) {
	p, err := Preset("ncube2", 64)
	if err != nil {
		t.Fatal(err)
	}
	node := func(r int) int {
		var n int
		if _, err := fmt.Sscan(strings.TrimPrefix(p.Hosts[r%len(p.Hosts)], "node-"), &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for r := 0; r < 64; r++ {
		x := node(r) ^ node(r+1)
		if x == 0 || x&(x-1) != 0 {
			t.Errorf("ranks %d and %d on nodes %d and %d: not neighbours", r, (r+1)%64, node(r), node(r+1))
		}
	}
}

func TestHostfile(t *testing.T) {
	p, err := Preset("cluster", 3)
	if err != nil {
		t.Fatal(err)
	}
	hf, err := p.Hostfile(3)
	if err != nil || string(hf) != "node-0\nnode-1\nnode-2\n" {
		t.Errorf("Hostfile(3) = %q, %v", hf, err)
	}
	if _, err := p.Hostfile(4); err == nil {
		t.Errorf("Hostfile(4) on 3 hosts: want an error")
	}
}

func TestResolveFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.xml")
	if err := os.WriteFile(path, []byte(`<platform version="4.1"><zone id="z" routing="Full"><host id="a" speed="1Gf"/><host id="b" speed="1Gf"/></zone></platform>`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Resolve(path, 2)
	if err != nil || !reflect.DeepEqual(p.Hosts, []string{"a", "b"}) {
		t.Fatalf("Resolve(file) = %+v, %v", p, err)
	}
	if _, err := Resolve(filepath.Join(dir, "missing.xml"), 2); err == nil {
		t.Errorf("Resolve(missing file): want an error")
	}
}

// The example of docs/platforms.md is a platform pfls reads.
func TestDocsExample(t *testing.T) {
	p, err := Load("../../docs/platform-example.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Hosts) != 64 || p.Hosts[0] != "node-0.example" || p.Hosts[63] != "node-63.example" || p.HostSpeed() != "100Gf" {
		t.Errorf("example: %d hosts %q … %q, host speed %s", len(p.Hosts), p.Hosts[0], p.Hosts[len(p.Hosts)-1], p.HostSpeed())
	}
}

// SimGrid itself reads the presets and runs a program on them; skipped
// where SMPI is not installed (CI installs libsimgrid-dev).
func TestPresetsRunUnderSMPI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs smpirun")
	}
	for _, tool := range []string{"smpicc", "smpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH (install libsimgrid-dev)", tool)
		}
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "ring.c")
	os.WriteFile(src, []byte(`#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	int rank, n, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % n, 0, &v, 1, MPI_INT, (rank + n - 1) % n, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	int out[1024], in[1024], i;
	for (i = 0; i < n; i++)
		out[i] = rank;
	MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < n; i++)
		if (in[i] != i)
			v = -1;
	if (rank == 0)
		printf("sum %d time %.9f\n", v, MPI_Wtime());
	MPI_Finalize();
	return 0;
}
`), 0o644)
	prog := filepath.Join(dir, "ring")
	if out, err := exec.Command("smpicc", "-O2", "-o", prog, src).CombinedOutput(); err != nil {
		t.Fatalf("smpicc: %v\n%s", err, out)
	}
	// ncube2 at 12 of its 16 nodes: the all-to-all is the preset's ring,
	// at 16 SMPI's pair (LaunchFlags)
	for _, run := range []struct {
		name  string
		procs int
	}{{"ncube2", 16}, {"ncube2", 12}, {"cluster", 16}, {"../../docs/platform-example.xml", 16}} {
		name, procs := run.name, run.procs
		p, err := Resolve(name, procs)
		if err != nil {
			t.Fatal(err)
		}
		name = filepath.Base(name)
		xmlPath, hostPath := filepath.Join(dir, name+".xml"), filepath.Join(dir, name+".hosts")
		hf, _ := p.Hostfile(procs)
		os.WriteFile(xmlPath, p.XML, 0o644)
		os.WriteFile(hostPath, hf, 0o644)
		args := append(append(SmpirunFlags(xmlPath, hostPath, ""), p.LaunchFlags(procs)...), "-np", fmt.Sprint(procs), prog)
		cmd := exec.Command("smpirun", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: smpirun: %v\n%s", name, err, out)
		}
		var sum int
		var secs float64
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "sum ") {
				fmt.Sscanf(l, "sum %d time %f", &sum, &secs)
			}
		}
		if want := procs * (procs - 1) / 2; sum != want || secs <= 0 {
			t.Fatalf("%s at P=%d: want sum %d and a simulated time, got %d, %g:\n%s", name, procs, want, sum, secs, out)
		}
		t.Logf("%s: ring + allreduce + alltoall at P=%d took %.1f µs simulated", name, procs, secs*1e6)
	}
}

// The two ways of simulating computation: charged by the programs
// (simulate-computation off, no host speed) or timed here and converted
// at the host speed given.
func TestSmpirunFlags(t *testing.T) {
	charged := strings.Join(SmpirunFlags("p.xml", "h", ""), " ")
	if charged != "-platform p.xml -hostfile h --cfg=smpi/simulate-computation:no" {
		t.Errorf("charged: %s", charged)
	}
	timed := strings.Join(SmpirunFlags("p.xml", "h", "1Gf"), " ")
	if timed != "-platform p.xml -hostfile h --cfg=smpi/host-speed:1Gf" {
		t.Errorf("timed: %s", timed)
	}
}
