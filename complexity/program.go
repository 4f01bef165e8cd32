package complexity

import (
	"slices"
	"sync"

	"github.com/pfls/pfls/parser"
)

// Program is the procedures and modules of a file and the other files of
// its program, indexed once for the look-ups of an estimator (Resolve,
// ResolveCall), as an analysis of the engine finds them. Safe for
// concurrent use; the files must not change.
type Program struct {
	f     *parser.File
	files []*parser.File
	mu    sync.Mutex // guards p's caches (the generic interfaces found)
	p     *pass
	// count holds how many procedures of each name the files define,
	// own how many subroutines and functions f does.
	count, own map[string]int
}

// NewProgram indexes f and the others (the same file twice, or f among
// the others, counts once).
func NewProgram(f *parser.File, others []*parser.File) *Program {
	pr := &Program{f: f, files: []*parser.File{f}, p: &pass{procs: map[string]procRef{}, modules: map[string]procRef{}}, count: map[string]int{}, own: map[string]int{}}
	for _, o := range others {
		if o != nil && !slices.Contains(pr.files, o) {
			pr.files = append(pr.files, o)
		}
	}
	var count func(us []*parser.Unit, own bool)
	count = func(us []*parser.Unit, own bool) {
		for _, u := range us {
			switch u.Kind {
			case parser.UnitSubroutine, parser.UnitFunction:
				if own {
					pr.own[u.Name]++
				}
				pr.count[u.Name]++
			case parser.UnitProcedure:
				pr.count[u.Name]++
			}
			count(u.Contains, own)
		}
	}
	for i, o := range pr.files {
		pr.p.index(o)
		count(o.Units, i == 0)
	}
	return pr
}

// FileProcs counts the subroutines and functions of the program's own
// file (contained ones too) by name. The map is shared: only read it.
func (pr *Program) FileProcs() map[string]int { return pr.own }

// Resolve finds the subroutine or function that a call of name from the
// unit caller means among the procedures of f, as the engine finds it:
// the caller's internal procedures or a host's, its module's, one its
// USE statements make accessible (ONLY lists, renames), else the one
// procedure of that name in f (an external procedure); nil when f
// defines none, or several and none of them is in the caller's scope,
// or when name is a dummy procedure of the caller.
func Resolve(f *parser.File, caller *parser.Unit, name string) *parser.Unit {
	u, _ := NewProgram(f, nil).Resolve(caller, name)
	return u
}

// Resolve is the package's Resolve over the program's files: the
// modules of any of them a USE can name, an external procedure defined
// once among them. It also returns the file that defines the procedure.
// A name the caller's scopes resolve is found there first.
func (pr *Program) Resolve(caller *parser.Unit, name string) (*parser.Unit, *parser.File) {
	if dummyProc(caller, name) {
		return nil, nil
	}
	if ref, ok := pr.p.scoped(pr.f, caller, name); ok {
		return ref.u, ref.f
	}
	if pr.count[name] != 1 {
		return nil, nil
	}
	ref := pr.p.procs[name]
	return ref.u, ref.f
}

// ResolveCall is Resolve for a reference to name with the actual
// arguments args: where name is a generic interface (INTERFACE NAME ...
// MODULE PROCEDURE A, B ... END INTERFACE) of one of the caller's scopes
// or of a module they use, the specific procedure it means, the one whose
// dummy arguments agree with the actual ones in type, kind and rank as
// far as the declarations tell (Fortran 2018 15.5.5.2; what they do not
// tell, such as a kind given by a name pfls cannot evaluate, agrees with
// anything); nil when none or several agree.
func (pr *Program) ResolveCall(caller *parser.Unit, name string, args []parser.Expr) (*parser.Unit, *parser.File) {
	if caller == nil || dummyProc(caller, name) {
		return nil, nil
	}
	pr.mu.Lock()
	ref, ok, generic := pr.p.specificRef(pr.f, caller, name, args)
	pr.mu.Unlock()
	if generic {
		if !ok {
			return nil, nil
		}
		return ref.u, ref.f
	}
	return pr.Resolve(caller, name)
}
