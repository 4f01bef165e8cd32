package partition

import (
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// Written lists the names of the variables (arrays and scalars) assigned
// inside a statement list, in order, with repeats.
func Written(list []parser.Stmt, sc *parser.Scope) []string {
	var out []string
	for _, r := range writes(list, sc) {
		out = append(out, r.name)
	}
	return out
}

// Extents are the bounds of each dimension of an array symbol.
func Extents(sym *parser.Symbol, sc *parser.Scope) []Extent { return extents(sym, sc) }

// TypeSize is the size in bytes of a value of a type (4 when unknown).
func TypeSize(t string) int64 { return typeSize(t) }

// StmtSeconds prices one statement with a machine's operation times, its
// references at the first memory level.
func StmtSeconds(u *parser.Unit, st parser.Stmt, m *machine.Machine) float64 {
	v, _ := complexity.Seconds(complexity.StmtCost(nil, u, st, machineTable(m, dataUse{})))
	return v
}
