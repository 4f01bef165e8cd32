package complexity

import (
	"bufio"
	"fmt"
	"math/big"
	"strings"
)

// Type is the type of an operand, the column of a cost table.
type Type uint8

// The operand types, in the column order of a cost table file.
const (
	TInt Type = iota
	TReal
	TDouble
	TComplex
	TDComplex
	TLogical
	TChar
	numTypes
)

var typeNames = [numTypes]string{"int", "real", "double", "complex", "double-complex", "logical", "character"}

func (t Type) String() string { return typeNames[t] }

// Row is one line of a cost table: a cost for each operand type.
type Row [numTypes]Poly

// CostTable gives the cost of each kind of operation (seed 004 §3.1): the
// report's five parts (operation, memory, index, transcend, trigo) plus
// the optional per-loop and per-iteration charges of later PIPS versions.
type CostTable struct {
	Name string
	// Operation: "+", "-", "*", "/", "--" (unary minus), "**", and the
	// pfls additions "rel" (relational operators), "log" (.AND. .OR.
	// .NOT. .EQV. .NEQV.) and "//" (concatenation).
	Operation map[string]Row
	// Memory is the cost of reading or writing a scalar or an element.
	Memory Row
	// Index is the address computation of an array element: Index["element"]
	// for every element, Index["multi"] added when the array has two or
	// more dimensions.
	Index map[string]Poly
	// Transcend holds the non-trigonometric intrinsics by name (SQRT, EXP,
	// LOG, MIN, MAX, MOD, ABS, ...); the row "DEFAULT" prices the others.
	Transcend map[string]Row
	// Trigo holds the trigonometric intrinsics (SIN, COS, TAN, ATAN, ...).
	Trigo map[string]Row
	// PerLoop is charged once per loop, PerIteration once per iteration.
	PerLoop, PerIteration Poly
	// ScalarRegisters makes references to scalar variables free: a
	// compiler keeps loop indices and scalars in registers. The PIPS
	// tables count them (each is 1 in all-one); a table of measured
	// times (the estimator's) does not.
	ScalarRegisters bool
	// InlinePowers prices X**K with K a small integer constant as the
	// multiplications a compiler emits for it (X**2 one, X**3 two), not
	// as "**": for tables of measured times, where "**" is a call of
	// pow. The report's tables count "**" as one operator (DESIGN.md
	// §5).
	InlinePowers bool
}

var trigNames = strings.Fields("SIN COS TAN ASIN ACOS ATAN ATAN2 SINH COSH TANH ASINH ACOSH ATANH DSIN DCOS DTAN DASIN DACOS DATAN DATAN2 DSINH DCOSH DTANH CSIN CCOS")

// freeIntrinsics cost only their arguments in the all-one table: they are
// conversions or cheap integer operations (DESIGN.md §5).
var freeIntrinsics = strings.Fields("MOD ABS INT REAL DBLE SIGN IABS DABS FLOAT SNGL IFIX IDINT NINT IDNINT ISIGN DSIGN AMOD DMOD CMPLX DCMPLX AIMAG CONJG ICHAR CHAR LEN KIND SIZE LBOUND UBOUND SHAPE")

func constRow(v int64, cols ...Type) Row {
	var r Row
	for i := range r {
		r[i] = Zero()
	}
	for _, c := range cols {
		r[c] = Int(v)
	}
	return r
}

var numeric = []Type{TInt, TReal, TDouble, TComplex, TDComplex}

// AllOne is the report's all-one table, with the conventions of DESIGN.md
// §5: one unit per operator, variable reference and array element, plus
// one for a multi-dimensional index; relational and logical operators are
// free on numbers and cost one on LOGICAL and CHARACTER operands; MIN,
// MAX, SQRT and the transcendental functions cost one plus their
// arguments; MOD, ABS, INT, REAL, DBLE, SIGN and the like cost their
// arguments only.
func AllOne() *CostTable {
	t := &CostTable{Name: "all-one", Operation: map[string]Row{}, Transcend: map[string]Row{}, Trigo: map[string]Row{},
		Index: map[string]Poly{"element": Zero(), "multi": Int(1)}, PerLoop: Zero(), PerIteration: Zero()}
	for _, op := range []string{"+", "-", "*", "/", "--", "**"} {
		t.Operation[op] = constRow(1, numeric...)
	}
	t.Operation["rel"] = constRow(1, TLogical, TChar)
	t.Operation["log"] = constRow(1, TLogical, TChar)
	t.Operation["//"] = constRow(1, TChar)
	t.Memory = constRow(1, TInt, TReal, TDouble, TComplex, TDComplex, TLogical, TChar)
	t.Transcend["DEFAULT"] = constRow(1, TInt, TReal, TDouble, TComplex, TDComplex, TLogical, TChar)
	for _, n := range freeIntrinsics {
		t.Transcend[n] = constRow(0)
	}
	for _, n := range trigNames {
		t.Trigo[n] = constRow(1, TInt, TReal, TDouble, TComplex, TDComplex)
	}
	return t
}

// FPOne is the report's fp-one table: one unit for each arithmetic
// operator on single-precision REAL operands, nothing for anything else.
func FPOne() *CostTable {
	t := &CostTable{Name: "fp-one", Operation: map[string]Row{}, Transcend: map[string]Row{}, Trigo: map[string]Row{},
		Index: map[string]Poly{"element": Zero(), "multi": Zero()}, PerLoop: Zero(), PerIteration: Zero()}
	for _, op := range []string{"+", "-", "*", "/", "--", "**"} {
		t.Operation[op] = constRow(1, TReal)
	}
	t.Operation["rel"] = constRow(0)
	t.Operation["log"] = constRow(0)
	t.Operation["//"] = constRow(0)
	t.Memory = constRow(0)
	t.Transcend["DEFAULT"] = constRow(0)
	return t
}

