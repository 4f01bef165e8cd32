package complexity

// options gives the unit model the options of the pass's engine.
func (ep engineProcs) options() Options { return ep.p.opts }

// SetPips selects the 1992 report's convention (ranges assumed non-empty)
// or exact counting for the analyses that begin after it. Results under
// the two conventions are cached apart (unitKey).
func (e *Engine) SetPips(pips bool) {
	e.mu.Lock()
	e.opts.Pips = pips
	e.mu.Unlock()
}
