package hints

import (
	"fmt"
	"strings"
)

// ProcParam is one dummy argument of a procedure form: its keyword name,
// its type in words, its intent ("" for IN or unknown), and whether it may
// be left out or repeats (MAX's A3, ...).
type ProcParam struct {
	Name     string
	Type     string
	Intent   string
	Optional bool
	Variadic bool
}

// ProcForm is one argument list of an intrinsic or library procedure.
type ProcForm struct {
	Name   string
	Class  string // the standard's class letter (E, T, I, S, ...) or F/S for library routines
	Params []ProcParam
	Result string // in words; "none (subroutine)" for subroutines
	Doc    string
}

var intrinsicClasses = map[string]string{
	"A": "atomic subroutine", "C": "collective subroutine", "E": "elemental function",
	"ES": "elemental subroutine", "I": "inquiry function", "PS": "pure subroutine",
	"S": "subroutine", "T": "transformational function", "F": "function",
}

// IsSubroutine reports whether the form is called with CALL.
func (f *ProcForm) IsSubroutine() bool {
	switch f.Class {
	case "A", "C", "ES", "PS", "S":
		return true
	}
	return false
}

// Label prints the form as NAME(A, B, [C]) and returns the byte ranges of
// each parameter's name inside it.
func (f *ProcForm) Label() (string, [][2]int) {
	var b strings.Builder
	b.WriteString(f.Name + "(")
	spans := make([][2]int, len(f.Params))
	for i, p := range f.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Optional {
			b.WriteString("[")
		}
		spans[i][0] = b.Len()
		b.WriteString(p.Name)
		if p.Variadic {
			b.WriteString(", ...")
		}
		spans[i][1] = b.Len()
		if p.Optional {
			b.WriteString("]")
		}
	}
	b.WriteString(")")
	return b.String(), spans
}

// parseForms reads a table of lines NAME|class|arguments|result|doc (see
// intrinsicTable); lines starting with # are comments.
func parseForms(table string) map[string][]*ProcForm {
	out := map[string][]*ProcForm{}
	for _, line := range strings.Split(table, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "|")
		if len(fs) != 5 {
			panic("intrinsic table: bad line " + line)
		}
		f := &ProcForm{Name: fs[0], Class: fs[1], Result: fs[3], Doc: fs[4]}
		if fs[2] != "" {
			for _, a := range strings.Split(fs[2], ";") {
				f.Params = append(f.Params, parseParam(strings.TrimSpace(a)))
			}
		}
		out[f.Name] = append(out[f.Name], f)
	}
	return out
}

func parseParam(a string) ProcParam {
	var p ProcParam
	if strings.HasPrefix(a, "[") && strings.HasSuffix(a, "]") {
		p.Optional = true
		a = a[1 : len(a)-1]
	}
	name, typ, _ := strings.Cut(a, " ")
	if strings.HasSuffix(name, "...") {
		p.Variadic = true
		name = strings.TrimSuffix(name, "...")
	}
	p.Name = name
	for _, intent := range []string{"inout", "out"} {
		if t, ok := strings.CutSuffix(typ, ", "+intent); ok {
			typ, p.Intent = t, intent
			break
		}
	}
	p.Type = typ
	return p
}

var intrinsicForms = parseForms(intrinsicTable)

// specificName is one specific name of a generic intrinsic.
type specificName struct {
	generic string
	arg     string // the type of argument it takes (and of the result when it differs)
}

var intrinsicSpecificNames = func() map[string]specificName {
	m := map[string]specificName{}
	for _, line := range strings.Split(intrinsicSpecifics, "\n") {
		fs := strings.Fields(line)
		if len(fs) < 3 {
			continue
		}
		if _, ok := intrinsicForms[fs[0]]; !ok {
			panic("intrinsic specifics: unknown generic " + fs[0])
		}
		m[fs[1]] = specificName{fs[0], strings.Join(fs[2:], " ")}
	}
	return m
}()

// IntrinsicForms returns the forms of an intrinsic procedure (upper case),
// resolving the specific names of Fortran 77 (DABS → ABS), or nil.
func IntrinsicForms(name string) []*ProcForm {
	if fs, ok := intrinsicForms[name]; ok {
		return fs
	}
	if sp, ok := intrinsicSpecificNames[name]; ok {
		return renamed(intrinsicForms[sp.generic], name)
	}
	return nil
}

// renamed returns copies of forms under another name.
func renamed(forms []*ProcForm, name string) []*ProcForm {
	out := make([]*ProcForm, len(forms))
	for i, f := range forms {
		c := *f
		c.Name = name
		out[i] = &c
	}
	return out
}

// intrinsicHover is the Markdown hover of an intrinsic procedure: its
// forms, its class and result, what it does and its arguments; "" when
// name is not in the table.
func intrinsicHover(name string) string {
	forms := IntrinsicForms(name)
	if forms == nil {
		return ""
	}
	var b strings.Builder
	if sp, ok := intrinsicSpecificNames[name]; ok {
		forms = intrinsicForms[sp.generic]
		fmt.Fprintf(&b, "```fortran\nINTRINSIC %s\n```\nspecific name of the intrinsic %s for an argument of type %s\n\n", name, sp.generic, sp.arg)
	}
	procHover(&b, forms, "intrinsic")
	return b.String()
}

// procHover writes the forms of a procedure, then its class and result,
// description and arguments (of the last form with the most arguments).
func procHover(b *strings.Builder, forms []*ProcForm, what string) {
	b.WriteString("```fortran\n")
	for _, f := range forms {
		l, _ := f.Label()
		if f.IsSubroutine() {
			l = "CALL " + l
		}
		b.WriteString(l + "\n")
	}
	b.WriteString("```\n")
	f := forms[0]
	fmt.Fprintf(b, "%s %s", what, intrinsicClasses[f.Class])
	if !f.IsSubroutine() {
		fmt.Fprintf(b, " → %s", f.Result)
	}
	b.WriteString("\n\n")
	seen := map[string]bool{}
	for _, f := range forms {
		if !seen[f.Doc] {
			seen[f.Doc] = true
			b.WriteString(f.Doc + "\n")
		}
	}
	var params []string
	seenP := map[string]bool{}
	for _, f := range forms {
		for _, p := range f.Params {
			if !seenP[p.Name] {
				seenP[p.Name] = true
				params = append(params, "- "+paramDoc(p))
			}
		}
	}
	if len(params) > 0 {
		b.WriteString("\n" + strings.Join(params, "\n") + "\n")
	}
}

// paramDoc describes one argument: `NAME`: type, intent, optional.
func paramDoc(p ProcParam) string {
	s := "`" + p.Name + "`: " + p.Type
	if p.Intent != "" {
		s += ", intent(" + p.Intent + ")"
	}
	if p.Optional {
		s += ", optional"
	}
	return s
}

// IntrinsicDetail is a one-line description of an intrinsic for a
// completion item: its first form and what it does.
func IntrinsicDetail(name string) string {
	forms := IntrinsicForms(name)
	if forms == nil {
		return "intrinsic procedure"
	}
	l, _ := forms[0].Label()
	return l + " — " + forms[0].Doc
}
