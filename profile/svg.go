package profile

import (
	"fmt"
	"html"
	"io"
	"math"
)

// stateColours are the fills of the timeline's states.
var stateColours = map[string]string{
	"compute":    "#4caf50",
	"send":       "#1e88e5",
	"receive":    "#fb8c00",
	"wait":       "#e53935",
	"collective": "#8e24aa",
}

// WriteTimeline draws timeline.svg as PEP displays it: one row per rank,
// its states over time in colour, a time axis and a legend. Each interval
// carries a tooltip with its state, times and source line.
func WriteTimeline(w io.Writer, prof *Profile, title string) error {
	const (
		left, right, top, rowH, gap = 70.0, 50.0, 40.0, 22.0, 6.0
		width                       = 960.0
	)
	end := 0.0
	for _, iv := range prof.Timeline {
		end = math.Max(end, iv.End)
	}
	if end <= 0 {
		end = 1
	}
	plotW := width - left - right
	height := top + float64(prof.Ranks)*(rowH+gap) + 70
	x := func(t float64) float64 { return left + plotW*t/end }
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	p(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	p(`<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", left, html.EscapeString(title))
	for r := 0; r < prof.Ranks; r++ {
		y := top + float64(r)*(rowH+gap)
		p(`<text x="%.0f" y="%.1f" text-anchor="end">rank %d</text>`+"\n", left-8, y+rowH*0.7, r)
		p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#eeeeee"/>`+"\n", left, y, plotW, rowH)
	}
	for _, iv := range prof.Timeline {
		y := top + float64(iv.Rank)*(rowH+gap)
		wd := math.Max(x(iv.End)-x(iv.Start), 0.3)
		tip := fmt.Sprintf("rank %d %s %s – %s", iv.Rank, iv.State, seconds(iv.Start), seconds(iv.End))
		if iv.Line > 0 {
			tip += fmt.Sprintf(", line %d", iv.Line)
		}
		p(`<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
			x(iv.Start), y, wd, rowH, stateColours[iv.State], html.EscapeString(tip))
	}
	axisY := top + float64(prof.Ranks)*(rowH+gap)
	p(`<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="black"/>`+"\n", left, axisY, left+plotW, axisY)
	for i := 0; i <= 5; i++ {
		t := end * float64(i) / 5
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x(t), axisY, x(t), axisY+4)
		p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x(t), axisY+16, seconds(t))
	}
	lx := left
	for _, s := range States {
		p(`<rect x="%.0f" y="%.1f" width="12" height="12" fill="%s"/>`, lx, axisY+30, stateColours[s])
		p(`<text x="%.0f" y="%.1f">%s</text>`+"\n", lx+16, axisY+40, s)
		lx += 110
	}
	_, err := fmt.Fprintln(w, `</svg>`)
	return err
}
