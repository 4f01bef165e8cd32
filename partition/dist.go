package partition

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/pfls/pfls/parser"
)

// The rules implemented here, per dialect:
//
//   - Fortran D: DECOMPOSITION D(...) declares a template; ALIGN A, B WITH D
//     aligns arrays identically, ALIGN X(I,J) WITH D(J,I) permutes;
//     DISTRIBUTE D(fmt, ...) with fmt BLOCK, CYCLIC, CYCLIC(k) or ":" (not
//     distributed).
//   - HPF: TEMPLATE and PROCESSORS; ALIGN with dummies, offsets and "*"
//     (an alignee "*" collapses a dimension, a target "*" replicates);
//     DISTRIBUTE T(fmt, ...) ONTO P with "*" for not distributed, also of
//     arrays directly. An array that is neither aligned nor distributed is
//     replicated (every processor holds all of it).
//   - CM Fortran: every array is spread over all processors in all its
//     dimensions (the default NEWS layout) unless CMF$ LAYOUT marks a
//     dimension :SERIAL; CMF$ ALIGN B(I,J) WITH A(I,J) gives B A's layout.
//
// Distributed dimensions are laid on a processor grid: the shape of the
// PROCESSORS arrangement named by ONTO when its extents are constants,
// else the P processors factored as evenly as possible over the
// distributed dimensions (16 over two dimensions gives 4 x 4).

// DimFormat is how one dimension is spread over the processors.
type DimFormat struct {
	Kind  string // "BLOCK", "CYCLIC" or "*" (not distributed)
	K     int    // the block size of CYCLIC(k); 0 means 1
	Procs int    // processors along this dimension (1 when not distributed)
}

// Layout is the distribution of one array.
type Layout struct {
	Array    string
	Template string // the template or decomposition it is aligned with ("" if distributed directly)
	// Dims[i] is the format of array dimension i; TemplateDim[i] the
	// template dimension it is aligned with (-1 when collapsed).
	Dims        []DimFormat
	TemplateDim []int
	Offset      []int // alignment offset of each dimension
	Extents     []Extent
	Replicated  bool // every processor holds the whole array
}

// Extent is the declared lower and upper bound of a dimension, when known.
type Extent struct {
	Lower, Upper int64
	Known        bool
}

// Distributed reports whether some dimension is spread over processors.
func (l *Layout) Distributed() bool {
	for _, d := range l.Dims {
		if d.Procs > 1 {
			return true
		}
	}
	return false
}

// Distribution is the layouts of the arrays of one unit on P processors.
type Distribution struct {
	Procs    int
	Template string   // the main template (or array) whose distribution names the whole
	Formats  []string // its formats, as written: BLOCK, CYCLIC, CYCLIC(2), ":"
	Arrays   map[string]*Layout
	Dialect  string // "fortran-d", "hpf", "cmf" or "" (no directives)
	// Grid is the processors along each distributed dimension of the
	// main template, in order; Name says it when it is not the even
	// factorization (2x8 instead of 4x4).
	Grid []int
	// label names a distribution without a template where "replicated"
	// would mislead: a loop OpenMP shares among threads (NewReport).
	label string
}

// Name prints the distribution as the paper does: G(BLOCK,BLOCK).
func (d *Distribution) Name() string {
	if d.Template == "" {
		if d.label != "" {
			return d.label
		}
		return "replicated"
	}
	return d.Template + "(" + strings.Join(d.Formats, ",") + ")" + gridSuffix(d.Procs, d.Grid)
}

// gridSuffix names a processor grid of two or more dimensions that is
// not the even factorization of procs: " on 2x8".
func gridSuffix(procs int, grid []int) string {
	if len(grid) < 2 || slices.Equal(grid, factor(procs, len(grid))) {
		return ""
	}
	parts := make([]string, len(grid))
	for i, g := range grid {
		parts[i] = fmt.Sprint(g)
	}
	return " on " + strings.Join(parts, "x")
}

