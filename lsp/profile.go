package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
)

// maxProfileBytes bounds the profile.json read for hovers (a long run's
// timeline is the bulk of one; 64 MB is far past any seen).
const maxProfileBytes = 64 << 20

// profiles caches the profile.json files read, by path, while their
// modification time and size stay the same.
var profiles = struct {
	sync.Mutex
	byPath map[string]cachedProfile
}{byPath: map[string]cachedProfile{}}

type cachedProfile struct {
	mod  time.Time
	size int64
	prof *hints.MeasuredProfile
}

// profileState is the profile that applies to a document and, when it no
// longer describes the document's text, why not: the file was saved
// after the profile was written ("profile older than the file"), or the
// document has changes not saved, which may have moved its lines.
func (s *Server) profileState(f *parser.File) (*hints.MeasuredProfile, string) {
	p, mod := s.findProfile(f)
	if p == nil {
		return nil, ""
	}
	info, err := os.Stat(f.Name)
	if err != nil || !info.Mode().IsRegular() {
		return p, "" // not a file on disk: nothing to compare
	}
	if info.ModTime().After(mod) {
		return p, "profile older than the file (run “Profile this program” again)"
	}
	disk, err := ReadRegularFile(f.Name, 2*int64(len(f.Src))+4096)
	if err != nil || !sameText(disk, f.Src) {
		return p, "the file has changes not saved since the profile"
	}
	return p, ""
}

// sameText compares a file's bytes with a document's text, whose lone
// CRs the parser made LF: line ends are compared as lines.
func sameText(disk, src []byte) bool {
	if bytes.Equal(disk, src) {
		return true
	}
	lf := func(b []byte) []byte {
		return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	}
	return bytes.Contains(disk, []byte("\r")) && bytes.Equal(lf(disk), lf(src))
}

// findProfile finds the profile that applies to a document: the setting
// pfls.profile (relative to the first workspace folder), else the newest
// .pfls/*/profile.json next to the document or in a workspace folder
// (where `pfls profile` writes them). nil when there is none or it cannot
// be read. It gives the profile file's modification time too.
func (s *Server) findProfile(f *parser.File) (*hints.MeasuredProfile, time.Time) {
	st := s.currentSettings()
	s.mu.Lock()
	roots := append([]string{}, s.roots...)
	s.mu.Unlock()
	path := st.Profile
	if path != "" && !filepath.IsAbs(path) && len(roots) > 0 {
		path = filepath.Join(roots[0], path)
	}
	if path == "" {
		var newest time.Time
		for _, dir := range append([]string{filepath.Dir(f.Name)}, roots...) {
			matches, _ := filepath.Glob(filepath.Join(dir, ".pfls", "*", "profile.json"))
			for _, m := range matches {
				if info, err := os.Stat(m); err == nil && info.ModTime().After(newest) {
					newest, path = info.ModTime(), m
				}
			}
		}
	}
	if path == "" {
		return nil, time.Time{}
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, time.Time{}
	}
	profiles.Lock()
	defer profiles.Unlock()
	if c, ok := profiles.byPath[path]; ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.prof, c.mod
	}
	data, err := ReadRegularFile(path, maxProfileBytes)
	if err != nil {
		s.log.Printf("pfls.profile: %v", err)
		return nil, time.Time{}
	}
	prof, err := hints.ParseProfile(data)
	if err != nil {
		s.log.Printf("pfls.profile: %s: %v", path, err)
		return nil, time.Time{}
	}
	if len(profiles.byPath) > 16 {
		profiles.byPath = map[string]cachedProfile{}
	}
	profiles.byPath[path] = cachedProfile{mod: info.ModTime(), size: info.Size(), prof: prof}
	return prof, info.ModTime()
}

// estimateOptions are the settings' estimate options with the machine
// model pfls.estimate.machine names (Options.EstimateOptions), as the
// other estimates use; the model inside pfls when it cannot be read.
func (s *Server) estimateOptions() hints.EstimateOptions {
	st := s.currentSettings().Estimate
	if s.opts.EstimateOptions == nil {
		return st.Options(nil)
	}
	o, err := s.opts.EstimateOptions(st)
	if err != nil {
		s.log.Printf("%v", err)
	}
	if o.Machine == nil {
		return st.Options(nil)
	}
	return o
}

// profileHover is the measured part of a statement's hover ("" when no
// profile measured its line, or a note when the profile is stale): the
// line's measurements, and the unknown trip counts of its complexity the
// profile measured (Options.MeasuredHover), estimates on the machine
// model of the settings (estimateOptions) with their symbol values.
func (s *Server) profileHover(ctx context.Context, f *parser.File, off int) string {
	prof, stale := s.profileState(f)
	if stale != "" {
		return hints.StaleProfileHover(f, off, prof, stale)
	}
	if prof == nil {
		return ""
	}
	text := hints.ProfileHover(f, off, prof, s.estimateOptions())
	if s.opts.MeasuredHover != nil {
		if m := s.opts.MeasuredHover(ctx, f, off, prof); m != "" {
			text = strings.TrimSpace(text + "\n\n" + m)
		}
	}
	return text
}

// profileNameHover adds to the hover md of the name at off, when it is a
// program unit's name in its header, the unit's measured time per call
// and calls (hints.ProfileNameHover).
func (s *Server) profileNameHover(f *parser.File, off int, md string) string {
	prof, stale := s.profileState(f)
	if m := hints.ProfileNameHover(f, off, prof, stale); m != "" {
		return strings.TrimSpace(md + "\n\n" + m)
	}
	return md
}

