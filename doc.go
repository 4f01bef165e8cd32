// Package pfls is the root of the pfls module: a language server and
// command-line tool for parallel Fortran (cmd/pfls). It holds no code;
// its test (imports_test.go) enforces the import rules of DESIGN.md §2.
package pfls
