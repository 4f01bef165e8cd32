package kit

import (
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/pfls/pfls/internal/svgplot"
	"github.com/pfls/pfls/machine"
)

// summarize compares one kernel's points at one processor count.
func summarize(kk Kernel, procs int, pts []Point) Summary {
	s := Summary{Kernel: kk.Name, Procs: procs, Points: len(pts), ChecksumsAgree: true, MeasuredFaster: []string{}, PredictedFaster: []string{}}
	var all, comp, comm []float64
	for _, p := range pts {
		e := math.Abs(p.Error)
		all = append(all, e)
		if p.Comm > p.Estimate/2 {
			comm = append(comm, e)
		} else {
			comp = append(comp, e)
		}
		s.WorstError = math.Max(s.WorstError, e)
	}
	s.MedianError = machine.Median(all)
	if len(comp) > 0 {
		v := machine.Median(comp)
		s.MedianErrorComp = &v
	}
	if len(comm) > 0 {
		v := machine.Median(comm)
		s.MedianErrorComm = &v
	}
	// Checksums: every layout computes the same thing.
	byN := map[int64][]Point{}
	var ns []int64
	for _, p := range pts {
		if byN[p.N] == nil {
			ns = append(ns, p.N)
		}
		byN[p.N] = append(byN[p.N], p)
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	for _, n := range ns {
		ps := byN[n]
		for _, p := range ps[1:] {
			if !closeRel(p.Checksum, ps[0].Checksum, 1e-5) {
				s.ChecksumsAgree = false
				s.ChecksumMismatch = fmt.Sprintf("N=%d: %s gives %.12g, %s gives %.12g", n, ps[0].Layout, ps[0].Checksum, p.Layout, p.Checksum)
			}
		}
	}
	if len(kk.Layouts) != 2 {
		return s
	}
	a, b := kk.Layouts[0].Name, kk.Layouts[1].Name
	var xs []float64
	var measDiff, predDiff []float64
	for _, n := range ns {
		var pa, pb *Point
		for i := range byN[n] {
			switch byN[n][i].Layout {
			case a:
				pa = &byN[n][i]
			case b:
				pb = &byN[n][i]
			}
		}
		if pa == nil || pb == nil {
			continue
		}
		xs = append(xs, float64(n))
		measDiff = append(measDiff, math.Log(pa.Measured/pb.Measured))
		predDiff = append(predDiff, math.Log(pa.Estimate/pb.Estimate))
		faster := func(d float64) string {
			if d < 0 {
				return a
			}
			return b
		}
		s.MeasuredFaster = append(s.MeasuredFaster, faster(measDiff[len(measDiff)-1]))
		s.PredictedFaster = append(s.PredictedFaster, faster(predDiff[len(predDiff)-1]))
		// The layouts are "about the same" where their measured ranges
		// (min to max of the repetitions) overlap.
		if pa.Min <= pb.Max && pb.Min <= pa.Max {
			s.AboutTheSame = append(s.AboutTheSame, n)
		}
	}
	if x, ok := crossing(xs, measDiff); ok {
		s.MeasuredCross = &x
	}
	if x, ok := crossing(xs, predDiff); ok {
		s.PredictedCross = &x
	}
	if s.MeasuredCross != nil && s.PredictedCross != nil {
		f := *s.PredictedCross / *s.MeasuredCross
		if f < 1 {
			f = 1 / f
		}
		s.CrossoverFactor = &f
	}
	return s
}

// crossing is the first x where d changes sign, interpolated on log x.
func crossing(xs, d []float64) (float64, bool) {
	for i := 1; i < len(xs); i++ {
		if d[i-1] == 0 {
			return xs[i-1], true
		}
		if (d[i-1] < 0) != (d[i] < 0) {
			t := d[i-1] / (d[i-1] - d[i])
			return math.Exp(math.Log(xs[i-1]) + t*(math.Log(xs[i])-math.Log(xs[i-1]))), true
		}
	}
	return 0, false
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) || a == b
}