// measuredInlay is the inlay hints of [start, end) of a document with
// the measurements of its profile: the polynomials priced with the
// branch frequencies it measured (hints.InlayOptions.Profile), the loops'
// times beside them (hints.ProfileInlay).
func (s *Server) measuredInlay(ctx context.Context, f *parser.File, start, end int, st Settings) []hints.InlayHint {
	prof, stale := s.profileState(f)
	o := st.inlayOptions()
	if stale == "" {
		o.Profile = prof
	}
	return hints.ProfileInlay(f, s.opts.Inlay(ctx, f, start, end, o), prof, stale, o.MaxLength)
}

// measuredOptions are the analysis options of the settings for a
// document, with its profile when one applies to its text.
func (s *Server) measuredOptions(f *parser.File) hints.InlayOptions {
	o := s.currentSettings().inlayOptions()
	if prof, stale := s.profileState(f); stale == "" {
		o.Profile = prof
	}
	return o
}

// ProfileFunc runs `pfls profile` on the file at path (the program of a
// document) until it ends or ctx is done, giving report the lines it
// writes as it goes. It answers its last line ("... wrote DIR").
type ProfileFunc func(ctx context.Context, path string, report func(msg string)) (string, error)

// profileTimeout bounds a profile run by the command, on top of the time
// limit of `pfls profile` itself.
var profileTimeout = 15 * time.Minute

// profileRuns are the profiles under way, by file (one at a time each),
// with the progress token that cancels them.
var profileRuns = struct {
	sync.Mutex
	byPath  map[string]string
	byToken map[string]context.CancelFunc
	next    int
}{byPath: map[string]string{}, byToken: map[string]context.CancelFunc{}}

// profileCommand starts pfls.profile [uri] in the background and answers
// at once. The run reports $/progress where the client supports it (and
// stops on window/workDoneProgress/cancel), stops after profileTimeout
// or when the connection ends, shows its outcome, naming the file, in a
// window/showMessage, and then asks the client to refresh its inlay
// hints, which the new profile changes.
func (s *Server) profileCommand(args []json.RawMessage) (any, error) {
	var uri string
	if len(args) != 1 || json.Unmarshal(args[0], &uri) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, hints.ProfileCommand+" takes [uri]")
	}
	path, ok := uriToPath(protocol.DocumentURI(uri))
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "not a file: "+uri)
	}
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "pfls profile: "+path+": not a file on disk (save it first)")
	}
	if s.opts.Profile == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "no profiler")
	}
	ctx, cancel := context.WithTimeout(context.Background(), profileTimeout)
	profileRuns.Lock()
	if _, busy := profileRuns.byPath[path]; busy {
		profileRuns.Unlock()
		cancel()
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "pfls profile: "+path+" is being profiled already")
	}
	profileRuns.next++
	token := fmt.Sprintf("pfls-profile-%d", profileRuns.next)
	profileRuns.byPath[path] = token
	profileRuns.byToken[token] = cancel
	profileRuns.Unlock()
	s.mu.Lock()
	progress, refresh := s.client.progress, s.client.inlayRefresh
	s.mu.Unlock()
	go func() {
		// The file is free again before the outcome is shown, so that a
		// client that answers the message with a new run is not refused.
		var releaseOnce sync.Once
		release := func() {
			releaseOnce.Do(func() {
				profileRuns.Lock()
				delete(profileRuns.byPath, path)
				delete(profileRuns.byToken, token)
				profileRuns.Unlock()
				cancel()
			})
		}
		defer release()
		if s.conn != nil {
			go func() {
				select {
				case <-s.conn.Done():
					cancel()
				case <-ctx.Done():
				}
			}()
		}
		if progress && s.callClient("window/workDoneProgress/create", map[string]any{"token": token}, nil) != nil {
			progress = false
		}
		report := func(v map[string]any) {
			if progress {
				s.notify("$/progress", map[string]any{"token": token, "value": v})
			}
		}
		name := filepath.Base(path)
		report(map[string]any{"kind": "begin", "title": "pfls: profiling " + name, "cancellable": true})
		last, err := s.opts.Profile(ctx, path, func(msg string) { report(map[string]any{"kind": "report", "message": msg}) })
		switch {
		case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
			err = fmt.Errorf("stopped after the time limit of %v", profileTimeout)
		case err != nil && ctx.Err() != nil:
			err = errors.New("cancelled")
		}
		if err != nil {
			report(map[string]any{"kind": "end", "message": "failed"})
			release()
			s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: fmt.Sprintf("pfls profile %s: %v", path, err)})
			return
		}
		report(map[string]any{"kind": "end", "message": "done"})
		release()
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: fmt.Sprintf("pfls profile %s: %s", path, last)})
		if refresh {
			if err := s.callClient("workspace/inlayHint/refresh", nil, nil); err != nil {
				s.log.Printf("inlay hint refresh: %v", err)
			}
		}
	}()
	return "profiling " + path, nil
}

// cancelProgress answers window/workDoneProgress/cancel: it stops the
// profile run of the token, if one is under way.
func (s *Server) cancelProgress(_ context.Context, r *request) (any, error) {
	var p struct {
		Token json.RawMessage `json:"token"`
	}
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	var token string
	if json.Unmarshal(p.Token, &token) != nil {
		return nil, nil // a number: not one of ours
	}
	profileRuns.Lock()
	cancel := profileRuns.byToken[token]
	profileRuns.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil, nil
}
