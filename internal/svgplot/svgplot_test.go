package svgplot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// svgDoc is what the tests read back from a plot.
type svgDoc struct {
	polylines [][][2]float64 // the points of each polyline
	circles   int
	texts     map[string][]string // text content by class
	width     float64
	height    float64
}

func parseSVG(t *testing.T, data []byte) svgDoc {
	t.Helper()
	doc := svgDoc{texts: map[string][]string{}}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []xml.StartElement
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the plot is not XML: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tok)
			text.Reset()
			attr := func(name string) string {
				for _, a := range tok.Attr {
					if a.Name.Local == name {
						return a.Value
					}
				}
				return ""
			}
			switch tok.Name.Local {
			case "svg":
				if tok.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("svg namespace = %q", tok.Name.Space)
				}
				doc.width, _ = strconv.ParseFloat(attr("width"), 64)
				doc.height, _ = strconv.ParseFloat(attr("height"), 64)
			case "polyline":
				var pts [][2]float64
				for _, p := range strings.Fields(attr("points")) {
					x, y, ok := strings.Cut(p, ",")
					fx, err1 := strconv.ParseFloat(x, 64)
					fy, err2 := strconv.ParseFloat(y, 64)
					if !ok || err1 != nil || err2 != nil {
						t.Fatalf("bad point %q", p)
					}
					pts = append(pts, [2]float64{fx, fy})
				}
				doc.polylines = append(doc.polylines, pts)
			case "circle":
				doc.circles++
			}
		case xml.CharData:
			text.Write(tok)
		case xml.EndElement:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.Name.Local == "text" {
				for _, a := range top.Attr {
					if a.Name.Local == "class" {
						doc.texts[a.Value] = append(doc.texts[a.Value], text.String())
					}
				}
			}
			text.Reset()
		}
	}
	return doc
}

func plot(t *testing.T, title, xl, yl string, series []Series) ([]byte, svgDoc) {
	t.Helper()
	var b bytes.Buffer
	if err := WritePlot(&b, title, xl, yl, series); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), parseSVG(t, b.Bytes())
}

// labelValue reads a tick label back as a number (a time in seconds when
// it has a unit).
func labelValue(t *testing.T, l string) float64 {
	t.Helper()
	num, unit, _ := strings.Cut(l, " ")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.Fatalf("tick label %q: %v", l, err)
	}
	scale := map[string]float64{"": 1, "s": 1, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
	s, ok := scale[unit]
	if !ok {
		t.Fatalf("tick label %q: unknown unit", l)
	}
	return v * s
}

func checkTicks(t *testing.T, doc svgDoc) {
	t.Helper()
	for _, class := range []string{"xtick", "ytick"} {
		labels := doc.texts[class]
		if len(labels) < 2 {
			t.Errorf("%s labels: %q, want at least 2", class, labels)
			continue
		}
		for i := 1; i < len(labels); i++ {
			if labelValue(t, labels[i]) <= labelValue(t, labels[i-1]) {
				t.Errorf("%s labels not increasing: %q", class, labels)
				break
			}
		}
	}
	for _, pl := range doc.polylines {
		for _, p := range pl {
			if p[0] < plotLeft-0.1 || p[0] > plotLeft+plotWidth+0.1 || p[1] < plotTop-0.1 || p[1] > plotTop+plotHeight+0.1 {
				t.Errorf("point %v outside the data area", p)
			}
		}
	}
}

