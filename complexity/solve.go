package complexity

import (
	"fmt"
	"math/big"
	"sort"
)

// SolveLinear solves g = c + P·g for the vector of polynomials g, the
// PIPS rule for unstructured control flow: gᵢ = cᵢ + Σⱼ pᵢⱼ·gⱼ, where cᵢ
// is the proper cost of node i, pᵢⱼ the probability of going from node i
// to node j, and gᵢ the expected cost from node i to the exit. P must be
// n×n for n = len(c); a nil entry counts as zero. The system is solved
// exactly by Gaussian elimination over the rationals. SolveLinear returns
// an error when the sizes disagree or when I − P is singular, as it is for
// a cycle the control flow leaves with probability 0 (an infinite loop),
// and for systems past MaxUnstructuredNodes. This dense elimination is the
// reference the model's solver (expectedCost) is tested against; it costs
// n³ operations on growing rationals.
func SolveLinear(p [][]*big.Rat, c []Poly) ([]Poly, error) {
	n := len(c)
	if n > MaxUnstructuredNodes {
		return nil, fmt.Errorf("complexity: %d nodes, past %d", n, MaxUnstructuredNodes)
	}
	if len(p) != n {
		return nil, fmt.Errorf("complexity: %d rows of probabilities for %d costs", len(p), n)
	}
	// a = I − P, with the right-hand side kept beside it.
	a := make([][]*big.Rat, n)
	for i, row := range p {
		if len(row) != n {
			return nil, fmt.Errorf("complexity: row %d has %d probabilities, want %d", i, len(row), n)
		}
		a[i] = make([]*big.Rat, n)
		for j, v := range row {
			x := new(big.Rat)
			if v != nil {
				x.Neg(v)
			}
			if i == j {
				x.Add(x, big.NewRat(1, 1))
			}
			a[i][j] = x
		}
	}
	rhs := append([]Poly(nil), c...)

	// Forward elimination. The arithmetic is exact, so any nonzero pivot
	// will do; the first one keeps the order of the rows when possible.
	for col := 0; col < n; col++ {
		piv := -1
		for r := col; r < n; r++ {
			if a[r][col].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			return nil, fmt.Errorf("complexity: the system is singular: some cycle of the control flow is never left")
		}
		a[col], a[piv] = a[piv], a[col]
		rhs[col], rhs[piv] = rhs[piv], rhs[col]
		for r := col + 1; r < n; r++ {
			if a[r][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(a[r][col], a[col][col])
			for k := col; k < n; k++ {
				a[r][k] = new(big.Rat).Sub(a[r][k], new(big.Rat).Mul(f, a[col][k]))
			}
			rhs[r] = rhs[r].Sub(rhs[col].Scale(f))
		}
	}

	// Back substitution.
	g := make([]Poly, n)
	for i := n - 1; i >= 0; i-- {
		s := rhs[i]
		for k := i + 1; k < n; k++ {
			if a[i][k].Sign() != 0 {
				s = s.Sub(g[k].Scale(a[i][k]))
			}
		}
		g[i] = s.Scale(new(big.Rat).Inv(a[i][i]))
	}
	return g, nil
}

// solveError says why expectedCost gave no polynomial: the control flow
// can enter a cycle it never leaves (unbounded), or the system is past a
// budget of limits.go (reason says which).
type solveError struct {
	unbounded bool
	nodes     []int // for unbounded: the nodes that never reach the exit
	reason    string
}

func (e *solveError) Error() string {
	if e.unbounded {
		return "a cycle of the control flow is entered and never left"
	}
	return e.reason
}

// solveCheckEvery is how many rational operations pass between two calls
// of the cancellation check.
const solveCheckEvery = 1 << 12

// expectedCost returns g₀ of g = c + P·g, the expected cost from node 0
// to the exit, where the exit takes the probability each row of P leaves
// out. It computes the expected number of visits v of each node instead,
// vⱼ = [j = 0] + Σᵢ vᵢ·pᵢⱼ, a system of rationals only, and then
// g₀ = Σ vⱼ·cⱼ: the polynomials meet only in that last sum. The visits
// are solved one strongly connected component at a time in topological
// order (a structured GOTO loop is a small component, and code between
// loops needs no elimination at all), each component by sparse
// elimination in source order. Nodes node 0 cannot reach cost nothing.
// A node reachable from node 0 that cannot reach the exit makes the cost
// unbounded. check, called now and then, stops the work when it returns
// an error (a cancelled request).
func expectedCost(p [][]*big.Rat, c []Poly, check func() error) (Poly, error) {
	n := len(c)
	if n == 0 {
		return Zero(), nil
	}
	if n > MaxUnstructuredNodes {
		return Poly{}, &solveError{reason: fmt.Sprintf("%d statements in one list with jumps, past %d", n, MaxUnstructuredNodes)}
	}
	type edge struct {
		to   int
		prob *big.Rat
	}
	succ := make([][]edge, n)
	pred := make([][]int, n)
	exits := make([]bool, n)
	for i := range n {
		out := new(big.Rat)
		for j, v := range p[i] {
			if v != nil && v.Sign() > 0 {
				succ[i] = append(succ[i], edge{j, v})
				pred[j] = append(pred[j], i)
				out.Add(out, v)
			}
		}
		exits[i] = out.Cmp(big.NewRat(1, 1)) < 0
	}
	// Reachable from node 0, and reaching the exit.
	reach := make([]bool, n)
	stack := []int{0}
	reach[0] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range succ[i] {
			if !reach[e.to] {
				reach[e.to] = true
				stack = append(stack, e.to)
			}
		}
	}
	leaves := make([]bool, n)
	for i := range n {
		if exits[i] && reach[i] {
			leaves[i] = true
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range pred[j] {
			if reach[i] && !leaves[i] {
				leaves[i] = true
				stack = append(stack, i)
			}
		}
	}
	var stuck []int
	for i := range n {
		if reach[i] && !leaves[i] {
			stuck = append(stuck, i)
		}
	}
	if len(stuck) > 0 {
		return Poly{}, &solveError{unbounded: true, nodes: stuck}
	}

	// Strongly connected components of the reachable nodes (Tarjan),
	// found in reverse topological order.
	comps := sccs(n, func(i int) []int {
		var out []int
		for _, e := range succ[i] {
			out = append(out, e.to)
		}
		return out
	}, reach)
	comp := make([]int, n)
	for k, cs := range comps {
		for _, i := range cs {
			comp[i] = k
		}
	}
	v := make([]*big.Rat, n)
	in := make([]*big.Rat, n) // visits flowing in from earlier components
	for i := range in {
		in[i] = new(big.Rat)
	}
	in[0].SetInt64(1)
	s := solver{check: check}
	for k := len(comps) - 1; k >= 0; k-- {
		cs := comps[k]
		sort.Ints(cs)
		if err := s.component(cs, comp, k, in, v, func(i int, f func(j int, prob *big.Rat)) {
			for _, e := range succ[i] {
				f(e.to, e.prob)
			}
		}); err != nil {
			return Poly{}, err
		}
		// Pass the visits on to later components.
		for _, i := range cs {
			for _, e := range succ[i] {
				if comp[e.to] != k {
					in[e.to].Add(in[e.to], new(big.Rat).Mul(v[i], e.prob))
				}
			}
		}
	}
	total := Zero()
	for i := range n {
		if reach[i] && v[i].Sign() != 0 {
			total = total.Add(c[i].Scale(v[i]))
		}
	}
	return total, nil
}

// solver counts the work of expectedCost's eliminations.
type solver struct {
	work  int
	check func() error
}

func (s *solver) spend(k int) error {
	before := s.work
	s.work += k
	if s.work > MaxSolveWork {
		return &solveError{reason: fmt.Sprintf("jumps too intricate: solving them exactly takes more than %d operations", MaxSolveWork)}
	}
	if s.check != nil && before/solveCheckEvery != s.work/solveCheckEvery {
		return s.check()
	}
	return nil
}

func (s *solver) fits(r *big.Rat) error {
	if ratBits(r) > MaxSolveBits {
		return &solveError{reason: fmt.Sprintf("jumps too intricate: their exact probabilities pass %d bits", MaxSolveBits)}
	}
	return nil
}

// component solves the visits of one strongly connected component cs
// (number k): vⱼ = inⱼ + Σ_{i in cs} vᵢ·pᵢⱼ, by Gaussian elimination on
// sparse rows. The matrix I − Qᵀ of a component the exit can be reached
// from is a nonsingular M-matrix, so its pivots in any order are
// positive and no row exchange is needed.
func (s *solver) component(cs []int, comp []int, k int, in, v []*big.Rat, succ func(int, func(int, *big.Rat))) error {
	if len(cs) == 1 {
		i := cs[0]
		self := new(big.Rat)
		succ(i, func(j int, prob *big.Rat) {
			if j == i {
				self.Add(self, prob)
			}
		})
		d := new(big.Rat).Sub(big.NewRat(1, 1), self)
		v[i] = new(big.Rat).Quo(in[i], d)
		return s.fits(v[i])
	}
	pos := make(map[int]int, len(cs)) // node → position in cs
	for x, i := range cs {
		pos[i] = x
	}
	m := len(cs)
	rows := make([]map[int]*big.Rat, m) // row x: the equation of node cs[x], by column position
	cols := make([]map[int]bool, m)     // column y: the rows with a nonzero there
	rhs := make([]*big.Rat, m)
	for x := range m {
		rows[x] = map[int]*big.Rat{x: big.NewRat(1, 1)}
		cols[x] = map[int]bool{x: true}
		rhs[x] = new(big.Rat).Set(in[cs[x]])
	}
	for y, i := range cs {
		succ(i, func(j int, prob *big.Rat) {
			if comp[j] != k {
				return
			}
			x := pos[j] // the equation of j has −pᵢⱼ at column i
			a, ok := rows[x][y]
			if !ok {
				a = new(big.Rat)
				rows[x][y] = a
				cols[y][x] = true
			}
			a.Sub(a, prob)
		})
	}
	for y := range m {
		piv := rows[y][y]
		if piv == nil || piv.Sign() == 0 {
			return &solveError{reason: "the system of the jumps is singular"}
		}
		below := make([]int, 0, len(cols[y]))
		for x := range cols[y] {
			if x > y {
				below = append(below, x)
			}
		}
		sort.Ints(below)
		for _, x := range below {
			f := new(big.Rat).Quo(rows[x][y], piv)
			delete(rows[x], y)
			delete(cols[y], x)
			if err := s.spend(len(rows[y])); err != nil {
				return err
			}
			for z, a := range rows[y] {
				if z == y {
					continue
				}
				t := new(big.Rat).Mul(f, a)
				b, ok := rows[x][z]
				if !ok {
					rows[x][z] = t.Neg(t)
					cols[z][x] = true
					b = rows[x][z]
				} else {
					b.Sub(b, t)
				}
				if err := s.fits(b); err != nil {
					return err
				}
			}
			rhs[x].Sub(rhs[x], new(big.Rat).Mul(f, rhs[y]))
			if err := s.fits(rhs[x]); err != nil {
				return err
			}
		}
	}
	for y := m - 1; y >= 0; y-- {
		acc := new(big.Rat).Set(rhs[y])
		for z, a := range rows[y] {
			if z > y {
				acc.Sub(acc, new(big.Rat).Mul(a, v[cs[z]]))
			}
		}
		v[cs[y]] = acc.Quo(acc, rows[y][y])
		if err := s.fits(v[cs[y]]); err != nil {
			return err
		}
	}
	return nil
}

// sccs returns the strongly connected components of the nodes in keep of
// a graph of n nodes, in reverse topological order (a component before
// the components that reach it). It is Tarjan's algorithm, iterative so
// that a long chain cannot exhaust the stack.
func sccs(n int, next func(int) []int, keep []bool) [][]int {
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]int
	var stack []int
	counter := 0
	type frame struct {
		node int
		succ []int
		at   int
	}
	for root := range n {
		if !keep[root] || index[root] >= 0 {
			continue
		}
		calls := []frame{{node: root, succ: next(root)}}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		on[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.at < len(f.succ) {
				w := f.succ[f.at]
				f.at++
				if !keep[w] {
					continue
				}
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					on[w] = true
					calls = append(calls, frame{node: w, succ: next(w)})
				} else if on[w] {
					low[f.node] = min(low[f.node], index[w])
				}
				continue
			}
			u := f.node
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].node
				low[p] = min(low[p], low[u])
			}
			if low[u] == index[u] {
				var c []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					c = append(c, w)
					if w == u {
						break
					}
				}
				comps = append(comps, c)
			}
		}
	}
	return comps
}
