package complexity

import "github.com/pfls/pfls/parser"

// inquiryValue is the value of SIZE, LBOUND or UBOUND of an array whose
// extents pfls knows (explicit bounds, the bounds of its one ALLOCATE, a
// section of such an array): DO I = 1, SIZE(A, 1) counts as many trips
// as DO I = 1, N for A(N). ok is false for any other function reference,
// for a DIM that is not a constant in range, for the array results of
// LBOUND and UBOUND without DIM, and for an extent pfls does not know.
//
// Fortran 2018 16.9.109 and 16.9.196: LBOUND and UBOUND of a whole array
// are its declared bounds when the dimension is not empty, and 1 and 0
// when it is; of a section or any other expression, 1 and the extent.
// The declared bounds are taken for a whole array either way: the two
// differ only for an empty dimension, where a loop from one to the other
// is empty both ways.
func (m *unitModel) inquiryValue(c *parser.Call, e env) (Poly, bool) {
	name, ok := m.intrinsicRef(c)
	if !ok || name != "SIZE" && name != "LBOUND" && name != "UBOUND" {
		return Poly{}, false
	}
	args := m.intrinsicArgs(c.Args, "ARRAY", "DIM", "KIND")
	array := args["ARRAY"]
	if array == nil {
		return Poly{}, false
	}
	ext, isArray, known := m.shape(array, e)
	if !isArray {
		return Poly{}, false
	}
	dim := -1
	if d := args["DIM"]; d != nil {
		k, okK := m.value(d, e, nil)
		kv, isC := k.Value()
		if !okK || !isC || !kv.IsInt() || !kv.Num().IsInt64() {
			return Poly{}, false
		}
		dim = int(kv.Num().Int64()) - 1
		if dim < 0 || known && dim >= len(ext) {
			return Poly{}, false
		}
	}
	if dim < 0 && name != "SIZE" {
		return Poly{}, false // a vector of bounds, not a scalar
	}
	if whole, isID := array.(*parser.Ident); isID && name != "SIZE" {
		if sym := m.sc.Lookup(whole.Name); sym != nil && sym.Rank() > 0 && sym.Selector == nil {
			dims := m.dimsOf(sym)
			if dim >= len(dims) {
				return Poly{}, false
			}
			d := dims[dim]
			if name == "LBOUND" {
				if d.Lower == nil {
					return Int(1), true
				}
				return m.value(d.Lower, e, nil)
			}
			if _, star := d.Upper.(*parser.Star); d.Upper == nil || star {
				return Poly{}, false
			}
			return m.value(d.Upper, e, nil)
		}
	}
	if name == "LBOUND" {
		return Int(1), true
	}
	if !known {
		return Poly{}, false
	}
	if dim >= 0 {
		return ext[dim], true
	}
	n := Int(1)
	for _, x := range ext {
		n = n.Mul(x)
	}
	return n, true
}