// plotKernel draws measured and predicted time against N for each
// layout, like Figure 6 of seed 003.
func plotKernel(path string, kk Kernel, procs int, pts []Point) error {
	var series []svgplot.Series
	for _, l := range kk.Layouts {
		meas := svgplot.Series{Name: l.Name + " measured"}
		pred := svgplot.Series{Name: l.Name + " predicted"}
		for _, p := range pts {
			if p.Layout != l.Name {
				continue
			}
			meas.X, meas.Y = append(meas.X, float64(p.N)), append(meas.Y, p.Measured)
			meas.YLo, meas.YHi = append(meas.YLo, p.Min), append(meas.YHi, p.Max) // the spread of the repetitions
			pred.X, pred.Y = append(pred.X, float64(p.N)), append(pred.Y, p.Estimate)
		}
		series = append(series, meas, pred)
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	err = svgplot.WritePlot(out, fmt.Sprintf("%s at P = %d: measured and predicted", kk.Name, procs), "N", "time of the loop (s)", series)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// plotRatio draws predicted/measured against log2 N for each layout, with
// the line of a perfect prediction: every size gets the same room, so the
// small sizes, where communication dominates and crossovers sit, show.
func plotRatio(path string, kk Kernel, procs int, pts []Point) error {
	var series []svgplot.Series
	perfect := svgplot.Series{Name: "predicted = measured"}
	seen := map[int64]bool{}
	for _, l := range kk.Layouts {
		s := svgplot.Series{Name: l.Name}
		for _, p := range pts {
			if p.Layout != l.Name || p.Measured <= 0 {
				continue
			}
			x := math.Log2(float64(p.N))
			s.X, s.Y = append(s.X, x), append(s.Y, p.Estimate/p.Measured)
			if !seen[p.N] {
				seen[p.N] = true
				perfect.X, perfect.Y = append(perfect.X, x), append(perfect.Y, 1)
			}
		}
		series = append(series, s)
	}
	sort.Float64s(perfect.X)
	series = append(series, perfect)
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	err = svgplot.WriteRatioPlot(out, fmt.Sprintf("%s at P = %d: predicted / measured", kk.Name, procs), "log2 N", "predicted / measured", series)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// plotCrossover draws, for a kernel of two layouts, the first layout's
// time over the second's against N, measured and predicted, with the line
// where they are equal: the layouts cross where a curve crosses it (seed
// 003's Figure 6 shows the same crossover as two pairs of time curves).
func plotCrossover(path string, kk Kernel, procs int, pts []Point) error {
	a, b := kk.Layouts[0].Name, kk.Layouts[1].Name
	meas := svgplot.Series{Name: "measured"}
	pred := svgplot.Series{Name: "predicted"}
	equal := svgplot.Series{Name: "equal"}
	byN := map[int64][2]*Point{}
	var ns []int64
	for i := range pts {
		p := &pts[i]
		pair, seen := byN[p.N]
		if !seen {
			ns = append(ns, p.N)
		}
		switch p.Layout {
		case a:
			pair[0] = p
		case b:
			pair[1] = p
		}
		byN[p.N] = pair
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	for _, n := range ns {
		pa, pb := byN[n][0], byN[n][1]
		if pa == nil || pb == nil || pb.Measured <= 0 || pb.Estimate <= 0 {
			continue
		}
		x := float64(n)
		meas.X, meas.Y = append(meas.X, x), append(meas.Y, pa.Measured/pb.Measured)
		pred.X, pred.Y = append(pred.X, x), append(pred.Y, pa.Estimate/pb.Estimate)
		equal.X, equal.Y = append(equal.X, x), append(equal.Y, 1)
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	err = svgplot.WriteRatioPlot(out, fmt.Sprintf("%s at P = %d: %s time / %s time (below 1: %s faster)", kk.Name, procs, a, b, a),
		"N", a+" / "+b, []svgplot.Series{meas, pred, equal})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
