package complexity

// Seconds returns a polynomial as a number when it no longer depends on a
// symbol (a time in seconds, for the estimator and its users).
func Seconds(p Poly) (float64, bool) {
	v, ok := p.Value()
	if !ok {
		return 0, false
	}
	f, _ := v.Float64()
	return f, true
}
