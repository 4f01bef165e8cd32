package lsp

import (
	"os"
	"path/filepath"
	"sync"
	"time"

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

// profileFor finds the profile that applies to a document: the setting
// pfls.profile (relative to the first workspace folder), else the newest
// .pfls/*/profile.json next to the document or in a workspace folder
// (where `pfls profile` writes them). nil when there is none or it cannot
// be read.
func (s *Server) profileFor(f *parser.File) *hints.MeasuredProfile {
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
		return nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	profiles.Lock()
	defer profiles.Unlock()
	if c, ok := profiles.byPath[path]; ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.prof
	}
	data, err := ReadRegularFile(path, maxProfileBytes)
	if err != nil {
		s.log.Printf("pfls.profile: %v", err)
		return nil
	}
	prof, err := hints.ParseProfile(data)
	if err != nil {
		s.log.Printf("pfls.profile: %s: %v", path, err)
		return nil
	}
	if len(profiles.byPath) > 16 {
		profiles.byPath = map[string]cachedProfile{}
	}
	profiles.byPath[path] = cachedProfile{mod: info.ModTime(), size: info.Size(), prof: prof}
	return prof
}

// profileHover is the measured part of a statement's hover ("" when no
// profile measured its line), estimates on the built-in machine model
// with the settings' symbol values.
func (s *Server) profileHover(f *parser.File, off int) string {
	prof := s.profileFor(f)
	if prof == nil {
		return ""
	}
	return hints.ProfileHover(f, off, prof, s.currentSettings().Estimate.Options(nil))
}