func TestWritePlotStructure(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	series := []Series{
		{Name: "G(BLOCK,BLOCK)", X: []float64{32, 64, 128, 256}, Y: []float64{1e-4, 2e-4, 5e-4, 1.5e-3}},
		{Name: `G(:,BLOCK) <strips> & "cols"`, X: []float64{32, 64, nan, 128, 256, inf}, Y: []float64{5e-5, 1.5e-4, 1, inf, 1.7e-3, 1}},
		{Name: "empty"},
		{Name: "", X: []float64{nan}, Y: []float64{1}},
	}
	data, doc := plot(t, "REDBLACK <P=16>", "N & M", "time per cycle", series)
	if len(doc.polylines) != 2 {
		t.Fatalf("%d polylines, want 2 (one per series with data)", len(doc.polylines))
	}
	if len(doc.polylines[0]) != 4 || len(doc.polylines[1]) != 3 {
		t.Errorf("polyline points = %d, %d; want 4, 3", len(doc.polylines[0]), len(doc.polylines[1]))
	}
	if doc.circles != 7 {
		t.Errorf("%d markers, want 7", doc.circles)
	}
	want := []string{"G(BLOCK,BLOCK)", `G(:,BLOCK) <strips> & "cols"`, "empty (no data)", "series 4 (no data)"}
	if got := doc.texts["legend-name"]; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("legend = %q, want %q", got, want)
	}
	if !bytes.Contains(data, []byte("&lt;strips&gt; &amp; &#34;cols&#34;")) {
		t.Errorf("legend name not escaped")
	}
	if got := doc.texts["title"]; len(got) != 1 || got[0] != "REDBLACK <P=16>" {
		t.Errorf("title = %q", got)
	}
	if got := doc.texts["xlabel"]; len(got) != 1 || got[0] != "N & M" {
		t.Errorf("x label = %q", got)
	}
	checkTicks(t, doc)
	// The Y axis starts at 0 and covers the largest value, in ms.
	y := doc.texts["ytick"]
	if y[0] != "0.0 ms" || labelValue(t, y[len(y)-1]) < 1.7e-3 || !strings.HasSuffix(y[1], " ms") {
		t.Errorf("y ticks = %q", y)
	}
	// X ticks cover 32..256.
	x := doc.texts["xtick"]
	if labelValue(t, x[0]) > 32 || labelValue(t, x[len(x)-1]) < 256 {
		t.Errorf("x ticks = %q", x)
	}
	// Larger times are drawn higher (smaller SVG y).
	pl := doc.polylines[0]
	for i := 1; i < len(pl); i++ {
		if pl[i][0] <= pl[i-1][0] || pl[i][1] >= pl[i-1][1] {
			t.Errorf("series 0 not drawn rising to the right: %v", pl)
		}
	}
	// Distinct colours.
	if bytes.Count(data, []byte(plotPalette[0])) < 2 || bytes.Count(data, []byte(plotPalette[1])) < 2 {
		t.Errorf("palette colours missing")
	}
}

func TestWritePlotDegenerate(t *testing.T) {
	nan := math.NaN()
	for name, series := range map[string][]Series{
		"no series":    nil,
		"all empty":    {{Name: "a"}, {Name: "b"}},
		"all NaN":      {{Name: "a", X: []float64{nan, 1}, Y: []float64{1, math.Inf(-1)}}},
		"single point": {{Name: "a", X: []float64{1000}, Y: []float64{3e-6}}},
		"equal Y":      {{Name: "a", X: []float64{1, 2, 3}, Y: []float64{2e-3, 2e-3, 2e-3}}},
		"zero Y":       {{Name: "a", X: []float64{1, 2}, Y: []float64{0, 0}}},
		"equal X":      {{Name: "a", X: []float64{5, 5}, Y: []float64{1, 2}}},
		"X at zero":    {{Name: "a", X: []float64{0}, Y: []float64{1}}},
		"negative":     {{Name: "a", X: []float64{-10, 10}, Y: []float64{-2e-9, 5e-9}}},
		"huge":         {{Name: "a", X: []float64{0, 1e12}, Y: []float64{1e-12, 3e4}}},
		"tiny span":    {{Name: "a", X: []float64{1, 1 + 1e-9}, Y: []float64{1e-9, 1.0000001e-9}}},
		"many":         {{Name: "a", X: make([]float64, 500), Y: make([]float64, 500)}},
	} {
		t.Run(name, func(t *testing.T) {
			_, doc := plot(t, "", "", "", series)
			checkTicks(t, doc)
			if doc.width <= 0 || doc.height <= 0 {
				t.Errorf("size %gx%g", doc.width, doc.height)
			}
		})
	}
	// A single point is drawn as a marker on a one-point polyline.
	_, doc := plot(t, "", "", "", []Series{{Name: "a", X: []float64{1000}, Y: []float64{3e-6}}})
	if len(doc.polylines) != 1 || len(doc.polylines[0]) != 1 || doc.circles != 1 {
		t.Errorf("single point: %d polylines, %d circles", len(doc.polylines), doc.circles)
	}
	// Many legend entries wrap into columns, every one shown; the 11th
	// series gets a dash.
	many := make([]Series, 30)
	for i := range many {
		many[i] = Series{Name: strconv.Itoa(i), X: []float64{1, 2}, Y: []float64{1, float64(i)}}
	}
	data, doc := plot(t, "", "", "", many)
	if n := len(doc.texts["legend-name"]); n != 30 {
		t.Errorf("%d legend entries, want 30", n)
	}
	if doc.height != plotTop+plotHeight+plotBottom || doc.width < plotLeft+plotWidth+plotGap+2*(36+plotCharW*2+12) {
		t.Errorf("size %gx%g: the legend of 30 should take two columns beside the plot", doc.width, doc.height)
	}
	if !bytes.Contains(data, []byte(`<text class="legend-name" x="`+strconv.Itoa(plotLeft+plotWidth+plotGap+32+36+plotCharW*2+12)+`"`)) {
		t.Errorf("no legend entry in the second column:\n%s", data)
	}
	if !bytes.Contains(data, []byte(`stroke-dasharray="6 3"`)) {
		t.Errorf("series past the palette have no dash")
	}
}

