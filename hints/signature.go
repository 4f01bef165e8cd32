package hints

import (
	"regexp"
	"strings"

	"github.com/pfls/pfls/parser"
)

// Signature is the signature help of a call being typed: every form of
// the procedure (intrinsics may have several argument lists), the one
// that fits the arguments typed so far, and the argument the cursor is
// in, by position or by keyword.
type Signature struct {
	Label  string   // the active form: NAME(A, B, [C])
	Params []string // its parameter names, in order
	Active int      // the parameter the cursor is in, -1 when none fits

	Forms      []SignatureForm
	ActiveForm int
}

// SignatureForm is one argument list, ready for the protocol.
type SignatureForm struct {
	Label  string
	Spans  [][2]int // byte ranges of each parameter's name in Label
	Params []string // what each parameter is: type, intent, optional
	Doc    string
	Active int // the parameter the cursor is in for this form, or -1
}

// keywordArg matches an actual argument that starts with a keyword.
var keywordArg = regexp.MustCompile(`^\s*([A-Za-z][A-Za-z0-9_]*)\s*=($|[^=])`)

// openCall is a parenthesis opened in the statement text before the cursor.
type openCall struct {
	name       string
	argStart   int      // where the current argument starts in the text
	positional int      // arguments before the current one without a keyword
	keywords   []string // keywords of the arguments before the current one
}

// SignatureHelp returns the signature of the procedure or intrinsic whose
// argument list holds off, or nil: a procedure of the workspace (argument
// types and intents from its declarations), an MPI or OpenMP routine the
// unit can see, or an intrinsic. The call is found in the text of the
// statement up to off, so it works while the statement is incomplete.
func SignatureHelp(f *parser.File, off int, others []*parser.File) *Signature {
	if off < 0 || off > len(f.Src) {
		return nil
	}
	text := statementText(f, off)
	var stack []openCall
	inString := scanCode(text, func(i int, c byte) bool {
		switch c {
		case '(':
			j := i
			for j > 0 && text[j-1] == ' ' {
				j--
			}
			k := j
			for k > 0 && isNameByte(text[k-1]) {
				k--
			}
			stack = append(stack, openCall{name: strings.ToUpper(text[k:j]), argStart: i + 1})
		case ')':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) > 0 {
				o := &stack[len(stack)-1]
				if m := keywordArg.FindStringSubmatch(text[o.argStart:i]); m != nil {
					o.keywords = append(o.keywords, strings.ToUpper(m[1]))
				} else {
					o.positional++
				}
				o.argStart = i + 1
			}
		}
		return true
	})
	if inString {
		return nil
	}
	u := innermost(f, off)
	for i := len(stack) - 1; i >= 0; i-- {
		o := stack[i]
		if o.name == "" {
			continue
		}
		if u != nil && u.Scope != nil {
			if sym := u.Scope.Lookup(o.name); sym != nil && sym.Kind != parser.SymProcedure && len(sym.Dims) > 0 {
				return nil // an array element, not a call
			}
		}
		forms := callForms(f, u, o.name, others)
		if forms == nil {
			continue
		}
		current := ""
		if m := keywordArg.FindStringSubmatch(text[o.argStart:]); m != nil {
			current = strings.ToUpper(m[1])
		}
		return newSignature(forms, o, current)
	}
	return nil
}

// callForms finds the forms of the procedure name called from unit u.
func callForms(f *parser.File, u *parser.Unit, name string, others []*parser.File) []*ProcForm {
	if _, pu, ok := findUnit(f, u, name, others); ok {
		if h, isSub := pu.Header.(*parser.SubprogramStmt); isSub {
			return []*ProcForm{userForm(pu, h)}
		}
		return nil
	}
	if forms, _ := LibraryForms(f, u, name, others); forms != nil {
		return forms
	}
	if u != nil && u.Scope != nil {
		if s := u.Scope.Lookup(name); s != nil && s.Declared && !s.Intrinsic && s.Kind == parser.SymProcedure {
			return nil // an EXTERNAL of the same name hides the intrinsic
		}
	}
	return IntrinsicForms(name)
}

