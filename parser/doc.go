// Package parser reads Fortran 77/90 in fixed and free form with the
// parallel dialects (HPF and CM Fortran directives, Fortran D statements,
// OpenMP) into a syntax tree: positions and line mapping, logical
// statements, a C preprocessor, statements and constructs, program
// units, symbol tables, and an incremental reparse that equals a parse
// from scratch. Parsing never fails: a malformed program gives a partial
// tree and errors. Standard library only; the caller does the I/O
// (Config.Include).
package parser
