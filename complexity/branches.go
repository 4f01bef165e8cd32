package complexity

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/big"
	"sort"

	"github.com/pfls/pfls/parser"
)

// Branches are the branch counts a profile measured in one file (seed
// 004's half-static, half-dynamic method): by 1-based line, the times
// the branch whose head is on that line (IF THEN, ELSE IF, ELSE, CASE)
// was taken, and on the line of an END IF or END SELECT the times control
// went through a construct without ELSE or CASE DEFAULT taking no branch.
// A construct all of whose lines were measured is priced with the
// measured frequencies instead of the guessed ones.
type Branches struct {
	taken  map[int]int64
	digest [32]byte
}

// NewBranches returns the counts by line (nil when there are none).
func NewBranches(taken map[int]int64) *Branches {
	if len(taken) == 0 {
		return nil
	}
	b := &Branches{taken: make(map[int]int64, len(taken))}
	lines := make([]int, 0, len(taken))
	for l, n := range taken {
		b.taken[l] = n
		lines = append(lines, l)
	}
	sort.Ints(lines)
	h := sha256.New()
	var buf [16]byte
	for _, l := range lines {
		binary.LittleEndian.PutUint64(buf[:8], uint64(l))
		binary.LittleEndian.PutUint64(buf[8:], uint64(taken[l]))
		h.Write(buf[:])
	}
	copy(b.digest[:], h.Sum(nil))
	return b
}

// SetBranches gives the analyses that begin after it the measured branch
// counts of the file named (nil: none, the guessed probabilities).
// Results with and without counts are cached apart (unitKey).
func (e *Engine) SetBranches(file string, b *Branches) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.opts.Branches[file] == b {
		return
	}
	// A pass holds the map it began with: replace it, never change it.
	next := make(map[string]*Branches, len(e.opts.Branches)+1)
	for k, v := range e.opts.Branches {
		next[k] = v
	}
	if b == nil {
		delete(next, file)
	} else {
		next[file] = b
	}
	if len(next) == 0 {
		next = nil
	}
	e.opts.Branches = next
}

// armCounts are the measured counts of a construct's arms, in order, and
// the times it was reached (the arms' counts and its fall-through's).
type armCounts struct {
	taken   []int64
	reached int64
}

// measuredArms reads the counts of a construct whose arms have the heads
// given and which ends with end (complete: it has an ELSE or a CASE
// DEFAULT, so it never falls through). ok is false unless every count is
// there and the construct was reached.
func (m *unitModel) measuredArms(heads []parser.Stmt, end parser.Stmt, complete bool) (armCounts, bool) {
	if m.branches == nil || m.f == nil {
		return armCounts{}, false
	}
	count := func(s parser.Stmt) (int64, bool) {
		if s == nil {
			return 0, false
		}
		n, ok := m.branches.taken[m.f.Lines.Line(m.u.Abs(s.Pos()))+1]
		return n, ok && n >= 0
	}
	var a armCounts
	for _, h := range heads {
		n, ok := count(h)
		if !ok {
			return armCounts{}, false
		}
		a.taken = append(a.taken, n)
		a.reached += n
	}
	if !complete {
		n, ok := count(end)
		if !ok {
			return armCounts{}, false
		}
		a.reached += n
	}
	return a, a.reached > 0
}

// measuredNote is the note of a branch priced with a measured probability.
func measuredNote(p *big.Rat, taken, reached int64) string {
	return fmt.Sprintf("branch probability %s (measured: taken %d of %d times)", p.RatString(), taken, reached)
}
