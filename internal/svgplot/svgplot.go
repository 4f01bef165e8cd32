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
type Series struct {
	Name string
	X, Y []float64
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

// WritePlot writes a standalone SVG line chart of the series, like seed
// 003's Figures 3 and 6 (estimated time against data domain size): axes
// with ticks at 1-2-5 steps, X tick labels as plain numbers, Y tick labels
// as times with a unit (ns, µs, ms, s), one colour per series, markers on
// series of up to 60 points, and a legend. The Y axis always includes
// zero. Points whose X or Y is NaN or infinite are skipped; empty series
// appear in the legend only. A series whose X and Y differ in length is
// an error, reported before anything is written.
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
	}
	// The finite points of each series and the ranges they span.
	pts := make([][][2]float64, len(series))
	var xs, ys []float64
	for i, s := range series {
		for j := range s.X {
			x, y := s.X[j], s.Y[j]
			if plotFinite(x) && plotFinite(y) {
				pts[i] = append(pts[i], [2]float64{x, y})
				xs = append(xs, x)
				ys = append(ys, y)
			}
		}
	}
	xt := plotNiceTicks(plotRange(xs, false))
	yt := plotNiceTicks(plotRange(ys, true))
	xlo, xhi := xt[0], xt[len(xt)-1]
	ylo, yhi := yt[0], yt[len(yt)-1]
	px := func(x float64) float64 { return plotLeft + (x-xlo)/(xhi-xlo)*plotWidth }
	py := func(y float64) float64 { return plotTop + plotHeight - (y-ylo)/(yhi-ylo)*plotHeight }

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
	legendW := 0
	if len(series) > 0 {
		legendW = plotGap + 36 + plotCharW*longest + 12
	}
	width := plotLeft + plotWidth + max(legendW, 24)
	height := max(plotTop+plotHeight+plotBottom, plotTop+len(series)*plotRow+plotRow)

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
	b.WriteString(`<g class="xticks" text-anchor="middle">` + "\n")
	for i, l := range plotNumberLabels(xt) {
		fmt.Fprintf(&b, `<text class="xtick" x="%s" y="%d">%s</text>`+"\n", f(px(xt[i])), plotTop+plotHeight+18, plotEscape(l))
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g class="yticks" text-anchor="end">` + "\n")
	yLabels, yText := plotTimeLabels(yt), plotTime
	if !seconds {
		yLabels, yText = plotNumberLabels(yt), plotNumber
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
			coords = append(coords, f(px(p[0]))+","+f(py(p[1])))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke-width="2"%s points="%s"/>`+"\n", dash, strings.Join(coords, " "))
		if len(pts[i]) <= plotMarkers {
			for _, p := range pts[i] {
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3"><title>%s</title></circle>`+"\n",
					f(px(p[0])), f(py(p[1])), plotEscape(fmt.Sprintf("%s: %s, %s", names[i], plotNumber(p[0]), yText(p[1]))))
			}
		}
		b.WriteString("</g>\n")
	}
	if len(series) > 0 {
		lx := plotLeft + plotWidth + plotGap
		b.WriteString(`<g class="legend">` + "\n")
		for i := range series {
			color, dash := plotStyle(i)
			y := plotTop + 10 + i*plotRow
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
