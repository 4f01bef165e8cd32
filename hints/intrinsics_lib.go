package hints

import (
	"fmt"
	"path"
	"strings"

	"github.com/pfls/pfls/parser"
)

// The MPI and OpenMP interfaces: their names hover and take signature
// help in the units that can see them, through `use mpi`, `use mpi_f08`,
// INCLUDE 'mpif.h', `use omp_lib` or INCLUDE 'omp_lib.h', directly, in a
// host, or through a module of the workspace that uses them.

// Library names as Scope.Uses spells module names (upper case).
const (
	libMPI    = "MPI"
	libMPIF08 = "MPI_F08"
	libOMP    = "OMP_LIB"
)

var (
	mpiForms = upperKeys(parseForms(mpiTable))
	ompForms = upperKeys(parseForms(ompTable))
)

func upperKeys(m map[string][]*ProcForm) map[string][]*ProcForm {
	out := make(map[string][]*ProcForm, len(m))
	for k, v := range m {
		out[strings.ToUpper(k)] = v
	}
	return out
}

// handleTypes are the braces of mpiTable: the handle's name under mpi_f08.
var handleTypes = []string{"Comm", "Datatype", "Op", "Request", "Status", "Errhandler"}

// libraryType writes a handle type for the binding in use: TYPE(MPI_Comm)
// under mpi_f08, INTEGER (an MPI_Comm handle) otherwise; a status is an
// INTEGER array of MPI_STATUS_SIZE there.
func libraryType(t string, f08 bool) string {
	for _, h := range handleTypes {
		brace := "{" + h + "}"
		if !strings.Contains(t, brace) {
			continue
		}
		var with string
		switch {
		case f08:
			with = "TYPE(MPI_" + h + ")"
		case h == "Status":
			with = "INTEGER(MPI_STATUS_SIZE)"
		default:
			with = "INTEGER (MPI_" + h + " handle)"
		}
		t = strings.ReplaceAll(t, brace, with)
	}
	return t
}

// bound returns copies of forms with their handle types written for the
// binding; under mpi_f08 IERROR becomes optional.
func bound(forms []*ProcForm, f08 bool) []*ProcForm {
	out := make([]*ProcForm, len(forms))
	for i, f := range forms {
		c := *f
		c.Result = libraryType(c.Result, f08)
		c.Params = make([]ProcParam, len(f.Params))
		for j, p := range f.Params {
			p.Type = libraryType(p.Type, f08)
			if f08 && p.Name == "IERROR" {
				p.Optional = true
			}
			c.Params[j] = p
		}
		out[i] = &c
	}
	return out
}

// LibraryForms returns the MPI or OpenMP routine or constant called name
// (upper case) if the unit u can see that library, and the library's
// name; nil otherwise.
func LibraryForms(f *parser.File, u *parser.Unit, name string, others []*parser.File) ([]*ProcForm, string) {
	var table map[string][]*ProcForm
	omp := false
	switch {
	case strings.HasPrefix(name, "MPI_"):
		table = mpiForms
	case strings.HasPrefix(name, "OMP_") || name == "OPENMP_VERSION":
		table, omp = ompForms, true
	default:
		return nil, ""
	}
	forms, ok := table[name]
	if !ok || u == nil {
		return nil, ""
	}
	libs := librariesOf(f, u, others)
	if omp {
		if libs[libOMP] {
			return forms, "omp_lib"
		}
		return nil, ""
	}
	switch {
	case libs[libMPIF08]:
		return bound(forms, true), "mpi_f08"
	case libs[libMPI]:
		return bound(forms, false), "mpi"
	}
	return nil, ""
}

// librariesOf returns the libraries (libMPI, libMPIF08, libOMP) the unit
// u sees: by USE in u or a host, by INCLUDE, or through workspace modules
// that use them (followed to a depth of 16).
func librariesOf(f *parser.File, u *parser.Unit, others []*parser.File) map[string]bool {
	libs := map[string]bool{}
	seen := map[string]bool{}
	var visit func(uses []string, depth int)
	visit = func(uses []string, depth int) {
		for _, m := range uses {
			m = strings.ToUpper(m)
			switch m {
			case libMPI, libMPIF08, libOMP:
				libs[m] = true
				continue
			case "OMP_LIB_KINDS":
				libs[libOMP] = true
				continue
			}
			if seen[m] || depth > 16 {
				continue
			}
			seen[m] = true
			if mod := findModule(f, m, others); mod != nil {
				visit(unitUses(mod), depth+1)
				includedLibs(mod, libs)
			}
		}
	}
	for h := u; h != nil; h = h.Parent {
		visit(unitUses(h), 0)
		includedLibs(h, libs)
	}
	return libs
}

// unitUses lists the modules the unit's USE statements name.
func unitUses(u *parser.Unit) []string {
	if u.Scope != nil {
		return u.Scope.Uses
	}
	var out []string
	for _, st := range u.Body {
		if us, ok := st.(*parser.UseStmt); ok && us.Module != nil {
			out = append(out, us.Module.Name)
		}
	}
	return out
}

// includedLibs marks the libraries the unit INCLUDEs (mpif.h, omp_lib.h).
func includedLibs(u *parser.Unit, libs map[string]bool) {
	for _, st := range u.Body {
		is, ok := st.(*parser.IncludeStmt)
		if !ok {
			continue
		}
		switch strings.ToLower(path.Base(strings.TrimSpace(is.Path))) {
		case "mpif.h":
			libs[libMPI] = true
		case "omp_lib.h":
			libs[libOMP] = true
		}
	}
}

// findModule returns the module called name (upper case) in f or others.
func findModule(f *parser.File, name string, others []*parser.File) *parser.Unit {
	for _, file := range append([]*parser.File{f}, others...) {
		for _, u := range file.Units {
			if u.Kind == parser.UnitModule && strings.EqualFold(u.Name, name) {
				return u
			}
		}
	}
	return nil
}

// libraryHover is the hover of an MPI or OpenMP name the unit can see and
// does not declare itself; "" otherwise.
func libraryHover(f *parser.File, r *NameRef, others []*parser.File) string {
	if r.Common || r.Header {
		return ""
	}
	if s := r.Sym; s != nil && s.Declared && s.Included == "" && s.Kind != parser.SymProcedure {
		return "" // the program's own declaration of the name
	}
	forms, lib := LibraryForms(f, r.Unit, r.Name, others)
	if forms == nil {
		return ""
	}
	var b strings.Builder
	if fm := forms[0]; fm.Class == "K" {
		t := fm.Result
		if !strings.Contains(t, "parameter") {
			t += ", parameter"
		}
		fmt.Fprintf(&b, "```fortran\n%s\n```\n%s\n\nnamed constant of `%s`\n", fm.Name+": "+t, fm.Doc, lib)
		return b.String()
	}
	procHover(&b, forms, "`"+lib+"`")
	return b.String()
}