// Dialect tells which dialect a unit's directives are written in.
func Dialect(u *parser.Unit) string {
	dialect := ""
	var walk func([]parser.Stmt)
	walk = func(list []parser.Stmt) {
		for _, s := range list {
			switch x := s.(type) {
			case *parser.Directive:
				switch x.Sentinel {
				case "":
					dialect = "fortran-d"
				case "HPF":
					if dialect == "" {
						dialect = "hpf"
					}
				case "CMF":
					dialect = "cmf"
				}
			case *parser.DoConstruct:
				walk(x.Body)
			}
		}
	}
	walk(u.Body)
	return dialect
}

// FromUnit reads the distribution a unit's directives give on procs
// processors. fileDialect may force CM Fortran's default layout (for a
// .fcm file without CMF$ lines).
func FromUnit(u *parser.Unit, procs int, fileDialect string) *Distribution {
	d := &Distribution{Procs: procs, Arrays: map[string]*Layout{}, Dialect: Dialect(u)}
	if d.Dialect == "" {
		d.Dialect = fileDialect
	}
	sc := u.Scope
	// Templates and arrays distributed directly.
	type tdist struct {
		formats []*parser.DistFormat
		onto    *parser.Ident
	}
	dists := map[string]tdist{}
	for _, name := range sc.Names() {
		sym := sc.Syms[name]
		if sym.Dist != nil {
			dists[name] = tdist{sym.Dist.Formats, sym.Dist.Onto}
		}
	}
	// The main template: the distributed one with the most dimensions,
	// the first written among equals (the first target of a DISTRIBUTE
	// with several).
	var mainT string
	for name, td := range dists {
		if mainT == "" || len(td.formats) > len(dists[mainT].formats) ||
			len(td.formats) == len(dists[mainT].formats) && writtenBefore(sc, name, mainT) {
			mainT = name
		}
	}
	if mainT != "" {
		d.Template = mainT
		for _, f := range dists[mainT].formats {
			d.Formats = append(d.Formats, formatString(f, sc))
		}
	}
	grids := map[string][]int{}
	gridOf := func(t string) []int {
		if g, ok := grids[t]; ok {
			return g
		}
		td := dists[t]
		n := 0
		for _, f := range td.formats {
			if f.Kind != ":" && f.Kind != "*" {
				n++
			}
		}
		g := processorGrid(procs, n, td.onto, sc)
		grids[t] = g
		return g
	}
	if mainT != "" {
		d.Grid = gridOf(mainT)
	}
	// templateFormats returns the per-template-dimension formats.
	templateFormats := func(t string) []DimFormat {
		td := dists[t]
		grid := gridOf(t)
		out := make([]DimFormat, len(td.formats))
		gi := 0
		for i, f := range td.formats {
			switch f.Kind {
			case ":", "*":
				out[i] = DimFormat{Kind: "*", Procs: 1}
			default:
				k := 0
				if f.Arg != nil {
					if v, ok := parser.EvalInt(f.Arg, sc); ok {
						k = int(v)
					}
				}
				p := 1
				if gi < len(grid) {
					p = grid[gi]
				}
				gi++
				out[i] = DimFormat{Kind: f.Kind, K: k, Procs: p}
			}
		}
		return out
	}
	for _, name := range sc.Names() {
		sym := sc.Syms[name]
		if sym.Kind != parser.SymVariable || sym.Rank() == 0 {
			continue
		}
		l := &Layout{Array: name, Extents: extents(sym, sc)}
		rank := sym.Rank()
		l.TemplateDim = make([]int, rank)
		l.Offset = make([]int, rank)
		for i := range l.TemplateDim {
			l.TemplateDim[i] = i
		}
		switch {
		case sym.Dist != nil:
			l.Template = name
			l.Dims = templateFormats(name)
		case sym.Align != nil && dists[sym.Align.Target.Name].formats != nil:
			t := sym.Align.Target.Name
			l.Template = t
			tf := templateFormats(t)
			mapAlignment(l, sym.Align, tf, rank)
		case sym.Align != nil:
			// Aligned with another array: take its layout once known (CMF ALIGN).
			l.Template = "@" + sym.Align.Target.Name
		case d.Dialect == "cmf":
			l.Dims = cmfLayout(sym, procs)
			l.Template = name
		default:
			l.Replicated = true
		}
		d.Arrays[name] = l
	}
	// Resolve alignments with arrays (CMF ALIGN B(I,J) WITH A(I,J)).
	for _, l := range d.Arrays {
		if strings.HasPrefix(l.Template, "@") {
			target := d.Arrays[l.Template[1:]]
			if target != nil && target.Dims != nil {
				l.Template = target.Template
				l.Dims = append([]DimFormat(nil), target.Dims...)
				if len(l.Dims) > len(l.Extents) {
					l.Dims = l.Dims[:len(l.Extents)]
				}
				for len(l.Dims) < len(l.Extents) {
					l.Dims = append(l.Dims, DimFormat{Kind: "*", Procs: 1})
				}
			} else {
				l.Replicated = true
				l.Template = ""
			}
		}
		if l.Dims == nil {
			l.Dims = make([]DimFormat, len(l.Extents))
			for i := range l.Dims {
				l.Dims[i] = DimFormat{Kind: "*", Procs: 1}
			}
		}
	}
	if d.Template == "" && d.Dialect == "cmf" {
		// Name the CM Fortran distribution after the largest array.
		var best *Layout
		for _, name := range sortedKeys(d.Arrays) {
			l := d.Arrays[name]
			if l.Distributed() && (best == nil || len(l.Dims) > len(best.Dims)) {
				best = l
			}
		}
		if best != nil {
			d.Template = best.Array
			for _, f := range best.Dims {
				d.Formats = append(d.Formats, f.String())
			}
		}
	}
	// Arrays and templates of the same shape distributed identically
	// onto the same arrangement have the same owner for the same indices
	// (HPF 2.0 §4: the mapping depends only on the distribution, the
	// shape and the processors): they are aligned, as if with one
	// template, named after the main template when it is one of them. So
	// are CM Fortran's arrays of one shape in the default layout.
	mainT = d.Template
	type mapping struct {
		l    *Layout // its dimensions and extents
		onto *parser.Ident
	}
	maps := map[string]mapping{}
	var direct []string
	for _, name := range sc.Names() {
		sym := sc.Syms[name]
		l := d.Arrays[name]
		switch {
		case l != nil && l.Template == name && (sym.Dist != nil || d.Dialect == "cmf"):
			maps[name] = mapping{l, onto(sym)}
		case l == nil && sym.Dist != nil:
			// A template (or decomposition).
			maps[name] = mapping{&Layout{Dims: templateFormats(name), Extents: extents(sym, sc)}, onto(sym)}
		default:
			continue
		}
		direct = append(direct, name)
	}
	sort.Slice(direct, func(i, j int) bool {
		if (direct[i] == mainT) != (direct[j] == mainT) {
			return direct[i] == mainT
		}
		return writtenBefore(sc, direct[i], direct[j])
	})
	canon := map[string]string{}
	for i, a := range direct {
		if canon[a] != "" {
			continue
		}
		for _, b := range direct[i+1:] {
			if canon[b] == "" && sameMapping(maps[a].l, maps[b].l, maps[a].onto, maps[b].onto) {
				canon[b] = a
			}
		}
	}
	for _, l := range d.Arrays {
		if c := canon[l.Template]; c != "" {
			l.Template = c
		}
	}
	return d
}

