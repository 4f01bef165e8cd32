package main

// pfls profile: instrument a copy of the program (profile.Instrument),
// build and run it and the user's own program under mpirun, smpirun or
// directly (profile.Run, which removes its temporary folder and every
// process), and write profile.json, timeline.svg and report.txt.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/internal/mpirun"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/profile"
)

func runProfile(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	np := fs.Int("np", 2, "MPI processes (ranks) of the run")
	mpirunPath := fs.String("mpirun", "", "MPI launcher (default: mpirun on PATH)")
	platformArg := fs.String("platform", "", "run on a machine simulated by SimGrid's SMPI: a preset (ncube2, cluster) or a SimGrid platform FILE.xml")
	outDir := fs.String("out", "", "write profile.json, timeline.svg and report.txt into this folder (default: .pfls/profile-TIMESTAMP next to the first file)")
	timeout := fs.Duration("timeout", 10*time.Minute, "stop the runs after this long")
	reps := fs.Int("reps", 1, "runs of each build, alternately; the overhead compares the fastest")
	// Everything after "--" is the program's arguments.
	var progArgs []string
	for i, a := range args {
		if a == "--" {
			args, progArgs = args[:i], args[i+1:]
			break
		}
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	const usageLine = "usage: pfls profile [--np P] [--mpirun CMD] [--platform NAME|FILE.xml] [--out DIR] [--reps R] [--timeout D] FILE... [-- ARGS]"
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "pfls profile: no file given (%s)\n", usageLine)
		return 2
	}
	if *np < 1 || *np > 1024 {
		fmt.Fprintf(stderr, "pfls profile: --np %d: want 1 to 1024\n", *np)
		return 2
	}
	if *reps < 1 || *reps > 100 {
		fmt.Fprintf(stderr, "pfls profile: --reps %d: want 1 to 100\n", *reps)
		return 2
	}
	if *platformArg != "" && *mpirunPath != "" {
		fmt.Fprintln(stderr, "pfls profile: --platform runs SMPI's smpirun: leave out --mpirun")
		return 2
	}
	paths := fs.Args()
	var files []*parser.File
	var abs, dirs []string
	inc := &includeSettings{}
	for _, path := range paths {
		f, err := parseFile(path, inc)
		if err != nil {
			fmt.Fprintf(stderr, "pfls profile: %v\n", err)
			return 2
		}
		for _, e := range f.Errors() {
			if e.Severity == parser.SevError {
				l, c := f.Lines.RuneColumn(int(e.Pos))
				fmt.Fprintf(stderr, "%s:%d:%d: %s [%s]\n", path, l+1, c+1, e.Msg, e.Code)
				return 1
			}
		}
		a, err := filepath.Abs(path)
		if err != nil {
			fmt.Fprintf(stderr, "pfls profile: %v\n", err)
			return 2
		}
		files = append(files, f)
		abs = append(abs, a)
		dirs = append(dirs, filepath.Dir(a))
	}
	prog := profile.Instrument(files, paths)
	opts := profile.Options{Procs: *np, Args: progArgs, Stdout: stdout, Dirs: dirs, Reps: *reps}
	switch {
	case prog.MPI && *platformArg != "":
		sim, err := setupPlatform(*platformArg, []int{*np}, mpirun.Fortran, "")
		if err != nil {
			fmt.Fprintf(stderr, "pfls profile: --platform: %v\n", fileErr(*platformArg, err))
			return 2
		}
		defer sim.close()
		opts.MPI = sim.mpi
		fmt.Fprintf(stderr, "pfls profile: on %s; MPI times and the timeline are simulated, loop and routine times are this machine's\n", sim.describe())
	case prog.MPI:
		mpi, err := mpirun.Find(mpirun.Fortran, "", *mpirunPath)
		if err != nil {
			fmt.Fprintf(stderr, "pfls profile: %v\n", err)
			return 2
		}
		opts.MPI = mpi
	case *platformArg != "":
		fmt.Fprintf(stderr, "pfls profile: --platform: %s calls no MPI routine; nothing to simulate\n", paths[0])
		return 2
	}
	if !prog.MPI && *np != 1 && flagGiven(fs, "np") {
		fmt.Fprintf(stderr, "pfls profile: note: %s calls no MPI routine; running one process\n", paths[0])
	}
	dir := *outDir
	if dir == "" {
		dir = filepath.Join(filepath.Dir(abs[0]), ".pfls", "profile-"+time.Now().UTC().Format("20060102T150405Z"))
	}

	ctx, cancel := mpirun.Context(*timeout)
	defer cancel()
	start := time.Now()
	m, err := profile.Run(ctx, prog, opts)
	if err != nil {
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			fmt.Fprintf(stderr, "pfls profile: stopped after the time limit of %v (every process of the run was stopped)\n", *timeout)
		case ctx.Err() != nil:
			fmt.Fprintln(stderr, "pfls profile: interrupted (every process of the run was stopped)")
		default:
			fmt.Fprintf(stderr, "pfls profile: %v\n", err)
		}
		return 1
	}
	prof := profile.Build(prog, m, abs)
	if err := writeProfile(dir, prog, m, prof); err != nil {
		fmt.Fprintf(stderr, "pfls profile: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "pfls profile: %d rank(s), overhead %+.1f%% (%s instrumented, %s uninstrumented); took %.1f s; wrote %s\n",
		prof.Ranks, m.Overhead(), profile.Seconds(m.Instrumented), profile.Seconds(m.Plain), time.Since(start).Seconds(), dir)
	return 0
}

// flagGiven says whether the command line set a flag.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			given = true
		}
	})
	return given
}

