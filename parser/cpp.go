package parser

import (
	"fmt"
	"strconv"
	"strings"
)

// cppState is the C-preprocessor state: the stack of open conditionals and
// the macros defined. It is immutable; each directive makes a new one, so a
// unit can keep the state it started in and an incremental reparse can
// tell whether a reused unit would start in the same state.
type cppState struct {
	frames []cppFrame
	defs   map[string]string
	deep   int // conditionals open past MaxCppDepth, whose text is skipped
	// overDefs: MaxCppDefines was reached, and further new macros ignored
	overDefs bool
}

type cppFrame struct {
	active bool // this branch is being compiled
	taken  bool // some branch of this conditional was taken
	outer  bool // the enclosing region was active
}

func initialCPP(cfg *Config) *cppState {
	if cfg == nil || len(cfg.Defines) == 0 {
		return nil
	}
	defs := make(map[string]string, len(cfg.Defines))
	for k, v := range cfg.Defines {
		defs[k] = v
	}
	return &cppState{defs: defs}
}

func (s *cppState) inactive() bool {
	return s != nil && (s.deep > 0 || len(s.frames) > 0 && !s.frames[len(s.frames)-1].active)
}

func (s *cppState) equal(t *cppState) bool {
	if s == t {
		return true
	}
	if s == nil || t == nil {
		return s.empty() && t.empty()
	}
	if len(s.frames) != len(t.frames) || len(s.defs) != len(t.defs) || s.deep != t.deep || s.overDefs != t.overDefs {
		return false
	}
	for i := range s.frames {
		if s.frames[i] != t.frames[i] {
			return false
		}
	}
	for k, v := range s.defs {
		if w, ok := t.defs[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func (s *cppState) empty() bool {
	return s == nil || (len(s.frames) == 0 && len(s.defs) == 0 && s.deep == 0)
}

func (s *cppState) clone() *cppState {
	c := &cppState{defs: map[string]string{}}
	if s != nil {
		c.deep, c.overDefs = s.deep, s.overDefs
		c.frames = append([]cppFrame(nil), s.frames...)
		for k, v := range s.defs {
			c.defs[k] = v
		}
	}
	return c
}

func (s *cppState) defined(name string) bool {
	if s == nil {
		return false
	}
	_, ok := s.defs[name]
	return ok
}

// apply returns the state after the directive line text ("#ifdef X", ...)
// and the directive's name; msg is non-empty for a malformed directive.
func (s *cppState) apply(text string) (next *cppState, dir, rest, msg string) {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "#"))
	dir = t
	if i := strings.IndexAny(t, " \t(\"<"); i >= 0 {
		dir, rest = t[:i], strings.TrimSpace(t[i:])
	}
	if s != nil && s.deep > 0 {
		// Inside a conditional nested too deep: only the nesting counts.
		switch dir {
		case "if", "ifdef", "ifndef":
			n := s.clone()
			n.deep++
			return n, dir, rest, ""
		case "endif":
			n := s.clone()
			n.deep--
			return n, dir, rest, ""
		}
		return s, dir, rest, ""
	}
	active := !s.inactive()
	switch dir {
	case "if", "ifdef", "ifndef":
		if s != nil && len(s.frames) >= MaxCppDepth {
			n := s.clone()
			n.deep = 1
			return n, dir, rest, fmt.Sprintf("too large to analyse (#if nested more than %d deep); the text inside is skipped", MaxCppDepth)
		}
		var cond bool
		switch dir {
		case "ifdef":
			cond = s.defined(firstWord(rest))
		case "ifndef":
			cond = !s.defined(firstWord(rest))
		default:
			cond = s.eval(rest)
		}
		n := s.clone()
		n.frames = append(n.frames, cppFrame{active: active && cond, taken: cond, outer: active})
		return n, dir, rest, ""
	case "elif", "else":
		if s == nil || len(s.frames) == 0 {
			return s, dir, rest, "#" + dir + " without #if"
		}
		n := s.clone()
		f := &n.frames[len(n.frames)-1]
		cond := dir == "else" || s.eval(rest)
		f.active = f.outer && !f.taken && cond
		f.taken = f.taken || cond
		return n, dir, rest, ""
	case "endif":
		if s == nil || len(s.frames) == 0 {
			return s, dir, rest, "#endif without #if"
		}
		n := s.clone()
		n.frames = n.frames[:len(n.frames)-1]
		return n, dir, rest, ""
	}
	if !active {
		return s, dir, rest, ""
	}
	switch dir {
	case "define":
		name := firstWord(rest)
		if i := strings.IndexByte(name, '('); i >= 0 {
			name = name[:i]
		}
		val := strings.TrimSpace(strings.TrimPrefix(rest, firstWord(rest)))
		if !s.defined(name) && s != nil && len(s.defs) >= MaxCppDefines {
			if s.overDefs {
				return s, dir, rest, ""
			}
			n := s.clone()
			n.overDefs = true
			return n, dir, rest, fmt.Sprintf("too large to analyse (more than %d macros); #define %s and later new macros are ignored", MaxCppDefines, name)
		}
		n := s.clone()
		n.defs[name] = val
		return n, dir, rest, ""
	case "undef":
		if s.defined(firstWord(rest)) {
			n := s.clone()
			delete(n.defs, firstWord(rest))
			return n, dir, rest, ""
		}
	}
	return s, dir, rest, ""
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// eval evaluates a #if condition: integers, defined(X), macros with integer
// values, ! && || == != < > <= >= + - * / and parentheses. Unknown names
// are 0, as in C.
func (s *cppState) eval(expr string) bool {
	e := cppEval{s: s, toks: cppTokens(expr)}
	return e.or(0) != 0
}

type cppEval struct {
	s    *cppState
	toks []string
	i    int
}

func cppTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case isAlnum(c):
			j := i
			for j < len(s) && isAlnum(s[j]) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		case i+1 < len(s) && isCppOp2(s[i:i+2]):
			out = append(out, s[i:i+2])
			i += 2
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(s)
			}
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

func isCppOp2(s string) bool {
	switch s {
	case "&&", "||", "==", "!=", "<=", ">=":
		return true
	}
	return false
}

func isAlnum(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func (e *cppEval) peek() string {
	if e.i < len(e.toks) {
		return e.toks[e.i]
	}
	return ""
}

func (e *cppEval) or(depth int) int64 {
	v := e.and(depth)
	for e.peek() == "||" {
		e.i++
		w := e.and(depth)
		v = b2i(v != 0 || w != 0)
	}
	return v
}

func (e *cppEval) and(depth int) int64 {
	v := e.cmp(depth)
	for e.peek() == "&&" {
		e.i++
		w := e.cmp(depth)
		v = b2i(v != 0 && w != 0)
	}
	return v
}

func (e *cppEval) cmp(depth int) int64 {
	v := e.add(depth)
	for {
		switch op := e.peek(); op {
		case "==", "!=", "<", ">", "<=", ">=":
			e.i++
			w := e.add(depth)
			switch op {
			case "==":
				v = b2i(v == w)
			case "!=":
				v = b2i(v != w)
			case "<":
				v = b2i(v < w)
			case ">":
				v = b2i(v > w)
			case "<=":
				v = b2i(v <= w)
			case ">=":
				v = b2i(v >= w)
			}
		default:
			return v
		}
	}
}

func (e *cppEval) add(depth int) int64 {
	v := e.mul(depth)
	for op := e.peek(); op == "+" || op == "-"; op = e.peek() {
		e.i++
		w := e.mul(depth)
		if op == "+" {
			v += w
		} else {
			v -= w
		}
	}
	return v
}

func (e *cppEval) mul(depth int) int64 {
	v := e.unary(depth)
	for op := e.peek(); op == "*" || op == "/" || op == "%"; op = e.peek() {
		e.i++
		w := e.unary(depth)
		switch {
		case op == "*":
			v *= w
		case w == 0:
			v = 0
		case op == "/":
			v /= w
		default:
			v %= w
		}
	}
	return v
}

func (e *cppEval) unary(depth int) int64 {
	if depth > 64 {
		e.i = len(e.toks)
		return 0
	}
	t := e.peek()
	e.i++
	switch {
	case t == "!":
		return b2i(e.unary(depth+1) == 0)
	case t == "-":
		return -e.unary(depth + 1)
	case t == "+":
		return e.unary(depth + 1)
	case t == "(":
		v := e.or(depth + 1)
		if e.peek() == ")" {
			e.i++
		}
		return v
	case t == "defined":
		paren := e.peek() == "("
		if paren {
			e.i++
		}
		name := e.peek()
		e.i++
		if paren && e.peek() == ")" {
			e.i++
		}
		return b2i(e.s.defined(name))
	case t != "" && t[0] >= '0' && t[0] <= '9':
		v, _ := strconv.ParseInt(strings.TrimRight(t, "uUlL"), 0, 64)
		return v
	case t != "" && isAlnum(t[0]):
		if e.s != nil {
			if val, ok := e.s.defs[t]; ok && depth < 16 {
				sub := cppEval{s: e.s, toks: cppTokens(val)}
				if len(sub.toks) == 0 {
					return 0
				}
				return sub.or(depth + 1)
			}
		}
		return 0
	}
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
