package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/lsp"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// runServe runs the language server over stdin and stdout until the
// client sends exit; logs go to stderr. It returns 0 after a shutdown
// and exit, 1 when the client went away without them, 2 on bad usage.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a != "--stdio" { // editors often pass --stdio
			fmt.Fprintf(stderr, "pfls serve: unexpected argument %q (the server speaks LSP over stdin and stdout)\n", a)
			return 2
		}
	}
	lsp.Version = version
	return lsp.Serve(context.Background(), stdin, stdout, nil, serveOptions(stderr))
}

// serveOptions wires the analyses to the server.
func serveOptions(stderr io.Writer) lsp.Options {
	eng := newEngineGate()
	est := newEstimates()
	return lsp.Options{
		Log: stderr,
		Inlay: func(ctx context.Context, f *parser.File, start, end int, o hints.InlayOptions) (out []hints.InlayHint) {
			eng.with(ctx, f, func(e *complexity.Engine) { out = hints.InlayHints(f, e, start, end, o) })
			return out
		},
		StatementHover: func(ctx context.Context, f *parser.File, off int, o hints.InlayOptions) string {
			var text string
			eng.with(ctx, f, func(e *complexity.Engine) {
				o.Apply(e, f) // the convention and profile of the current settings, not of the last inlay request
				text = hints.StatementHover(f, e, off)
			})
			if last := est.last(f, f.Lines.Line(off)+1); last != "" {
				text += "\n\n**Last estimate**\n\n" + last
			}
			return text
		},
		Actions: func(ctx context.Context, f *parser.File, start, end int, st hints.EstimateSettings) []hints.CodeAction {
			o, err := est.options(st)
			if err != nil {
				fmt.Fprintln(stderr, err)
			}
			return append(hints.QuickFixes(f, start, end, o, nil), hints.LoopActions(f, start, o)...)
		},
		ExtraDiagnostics: func(ctx context.Context, f *parser.File, st hints.EstimateSettings) []hints.Diagnostic {
			o, _ := est.options(st)
			return hints.CapabilityDiagnostics(f, o, nil)
		},
		Estimate: func(ctx context.Context, f *parser.File, line int, st hints.EstimateSettings) (string, error) {
			o, err := est.options(st)
			if err != nil {
				return "", err
			}
			text, err := hints.EstimateLoopText(f, line, o)
			if err == nil {
				est.keep(f, line, text)
			}
			return text, err
		},
		Profile:         profileProgram,
		EstimateOptions: est.options,
		MeasuredHover: func(ctx context.Context, f *parser.File, off int, p *hints.MeasuredProfile) (text string) {
			eng.with(ctx, f, func(e *complexity.Engine) { text = hints.MeasuredCost(f, e, off, p) })
			return text
		},
		Release: func(name string) {
			eng.release(name)
			est.release(name)
		},
	}
}

// Bounds of what the server keeps: machine model files read (bytes), models
// kept, and loop reports kept for hovers.
const (
	maxMachineFile = 16 << 20
	maxMachines    = 8
	maxReports     = 1000
)

// estimates loads machine model files named by the settings (again when
// a file's modification time or size changes, as after a retrain) and
// keeps the last estimate of each loop for its hover.
type estimates struct {
	mu       sync.Mutex
	machines map[string]loadedMachine
	reports  map[string]string
}

// loadedMachine is a model file as it was when it was read.
type loadedMachine struct {
	m       *machine.Machine
	modTime time.Time
	size    int64
}

func newEstimates() *estimates {
	return &estimates{machines: map[string]loadedMachine{}, reports: map[string]string{}}
}

func (e *estimates) options(st hints.EstimateSettings) (hints.EstimateOptions, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if st.Machine == "" {
		return st.Options(nil), nil
	}
	info, err := os.Stat(st.Machine)
	if err != nil {
		return st.Options(nil), fmt.Errorf("pfls.estimate.machine: %w; using the model inside pfls", fileErr(st.Machine, err))
	}
	if l, ok := e.machines[st.Machine]; ok && l.modTime.Equal(info.ModTime()) && l.size == info.Size() {
		return st.Options(l.m), nil
	}
	// A FIFO or a device named here must not hang the server: the read
	// checks the file's type and is bounded.
	data, err := lsp.ReadRegularFile(st.Machine, maxMachineFile)
	if err != nil {
		return st.Options(nil), fmt.Errorf("pfls.estimate.machine: %w; using the model inside pfls", fileErr(st.Machine, err))
	}
	m, err := machine.LoadMachine(bytes.NewReader(data))
	if err != nil {
		return st.Options(nil), fmt.Errorf("pfls.estimate.machine: %s: %w; using the model inside pfls", st.Machine, err)
	}
	if len(e.machines) >= maxMachines {
		clear(e.machines)
	}
	e.machines[st.Machine] = loadedMachine{m, info.ModTime(), info.Size()}
	return st.Options(m), nil
}

// reportKey names a loop by file, line and the text of its line, so that
// a report is not shown on another loop after edits move lines.
func reportKey(f *parser.File, line int) string {
	if line < 1 || line > f.Lines.LineCount() {
		return ""
	}
	text := f.Src[f.Lines.LineStart(line-1):f.Lines.LineEnd(line-1)]
	return fmt.Sprintf("%s:%d:%s", f.Name, line, text)
}

func (e *estimates) keep(f *parser.File, line int, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.reports) >= maxReports {
		clear(e.reports) // rare: a user reads the last few
	}
	e.reports[reportKey(f, line)] = text
}

// release forgets the reports of a closed file.
func (e *estimates) release(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k := range e.reports {
		if strings.HasPrefix(k, name+":") {
			delete(e.reports, k)
		}
	}
}

func (e *estimates) last(f *parser.File, line int) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reports[reportKey(f, line)]
}

// profileProgram runs `pfls profile FILE` (this executable, in the file's
// folder, with its default ranks and time limit) for the "Profile this
// program" command: its stderr lines are its progress, the last one the
// outcome. When ctx is done the run gets an interrupt, on which `pfls
// profile` stops every process it started, and is killed if it has not
// ended 10 s later.
func profileProgram(ctx context.Context, path string, report func(string)) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, exe, "profile", path)
	cmd.Dir = filepath.Dir(path)
	cmd.Stdout = io.Discard // the program's own output
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	var last string
	sc := bufio.NewScanner(errPipe)
	for sc.Scan() {
		if line := strings.TrimPrefix(strings.TrimSpace(sc.Text()), "pfls profile: "); line != "" {
			last = line
			report(line)
		}
	}
	io.Copy(io.Discard, errPipe) // past a line too long for the scanner
	if err := cmd.Wait(); err != nil {
		if last != "" {
			return "", errors.New(last)
		}
		return "", err
	}
	return last, nil
}
