package main

import (
	"context"
	"testing"
	"time"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// TestEngineGate: analyses take the engine one at a time; a request that
// is cancelled while waiting stops waiting; a cancelled analysis that
// holds the engine gives it up (one at a time), and the next request
// gets a fresh engine at once.
func TestEngineGate(t *testing.T) {
	g := newEngineGate()
	f := parser.Parse("a.f", []byte("      X = 1\n      END\n"), nil)
	entered, release := make(chan *complexity.Engine, 2), make(chan struct{})
	hold := func(ctx context.Context) chan bool {
		done := make(chan bool, 1)
		go func() {
			done <- g.with(ctx, f, func(e *complexity.Engine) {
				entered <- e
				<-release
			})
		}()
		return done
	}
	ctx1, cancel1 := context.WithCancel(context.Background())
	done1 := hold(ctx1)
	e1 := <-entered

	// A second request waits; cancelled, it stops waiting without running.
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan bool, 1)
	go func() { done2 <- g.with(ctx2, f, func(*complexity.Engine) { t.Error("a cancelled request ran") }) }()
	time.Sleep(20 * time.Millisecond)
	cancel2()
	if ran := <-done2; ran {
		t.Fatal("a request cancelled while waiting reports it ran")
	}

	// Cancelling the holder lets the next request in with another engine.
	cancel1()
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	done3 := hold(ctx3)
	select {
	case e3 := <-entered:
		if e3 == e1 {
			t.Fatal("the engine of a running analysis was handed to another")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled analysis still holds the engine")
	}
	// Only one analysis may run on alone: cancelling this one now keeps
	// the engine until it ends.
	cancel3()
	ran4 := make(chan bool, 1)
	go func() { ran4 <- g.with(context.Background(), f, func(*complexity.Engine) {}) }()
	select {
	case <-ran4:
		t.Fatal("a second cancelled analysis gave the engine up")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if !<-done1 || !<-done3 || !<-ran4 {
		t.Fatal("analyses did not all finish")
	}
	// And the gate still works.
	if !g.with(context.Background(), f, func(e *complexity.Engine) { e.File(f) }) {
		t.Fatal("the gate is stuck")
	}
}
