package complexity

// options gives the unit model the engine's options.
func (p engineProcs) options() Options { return p.e.opts }

// SetPips selects the 1992 report's convention (ranges assumed non-empty)
// or exact counting, forgetting the results computed under the other.
func (e *Engine) SetPips(pips bool) {
	if e.opts.Pips != pips {
		e.opts.Pips = pips
		e.cache = map[[32]byte]*cached{}
	}
}
