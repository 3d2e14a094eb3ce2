package server

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

func TestDefaultConfig(t *testing.T) {
	want := Config{
		Addr:                ":8080",
		MaxWorkers:          runtime.GOMAXPROCS(0),
		ExecutionsPerWorker: 1,
		MaxQueue:            100,
		DefaultTimeout:      time.Minute,
		MaxTimeout:          protocol.MaxSupportedTimeout,
		Grace:               time.Second,
		TerminationDelay:    5 * time.Second,
		PingInterval:        30 * time.Second,
		HandshakeTimeout:    10 * time.Second,
		MaxFrameBytes:       64 << 20,
		SendQueue:           64,
		WriteTimeout:        30 * time.Second,
		SuspendWait:         5 * time.Second,
		OutboundDefault:     protocol.OutboundDisabled,
	}
	if got := DefaultConfig(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultConfig\n got %+v\nwant %+v", got, want)
	}
	srv, err := New(Config{}, newBackend())
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.Config(); !reflect.DeepEqual(got, want) {
		t.Errorf("New(Config{}).Config() = %+v", got)
	}
	srv, err = New(Config{MaxTimeout: 2 * protocol.MaxSupportedTimeout, MaxQueue: -1}, newBackend())
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.Config(); got.MaxTimeout != protocol.MaxSupportedTimeout || got.MaxQueue != -1 {
		t.Errorf("MaxTimeout %v, MaxQueue %d", got.MaxTimeout, got.MaxQueue)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{MaxWorkers: -1}, "MaxWorkers is -1"},
		{Config{ExecutionsPerWorker: -2}, "ExecutionsPerWorker is -2"},
		{Config{Grace: -time.Second}, "Grace is -1s"},
		{Config{ShutdownDrain: -1}, "ShutdownDrain is -1ns"},
		{Config{ResponseLimit: -1}, "ResponseLimit is -1"},
		{Config{MaxFrameBytes: -1}, "MaxFrameBytes is -1"},
		{Config{SendQueue: -1}, "SendQueue is -1"},
		{Config{OutboundDefault: "magic"}, `OutboundDefault is "magic"`},
		{Config{OutboundDefault: protocol.OutboundStub, ForbidStub: true}, "ForbidStub forbids"},
	}
	for _, tt := range tests {
		_, err := New(tt.cfg, newBackend())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want %q", tt.cfg, err, tt.want)
		}
	}
	if _, err := New(Config{}, nil); err == nil {
		t.Error("New without a backend succeeded")
	}
}
