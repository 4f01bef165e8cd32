package hints

import (
	"sort"
	"strings"

	"github.com/pfls/pfls/parser"
)

// Completion is one completion candidate.
type Completion struct {
	Label  string
	Kind   string // "variable", "array", "constant", "procedure", "intrinsic", "keyword", "directive", "clause", "template", "processors", "common block"
	Detail string
}

var statementKeywords = strings.Fields(`ALLOCATABLE ALLOCATE ASSIGN BACKSPACE BLOCK CALL CASE CHARACTER CLOSE COMMON COMPLEX
CONTAINS CONTINUE CYCLE DATA DEALLOCATE DIMENSION DO DOUBLE ELSE ELSEIF ENDIF ENDDO END ENTRY EQUIVALENCE EXIT
EXTERNAL FORALL FORMAT FUNCTION GOTO IF IMPLICIT INCLUDE INQUIRE INTEGER INTENT INTERFACE INTRINSIC LOGICAL
MODULE NAMELIST NONE OPEN PARAMETER POINTER PRINT PRIVATE PROGRAM PUBLIC READ REAL RECURSIVE RETURN REWIND
SAVE SELECT STOP SUBROUTINE TARGET THEN TYPE USE WHERE WHILE WRITE DECOMPOSITION ALIGN DISTRIBUTE`)

// commonIntrinsics are offered by completion; every intrinsic is known to
// the parser, these are the ones worth typing.
var commonIntrinsics = strings.Fields(`ABS ACOS AIMAG AINT ALL ALLOCATED ANINT ANY ASIN ATAN ATAN2 CEILING CHAR CMPLX
CONJG COS COSH COUNT CPU_TIME CSHIFT DBLE DOT_PRODUCT EOSHIFT EPSILON EXP FLOOR HUGE IACHAR ICHAR INDEX INT
LBOUND LEN LEN_TRIM LOG LOG10 MATMUL MAX MAXLOC MAXVAL MERGE MIN MINLOC MINVAL MOD MODULO NINT PACK PRESENT
PRODUCT REAL RESHAPE SHAPE SIGN SIN SINH SIZE SPREAD SQRT SUM SYSTEM_CLOCK TAN TANH TINY TRANSPOSE TRIM UBOUND
UNPACK NUMBER_OF_PROCESSORS PROCESSORS_SHAPE`)

type dialect struct {
	directives []string
	clauses    []string
}

var dialects = map[string]dialect{
	"HPF": {strings.Fields("PROCESSORS TEMPLATE ALIGN DISTRIBUTE REDISTRIBUTE REALIGN INDEPENDENT DYNAMIC INHERIT"),
		strings.Fields("WITH ONTO NEW REDUCTION BLOCK CYCLIC")},
	"OMP": {[]string{"PARALLEL", "PARALLEL DO", "DO", "SECTIONS", "SECTION", "SINGLE", "MASTER", "CRITICAL", "BARRIER",
		"ATOMIC", "FLUSH", "ORDERED", "TASK", "TASKWAIT", "WORKSHARE", "END PARALLEL", "END PARALLEL DO", "END DO",
		"END SECTIONS", "END SINGLE", "END MASTER", "END CRITICAL"},
		strings.Fields("PRIVATE SHARED FIRSTPRIVATE LASTPRIVATE REDUCTION SCHEDULE STATIC DYNAMIC GUIDED DEFAULT NONE COLLAPSE NOWAIT IF NUM_THREADS COPYIN")},
	"CMF": {strings.Fields("ALIGN LAYOUT"), strings.Fields("WITH NEWS SERIAL SEND")},
}

// directiveAt recognises a directive line by its sentinel and returns its
// dialect and the offset (in line) just after the sentinel.
func directiveAt(line string) (string, int) {
	up := strings.ToUpper(line)
	lead := len(up) - len(strings.TrimLeft(up, " \t"))
	rest := up[lead:]
	for _, s := range []struct{ sentinel, dialect string }{
		{"!HPF$", "HPF"}, {"CHPF$", "HPF"}, {"*HPF$", "HPF"},
		{"!$OMP", "OMP"}, {"C$OMP", "OMP"}, {"*$OMP", "OMP"},
		{"!CMF$", "CMF"}, {"CMF$", "CMF"}, {"*CMF$", "CMF"},
	} {
		if strings.HasPrefix(rest, s.sentinel) && (s.sentinel[0] == '!' || lead == 0) {
			return s.dialect, lead + len(s.sentinel)
		}
	}
	return "", 0
}

// isComment reports whether text (a line up to the cursor) ends inside
// a comment.
func isComment(f *parser.File, text string) bool {
	if f.Form == parser.Fixed && text != "" && strings.ContainsRune("Cc*!", rune(text[0])) {
		return true
	}
	comment := false
	inString := scanCode(text, func(_ int, c byte) bool {
		comment = c == '!'
		return !comment
	})
	return comment || inString
}

func isNameByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// Complete returns the candidates at off and the offset where the word
// being completed starts. Inside a directive line it offers the dialect's
// directive names (first word) or clauses and names; elsewhere the names
// in scope, the program units, intrinsics and statement keywords. Labels
// follow the case of the typed prefix. Comments and strings get nothing.
func Complete(f *parser.File, off int, others []*parser.File) ([]Completion, int) {
	if off < 0 || off > len(f.Src) {
		return nil, off
	}
	ls := f.Lines.LineStart(f.Lines.Line(off))
	line := string(f.Src[ls:off])
	start := off
	for start > ls && isNameByte(f.Src[start-1]) {
		start--
	}
	prefix := string(f.Src[start:off])
	var items []Completion
	if d, after := directiveAt(line); d != "" {
		firstWord := strings.TrimSpace(line[after:start-ls]) == ""
		if firstWord {
			for _, n := range dialects[d].directives {
				items = append(items, Completion{Label: n, Kind: "directive", Detail: d + " directive"})
			}
		} else {
			for _, n := range dialects[d].clauses {
				items = append(items, Completion{Label: n, Kind: "clause", Detail: d + " clause"})
			}
			items = append(items, scopeNames(f, off)...)
		}
	} else {
		if isComment(f, line) {
			return nil, off
		}
		items = append(items, scopeNames(f, off)...)
		seen := map[string]bool{}
		for _, it := range items {
			seen[it.Label] = true
		}
		for _, file := range append([]*parser.File{f}, others...) {
			allUnits(file, func(u *parser.Unit) {
				if u.Name != "" && !seen[u.Name] && u.Kind != parser.UnitMain {
					seen[u.Name] = true
					items = append(items, Completion{Label: u.Name, Kind: "procedure", Detail: unitSignature(u)})
				}
			})
		}
		for _, n := range commonIntrinsics {
			if !seen[n] {
				items = append(items, Completion{Label: n, Kind: "intrinsic", Detail: IntrinsicDetail(n)})
			}
		}
		for _, k := range statementKeywords {
			items = append(items, Completion{Label: k, Kind: "keyword"})
		}
	}
	up := strings.ToUpper(prefix)
	lower := prefix != "" && prefix[0] >= 'a' && prefix[0] <= 'z'
	out := items[:0]
	for _, it := range items {
		if !strings.HasPrefix(it.Label, up) {
			continue
		}
		if lower {
			it.Label = strings.ToLower(it.Label)
		}
		out = append(out, it)
	}
	return out, start
}

// scopeNames lists the names visible at off, innermost scope first.
func scopeNames(f *parser.File, off int) []Completion {
	u := innermost(f, off)
	if u == nil {
		return nil
	}
	var out []Completion
	seen := map[string]bool{}
	for sc := u.Scope; sc != nil; sc = sc.Parent {
		for _, n := range sc.Names() {
			s := sc.Syms[n]
			if seen[n] || s.Kind == parser.SymCommon {
				continue
			}
			seen[n] = true
			kind := "variable"
			switch {
			case s.Kind == parser.SymProcedure:
				kind = "procedure"
			case s.Kind == parser.SymTemplate:
				kind = "template"
			case s.Kind == parser.SymProcessors:
				kind = "processors"
			case s.Param != nil:
				kind = "constant"
			case len(s.Dims) > 0:
				kind = "array"
			}
			out = append(out, Completion{Label: n, Kind: kind, Detail: strings.TrimSpace(s.Type + " " + n + DimsStringIf(s.Dims))})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// statementText returns the text from the start of the statement holding
// off up to off: the line, preceded by the lines it continues, with
// fixed-form labels and continuation marks blanked and comments dropped.
func statementText(f *parser.File, off int) string {
	line := f.Lines.Line(off)
	first := line
	for first > 0 && first > line-20 {
		if f.Form == parser.Fixed {
			if !fixedContinuation(lineBytes(f, first)) {
				break
			}
		} else {
			prev := strings.TrimRight(stripComment(string(lineBytes(f, first-1))), " \t")
			if !strings.HasSuffix(prev, "&") {
				break
			}
		}
		first--
	}
	var b strings.Builder
	for l := first; l <= line; l++ {
		s := string(lineBytes(f, l))
		if l == line {
			s = string(f.Src[f.Lines.LineStart(l):off])
		}
		if f.Form == parser.Fixed {
			if len(s) > 6 {
				s = "      " + s[6:]
			} else {
				s = ""
			}
		} else {
			s = strings.TrimSuffix(strings.TrimRight(stripComment(s), " \t"), "&")
			s = strings.TrimPrefix(strings.TrimLeft(s, " \t"), "&")
		}
		b.WriteString(s)
	}
	return b.String()
}

func lineBytes(f *parser.File, l int) []byte {
	return f.Src[f.Lines.LineStart(l):f.Lines.LineEnd(l)]
}

func fixedContinuation(b []byte) bool {
	if len(b) < 6 || strings.ContainsRune("Cc*!", rune(b[0])) {
		return false
	}
	return b[5] != ' ' && b[5] != '0' && strings.TrimSpace(string(b[:5])) == ""
}

func stripComment(s string) string {
	end := len(s)
	scanCode(s, func(i int, c byte) bool {
		if c == '!' {
			end = i
			return false
		}
		return true
	})
	return s[:end]
}

// scanCode calls visit with each byte of s that lies outside a character
// constant, in order, until visit returns false. It reports whether s
// ends inside a character constant.
func scanCode(s string, visit func(i int, c byte) bool) (inString bool) {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case !visit(i, c):
			return false
		}
	}
	return quote != 0
}