// writeProfile writes the three result files into dir.
func writeProfile(dir string, prog *profile.Program, m *profile.Measurement, prof *profile.Profile) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(prof); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "profile.json"), js.Bytes(), 0o644); err != nil {
		return err
	}
	var svg bytes.Buffer
	title := fmt.Sprintf("%s: %d rank(s)", strings.Join(baseNames(prog.Paths), ", "), prof.Ranks)
	if err := profile.WriteTimeline(&svg, prof, title); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "timeline.svg"), svg.Bytes(), 0o644); err != nil {
		return err
	}
	var rep bytes.Buffer
	profile.WriteReport(&rep, prog, m, prof)
	return os.WriteFile(filepath.Join(dir, "report.txt"), rep.Bytes(), 0o644)
}

func baseNames(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}

// tripTable is the cost table under which the model's count of a DO
// statement is the number of iterations of its nest: nothing costs
// anything but an iteration, which costs 1.
func tripTable() *complexity.CostTable {
	z := complexity.Zero()
	t := complexity.TableFromCosts("iterations", z, z, z, z, z, z, z)
	t.PerIteration = complexity.Int(1)
	return t
}

// exactStats says the model's count of a statement rests on nothing
// unknown: no unknown variable or range and no IF weighed half and half
// ("guessed" values are the known ones: PARAMETERs and assignments).
func exactStats(s complexity.Stats) bool {
	return s.VarUnknown == 0 && s.RangeUnknown == 0 && s.IfHalfHalf == 0
}

// checkCounts prints, for every DO loop of the files, the measured trip
// count (iterations per entry, over the ranks) and the iterations of its
// nest per entry beside the model's count of the nest (under a cost
// table where only an iteration costs), and flags a disagreement where
// the model is exact: a constant (with --eval's values) resting on
// nothing unknown. Nests that call a routine of the files are not compared (its
// loops run from elsewhere too). It returns the number of disagreements.
func checkCounts(w io.Writer, files []*parser.File, profPath string, values map[string]*big.Rat, keep []string) (int, error) {
	data, err := os.ReadFile(profPath)
	if err != nil {
		return 0, fileErr(profPath, err)
	}
	var prof profile.Profile
	if err := json.Unmarshal(data, &prof); err != nil {
		return 0, fmt.Errorf("%s: %v", profPath, err)
	}
	type key struct {
		path string
		line int
	}
	measured := map[key]profile.Line{}
	for _, l := range prof.Lines {
		measured[key{l.Path, l.Line}] = l
	}
	routines := map[string]bool{}
	constructs := map[*parser.DoStmt]*parser.DoConstruct{} // the model lists a loop at its head
	var visit func(u *parser.Unit)
	visit = func(u *parser.Unit) {
		routines[strings.ToUpper(u.Name)] = true
		for _, s := range u.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				if d, ok := n.(*parser.DoConstruct); ok {
					constructs[d.Do] = d
				}
				_, isStmt := n.(parser.Stmt)
				return isStmt
			})
		}
		for _, c := range u.Contains {
			visit(c)
		}
	}
	for _, f := range files {
		for _, u := range f.Units {
			visit(u)
		}
	}
	eng := complexity.NewEngine(complexity.Options{Cost: tripTable(), Keep: keep})
	results := eng.Analyze(files...)
	disagree := 0
	fmt.Fprintf(w, "measured (%s, %d ranks) against the model: iterations per entry of each DO loop and of its nest\n", profPath, prof.Ranks)
	for _, f := range files {
		abs, _ := filepath.Abs(f.Name)
		for _, r := range results[f.Name] {
			for _, s := range r.Statements {
				head, ok := s.Stmt.(*parser.DoStmt)
				d := constructs[head]
				if !ok || d == nil {
					continue
				}
				line := f.Lines.Line(r.Unit.Abs(d.Do.Pos())) + 1
				where := fmt.Sprintf("%s:%d", f.Name, line)
				ml, ok := measured[key{abs, line}]
				if !ok || ml.Entries == 0 {
					fmt.Fprintf(w, "%s: not run (no measurement)\n", where)
					continue
				}
				var nest int64
				calls := false
				parser.Inspect(d, func(n parser.Node) bool {
					switch x := n.(type) {
					case *parser.DoConstruct:
						nest += measured[key{abs, f.Lines.Line(r.Unit.Abs(x.Do.Pos())) + 1}].Count
					case *parser.CallStmt:
						if x.Name != nil && routines[strings.ToUpper(x.Name.Name)] {
							calls = true
						}
					}
					_, isStmt := n.(parser.Stmt)
					return isStmt
				})
				trip := float64(ml.Count) / float64(ml.Entries)
				perEntry := float64(nest) / float64(ml.Entries)
				model := s.Count.String()
				v := evalValue(s.Count, values)
				if v == nil {
					if c, ok := s.Count.Value(); ok {
						v, _ = c.Float64()
					}
				}
				if v != nil {
					model = fmt.Sprint(v)
				}
				verdict := ""
				switch num, isNum := v.(float64); {
				case calls:
					verdict = "  (calls a routine: not compared)"
				case !isNum || !exactStats(s.Stats):
					verdict = "  (model not exact: not compared)"
				case num*float64(ml.Entries) != float64(nest):
					verdict = "  DISAGREES"
					disagree++
				default:
					verdict = "  agrees"
				}
				fmt.Fprintf(w, "%s: trip %s (%d iterations in %d entries); nest %s per entry, model %s%s\n",
					where, trimFloat(trip), ml.Count, ml.Entries, trimFloat(perEntry), model, verdict)
			}
		}
	}
	return disagree, nil
}

func trimFloat(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