// writtenBefore reports whether the distribution of a is written before
// that of b (by the position of the name in its DISTRIBUTE; by name when
// unknown).
func writtenBefore(sc *parser.Scope, a, b string) bool {
	pa, pb := distPos(sc, a), distPos(sc, b)
	if pa != pb && pa >= 0 && pb >= 0 {
		return pa < pb
	}
	return a < b
}

func onto(sym *parser.Symbol) *parser.Ident {
	if sym == nil || sym.Dist == nil {
		return nil
	}
	return sym.Dist.Onto
}

func distPos(sc *parser.Scope, name string) parser.Pos {
	sym := sc.Syms[name]
	if sym == nil || sym.Dist == nil {
		return -1
	}
	for _, t := range sym.Dist.Targets {
		if t.Name == name {
			return t.Pos()
		}
	}
	return -1
}

// sameMapping reports whether two arrays distributed directly are mapped
// alike: the same formats and processors in every dimension, the same
// known extents and the same ONTO arrangement.
func sameMapping(a, b *Layout, ontoA, ontoB *parser.Ident) bool {
	if len(a.Dims) != len(b.Dims) || len(a.Extents) != len(b.Extents) {
		return false
	}
	if (ontoA == nil) != (ontoB == nil) || ontoA != nil && ontoA.Name != ontoB.Name {
		return false
	}
	for i := range a.Dims {
		if a.Dims[i] != b.Dims[i] {
			return false
		}
	}
	for i := range a.Extents {
		ea, eb := a.Extents[i], b.Extents[i]
		if !ea.Known || !eb.Known || ea.Lower != eb.Lower || ea.Upper != eb.Upper {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]*Layout) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// String prints a format as written in a DISTRIBUTE.
func (f DimFormat) String() string {
	switch {
	case f.Kind == "*":
		return ":"
	case f.Kind == "CYCLIC" && f.K > 1:
		return fmt.Sprintf("CYCLIC(%d)", f.K)
	}
	return f.Kind
}

func formatString(f *parser.DistFormat, sc *parser.Scope) string {
	switch f.Kind {
	case "*", ":":
		return ":"
	}
	if f.Arg != nil {
		if v, ok := parser.EvalInt(f.Arg, sc); ok {
			return fmt.Sprintf("%s(%d)", f.Kind, v)
		}
		return f.Kind + "(" + parser.ExprString(f.Arg) + ")"
	}
	return f.Kind
}

// mapAlignment lays an array on its template's formats through an ALIGN.
func mapAlignment(l *Layout, a *parser.AlignSpec, tf []DimFormat, rank int) {
	l.Dims = make([]DimFormat, rank)
	for i := range l.Dims {
		l.Dims[i] = DimFormat{Kind: "*", Procs: 1}
		l.TemplateDim[i] = -1
	}
	if !a.HasSubs || !a.HasTarget {
		// Identity alignment (Fortran D's ALIGN A WITH D).
		for i := 0; i < rank && i < len(tf); i++ {
			l.Dims[i] = tf[i]
			l.TemplateDim[i] = i
		}
		return
	}
	// ALIGN (:,:) WITH T(:,:): the k-th colon of the alignee goes with
	// the k-th colon of the target.
	var colons []int
	for j, t := range a.TargetSubs {
		if _, ok := t.(*parser.Triplet); ok {
			colons = append(colons, j)
		}
	}
	k := 0
	for i, s := range a.Subs {
		if _, ok := s.(*parser.Triplet); ok && i < rank {
			if k < len(colons) && colons[k] < len(tf) {
				l.Dims[i] = tf[colons[k]]
				l.TemplateDim[i] = colons[k]
			}
			k++
		}
	}
	// Dummy I of alignee dimension i appears in target dimension j.
	for i, s := range a.Subs {
		dummy, ok := s.(*parser.Ident)
		if !ok || i >= rank {
			continue
		}
		for j, t := range a.TargetSubs {
			if j >= len(tf) {
				break
			}
			if name, off, ok := dummyPlus(t); ok && name == dummy.Name {
				l.Dims[i] = tf[j]
				l.TemplateDim[i] = j
				l.Offset[i] = off
			}
		}
	}
	// A target dimension "*" replicates; nothing else to record here.
}

// dummyPlus matches I, I+c and I-c.
func dummyPlus(x parser.Expr) (string, int, bool) {
	switch v := x.(type) {
	case *parser.Ident:
		return v.Name, 0, true
	case *parser.Binary:
		id, ok := v.X.(*parser.Ident)
		lit, ok2 := v.Y.(*parser.Lit)
		if !ok || !ok2 || lit.Kind != parser.IntLit {
			return "", 0, false
		}
		n := 0
		fmt.Sscan(lit.Value, &n)
		switch v.Op {
		case "+":
			return id.Name, n, true
		case "-":
			return id.Name, -n, true
		}
	}
	return "", 0, false
}

func cmfLayout(sym *parser.Symbol, procs int) []DimFormat {
	rank := sym.Rank()
	dims := make([]DimFormat, rank)
	news := 0
	for i := 0; i < rank; i++ {
		serial := sym.Layout != nil && i < len(sym.Layout.Dims) && sym.Layout.Dims[i] == "SERIAL"
		if serial {
			dims[i] = DimFormat{Kind: "*", Procs: 1}
		} else {
			dims[i] = DimFormat{Kind: "BLOCK"}
			news++
		}
	}
	grid := factor(procs, news)
	gi := 0
	for i := range dims {
		if dims[i].Kind == "BLOCK" {
			dims[i].Procs = grid[gi]
			gi++
		}
	}
	return dims
}

func extents(sym *parser.Symbol, sc *parser.Scope) []Extent {
	out := make([]Extent, sym.Rank())
	for i, d := range sym.Dims {
		lo := int64(1)
		okLo := true
		if d.Lower != nil {
			lo, okLo = parser.EvalInt(d.Lower, sc)
		}
		hi, okHi := int64(0), false
		if d.Upper != nil {
			hi, okHi = parser.EvalInt(d.Upper, sc)
		}
		out[i] = Extent{Lower: lo, Upper: hi, Known: okLo && okHi}
	}
	return out
}

// processorGrid shapes n distributed dimensions on procs processors: the
// PROCESSORS arrangement named by ONTO when its shape is constant and
// matches, else an even factorization.
func processorGrid(procs, n int, onto *parser.Ident, sc *parser.Scope) []int {
	if onto != nil {
		if sym := sc.Lookup(onto.Name); sym != nil && sym.Rank() == n {
			// The arrangement is used when it has the processors asked
			// for, so that every candidate runs on the same machine.
			if a := arrangementOf(sym, sc); a.known && !a.tooLarge && a.total == int64(procs) {
				grid := make([]int, n)
				for i, e := range a.extents {
					grid[i] = int(e)
				}
				return grid
			}
		}
	}
	return factor(procs, n)
}

// arrangement is the size of a PROCESSORS arrangement.
type arrangement struct {
	extents []int64 // of each dimension, when known
	// total is the number of processors, the product of the extents; a
	// product past what an int64 holds saturates at math.MaxInt64
	// rather than wrapping around.
	total int64
	// tooLarge: more processors than the estimator takes (MaxProcs),
	// total saturated or not.
	tooLarge bool
	known    bool // every extent a constant of at least 1
	// saturated: total is more than math.MaxInt64; over[i]: so is
	// extents[i] (P(0:9223372036854775807) has 2^63 processors).
	saturated bool
	over      []bool
}

// arrangementOf counts the processors of a PROCESSORS arrangement.
func arrangementOf(sym *parser.Symbol, sc *parser.Scope) arrangement {
	a := arrangement{total: 1, known: true}
	for _, e := range extents(sym, sc) {
		if !e.Known || e.Upper < e.Lower {
			return arrangement{}
		}
		// Upper - Lower + 1 fits an int64 when Upper - Lower < MaxInt64.
		size, over := int64(math.MaxInt64), true
		if e.Lower >= 1 || e.Upper < math.MaxInt64+e.Lower {
			size, over = e.Upper-e.Lower+1, false
		}
		a.extents = append(a.extents, size)
		a.over = append(a.over, over)
		if over || a.total > math.MaxInt64/size {
			a.total, a.saturated = math.MaxInt64, true
		} else {
			a.total *= size
		}
	}
	a.tooLarge = a.total > MaxProcs
	return a
}

// String prints the arrangement's size for a note: "32", "4294967296
// (too large: the estimator takes at most 65536)", "more than
// 9223372036854775807 (too large: ...)".
func (a arrangement) String() string {
	n := fmt.Sprint(a.total)
	if a.saturated {
		n = "more than " + n
	}
	if a.tooLarge {
		n += fmt.Sprintf(" (too large: the estimator takes at most %d)", MaxProcs)
	}
	return n
}

// MaxProcs is the largest processor count the estimator takes.
const MaxProcs = 1 << 16

// factor splits p into n factors as equal as possible, largest first:
// 16 over 2 gives 4 x 4, 8 over 2 gives 4 x 2, 12 over 2 gives 4 x 3.
func factor(p, n int) []int {
	if n <= 0 {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	rest := p
	for i := 0; i < n; i++ {
		left := n - i
		if left == 1 {
			out[i] = rest
			break
		}
		// The largest divisor of rest not above its left-th root.
		target := 1
		root := int(math.Floor(math.Pow(float64(rest), 1/float64(left)) + 1e-9))
		for c := root; c >= 1; c-- {
			if rest%c == 0 {
				target = c
				break
			}
		}
		out[i] = target
		rest /= target
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
}

// WithFormats returns a copy of d in which the main template is
// distributed with the given formats (":", "BLOCK", "CYCLIC", "CYCLIC(k)"),
// keeping every alignment: a candidate distribution.
func WithFormats(u *parser.Unit, procs int, template string, formats []string, fileDialect string) *Distribution {
	sc := u.Scope
	d := &Distribution{Procs: procs, Arrays: map[string]*Layout{}, Template: template, Formats: formats, Dialect: Dialect(u)}
	if d.Dialect == "" {
		d.Dialect = fileDialect
	}
	n := 0
	for _, f := range formats {
		if f != ":" {
			n++
		}
	}
	// The template's ONTO arrangement when it still fits (one dimension
	// per distributed dimension, procs processors): the code action keeps
	// ONTO then, and the estimate must be of the grid it names.
	grid := processorGrid(procs, n, onto(sc.Lookup(template)), sc)
	d.Grid = grid
	tf := make([]DimFormat, len(formats))
	gi := 0
	for i, f := range formats {
		if f == ":" {
			tf[i] = DimFormat{Kind: "*", Procs: 1}
			continue
		}
		kind, k := f, 0
		if strings.HasPrefix(f, "CYCLIC(") {
			kind = "CYCLIC"
			fmt.Sscanf(f, "CYCLIC(%d)", &k)
		}
		tf[i] = DimFormat{Kind: kind, K: k, Procs: grid[gi]}
		gi++
	}
	base := FromUnit(u, procs, fileDialect)
	for name, old := range base.Arrays {
		l := &Layout{Array: name, Extents: old.Extents, TemplateDim: make([]int, len(old.Extents)), Offset: make([]int, len(old.Extents))}
		sym := sc.Lookup(name)
		aligned := old.Template == template || name == template
		switch {
		case name == template:
			l.Template = name
			l.Dims = append([]DimFormat(nil), tf...)
			for i := range l.TemplateDim {
				l.TemplateDim[i] = i
			}
		case aligned && sym != nil && sym.Align != nil:
			l.Template = template
			mapAlignment(l, sym.Align, tf, len(old.Extents))
		case aligned:
			// Aligned through CMF ALIGN with the template array, or the
			// default CMF layout of the same shape.
			l.Template = template
			l.Dims = append([]DimFormat(nil), tf...)
			if len(l.Dims) > len(l.Extents) {
				l.Dims = l.Dims[:len(l.Extents)]
			}
			for len(l.Dims) < len(l.Extents) {
				l.Dims = append(l.Dims, DimFormat{Kind: "*", Procs: 1})
			}
			for i := range l.TemplateDim {
				l.TemplateDim[i] = i
			}
		default:
			c := *old
			l = &c
		}
		d.Arrays[name] = l
	}
	return d
}

// AlignedWith is the distribution with array target laid out as source
// (what ALIGN target WITH source gives), or nil when source has no
// layout. Target keeps its own extents.
func (d *Distribution) AlignedWith(target, source string) *Distribution {
	src := d.Arrays[source]
	if src == nil {
		return nil
	}
	nd := *d
	nd.Arrays = make(map[string]*Layout, len(d.Arrays))
	for k, v := range d.Arrays {
		nd.Arrays[k] = v
	}
	l := *src
	l.Array = target
	if old := d.Arrays[target]; old != nil {
		l.Extents = old.Extents
	}
	nd.Arrays[target] = &l
	return &nd
}
