// Package svgplot draws the SVG line charts of pfls estimate --plot and
// pfls validate: times against a symbol with time units on the axis, and
// plain numbers such as predicted/measured ratios. Standard library only.
package svgplot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Series is one curve of a plot: Y[i] seconds at X[i] (a data domain
// size, a processor count, ...). Points are drawn in the order given.
// YLo and YHi, when given (as many as Y), are a measured spread drawn as
// an error bar at each point (validate's fastest and slowest run).
type Series struct {
	Name     string
	X, Y     []float64
	YLo, YHi []float64
}

// The layout of a plot, in SVG user units (pixels).
const (
	plotLeft    = 84  // room for the Y tick labels and the Y label
	plotTop     = 44  // room for the title
	plotWidth   = 560 // the data area
	plotHeight  = 340
	plotBottom  = 64 // room for the X tick labels and the X label
	plotGap     = 24 // between the data area and the legend
	plotRow     = 20 // height of a legend entry
	plotCharW   = 7  // approximate width of a character at font-size 12
	plotTicks   = 6  // about this many ticks per axis
	plotMarkers = 60 // series with at most this many points get markers
)

// plotPalette holds the colours of the series (Tableau 10); series past
// the tenth repeat them with a dash pattern.
var plotPalette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
}

var plotDashes = []string{"", "6 3", "2 3", "8 3 2 3"}

// WritePlot writes a standalone SVG line chart of the series, like the
// estimated time against data domain size of Balasundaram, Fox, Kennedy
// and Kremer's estimator paper (Figures 3 and 6): axes with ticks at
// 1-2-5 steps, X tick labels as plain numbers, Y tick labels as times
// with a unit (ns, µs, ms, s) that the Y label repeats (a label ending in
// "(s)" takes the ticks' unit), one colour per series, markers on series
// of up to 60 points, error bars where a series has a spread, and a
// legend of every series in as many columns as it needs. Where the
// positive X values span more than a decade the X axis is logarithmic,
// and so is the Y axis of times when they span more than a decade too;
// a linear Y axis includes zero. Points whose X or Y is NaN or
// infinite are skipped; empty series appear in the legend only. A series
// whose X and Y (or YLo, YHi) differ in length is an error, reported
// before anything is written.
func WritePlot(w io.Writer, title, xLabel, yLabel string, series []Series) error {
	return writePlot(w, title, xLabel, yLabel, series, true)
}

// WriteRatioPlot is WritePlot for Y values that are plain numbers (ratios)
// rather than seconds.
func WriteRatioPlot(w io.Writer, title, xLabel, yLabel string, series []Series) error {
	return writePlot(w, title, xLabel, yLabel, series, false)
}

