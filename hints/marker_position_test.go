package hints

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The position markers test the editor features at a name of the line:
//
//	!@loc(label, "NAME")              names the place of NAME on the line
//	!@def("NAME", label)              Definition of NAME here is the place label
//	!@refs("NAME", label, ...)        References of NAME here (declaration included) are exactly these places
//	!@hovername("NAME", "regexp")     Hover on NAME matches
//	!@rename("NAME", "NEW", golden="g") or error="regexp"
//	                                  Rename of NAME to NEW gives the golden file, or fails so
//	!@complete("NAME", "regexp", kind="k")
//	                                  completing at the end of NAME offers a label that matches
//	!@signature("NAME", "regexp", active=k)
//	                                  signature help just inside "NAME(" has a matching label
//	!@symbol(kind, "regexp")          the document outline has a symbol of that kind whose
//	                                  name matches and whose name is on the line
//	!@wsymbol(kind, "regexp")         so has the workspace symbol search for ""
//
// NAME is found as a whole word (for complete, the start of a word), in
// any case, in the line's text before its first marker; NAME#k is its
// k-th occurrence.

func (fx *fixture) compilePosition(e *expect, pos []markerArg, opts map[string]string) error {
	m := e.m
	raw := func(i int) (string, error) {
		if i >= len(pos) || len(pos[i]) != 1 || pos[i][0].kind != 's' {
			return "", fmt.Errorf("argument %d of %s must be a \"string\"", i+1, m.verb)
		}
		return pos[i][0].val, nil
	}
	word := func(i int) (string, error) {
		if i >= len(pos) || len(pos[i]) != 1 || pos[i][0].kind != 'w' {
			return "", fmt.Errorf("argument %d of %s must be a word", i+1, m.verb)
		}
		return pos[i][0].val, nil
	}
	count := func(min, max int, keys ...string) error {
		if len(pos) < min || len(pos) > max {
			return fmt.Errorf("%s takes %d to %d arguments, not %d", m.verb, min, max, len(pos))
		}
	next:
		for k := range opts {
			for _, ok := range keys {
				if k == ok {
					continue next
				}
			}
			return fmt.Errorf("%s has no option %s=", m.verb, k)
		}
		return nil
	}
	re := func(i int) (*regexp.Regexp, error) {
		s, err := raw(i)
		if err != nil {
			return nil, err
		}
		r, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("bad regexp: %v", err)
		}
		return r, nil
	}
	var err error
	switch m.verb {
	case "loc":
		if err = count(2, 2); err != nil {
			return err
		}
		var l string
		if l, err = word(0); err != nil {
			return err
		}
		e.labels = []string{l}
		e.name, err = raw(1)
	case "def", "refs":
		max := 2
		if m.verb == "refs" {
			max = 99
		}
		if err = count(2, max); err != nil {
			return err
		}
		if e.name, err = raw(0); err != nil {
			return err
		}
		for i := 1; i < len(pos); i++ {
			l, err := word(i)
			if err != nil {
				return err
			}
			e.labels = append(e.labels, l)
		}
	case "hovername", "complete", "signature":
		keys := map[string][]string{"complete": {"kind"}, "signature": {"active"}}[m.verb]
		if err = count(2, 2, keys...); err != nil {
			return err
		}
		if e.name, err = raw(0); err != nil {
			return err
		}
		if e.re, err = re(1); err != nil {
			return err
		}
		e.itemKind = opts["kind"]
		e.active = -1
		if v, ok := opts["active"]; ok {
			if e.active, err = strconv.Atoi(v); err != nil {
				return fmt.Errorf("active=%s: want a number", v)
			}
		}
	case "rename":
		if err = count(2, 2, "golden", "error"); err != nil {
			return err
		}
		if e.name, err = raw(0); err != nil {
			return err
		}
		if e.newName, err = raw(1); err != nil {
			return err
		}
		g, hasG := opts["golden"]
		ev, hasE := opts["error"]
		switch {
		case hasG == hasE:
			return fmt.Errorf("rename takes golden= or error=")
		case hasG:
			if g == "" || strings.ContainsAny(g, `/\`) || fx.goldens[g] {
				return fmt.Errorf("golden=%q: want a plain file name used once", g)
			}
			fx.goldens[g] = true
			e.golden = g
		default:
			if e.errRe, err = regexp.Compile(ev); err != nil {
				return fmt.Errorf("bad regexp: %v", err)
			}
		}
	case "symbol", "wsymbol":
		if err = count(2, 2); err != nil {
			return err
		}
		if e.itemKind, err = word(0); err != nil {
			return err
		}
		e.re, err = re(1)
	}
	if err == nil && e.name != "" {
		_, err = splitName(e.name)
	}
	return err
}

// splitName reads NAME or NAME#k.
func splitName(spec string) (int, error) {
	k := 1
	if i := strings.LastIndexByte(spec, '#'); i >= 0 {
		n, err := strconv.Atoi(spec[i+1:])
		if err != nil || n < 1 {
			return 0, fmt.Errorf("%q: want NAME or NAME#k", spec)
		}
		k = n
	}
	return k, nil
}

// nameOn finds the name of a position marker on line k: its start and end.
func (fx *fixture) nameOn(k int, spec string, prefix bool) (int, int, error) {
	n, _ := splitName(spec)
	name := spec
	if i := strings.LastIndexByte(spec, '#'); i >= 0 {
		name = spec[:i]
	}
	from := fx.lineStart(k)
	text := string(fx.src[from:fx.f.Lines.LineEnd(k)])
	if i := strings.Index(text, "!@"); i >= 0 {
		text = text[:i]
	}
	pat := `(?i)\b` + regexp.QuoteMeta(name)
	if !prefix {
		pat += `\b`
	}
	re := regexp.MustCompile(pat)
	all := re.FindAllStringIndex(text, -1)
	if len(all) < n {
		return 0, 0, fmt.Errorf("%q is not on the line (%d times)", spec, len(all))
	}
	return from + all[n-1][0], from + all[n-1][1], nil
}

func (fx *fixture) checkPositions() {
	locs := map[string]int{} // label → offset
	var exps []*expect
	for _, e := range fx.exps {
		switch e.m.verb {
		case "loc":
			start, _, err := fx.nameOn(e.m.target, e.name, false)
			if err != nil {
				fx.errorf(e.m.line, "%s: %v", e.m.text, err)
				continue
			}
			if _, dup := locs[e.labels[0]]; dup {
				fx.errorf(e.m.line, "%s: label %s given twice", e.m.text, e.labels[0])
			}
			locs[e.labels[0]] = start
		case "def", "refs", "hovername", "rename", "complete", "signature", "symbol", "wsymbol":
			exps = append(exps, e)
		}
	}
	where := func(off int) string {
		for l, o := range locs {
			if o == off {
				return l
			}
		}
		return fmt.Sprintf("line %d col %d", fx.line(off)+1, off-fx.lineStart(fx.line(off))+1)
	}
	for _, e := range exps {
		line := e.m.target
		if e.m.verb == "symbol" || e.m.verb == "wsymbol" {
			fx.checkSymbol(e)
			continue
		}
		start, end, err := fx.nameOn(line, e.name, e.m.verb == "complete")
		if err != nil {
			fx.errorf(e.m.line, "%s: %v", e.m.text, err)
			continue
		}
		var want []string
		for _, l := range e.labels {
			if _, ok := locs[l]; !ok {
				fx.errorf(e.m.line, "%s: no !@loc(%s, ...)", e.m.text, l)
			}
			want = append(want, l)
		}
		places := func(ls []Location) []string {
			var out []string
			for _, l := range ls {
				if l.File != fx.f {
					out = append(out, l.File.Name+":"+strconv.Itoa(l.Start))
					continue
				}
				out = append(out, where(l.Start))
			}
			sort.Strings(out)
			return out
		}
		switch e.m.verb {
		case "def", "refs":
			var got []string
			if e.m.verb == "def" {
				got = places(Definition(fx.f, start, nil))
			} else {
				got = places(References(fx.f, start, true, nil))
			}
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				fx.miss(e, line, "%s: got %v", e.m.text, got)
			}
		case "hovername":
			h := Hover(fx.f, start, nil)
			if h == nil || !e.re.MatchString(h.Markdown) {
				fx.miss(e, line, "%s: the hover is %+v", e.m.text, h)
			}
		case "rename":
			edits, err := Rename(fx.f, start, e.newName, nil)
			switch {
			case e.errRe != nil && (err == nil || !e.errRe.MatchString(err.Error())):
				fx.miss(e, line, "%s: error %v", e.m.text, err)
			case e.errRe == nil && err != nil:
				fx.miss(e, line, "%s: %v", e.m.text, err)
			case e.errRe == nil:
				fx.golden(line, e, applyMarkerEdits(fx.src, edits))
			}
		case "complete":
			items, _ := Complete(fx.f, end, nil)
			found := false
			for _, it := range items {
				found = found || e.re.MatchString(it.Label) && (e.itemKind == "" || it.Kind == e.itemKind)
			}
			if !found {
				var have []string
				for _, it := range items {
					have = append(have, it.Label+" ("+it.Kind+")")
				}
				fx.miss(e, line, "%s: the candidates are %s", e.m.text, strings.Join(have, ", "))
			}
		case "signature":
			sig := SignatureHelp(fx.f, end+1, nil)
			if sig == nil || !e.re.MatchString(sig.Label) || e.active >= 0 && sig.Active != e.active {
				fx.miss(e, line, "%s: the signature is %+v", e.m.text, sig)
			}
		}
	}
}

// checkSymbol looks for a document (or workspace) symbol of a kind whose
// name is on the marker's line.
func (fx *fixture) checkSymbol(e *expect) {
	var all []Symbol
	var walk func([]Symbol)
	walk = func(ss []Symbol) {
		for _, s := range ss {
			all = append(all, s)
			walk(s.Children)
		}
	}
	if e.m.verb == "symbol" {
		walk(DocumentSymbols(fx.f))
	} else {
		walk(WorkspaceSymbols(fx.f, ""))
	}
	var have []string
	for _, s := range all {
		if fx.line(s.SelStart) != e.m.target {
			continue
		}
		if s.Kind == e.itemKind && e.re.MatchString(s.Name) {
			return
		}
		have = append(have, s.Kind+" "+s.Name)
	}
	fx.miss(e, e.m.target, "%s: the line has the symbols %v", e.m.text, have)
}
