// Package complexity computes symbolic cost polynomials of Fortran programs
// (the PIPS model of seed paper 004): a polynomial per statement, loop and
// routine in the routine's formals and COMMON variables.
//
// The files poly.go, sum.go, solve.go and parse.go hold the exact
// polynomial algebra the model is built on: multivariate polynomials with
// rational coefficients and integer exponents that may be negative (so a
// cost can be divided by a symbol such as LPRNT), their canonical printed
// forms and a parser for them, symbolic summation over a loop index
// (Faulhaber sums through Bernoulli numbers), loop trip counts, and the
// exact solution of the linear system that gives the cost of unstructured
// control flow. guard.go, exact.go, fm.go and pieces*.go count exactly
// where loop ranges may be empty or bounds are MIN/MAX (piecewise counts
// over the parameters); model_exact.go adds work and span, MOD sets and
// numbered unknowns to the model.
package complexity
