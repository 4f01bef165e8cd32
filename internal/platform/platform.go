// Package platform describes the simulated machines pfls runs MPI programs
// on with SimGrid's SMPI: the presets inside pfls (ncube2, cluster),
// written as SimGrid platform XML for a requested processor count, and
// platform files of the user's own. It makes the hostfile from a
// platform's hosts and the smpirun options that run a program on it.
//
// The XML is SimGrid's platform format version 4.1 (SimGrid 3.2x–3.3x,
// Debian's libsimgrid-dev 3.32): a <platform> holding an optional
// <config> of SimGrid settings and one or more zones; hosts are declared
// one by one (<host id=…>) or by <cluster prefix=… radical=… suffix=…>,
// which names hosts prefix+i+suffix for each i of the radical ("0-15",
// "0-3,8,10-11").
package platform

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Platform is one simulated machine.
type Platform struct {
	// Name is the preset's name or the file's path.
	Name string
	// XML is the SimGrid platform file's text.
	XML []byte
	// Hosts are the platform's hosts in the order ranks are placed on
	// them: rank r runs on Hosts[r].
	Hosts []string
	// Description says what the machine is, for provenance.
	Description string
	// Speed is the speed of the platform's (first) host in SimGrid's
	// units ("2.4Mf"); "" when the file gives none.
	Speed string
	// hypercube: the all-to-all of a run on a power of two of its nodes
	// is the pairwise exchange (LaunchFlags).
	hypercube bool
}

// Presets are the names of the built-in platforms.
var Presets = []string{"ncube2", "cluster"}

// MaxHypercube is the largest ncube2 preset (a 10-cube).
const MaxHypercube = 1024

// The NCUBE/2 as the preset models it.
//
// Node speed: 2.4 Mflop/s in 64-bit arithmetic (3.3 Mflop/s in 32-bit),
// a 20 MHz custom processor (van der Steen and Dongarra, "Overview of
// Recent Supercomputers", 1994 edition, netlib
// benchmark/top500/reports/report94, the nCUBE 2 entry).
//
// Links: one bidirectional DMA channel per hypercube dimension, about
// 2.2 MB/s each way (the same overview gives 2.75 MB/s for the
// communication speed of the faster-clocked nCUBE 2S; 2.2 MB/s is the
// 2's channel rate at 20 MHz). Wormhole routing makes a message's time
// almost independent of the distance, so the preset puts a small per-hop
// latency on the links and the software start-up on the send and receive
// overheads of SMPI (smpi/os, smpi/or).
//
// Start-up: the estimator paper (Balasundaram, Fox, Kennedy, Kremer)
// gives no figure; its Figure 4 (iSR vs vSR on 64 NCUBE nodes) shows
// start-up dominating messages below a few hundred bytes. It is the one
// parameter tuned here, against the paper's REDBLACK crossover: column
// strips beat blocks below N ≈ 180 at P = 16. With the paper's split of
// the grid (the validation kit's redblack-express: N × N/P strips, N a
// multiple of 32) and the computation charged at 2.4 Mflop/s (6 flops a
// point), the simulated column/block crossover at P = 16 lies at N ≈ 164,
// 181 and 197 with 30, 35 and 40 µs of send and of receive overhead (10
// µs on the wire besides); 35 µs (80 µs a message in all) puts it at the
// paper's 180. Unchanged, the platform then gives N ≈ 115 at P = 64,
// where the paper measured 128. (The crossover sits near start-up ×
// bandwidth: a column strip sends 2 messages of N/2 REALs a sweep, a
// block 4 of N/8, equal where 2 start-ups take as long as N REALs.)
const (
	ncubeSpeed     = "2.4Mf"
	ncubeBandwidth = "2.2MBps"
	ncubeHopLat    = "10us"
	ncubeSendOver  = "35e-6" // seconds
	ncubeRecvOver  = "35e-6"
)

// The cluster preset: a two-level fat tree of InfiniBand HDR-class links
// (200 Gb/s = 25 GB/s, about 1 µs end to end) between nodes of 1 Tflop/s
// (a two-socket server of the 2020s in double precision), 32 nodes per
// leaf switch.
const (
	clusterSpeed     = "1Tf"
	clusterBandwidth = "25GBps"
	clusterLat       = "0.5us"
	clusterPerLeaf   = 32
)

