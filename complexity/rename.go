package complexity

// renameVars renames variables of p, old name to new, as substGuarded
// with a variable for each would, one name after the other, but splitting
// and joining the guarded terms once: a term or a guard that names none
// of them is kept as it is. No new name may be an old one (callers rename
// through fresh names first). A callee's summary with k unknowns took 2k
// passes over every guarded term when instantiated; on LAPACK's BLAS test
// drivers that was two thirds of the time.
func renameVars(p Poly, ren map[string]string) (Poly, bool) {
	if len(ren) == 0 {
		return p, true
	}
	var ok bool
	for old, nw := range ren {
		if floorsDependOn(p, old) {
			if p, ok = substFloors(p, old, Var(nw)); !ok {
				return Poly{}, false
			}
		}
	}
	rename := func(q Poly) (Poly, bool) {
		for old, nw := range ren {
			if q.Has(old) {
				var ok bool
				if q, ok = q.Subst(old, Var(nw)); !ok {
					return Poly{}, false
				}
			}
		}
		return q, true
	}
	if !isGuarded(p) {
		return rename(p)
	}
	var out []gterm
	for _, t := range splitGuarded(p) {
		np, ok := rename(t.p)
		if !ok {
			return Poly{}, false
		}
		var atoms []gatom
		alive := true
		for _, a := range t.atoms {
			if !mentionsAny(a.a.g, ren) {
				atoms = append(atoms, a)
				continue
			}
			g, ok := rename(a.a.g)
			if !ok {
				return Poly{}, false
			}
			if atoms, alive = addAtom(atoms, atom{g: g, mod: a.a.mod}, a.main); !alive {
				break
			}
		}
		if alive {
			out = append(out, gterm{atoms, np})
		}
	}
	return joinGuarded(out), true
}

func mentionsAny(p Poly, names map[string]string) bool {
	for n := range names {
		if p.Has(n) {
			return true
		}
	}
	return false
}