// userForm describes a procedure of the program from its header and the
// declarations of its dummy arguments.
func userForm(u *parser.Unit, h *parser.SubprogramStmt) *ProcForm {
	f := &ProcForm{Name: u.Name, Class: "S", Result: "none (subroutine)", Doc: signature(h)}
	if h.Function {
		f.Class, f.Result = "F", "function"
		if h.Type != nil {
			f.Result = h.Type.Name
		}
	}
	for _, name := range paramNames(h.Params) {
		p := ProcParam{Name: name}
		if name == "*" {
			p.Type = "alternate return label"
		} else if u.Scope != nil {
			if s := u.Scope.Syms[name]; s != nil {
				p.Type = strings.TrimSpace(s.Type + " " + name + DimsStringIf(s.Dims))
				if s.Kind == parser.SymProcedure {
					p.Type = "procedure " + name
				}
				for _, a := range s.Attrs {
					up := strings.ToUpper(strings.ReplaceAll(a, " ", ""))
					switch {
					case strings.HasPrefix(up, "INTENT("):
						p.Intent = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(up, "INTENT("), ")"))
					case up == "OPTIONAL":
						p.Optional = true
					}
				}
				if s.Implicit {
					p.Type += " (implicit)"
				}
			}
		}
		f.Params = append(f.Params, p)
	}
	return f
}

// newSignature lays out every form and picks the first that fits the
// arguments typed so far (positional count and keywords).
func newSignature(forms []*ProcForm, o openCall, current string) *Signature {
	sig := &Signature{ActiveForm: -1}
	for i, fm := range forms {
		label, spans := fm.Label()
		sf := SignatureForm{Label: label, Spans: spans, Doc: fm.Doc}
		for _, p := range fm.Params {
			sf.Params = append(sf.Params, paramDoc(p))
		}
		sf.Active = activeParam(fm, o, current)
		sig.Forms = append(sig.Forms, sf)
		if sig.ActiveForm < 0 && formFits(fm, o, current) {
			sig.ActiveForm = i
		}
	}
	if sig.ActiveForm < 0 {
		sig.ActiveForm = 0
	}
	a := sig.Forms[sig.ActiveForm]
	sig.Label, sig.Active = a.Label, a.Active
	for _, p := range forms[sig.ActiveForm].Params {
		sig.Params = append(sig.Params, p.Name)
	}
	return sig
}

func paramIndex(fm *ProcForm, name string) int {
	for i, p := range fm.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func variadic(fm *ProcForm) bool {
	return len(fm.Params) > 0 && fm.Params[len(fm.Params)-1].Variadic
}

// activeParam is the parameter the current argument stands for: the one
// its keyword names; its position while no keyword was used; after
// keywords, the first parameter not yet given.
func activeParam(fm *ProcForm, o openCall, current string) int {
	if current != "" {
		return paramIndex(fm, current)
	}
	if len(o.keywords) == 0 {
		if o.positional >= len(fm.Params) {
			if variadic(fm) {
				return len(fm.Params) - 1
			}
			return -1
		}
		return o.positional
	}
	for i := o.positional; i < len(fm.Params); i++ {
		given := false
		for _, k := range o.keywords {
			given = given || k == fm.Params[i].Name
		}
		if !given {
			return i
		}
	}
	return -1
}

// formFits reports whether a form accepts the arguments typed so far.
func formFits(fm *ProcForm, o openCall, current string) bool {
	n := o.positional
	if current == "" && len(o.keywords) == 0 {
		n++ // the argument being typed is positional too
	}
	if n > len(fm.Params) && !variadic(fm) {
		return false
	}
	for _, k := range append(o.keywords, current) {
		if k != "" && paramIndex(fm, k) < 0 {
			return false
		}
	}
	return true
}