// alltoallConfig is the presets' all-to-all: SMPI's ring algorithm (at
// step k of P - 1 each rank sends to rank r+k and receives from r-k),
// which sends P - 1 messages a rank one after the other. SMPI's default
// (Open MPI's choice) starts all P(P - 1) messages of a call at once for
// blocks of 200 to 3000 bytes, and simulating that many concurrent flows
// costs this machine time that grows faster than P²: one call of 1 KiB
// blocks at P = 64 took 15 s (ring: 0.5 s), so a program's all-to-all at
// P >= 256 would not finish. On ncube2 a run on a power of two of nodes
// uses the pairwise exchange instead (LaunchFlags), which SMPI refuses
// on other communicator sizes.
const alltoallConfig = `    <!-- All-to-all: P - 1 steps of one message a rank (SMPI's ring);
         see alltoallConfig in pfls's internal/platform. -->
    <prop id="smpi/alltoall" value="ring"/>
`

// Preset builds a built-in platform for procs ranks: ncube2 is the
// smallest hypercube with at least procs nodes (the NCUBE/2 gave each
// job a subcube; 16 to 1024 nodes are the preset's range, smaller
// subcubes run too), cluster a fat tree with at least procs nodes.
func Preset(name string, procs int) (*Platform, error) {
	if procs < 1 {
		return nil, fmt.Errorf("platform %s: %d processors: want at least 1", name, procs)
	}
	switch name {
	case "ncube2":
		return ncube2(procs)
	case "cluster":
		return cluster(procs)
	}
	return nil, fmt.Errorf("no platform preset %q (presets: %s; or a SimGrid platform file ending in .xml)", name, strings.Join(Presets, ", "))
}

func ncube2(procs int) (*Platform, error) {
	if procs > MaxHypercube {
		return nil, fmt.Errorf("platform ncube2: %d processors: the preset goes up to %d", procs, MaxHypercube)
	}
	dim := 1
	for 1<<dim < procs {
		dim++
	}
	nodes := 1 << dim
	dims := make([]string, dim)
	for i := range dims {
		dims[i] = "2"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- pfls preset ncube2: a %d-dimensional NCUBE/2 hypercube of %d nodes.
     A hypercube is a torus of extent 2 in every dimension. Ranks are
     placed in Gray-code order (the hostfile), so ranks r and r+1 are
     neighbours in the cube as EXPRESS placed a ring. -->
<platform version="4.1">
  <config>
    <!-- The platform's latencies and bandwidths as given, without SMPI's
         correction factors (those are fitted to a Gigabit Ethernet
         cluster). -->
    <prop id="smpi/lat-factor" value="0:1"/>
    <prop id="smpi/bw-factor" value="0:1"/>
    <!-- Vertex's software start-up: seconds to send and to receive. -->
    <prop id="smpi/os" value="0:%s:0"/>
    <prop id="smpi/or" value="0:%s:0"/>
%s  </config>
  <cluster id="ncube2" prefix="node-" radical="0-%d" suffix=""
           speed="%s" bw="%s" lat="%s" sharing_policy="SPLITDUPLEX"
           loopback_bw="100MBps" loopback_lat="0us"
           topology="TORUS" topo_parameters="%s"/>
</platform>
`, dim, nodes, ncubeSendOver, ncubeRecvOver, alltoallConfig, nodes-1, ncubeSpeed, ncubeBandwidth, ncubeHopLat, strings.Join(dims, ","))
	hosts := make([]string, nodes)
	for r := range hosts {
		hosts[r] = "node-" + strconv.Itoa(r^(r>>1))
	}
	return &Platform{
		Name:      "ncube2",
		XML:       b.Bytes(),
		Hosts:     hosts,
		Speed:     ncubeSpeed,
		hypercube: true,
		Description: fmt.Sprintf("ncube2: NCUBE/2 hypercube of %d nodes (%s per node, %s links, %s per hop, %s s send and %s s receive start-up)",
			nodes, ncubeSpeed, ncubeBandwidth, ncubeHopLat, ncubeSendOver, ncubeRecvOver),
	}, nil
}

func cluster(procs int) (*Platform, error) {
	leaves := (procs + clusterPerLeaf - 1) / clusterPerLeaf
	perLeaf := clusterPerLeaf
	if leaves == 1 {
		perLeaf = procs
	}
	nodes := leaves * perLeaf
	// SimGrid's FAT_TREE parameters: levels; children of a switch at
	// each level; parents of a node or switch at each level; parallel
	// links to each parent. Here leaf switches of perLeaf nodes, one top
	// switch over the leaves, two parallel links from each leaf up.
	topo := fmt.Sprintf("2;%d,%d;1,1;1,2", perLeaf, leaves)
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- pfls preset cluster: %d nodes of %s on an InfiniBand HDR-class
     two-level fat tree (%s links, %s a hop), %d nodes a leaf switch. -->
<platform version="4.1">
  <config>
    <prop id="smpi/lat-factor" value="0:1"/>
    <prop id="smpi/bw-factor" value="0:1"/>
%s  </config>
  <cluster id="cluster" prefix="node-" radical="0-%d" suffix=""
           speed="%s" bw="%s" lat="%s" sharing_policy="SPLITDUPLEX"
           loopback_bw="100GBps" loopback_lat="0us"
           topology="FAT_TREE" topo_parameters="%s"/>
</platform>
`, nodes, clusterSpeed, clusterBandwidth, clusterLat, perLeaf, alltoallConfig, nodes-1, clusterSpeed, clusterBandwidth, clusterLat, topo)
	hosts := make([]string, nodes)
	for r := range hosts {
		hosts[r] = "node-" + strconv.Itoa(r)
	}
	return &Platform{
		Name:  "cluster",
		XML:   b.Bytes(),
		Hosts: hosts,
		Speed: clusterSpeed,
		Description: fmt.Sprintf("cluster: fat tree of %d nodes (%s per node, %s links, %s a hop)",
			nodes, clusterSpeed, clusterBandwidth, clusterLat),
	}, nil
}

