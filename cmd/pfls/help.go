package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// commandHelp is what `pfls help CMD` and `pfls CMD --help` say about a
// command besides its flags: its operands and what it does.
var commandHelp = map[string]struct{ operands, what string }{
	"serve":      {"[--stdio]", "Run the language server over stdin and stdout (--stdio, which editors pass, is accepted and changes nothing)."},
	"check":      {"FILE...", "Report syntax, declaration and compiler-capability diagnostics; exit 1 if there is an error."},
	"complexity": {"FILE...", "Print the cost polynomial of every statement, loop and routine."},
	"estimate":   {"FILE [OTHER...]", "Estimate the time of each loop of FILE under its distribution and the candidates, following calls into the OTHER files of the program (or, with --machine-info, describe the machine model)."},
	"train":      {"--out FILE", "Measure this machine with its MPI (mpicc, mpirun) and write a machine model."},
	"validate":   {"", "Run the validation kit's MPI kernels and compare the measured times with the estimates."},
	"web":        {"", "Serve the playground page, whose analyses run in the browser in WebAssembly (the page sends no request after it has loaded), or write it to a folder for hosting anywhere."},
	"profile":    {"FILE... [-- ARGS]", "Run an instrumented copy of the program (the files are never changed) and its own build, in the current folder; write profile.json, timeline.svg and report.txt: counts, times, MPI calls and bytes per line, processor states over time, loop statistics and the instrumentation's overhead."},
	"version":    {"", "Print the version."},
}

// wantsHelp reports whether args ask for help before any operand marker
// "--": -h, -help or --help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// parseFlags parses a command's arguments. --help prints the command's
// help on stdout (code 0); a bad flag prints the error and the help on
// stderr (code 2). done says the command should stop with code.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	if wantsHelp(args) {
		writeHelp(stdout, fs.Name(), fs)
		return 0, true
	}
	fs.SetOutput(stderr)
	fs.Usage = func() { writeHelp(stderr, fs.Name(), fs) }
	if err := fs.Parse(args); err != nil {
		return 2, true
	}
	return 0, false
}

// writeHelp prints a command's usage line, what it does, and every flag
// with its argument, its meaning and its default.
func writeHelp(w io.Writer, name string, fs *flag.FlagSet) {
	h := commandHelp[name]
	line := "usage: pfls " + name
	if fs != nil {
		line += " [flags]"
	}
	if h.operands != "" {
		line += " " + h.operands
	}
	fmt.Fprintf(w, "%s\n\n%s\n", line, h.what)
	if fs == nil {
		return
	}
	fmt.Fprintf(w, "\nflags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if arg != "" {
			head += " " + argNames[arg]
			if argNames[arg] == "" {
				head += strings.ToUpper(arg)
			}
		}
		fmt.Fprintln(w, head)
		fmt.Fprintf(w, "        %s%s\n", text, defaultNote(f, text))
	})
}

// argNames names the generic argument kinds flag.UnquoteUsage reports.
var argNames = map[string]string{"string": "TEXT", "value": "VALUE", "int": "N", "uint": "N", "float": "X", "duration": "DURATION"}

// defaultNote is the flag's default as its help line shows it, unless the
// usage text already names it.
func defaultNote(f *flag.Flag, text string) string {
	if strings.Contains(text, "(default") {
		return ""
	}
	switch f.DefValue {
	case "":
		return " (default: none)"
	case "[]":
		return " (default: none)"
	}
	return fmt.Sprintf(" (default: %s)", f.DefValue)
}

// runHelp answers `pfls help [CMD]`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return 0
	}
	switch args[0] {
	case "check":
		return runCheck([]string{"--help"}, stdout, stderr)
	case "complexity":
		return runComplexity([]string{"--help"}, stdout, stderr)
	case "estimate":
		return runEstimate([]string{"--help"}, stdout, stderr)
	case "train":
		return runTrain([]string{"--help"}, stdout, stderr)
	case "validate":
		return runValidate([]string{"--help"}, stdout, stderr)
	case "web":
		return runWeb([]string{"--help"}, stdout, stderr)
	case "profile":
		return runProfile([]string{"--help"}, stdout, stderr)
	case "serve", "version":
		writeHelp(stdout, args[0], nil)
		return 0
	}
	fmt.Fprintf(stderr, "pfls help: unknown command %q\n%s", args[0], usage)
	return 2
}
