package parser

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestCorpus parses every Fortran file under $PFLS_CORPUS and prints
// files, lines, files with syntax errors, panics and seconds. It is
// skipped when the variable is unset. With $PFLS_CORPUS_ACCEPTED naming a
// list of files that gfortran accepts (one path a line), it also reports
// the share of those files with a syntax error, and fails above 2%.
func TestCorpus(t *testing.T) {
	root := os.Getenv("PFLS_CORPUS")
	if root == "" {
		t.Skip("PFLS_CORPUS is not set")
	}
	accepted := map[string]bool{}
	if list := os.Getenv("PFLS_CORPUS_ACCEPTED"); list != "" {
		fh, err := os.Open(list)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			accepted[strings.TrimSpace(sc.Text())] = true
		}
		fh.Close()
	}
	var files []string
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && isFortranName(path) {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	var lines, withErrors, panics, accErrors, accTotal int
	var bytesRead int64
	start := time.Now()
	msgs := map[string]int{}
	var slowest time.Duration
	slowName := ""
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		bytesRead += int64(len(src))
		lines += strings.Count(string(src), "\n")
		t0 := time.Now()
		f, panicked := parseRecovering(path, src)
		if d := time.Since(t0); d > slowest {
			slowest, slowName = d, path
		}
		if panicked != "" {
			panics++
			t.Errorf("%s: panic: %s", path, panicked)
			continue
		}
		syntax := 0
		first := ""
		for _, e := range f.Errors() {
			if e.Code == "syntax" {
				if syntax == 0 {
					l, c := f.Lines.RuneColumn(int(e.Pos))
					first = fmt.Sprintf("%s:%d:%d: %s", path, l+1, c+1, e.Msg)
					msgs[normaliseMsg(e.Msg)]++
				}
				syntax++
			}
		}
		if syntax > 0 {
			withErrors++
		}
		if accepted[path] {
			accTotal++
			if syntax > 0 {
				accErrors++
				if os.Getenv("PFLS_CORPUS_VERBOSE") != "" {
					t.Log(first)
				}
			}
		}
	}
	secs := time.Since(start).Seconds()
	t.Logf("files %d, lines %d, bytes %d, files with syntax errors %d, panics %d, seconds %.2f (%.1f MB/s), slowest %s %v",
		len(files), lines, bytesRead, withErrors, panics, secs, float64(bytesRead)/secs/1e6, slowName, slowest)
	if accTotal > 0 {
		share := 100 * float64(accErrors) / float64(accTotal)
		t.Logf("files gfortran accepts: %d, with a syntax error here: %d (%.2f%%)", accTotal, accErrors, share)
		type kv struct {
			k string
			v int
		}
		var top []kv
		for k, v := range msgs {
			top = append(top, kv{k, v})
		}
		sort.Slice(top, func(i, j int) bool { return top[i].v > top[j].v })
		for i := 0; i < len(top) && i < 15; i++ {
			t.Logf("  %5d  %s", top[i].v, top[i].k)
		}
		if share > 2 {
			t.Errorf("%.2f%% of the files gfortran accepts have a syntax error here; the target is under 2%%", share)
		}
	}
}

func parseRecovering(path string, src []byte) (f *File, panicked string) {
	defer func() {
		if e := recover(); e != nil {
			panicked = fmt.Sprint(e)
		}
	}()
	return Parse(path, src, &Config{recoverInternal: true}), ""
}

func isFortranName(p string) bool {
	switch filepath.Ext(p) {
	case ".f", ".for", ".f77", ".ftn", ".F", ".f90", ".f95", ".f03", ".f08", ".F90", ".F95", ".F03", ".F08", ".FOR", ".hpf", ".fcm":
		return true
	}
	return false
}

// normaliseMsg folds names and numbers out of a message so that messages
// of one kind count together.
func normaliseMsg(m string) string {
	if i := strings.Index(m, ", found"); i >= 0 {
		return m[:i]
	}
	return m
}