// Resolve is --platform's argument: a file when it ends in .xml, else a
// preset built for procs ranks.
func Resolve(arg string, procs int) (*Platform, error) {
	if strings.HasSuffix(strings.ToLower(arg), ".xml") {
		return Load(arg)
	}
	return Preset(arg, procs)
}

// Load reads a user's SimGrid platform file.
func Load(path string) (*Platform, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	hosts, speed, err := scan(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &Platform{Name: path, XML: data, Hosts: hosts, Speed: speed,
		Description: fmt.Sprintf("%s: %d hosts", path, len(hosts))}, nil
}

// Hosts lists the hosts a platform file declares, in the order of the
// file: <host id=…> and the hosts of each <cluster>.
func Hosts(data []byte) ([]string, error) {
	hosts, _, err := scan(data)
	return hosts, err
}

// scan reads a platform file's hosts and the speed of its first host (the
// first of its power states when it lists several).
func scan(data []byte) ([]string, string, error) {
	var speed string
	setSpeed := func(v string) {
		if speed == "" {
			speed, _, _ = strings.Cut(strings.TrimSpace(v), ",")
		}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false // SimGrid's files carry a DOCTYPE; entities are not used
	var hosts []string
	seen := map[string]bool{}
	add := func(h string) error {
		if seen[h] {
			return fmt.Errorf("host %q declared twice", h)
		}
		seen[h] = true
		hosts = append(hosts, h)
		return nil
	}
	sawPlatform := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("not a SimGrid platform file: %v", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := func(name string) string {
			for _, a := range el.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		switch el.Name.Local {
		case "platform":
			sawPlatform = true
			if v := attr("version"); v != "" && !strings.HasPrefix(v, "4") {
				return nil, "", fmt.Errorf("platform version %s: SimGrid 3.2x–3.3x reads version 4.x", v)
			}
		case "host":
			id := attr("id")
			if id == "" {
				return nil, "", fmt.Errorf("a <host> without an id")
			}
			setSpeed(attr("speed"))
			if err := add(id); err != nil {
				return nil, "", err
			}
		case "cluster":
			setSpeed(attr("speed"))
			ids, err := Radical(attr("radical"))
			if err != nil {
				return nil, "", fmt.Errorf("cluster %q: %v", attr("id"), err)
			}
			for _, i := range ids {
				if err := add(attr("prefix") + strconv.Itoa(i) + attr("suffix")); err != nil {
					return nil, "", err
				}
			}
		}
	}
	if !sawPlatform {
		return nil, "", fmt.Errorf("not a SimGrid platform file: no <platform> element")
	}
	if len(hosts) == 0 {
		return nil, "", fmt.Errorf("the platform declares no hosts")
	}
	return hosts, speed, nil
}

// Radical expands a cluster's radical: numbers and ranges separated by
// commas ("0-15", "0-3,8,10-11").
func Radical(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("no radical")
	}
	var ids []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil || a < 0 {
			return nil, fmt.Errorf("radical %q: %q is not a number or range", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil || b < a {
				return nil, fmt.Errorf("radical %q: %q is not a range", s, part)
			}
		}
		if b-a > 1<<20 {
			return nil, fmt.Errorf("radical %q: range %q too large", s, part)
		}
		for i := a; i <= b; i++ {
			ids = append(ids, i)
		}
	}
	return ids, nil
}

// Hostfile is the SMPI hostfile that places procs ranks: one host a line,
// rank r on the platform's r-th host. A platform with fewer hosts than
// ranks is an error (SMPI would put several ranks on one host and share
// its processor between them).
func (p *Platform) Hostfile(procs int) ([]byte, error) {
	if procs > len(p.Hosts) {
		return nil, fmt.Errorf("platform %s has %d hosts, fewer than the %d ranks", p.Name, len(p.Hosts), procs)
	}
	var b bytes.Buffer
	for _, h := range p.Hosts[:procs] {
		b.WriteString(h)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// LaunchFlags are the smpirun options of a run on procs of the
// platform's hosts beyond SmpirunFlags. On ncube2 with procs a power of
// two the all-to-all is the hypercube's pairwise exchange (SMPI's pair:
// at step k each rank swaps a block with rank r XOR k), which routed
// dimension by dimension shares no link between the pairs of a step:
// a call of 1 KiB blocks at P = 64 takes 36 ms simulated against the
// ring's 58 ms (whose steps contend for links), and 5 s of this machine
// at P = 256. SMPI's pair refuses other communicator sizes, so the ring
// of the preset's <config> stays for the others.
func (p *Platform) LaunchFlags(procs int) []string {
	if p.hypercube && procs > 1 && procs&(procs-1) == 0 {
		return []string{"--cfg=smpi/alltoall:pair"}
	}
	return nil
}

// HostSpeed is the speed of the platform's nodes in SimGrid's units (the
// first host's), or "1Gf" when the file gives none (SimGrid's default
// would be 1 flop/s).
func (p *Platform) HostSpeed() string {
	if p.Speed != "" {
		return p.Speed
	}
	return "1Gf"
}

// SmpirunFlags are the smpirun options that run on the platform written
// to xmlPath with the hostfile at hostfilePath.
//
// With hostSpeed "" the computation is charged: smpirun runs with
// smpi/simulate-computation:no, so the time a program computes on this
// machine between MPI calls is not charged to the simulated hosts at all,
// and the programs charge their loops' operation counts themselves
// (smpi_execute_flops: flops at the host's speed of the platform file;
// the training set with --charge, the validation kit's kernels built with
// charge_smpi.f90). The simulated times then depend on the program and
// the platform only, and repeat exactly, whatever the load of this
// machine.
//
// With a hostSpeed (flop/s of this machine) the computation is timed:
// SMPI times each stretch of computation on this machine and charges the
// simulated host for seconds × hostSpeed flops, which then take the
// platform's node speed to run: what the platform's nodes would need if
// they were hostSpeed/node speed times slower than this machine. That
// multiplies SMPI's own overhead between calls and the timing noise by
// the same ratio (about 400 for ncube2 on a machine of 1 Gflop/s: times
// vary by tens of percent), and the programs must not charge too.
func SmpirunFlags(xmlPath, hostfilePath, hostSpeed string) []string {
	flags := []string{"-platform", xmlPath, "-hostfile", hostfilePath}
	if hostSpeed == "" {
		return append(flags, "--cfg=smpi/simulate-computation:no")
	}
	return append(flags, "--cfg=smpi/host-speed:"+hostSpeed)
}
