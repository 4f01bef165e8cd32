package lsp

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/pfls/pfls/hints"
)

// Settings are the pfls.* settings. Every field has a default that works
// with no set-up.
type Settings struct {
	InlayHints InlaySettings `json:"inlayHints"`
	// Estimate: pfls.estimate.procs (16), .machine (a model file; "" the
	// model inside pfls) and .values (symbol values, also for PARAMETERs).
	Estimate hints.EstimateSettings `json:"estimate"`
	// Complexity: pfls.complexity.pips keeps the 1992 report's convention
	// (loop ranges assumed non-empty) instead of exact counting.
	Complexity ComplexitySettings `json:"complexity"`
	// Profile: pfls.profile, a profile.json of `pfls profile` shown in
	// hovers ("": the newest one under .pfls/; lsp/profile.go).
	Profile string `json:"profile"`
	// Format: pfls.format.indent (3) and .keywordCase ("keep").
	Format FormatSettings `json:"format"`
}

// ComplexitySettings select the counting convention: pfls.complexity.pips.
type ComplexitySettings struct {
	Pips bool `json:"pips"`
}

// InlaySettings switch the inlay hints: pfls.inlayHints.enable, .loops,
// .units and .maxLength.
type InlaySettings struct {
	Enable    bool `json:"enable"`
	Loops     bool `json:"loops"`
	Units     bool `json:"units"`
	MaxLength int  `json:"maxLength"`
}

// DefaultSettings turns every hint on with labels of at most 40 characters.
func DefaultSettings() Settings {
	d := hints.DefaultInlayOptions()
	return Settings{InlayHints: InlaySettings{Enable: true, Loops: d.Loops, Units: d.Units, MaxLength: d.MaxLength},
		Estimate: hints.EstimateSettings{Procs: 16}, Format: defaultFormatSettings()}
}

// inlayOptions converts the settings for the hint producer.
func (st Settings) inlayOptions() hints.InlayOptions {
	return hints.InlayOptions{Loops: st.InlayHints.Loops, Units: st.InlayHints.Units, MaxLength: st.InlayHints.MaxLength, Pips: st.Complexity.Pips}
}

// parseSettings reads settings over base: raw is the "pfls" section, or
// an object holding it under "pfls". Malformed values keep base.
func parseSettings(raw json.RawMessage, base Settings) Settings {
	var wrapped struct {
		Pfls json.RawMessage `json:"pfls"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && len(wrapped.Pfls) > 0 {
		raw = wrapped.Pfls
	}
	st := base
	if err := json.Unmarshal(raw, &st); err != nil {
		return base
	}
	if st.InlayHints.MaxLength <= 0 {
		st.InlayHints.MaxLength = base.InlayHints.MaxLength
	}
	return st
}

// fetchSettings asks the client for the pfls section when it can answer,
// and applies it.
func (s *Server) fetchSettings() {
	s.mu.Lock()
	can := s.client.configuration
	s.mu.Unlock()
	if !can {
		return
	}
	var res []json.RawMessage
	params := map[string]any{"items": []map[string]string{{"section": "pfls"}}}
	if err := s.callClient("workspace/configuration", params, &res); err != nil {
		s.log.Printf("workspace/configuration: %v", err)
		return
	}
	if len(res) == 0 || string(res[0]) == "null" {
		return
	}
	s.applySettings(parseSettings(res[0], DefaultSettings()))
}

// applySettings stores new settings and asks the client to refresh its
// inlay hints when they changed.
func (s *Server) applySettings(st Settings) {
	if s.storeSettings(st) {
		s.refreshInlays()
	}
}

// storeSettings stores new settings and says whether the client should
// be asked to refresh its inlay hints.
func (s *Server) storeSettings(st Settings) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := !reflect.DeepEqual(st, s.settings)
	s.settings = st
	return changed && s.client.inlayRefresh
}

func (s *Server) refreshInlays() {
	if err := s.callClient("workspace/inlayHint/refresh", nil, nil); err != nil {
		s.log.Printf("workspace/inlayHint/refresh: %v", err)
	}
}

func (s *Server) currentSettings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

func (s *Server) didChangeConfiguration(_ context.Context, r *request) (any, error) {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	_ = json.Unmarshal(r.params, &p)
	var probe struct {
		Pfls json.RawMessage `json:"pfls"`
	}
	if len(p.Settings) > 0 && json.Unmarshal(p.Settings, &probe) == nil && len(probe.Pfls) > 0 {
		// Stored before the next request is read, so that a hover sent
		// right after the notification sees them; only the refresh, a
		// request to the client, waits in its own goroutine.
		if s.storeSettings(parseSettings(probe.Pfls, DefaultSettings())) {
			go s.refreshInlays()
		}
		return nil, nil
	}
	// Pull-model clients send no settings: ask for them.
	go s.fetchSettings()
	return nil, nil
}
