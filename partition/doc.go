// Package partition estimates how long a loop takes on a distributed-
// memory machine under a data distribution (seed 003): it reads the
// distributions of the three dialects, finds the communication the
// owner-computes rule implies, prices computation and messages with a
// trained machine model, ranks candidate distributions and finds where one
// overtakes another. A LoopReport gathers all of it for one loop, for
// the command line, the editor and the validation kit to render.
package partition