// CostTableError is a malformed cost table line.
type CostTableError struct {
	Line, Col int
	Msg       string
}

func (e *CostTableError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// ParseCostTable reads a cost table file. The format:
//
//	# comments start with "#"
//	[operation]
//	#     int  real double complex double-complex logical character
//	+     1    1    1      1       1              0       0
//	rel   0    0    0      0       0              1       1
//	[memory]
//	load  1 1 1 1 1 1 1
//	[index]
//	element 0
//	multi   1
//	[transcend]
//	SQRT  1 1 1 1 1 0 0
//	DEFAULT 1
//	[trigo]
//	SIN   1 1 1 1 1 0 0
//	[loop]
//	per-loop      0
//	per-iteration 0
//
// A row gives seven costs, one per type, or a single cost for all of them;
// a cost is an integer, a fraction p/q or a decimal. Sections may come in
// any order; what a file leaves out costs nothing, except that a table
// without a [memory] section still charges nothing for references.
func ParseCostTable(name, text string) (*CostTable, error) {
	t := &CostTable{Name: name, Operation: map[string]Row{}, Transcend: map[string]Row{}, Trigo: map[string]Row{},
		Index: map[string]Poly{"element": Zero(), "multi": Zero()}, PerLoop: Zero(), PerIteration: Zero(), Memory: constRow(0)}
	t.Transcend["DEFAULT"] = constRow(0)
	sc := bufio.NewScanner(strings.NewReader(text))
	section := ""
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		col := strings.Index(line, strings.TrimSpace(line)) + 1
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") {
			if !strings.HasSuffix(trimmed, "]") {
				return nil, &CostTableError{lineNo, col, "a section name must end with ']'"}
			}
			section = strings.ToLower(strings.TrimSpace(trimmed[1 : len(trimmed)-1]))
			switch section {
			case "operation", "memory", "index", "transcend", "trigo", "loop":
			default:
				return nil, &CostTableError{lineNo, col, fmt.Sprintf("unknown section [%s] (want operation, memory, index, transcend, trigo or loop)", section)}
			}
			continue
		}
		if section == "" {
			return nil, &CostTableError{lineNo, col, "a row before any [section]"}
		}
		fields, cols := splitFields(line)
		key := fields[0]
		vals := make([]Poly, 0, len(fields)-1)
		for i, f := range fields[1:] {
			v, err := parseCost(f)
			if err != nil {
				return nil, &CostTableError{lineNo, cols[i+1], err.Error()}
			}
			vals = append(vals, v)
		}
		switch section {
		case "index", "loop":
			if len(vals) != 1 {
				return nil, &CostTableError{lineNo, col, fmt.Sprintf("%s takes one cost, found %d", key, len(vals))}
			}
			switch {
			case section == "index" && (key == "element" || key == "multi"):
				t.Index[key] = vals[0]
			case section == "loop" && key == "per-loop":
				t.PerLoop = vals[0]
			case section == "loop" && key == "per-iteration":
				t.PerIteration = vals[0]
			default:
				return nil, &CostTableError{lineNo, col, fmt.Sprintf("unknown row %q in [%s]", key, section)}
			}
			continue
		}
		var row Row
		switch len(vals) {
		case 1:
			for i := range row {
				row[i] = vals[0]
			}
		case int(numTypes):
			copy(row[:], vals)
		default:
			return nil, &CostTableError{lineNo, col, fmt.Sprintf("row %q has %d costs; give 1 or %d (int real double complex double-complex logical character)", key, len(vals), numTypes)}
		}
		switch section {
		case "operation":
			switch key {
			case "+", "-", "*", "/", "--", "**", "rel", "log", "//":
			default:
				return nil, &CostTableError{lineNo, col, fmt.Sprintf("unknown operation %q (want + - * / -- ** rel log //)", key)}
			}
			t.Operation[key] = row
		case "memory":
			if key != "load" {
				return nil, &CostTableError{lineNo, col, fmt.Sprintf("unknown row %q in [memory] (want load)", key)}
			}
			t.Memory = row
		case "transcend":
			t.Transcend[strings.ToUpper(key)] = row
		case "trigo":
			t.Trigo[strings.ToUpper(key)] = row
		}
	}
	return t, nil
}

// splitFields splits a line at blanks and returns the fields and their
// 1-based columns.
func splitFields(line string) ([]string, []int) {
	var fields []string
	var cols []int
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j > i {
			fields = append(fields, line[i:j])
			cols = append(cols, i+1)
		}
		i = j
	}
	return fields, cols
}

func parseCost(s string) (Poly, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return Poly{}, fmt.Errorf("%q is not a cost (want an integer, p/q or a decimal)", s)
	}
	if r.Sign() < 0 {
		return Poly{}, fmt.Errorf("cost %s is negative", s)
	}
	return Rat(r), nil
}

// op returns the cost of an operation on operands of type ty.
func (t *CostTable) op(name string, ty Type) Poly {
	if r, ok := t.Operation[name]; ok {
		return r[ty]
	}
	return Zero()
}

// intrinsic returns the cost of calling the intrinsic name on an argument
// of type ty, its arguments not included.
func (t *CostTable) intrinsic(name string, ty Type) Poly {
	if r, ok := t.Trigo[name]; ok {
		return r[ty]
	}
	if r, ok := t.Transcend[name]; ok {
		return r[ty]
	}
	if r, ok := t.Transcend["DEFAULT"]; ok {
		return r[ty]
	}
	return Zero()
}