func writePlot(w io.Writer, title, xLabel, yLabel string, series []Series, seconds bool) error {
	for i, s := range series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("plot: series %d (%q) has %d X values and %d Y values", i+1, s.Name, len(s.X), len(s.Y))
		}
		if s.YLo != nil && len(s.YLo) != len(s.Y) || s.YHi != nil && len(s.YHi) != len(s.Y) {
			return fmt.Errorf("plot: series %d (%q) has %d Y values and %d, %d for its spread", i+1, s.Name, len(s.Y), len(s.YLo), len(s.YHi))
		}
	}
	// The finite points of each series and the ranges they span.
	pts := make([][]plotPoint, len(series))
	var xs, ys []float64
	for i, s := range series {
		for j := range s.X {
			p := plotPoint{x: s.X[j], y: s.Y[j]}
			if !plotFinite(p.x) || !plotFinite(p.y) {
				continue
			}
			if s.YLo != nil && s.YHi != nil && plotFinite(s.YLo[j]) && plotFinite(s.YHi[j]) && s.YLo[j] <= s.YHi[j] {
				p.lo, p.hi, p.bar = s.YLo[j], s.YHi[j], true
				ys = append(ys, p.lo, p.hi)
			}
			pts[i] = append(pts[i], p)
			xs = append(xs, p.x)
			ys = append(ys, p.y)
		}
	}
	xa := newAxis(xs, false, true)
	ya := newAxis(ys, true, seconds && xa.log)
	xt, yt := xa.ticks, ya.ticks
	px := func(x float64) float64 { return plotLeft + xa.frac(x)*plotWidth }
	py := func(y float64) float64 { return plotTop + plotHeight - ya.frac(y)*plotHeight }

	names := make([]string, len(series))
	longest := 0
	for i, s := range series {
		names[i] = s.Name
		if names[i] == "" {
			names[i] = fmt.Sprintf("series %d", i+1)
		}
		if len(pts[i]) == 0 {
			names[i] += " (no data)"
		}
		longest = max(longest, len([]rune(names[i])))
	}
	// The legend: every series, in columns of at most legendRows.
	legendRows := (plotHeight + plotBottom - plotRow) / plotRow
	legendCols := (len(series) + legendRows - 1) / legendRows
	colW := 36 + plotCharW*longest + 12
	legendW := 0
	if len(series) > 0 {
		legendW = plotGap + legendCols*colW
	}
	width := plotLeft + plotWidth + max(legendW, 24)
	height := plotTop + plotHeight + plotBottom

	var b bytes.Buffer
	f := plotNum
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, "<title>%s</title>\n", plotEscape(title))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text class="title" x="%s" y="24" text-anchor="middle" font-size="15" font-weight="bold">%s</text>`+"\n",
		f(plotLeft+plotWidth/2), plotEscape(title))

	// Grid, axes and ticks.
	b.WriteString(`<g class="grid" stroke="#e6e6e6" stroke-width="1">` + "\n")
	for _, x := range xt {
		fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d"/>`+"\n", f(px(x)), plotTop, f(px(x)), plotTop+plotHeight)
	}
	for _, y := range yt {
		fmt.Fprintf(&b, `<line x1="%d" y1="%s" x2="%d" y2="%s"/>`+"\n", plotLeft, f(py(y)), plotLeft+plotWidth, f(py(y)))
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<g class="axes" stroke="black" stroke-width="1"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`+"\n",
		plotLeft, plotTop+plotHeight, plotLeft+plotWidth, plotTop+plotHeight, plotLeft, plotTop, plotLeft, plotTop+plotHeight)
	xLabels := plotNumberLabels(xt)
	if xa.log {
		xLabels = plotLogLabels(xt)
	}
	b.WriteString(`<g class="xticks" text-anchor="middle">` + "\n")
	for i, l := range xLabels {
		fmt.Fprintf(&b, `<text class="xtick" x="%s" y="%d">%s</text>`+"\n", f(px(xt[i])), plotTop+plotHeight+18, plotEscape(l))
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g class="yticks" text-anchor="end">` + "\n")
	yLabels, yText := plotTimeLabels(yt), plotTime
	switch {
	case !seconds:
		yLabels, yText = plotNumberLabels(yt), plotNumber
	case ya.log:
		// Each decade in its own unit; the label names none.
		yLabels = make([]string, len(yt))
		for i, v := range yt {
			yLabels[i] = plotTime(v)
		}
		yLabel = plotUnitLabel(yLabel, "")
	default:
		_, unit := plotTimeUnit(max(math.Abs(yt[0]), math.Abs(yt[len(yt)-1])))
		yLabel = plotUnitLabel(yLabel, unit)
	}
	for i, l := range yLabels {
		fmt.Fprintf(&b, `<text class="ytick" x="%d" y="%s">%s</text>`+"\n", plotLeft-6, f(py(yt[i])+4), plotEscape(l))
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<text class="xlabel" x="%s" y="%d" text-anchor="middle">%s</text>`+"\n",
		f(plotLeft+plotWidth/2), plotTop+plotHeight+48, plotEscape(xLabel))
	fmt.Fprintf(&b, `<text class="ylabel" x="18" y="%s" text-anchor="middle" transform="rotate(-90 18 %s)">%s</text>`+"\n",
		f(plotTop+plotHeight/2), f(plotTop+plotHeight/2), plotEscape(yLabel))

	// The series, then the legend.
	for i := range series {
		if len(pts[i]) == 0 {
			continue
		}
		color, dash := plotStyle(i)
		fmt.Fprintf(&b, `<g class="series" stroke="%s" fill="%s">`+"\n", color, color)
		var coords []string
		for _, p := range pts[i] {
			coords = append(coords, f(px(p.x))+","+f(py(p.y)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke-width="2"%s points="%s"/>`+"\n", dash, strings.Join(coords, " "))
		for _, p := range pts[i] {
			if p.bar {
				x, lo, hi := px(p.x), py(p.lo), py(p.hi)
				fmt.Fprintf(&b, `<path class="errorbar" fill="none" stroke-width="1.5" d="M%s %sV%sM%s %sH%sM%s %sH%s"/>`+"\n",
					f(x), f(lo), f(hi), f(x-4), f(lo), f(x+4), f(x-4), f(hi), f(x+4))
			}
		}
		if len(pts[i]) <= plotMarkers {
			for _, p := range pts[i] {
				tip := fmt.Sprintf("%s: %s, %s", names[i], plotNumber(p.x), yText(p.y))
				if p.bar {
					tip += fmt.Sprintf(" (%s to %s)", yText(p.lo), yText(p.hi))
				}
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3"><title>%s</title></circle>`+"\n", f(px(p.x)), f(py(p.y)), plotEscape(tip))
			}
		}
		b.WriteString("</g>\n")
	}
	if len(series) > 0 {
		lx := plotLeft + plotWidth + plotGap
		b.WriteString(`<g class="legend">` + "\n")
		for i := range series {
			color, dash := plotStyle(i)
			lx := lx + (i/legendRows)*colW
			y := plotTop + 10 + (i%legendRows)*plotRow
			fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`, lx, y, lx+24, y, color, dash)
			fmt.Fprintf(&b, `<text class="legend-name" x="%d" y="%d">%s</text>`+"\n", lx+32, y+4, plotEscape(names[i]))
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func plotFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// plotPoint is a finite point of a series, with its spread when bar.
type plotPoint struct {
	x, y, lo, hi float64
	bar          bool
}

// axis is the scale of one axis: its ticks, whose first and last are its
// ends, linear or logarithmic.
type axis struct {
	log   bool
	ticks []float64
}

// newAxis chooses the scale of values: logarithmic when canLog and they
// are all positive and span more than a decade, else linear (through
// zero with includeZero).
func newAxis(vals []float64, includeZero, canLog bool) axis {
	if canLog && len(vals) > 0 {
		lo, hi := vals[0], vals[0]
		for _, v := range vals {
			lo, hi = min(lo, v), max(hi, v)
		}
		if lo > 0 && hi/lo > 10 {
			return axis{log: true, ticks: plotLogTicks(lo, hi)}
		}
	}
	return axis{ticks: plotNiceTicks(plotRange(vals, includeZero))}
}

// frac is where v lies between the ends of the axis, from 0 to 1.
func (a axis) frac(v float64) float64 {
	lo, hi := a.ticks[0], a.ticks[len(a.ticks)-1]
	if a.log {
		return (math.Log10(v) - math.Log10(lo)) / (math.Log10(hi) - math.Log10(lo))
	}
	return (v - lo) / (hi - lo)
}

// plotLogTicks returns the powers of ten around [lo, hi] (lo > 0), with
// the 2s and 5s between them when there are at most two decades.
func plotLogTicks(lo, hi float64) []float64 {
	a := int(math.Floor(math.Log10(lo) + 1e-9))
	b := int(math.Ceil(math.Log10(hi) - 1e-9))
	if b <= a {
		b = a + 1
	}
	var out []float64
	for k := a; k <= b; k++ {
		p := math.Pow(10, float64(k))
		out = append(out, p)
		if b-a <= 2 && k < b {
			out = append(out, 2*p, 5*p)
		}
	}
	return out
}

// plotLogLabels formats the ticks of a logarithmic axis: plain numbers
// from 0.001 to 999999, 1e6 and 2e-5 beyond.
func plotLogLabels(ticks []float64) []string {
	out := make([]string, len(ticks))
	for i, t := range ticks {
		if t >= 1e6 || t < 1e-3 {
			e := int(math.Floor(math.Log10(t) + 1e-9))
			m := t / math.Pow(10, float64(e))
			out[i] = strconv.FormatFloat(m, 'g', 3, 64) + "e" + strconv.Itoa(e)
		} else {
			out[i] = strconv.FormatFloat(t, 'g', 6, 64)
		}
	}
	return out
}

// plotUnitLabel puts a time unit on an axis label: "time (s)" becomes
// "time (ms)", a label without a unit gains one; unit "" removes it.
func plotUnitLabel(label, unit string) string {
	base := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(label), "(s)"))
	if unit == "" {
		return base
	}
	if base == "" {
		return "(" + unit + ")"
	}
	return base + " (" + unit + ")"
}

func plotStyle(i int) (color, dash string) {
	color = plotPalette[i%len(plotPalette)]
	if d := plotDashes[(i/len(plotPalette))%len(plotDashes)]; d != "" {
		dash = fmt.Sprintf(` stroke-dasharray="%s"`, d)
	}
	return color, dash
}

// plotRange returns the span of the values, widened so it is never
// empty; with includeZero it reaches zero.
func plotRange(vals []float64, includeZero bool) (lo, hi float64) {
	if len(vals) == 0 {
		return 0, 1
	}
	lo, hi = vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	if includeZero {
		lo, hi = min(lo, 0), max(hi, 0)
	}
	if lo == hi {
		if includeZero || lo == 0 {
			return lo, lo + 1 // all zero
		}
		d := math.Abs(lo) / 2
		lo, hi = lo-d, hi+d
	}
	return lo, hi
}

// plotNiceTicks returns ticks at a step of 1, 2 or 5 times a power of
// ten that cover [lo, hi], about plotTicks of them; the first and last
// are the ends of the axis.
func plotNiceTicks(lo, hi float64) []float64 {
	span := hi - lo
	if !(span > 0) || !plotFinite(span) {
		return []float64{lo, hi}
	}
	raw := span / plotTicks
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw*(1-1e-9) {
			step = m * mag
			break
		}
	}
	first := math.Floor(lo/step+1e-9) * step
	last := math.Ceil(hi/step-1e-9) * step
	n := int(math.Round((last - first) / step))
	if !(step > 0) || n < 1 || n > 100 {
		return []float64{lo, hi}
	}
	ticks := make([]float64, n+1)
	for i := range ticks {
		v := first + float64(i)*step
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks[i] = v
	}
	return ticks
}

// plotDecimals is the number of decimals that shows a tick step.
func plotDecimals(step float64) int {
	if !(step > 0) {
		return 0
	}
	return max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
}

// plotNumberLabels formats X ticks (and the Y ticks of ratio plots) as plain numbers with the decimals
// their step needs, or in exponent form with the digits their step needs
// when they are very large or very small.
func plotNumberLabels(ticks []float64) []string {
	step, big := 0.0, 0.0
	if len(ticks) > 1 {
		step = ticks[1] - ticks[0]
	}
	for _, t := range ticks {
		big = max(big, math.Abs(t))
	}
	out := make([]string, len(ticks))
	for i, t := range ticks {
		if step > 0 && (big >= 1e7 || big < 1e-3) {
			// Enough significant digits to tell the ticks apart.
			prec := int(math.Floor(math.Log10(big))-math.Floor(math.Log10(step))) + 1
			out[i] = strconv.FormatFloat(t, 'g', min(max(prec, 1), 17), 64)
		} else {
			out[i] = strconv.FormatFloat(t, 'f', plotDecimals(step), 64)
		}
	}
	return out
}

// plotTimeUnit picks the unit in which a time of magnitude v reads best.
func plotTimeUnit(v float64) (scale float64, unit string) {
	switch v = math.Abs(v); {
	case v >= 1:
		return 1, "s"
	case v >= 1e-3:
		return 1e3, "ms"
	case v >= 1e-6:
		return 1e6, "µs"
	}
	return 1e9, "ns"
}

// plotTimeLabels formats Y ticks (seconds) in the one unit that suits
// the largest of them.
func plotTimeLabels(ticks []float64) []string {
	big, step := 0.0, 0.0
	for _, t := range ticks {
		big = max(big, math.Abs(t))
	}
	if len(ticks) > 1 {
		step = ticks[1] - ticks[0]
	}
	scale, unit := plotTimeUnit(big)
	out := make([]string, len(ticks))
	for i, t := range ticks {
		out[i] = strconv.FormatFloat(t*scale, 'f', plotDecimals(step*scale), 64) + " " + unit
	}
	return out
}

// plotTime formats one time for a marker's tooltip.
func plotTime(v float64) string {
	scale, unit := plotTimeUnit(v)
	return strconv.FormatFloat(v*scale, 'g', 4, 64) + " " + unit
}

func plotNumber(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// plotNum formats a coordinate.
func plotNum(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func plotEscape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