func TestWritePlotErrors(t *testing.T) {
	var b bytes.Buffer
	err := WritePlot(&b, "t", "x", "y", []Series{{Name: "ok"}, {Name: "bad", X: []float64{1, 2}, Y: []float64{1}}})
	if err == nil || err.Error() != `plot: series 2 ("bad") has 2 X values and 1 Y values` {
		t.Errorf("error = %v", err)
	}
	if b.Len() != 0 {
		t.Errorf("wrote %d bytes before the error", b.Len())
	}
	boom := errors.New("disk full")
	if err := WritePlot(failWriter{boom}, "t", "x", "y", nil); !errors.Is(err, boom) {
		t.Errorf("write error = %v", err)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestPlotNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 1, "0 0.2 0.4 0.6 0.8 1"},
		{0, 175e-6, "0 5e-05 0.0001 0.00015 0.0002"},
		{3, 97, "0 20 40 60 80 100"},
		{32, 256, "0 50 100 150 200 250 300"},
		{-2e-9, 5e-9, "-2e-09 0 2e-09 4e-09 6e-09"},
		{1000, 1000, "1000 1000"},
	} {
		var got []string
		for _, v := range plotNiceTicks(tc.lo, tc.hi) {
			got = append(got, strconv.FormatFloat(v, 'g', 10, 64))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("plotNiceTicks(%g, %g) = %s, want %s", tc.lo, tc.hi, strings.Join(got, " "), tc.want)
		}
	}
}

func TestPlotLabels(t *testing.T) {
	for _, tc := range []struct {
		ticks []float64
		want  string
	}{
		{[]float64{0, 5e-5, 1e-4, 1.5e-4, 2e-4}, "0 µs|50 µs|100 µs|150 µs|200 µs"},
		{[]float64{0, 2e-4, 4e-4, 6e-4, 8e-4, 1e-3}, "0.0 ms|0.2 ms|0.4 ms|0.6 ms|0.8 ms|1.0 ms"},
		{[]float64{0, 0.5, 1, 1.5}, "0.0 s|0.5 s|1.0 s|1.5 s"},
		{[]float64{0, 2e-10, 4e-10}, "0.0 ns|0.2 ns|0.4 ns"},
	} {
		if got := strings.Join(plotTimeLabels(tc.ticks), "|"); got != tc.want {
			t.Errorf("plotTimeLabels(%v) = %s, want %s", tc.ticks, got, tc.want)
		}
	}
	for _, tc := range []struct {
		ticks []float64
		want  string
	}{
		{[]float64{0, 50, 100}, "0|50|100"},
		{[]float64{0, 0.05, 0.1}, "0.00|0.05|0.10"},
		{[]float64{1, 1 + 2e-10, 1 + 4e-10}, "1.0000000000|1.0000000002|1.0000000004"},
		{[]float64{0, 2e-5, 4e-5}, "0|2e-05|4e-05"},
		{[]float64{1e8, 1e8 + 50, 1e8 + 100}, "1e+08|1.0000005e+08|1.000001e+08"},
		{[]float64{0, 5e7, 1e8}, "0|5e+07|1e+08"},
	} {
		if got := strings.Join(plotNumberLabels(tc.ticks), "|"); got != tc.want {
			t.Errorf("plotNumberLabels(%v) = %s, want %s", tc.ticks, got, tc.want)
		}
	}
}

// The -update flag rewrites golden files. Another test file of the
// package may define it too, so it is registered only once and read
// through the flag package.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

func goldenUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// feasibilityModel is the model of partition's estimator tests: fixed
// figures, so that retraining the default does not change the plot.
func feasibilityModel(t *testing.T) *machine.Machine {
	t.Helper()
	fh, err := os.Open(filepath.Join("..", "..", "partition", "testdata", "feasibility_model.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	m, err := machine.LoadMachine(fh)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWritePlotGolden compares a plot of the default model's curves with
// testdata/plot.golden.svg (-update rewrites it).
func TestWritePlotGolden(t *testing.T) {
	m := feasibilityModel(t) // fixed figures: retraining the default does not change the plot
	var series []Series
	for _, p := range []string{machine.PatternVectorShift, machine.PatternExchange, machine.PatternBroadcast} {
		s := Series{Name: p + " (P=4)"}
		for b := 0.0; b <= 8192; b += 256 {
			v, err := m.CommTime(p, 4, b)
			if err != nil {
				t.Fatal(err)
			}
			s.X = append(s.X, b)
			s.Y = append(s.Y, v)
		}
		series = append(series, s)
	}
	var b bytes.Buffer
	if err := WritePlot(&b, "Default model at P = 4", "message size (bytes)", "time per call", series); err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, b.Bytes())
	checkTicks(t, doc)
	golden := filepath.Join("testdata", "plot.golden.svg")
	if goldenUpdate() {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestWritePlotGolden -update)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("plot differs from %s; run go test -run TestWritePlotGolden -update and look at it", golden)
	}
}

// TestWriteRatioPlot: plain-number Y ticks and tooltips, no time units.
func TestWriteRatioPlot(t *testing.T) {
	var b strings.Builder
	s := []Series{{Name: "column", X: []float64{5, 6, 7}, Y: []float64{0.25, 0.5, 1.25}}}
	if err := WriteRatioPlot(&b, "ratio", "log2 N", "predicted / measured", s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, " s</text>") || strings.Contains(out, " ms</text>") || !strings.Contains(out, "column: 7, 1.25") {
		t.Errorf("ratio plot has time units or lacks the tooltip:\n%s", out)
	}
}

// TestWritePlotLogAxes: sizes over decades give log-log axes (each time
// tick in its own unit, the Y label without one); a narrow span keeps a
// linear Y axis through zero whose label takes the ticks' unit.
func TestWritePlotLogAxes(t *testing.T) {
	n := []float64{16, 64, 256, 1024, 4096}
	series := []Series{
		{Name: "BLOCK", X: n, Y: []float64{2e-5, 1.2e-4, 9e-4, 1.1e-2, 0.15}},
		{Name: "CYCLIC", X: n, Y: []float64{4e-5, 1e-4, 6e-4, 9e-3, 0.16}},
	}
	_, doc := plot(t, "log", "N", "estimated time (s)", series)
	checkTicks(t, doc)
	if got := strings.Join(doc.texts["xtick"], "|"); got != "10|100|1000|10000" {
		t.Errorf("log x ticks = %s", got)
	}
	if got := strings.Join(doc.texts["ytick"], "|"); got != "10 µs|100 µs|1 ms|10 ms|100 ms|1 s" {
		t.Errorf("log y ticks = %s", got)
	}
	if got := doc.texts["ylabel"]; len(got) != 1 || got[0] != "estimated time" {
		t.Errorf("log y label = %q", got)
	}
	// Equal ratios are equal distances: 16 → 64 as 1024 → 4096.
	pl := doc.polylines[0]
	if d1, d2 := pl[1][0]-pl[0][0], pl[4][0]-pl[3][0]; math.Abs(d1-d2) > 0.2 {
		t.Errorf("log x: steps %g and %g", d1, d2)
	}
	// A decade of sizes, times within a factor of 3: log X, linear Y in ms.
	_, doc = plot(t, "lin", "N", "estimated time (s)", []Series{{Name: "a", X: []float64{10, 1000}, Y: []float64{1e-3, 3e-3}}})
	if got := doc.texts["ylabel"]; len(got) != 1 || got[0] != "estimated time (ms)" {
		t.Errorf("linear y label = %q", got)
	}
	if y := doc.texts["ytick"]; y[0] != "0.0 ms" {
		t.Errorf("linear y ticks = %q", y)
	}
	// Less than a decade of sizes: linear X.
	_, doc = plot(t, "lin", "N", "time", []Series{{Name: "a", X: []float64{100, 900}, Y: []float64{1e-3, 3e-3}}})
	if x := doc.texts["xtick"]; labelValue(t, x[1])-labelValue(t, x[0]) != labelValue(t, x[2])-labelValue(t, x[1]) {
		t.Errorf("linear x ticks = %q", x)
	}
	if got := doc.texts["ylabel"]; got[0] != "time (ms)" {
		t.Errorf("y label = %q", got)
	}
}

// TestWritePlotErrorBars: a series with a spread gets one error bar per
// point that has one, inside the plot, and the spread in the tooltip.
func TestWritePlotErrorBars(t *testing.T) {
	s := Series{Name: "measured", X: []float64{64, 128, 256}, Y: []float64{1e-3, 2e-3, 4e-3},
		YLo: []float64{0.9e-3, 1.8e-3, math.NaN()}, YHi: []float64{1.3e-3, 4.5e-3, 5e-3}}
	data, doc := plot(t, "bars", "N", "time (s)", []Series{s})
	if n := bytes.Count(data, []byte(`class="errorbar"`)); n != 2 {
		t.Errorf("%d error bars, want 2", n)
	}
	if !bytes.Contains(data, []byte("measured: 128, 2 ms (1.8 ms to 4.5 ms)")) {
		t.Errorf("tooltip without the spread:\n%s", data)
	}
	checkTicks(t, doc)
	if y := doc.texts["ytick"]; labelValue(t, y[len(y)-1]) < 4.5e-3 {
		t.Errorf("y axis %q does not reach the top of the spread", y)
	}
	var b bytes.Buffer
	if err := WritePlot(&b, "", "", "", []Series{{Name: "bad", X: []float64{1}, Y: []float64{1}, YLo: []float64{1, 2}, YHi: []float64{1}}}); err == nil {
		t.Errorf("a spread of the wrong length is not an error")
	}
}

// renderPNG renders an SVG file to PNG with rsvg-convert (Debian's
// librsvg2-bin) or headless Chromium, whichever is installed; ok is false
// when neither is.
func renderPNG(t *testing.T, svgPath, pngPath string, width, height int) (ok bool) {
	t.Helper()
	if p, err := exec.LookPath("rsvg-convert"); err == nil {
		out, err := exec.Command(p, "-o", pngPath, svgPath).CombinedOutput()
		if err != nil {
			t.Fatalf("rsvg-convert: %v\n%s", err, out)
		}
		return true
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		out, err := exec.Command(p, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
			"--screenshot="+pngPath, fmt.Sprintf("--window-size=%d,%d", width, height), "file://"+svgPath).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return true
	}
	return false
}

// TestWritePlotRendersPNG draws a log-log plot with error bars and eight
// candidates, renders it to PNG and checks the picture: the SVG's size,
// mostly white, the first series' colour present, ink in the legend's
// second half (every candidate drawn). Skipped without a renderer.
func TestWritePlotRendersPNG(t *testing.T) {
	n := []float64{16, 64, 256, 1024, 4096}
	var series []Series
	for i := 0; i < 8; i++ {
		s := Series{Name: fmt.Sprintf("candidate %d", i+1), X: n}
		for _, x := range n {
			y := 1e-6 * x * x * (1 + float64(i)/4)
			s.Y, s.YLo, s.YHi = append(s.Y, y), append(s.YLo, 0.9*y), append(s.YHi, 1.2*y)
		}
		series = append(series, s)
	}
	dir := t.TempDir()
	svgPath, pngPath := filepath.Join(dir, "plot.svg"), filepath.Join(dir, "plot.png")
	data, doc := plot(t, "eight candidates", "N", "estimated time (s)", series)
	if err := os.WriteFile(svgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if !renderPNG(t, svgPath, pngPath, int(doc.width), int(doc.height)) {
		t.Skip("neither rsvg-convert (apt-get install librsvg2-bin) nor chromium is installed")
	}
	fh, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatalf("the renderer's output is not a PNG: %v", err)
	}
	bounds := img.Bounds()
	if bounds.Dx() != int(doc.width) || bounds.Dy() != int(doc.height) {
		t.Errorf("PNG is %dx%d, the SVG %gx%g", bounds.Dx(), bounds.Dy(), doc.width, doc.height)
	}
	var white, blue, legendInk int
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case r > 245 && g > 245 && b > 245:
				white++
			case absDiff(r, 0x1f) < 24 && absDiff(g, 0x77) < 24 && absDiff(b, 0xb4) < 24:
				blue++
			}
			if x > plotLeft+plotWidth+plotGap && y > plotTop+4*plotRow && y < plotTop+8*plotRow && r < 200 {
				legendInk++
			}
		}
	}
	total := bounds.Dx() * bounds.Dy()
	if white < total/2 || white == total {
		t.Errorf("%d of %d pixels white: blank or not a plot", white, total)
	}
	if blue < 50 {
		t.Errorf("only %d pixels of the first series' colour", blue)
	}
	if legendInk < 50 {
		t.Errorf("no ink where legend entries 5 to 8 belong (%d pixels)", legendInk)
	}
	t.Logf("PNG %dx%d: %d white, %d of series 1's colour, %d legend pixels", bounds.Dx(), bounds.Dy(), white, blue, legendInk)
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
