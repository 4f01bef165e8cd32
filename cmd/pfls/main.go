// Command pfls is a language server and command-line tool for parallel
// Fortran: Fortran D, High Performance Fortran, CM Fortran, and Fortran
// with MPI or OpenMP.
//
// Usage:
//
//	pfls serve                     the language server, over stdin/stdout
//	pfls check [--json] FILE...    all diagnostics; exit 1 if any error
//	pfls complexity [--cost all-one|fp-one|FILE] [--eval NAME=V,...] [--json] FILE...
//	pfls estimate [--machine FILE] [--procs P] ... FILE
//	pfls train [--np P,...] [--quick] --out FILE
//	pfls validate [--kit DIR] [--machine FILE] [--np P,...] [--quick] [--out DIR]
//	pfls web [--addr HOST:PORT] [--export DIR]   the playground page, analyses in WebAssembly
//	pfls profile [--np P] [--out DIR] FILE... [-- ARGS]
//	pfls version                   print the version
//	pfls help [CMD]                a command's flags with their defaults (also CMD --help)
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `usage: pfls <command> [arguments]

commands:
  serve                    run the language server over stdin/stdout
  check [--json] FILE...   report syntax and declaration errors; exit 1 if any
  complexity [--cost all-one|fp-one|FILE] [--eval NAME=V,...] [--keep NAME,...] [--json] [--profile FILE] FILE...
                           the cost polynomial of every statement, loop and routine
  estimate [--machine FILE] [--procs P] [--set NAME=V,...] [--vary NAME] [--line L] [--plot FILE.svg] [--json] FILE
                           estimated time of each loop under its distribution and the candidates
  estimate [--machine FILE] --machine-info
                           where a machine model's numbers come from, and its curves
  train [--np P,...] [--quick] [--passes K] [--timeout D] [--force] [--raw DIR]
        [--hostfile FILE] [--mpicc PATH] [--mpirun PATH] [--platform NAME|FILE.xml [--host-speed F]] --out FILE
                           measure this machine with its MPI (mpicc, mpirun), or a machine simulated
                           by SimGrid's SMPI, and write a machine model
  validate [--kit DIR] [--machine FILE] [--np P,...] [--sizes N,...] [--quick] [--reps R] [--launches K] [--kernel NAME]
           [--out DIR] [--timeout D] [--hostfile FILE] [--mpif90 PATH] [--mpirun PATH]
           [--platform NAME|FILE.xml [--host-speed F]] [--json]
                           run the validation kit's MPI kernels and compare with the estimates
  web [--addr HOST:PORT] [--export DIR]
                           serve the playground page (the analyses run in the browser), or write it to DIR
  profile [--np P] [--mpirun CMD | --platform NAME|FILE.xml] [--out DIR] [--reps R] [--timeout D] FILE... [-- ARGS]
                           run an instrumented copy of the program: counts, times and MPI calls per line
  version                  print the version
  help [COMMAND]           this text, or a command's flags with their defaults
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit code: 0 fine, 1 the
// program has errors, 2 bad usage or unreadable input.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		if wantsHelp(args[1:]) {
			writeHelp(stdout, "serve", nil)
			return 0
		}
		return runServe(args[1:], os.Stdin, stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "complexity":
		return runComplexity(args[1:], stdout, stderr)
	case "validate":
		return runValidate(args[1:], stdout, stderr)
	case "train":
		return runTrain(args[1:], stdout, stderr)
	case "estimate":
		return runEstimate(args[1:], stdout, stderr)
	case "web":
		return runWeb(args[1:], stdout, stderr)
	case "profile":
		return runProfile(args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "pfls", version)
		return 0
	case "help":
		return runHelp(args[1:], stdout, stderr)
	case "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "pfls: unknown command %q\n%s", args[0], usage)
	return 2
}
