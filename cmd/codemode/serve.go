package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/internal/workerpool"
	"github.com/go-codemode/codemode/outbound"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/server"
)

const serveUsage = `usage: codemode serve [flags]

Serves the codemode executor protocol (docs/protocol.md) over WebSocket,
for hosts in any language: they send programs with their providers and
answer the programs' tool calls. Prints "listening on ws://HOST:PORT/"
on its first line, then logs as JSON on standard error. SIGTERM or
SIGINT drain it: it stops accepting, serves the open connections for
--shutdown-delay, waits --shutdown-drain for the runs in flight, then
saves the runs still waiting on a tool as sealed states (SUSPENDED
results) and cancels the rest.

Every flag can also be set by an environment variable, named after it:
--max-workers is CODEMODE_MAX_WORKERS. A flag wins over its variable.

flags:
  --addr HOST:PORT            where to listen (default :8080)
  --token TOKEN               the bearer token clients must present, in their hello or in
                              the Authorization header (default: $CODEMODE_TOKEN; none admits
                              everyone)
  --max-workers N             runs at once, with --executions-per-worker (default: the
                              number of processors)
  --executions-per-worker N   runs one worker takes at a time (default 1)
  --max-queue N               requests that may wait for a worker; one more is refused with
                              QUEUE_OVERFLOW (default 100)
  --default-timeout D         a run's bound when its request names none (default 60s)
  --max-timeout D             the cap of every requested timeout (default: about 24.8 days)
  --grace D                   how long past its timeout a run may unwind (default 1s)
  --max-memory BYTES          what one run may allocate (default 128MiB, the seed's memoryLimit)
  --max-source BYTES          the largest program with its modules (default 8MiB)
  --ping-interval D           how often connections are pinged (default 30s)
  --max-connection-age D      retire connections this old (default: never)
  --response-limit BYTES      the largest result frame (default: none but --max-frame)
  --max-frame BYTES           the largest frame either way (default 64MiB)
  --shutdown-delay D          how long a draining server keeps serving (default 0)
  --shutdown-drain D          how long it then waits for the runs in flight (default 0)
  --outbound MODE             a request's outbound mode when it names none: native, stub or
                              disabled (default disabled)
  --allow-loopback            native fetch may reach loopback addresses
  --allow-private             native fetch may reach private addresses
  --forbid-stub               refuse requests whose outbound mode is stub
  --snapshot-key HEX          the key that seals saved runs; every server of a deployment
                              needs the same one to resume the others' states (default: a
                              random key, so states resume only on this process)
  --engine ast|vm             the engine (default vm: runs can then be saved when draining)
  --isolate                   run programs in worker processes (codemode worker): a worker
                              that dies, even of a Go fatal error, fails only its own runs
                              (WORKER_CRASHED) and is replaced
  --retire-after N            with --isolate, runs before a worker is replaced (default 50)
  --worker-memory-limit BYTES with --isolate, the memory past which a worker is replaced
                              (default 512MiB)
`

// serveConfig is what serve's (and worker's) flags ask for.
type serveConfig struct {
	srv         server.Config
	addr        string
	maxMemory   byteSize
	maxSource   byteSize
	outbound    string
	allowLoop   bool
	allowPriv   bool
	snapshotKey string
	engine      string
	maxFrame    byteSize
	respLimit   byteSize
	isolate     bool
	retireAfter int
	workerMem   byteSize
}

// serveFlags declares serve's flags on fs, their defaults from the
// environment (getenv), into c.
func serveFlags(fs *flag.FlagSet, c *serveConfig) {
	fs.StringVar(&c.addr, "addr", ":8080", "")
	fs.StringVar(&c.srv.Token, "token", "", "")
	fs.IntVar(&c.srv.MaxWorkers, "max-workers", 0, "")
	fs.IntVar(&c.srv.ExecutionsPerWorker, "executions-per-worker", 0, "")
	fs.IntVar(&c.srv.MaxQueue, "max-queue", 0, "")
	fs.DurationVar(&c.srv.DefaultTimeout, "default-timeout", 0, "")
	fs.DurationVar(&c.srv.MaxTimeout, "max-timeout", 0, "")
	fs.DurationVar(&c.srv.Grace, "grace", 0, "")
	c.maxMemory = 128 << 20
	fs.Var(&c.maxMemory, "max-memory", "")
	c.maxSource = 8 << 20
	fs.Var(&c.maxSource, "max-source", "")
	fs.DurationVar(&c.srv.PingInterval, "ping-interval", 0, "")
	fs.DurationVar(&c.srv.MaxConnectionAge, "max-connection-age", 0, "")
	fs.Var(&c.respLimit, "response-limit", "")
	fs.Var(&c.maxFrame, "max-frame", "")
	fs.DurationVar(&c.srv.ShutdownDelay, "shutdown-delay", 0, "")
	fs.DurationVar(&c.srv.ShutdownDrain, "shutdown-drain", 0, "")
	fs.StringVar(&c.outbound, "outbound", "disabled", "")
	fs.BoolVar(&c.allowLoop, "allow-loopback", false, "")
	fs.BoolVar(&c.allowPriv, "allow-private", false, "")
	fs.BoolVar(&c.srv.ForbidStub, "forbid-stub", false, "")
	fs.StringVar(&c.snapshotKey, "snapshot-key", "", "")
	fs.StringVar(&c.engine, "engine", codemode.EngineVM, "")
	fs.BoolVar(&c.isolate, "isolate", false, "")
	fs.IntVar(&c.retireAfter, "retire-after", 0, "")
	c.workerMem = 512 << 20
	fs.Var(&c.workerMem, "worker-memory-limit", "")
}

// envDefaults sets every flag of fs not given on the command line from
// its environment variable (--max-workers: CODEMODE_MAX_WORKERS).
func envDefaults(fs *flag.FlagSet, getenv func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		name := "CODEMODE_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := getenv(name); v != "" {
			if e := f.Value.Set(v); e != nil {
				err = fmt.Errorf("invalid value %q for %s: %v", v, name, e)
			}
		}
	})
	return err
}

// parseServe reads serve's arguments.
func parseServe(args []string, getenv func(string) string, stderr io.Writer) (*serveConfig, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := &serveConfig{}
	serveFlags(fs, c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{msg: err.Error(), showUsage: true}
	}
	if fs.NArg() > 0 {
		return nil, &usageError{msg: fmt.Sprintf("serve takes no arguments, got %q", fs.Args()), showUsage: true}
	}
	if err := envDefaults(fs, getenv); err != nil {
		return nil, &usageError{msg: err.Error()}
	}
	switch protocol.OutboundMode(c.outbound) {
	case protocol.OutboundNative, protocol.OutboundStub, protocol.OutboundDisabled:
	default:
		return nil, &usageError{msg: fmt.Sprintf("--outbound is %q; the modes are native, stub and disabled", c.outbound)}
	}
	if c.engine != codemode.EngineVM && c.engine != codemode.EngineAST {
		return nil, &usageError{msg: fmt.Sprintf("--engine is %q; the engines are ast and vm", c.engine)}
	}
	if c.snapshotKey != "" {
		if _, err := hex.DecodeString(c.snapshotKey); err != nil || len(c.snapshotKey) < 32 {
			return nil, &usageError{msg: "--snapshot-key must be at least 16 bytes written in hex (32 hex digits), e.g. from `openssl rand -hex 32`"}
		}
	}
	c.srv.Addr = c.addr
	c.srv.ResponseLimit = int(c.respLimit)
	c.srv.MaxFrameBytes = int(c.maxFrame)
	return c, nil
}

// sealKey is the key states are sealed with: --snapshot-key, or a
// random one made once (and passed on to the workers).
func (c *serveConfig) sealKey() []byte {
	if c.snapshotKey == "" {
		key := make([]byte, 32)
		_, _ = rand.Read(key)
		c.snapshotKey = hex.EncodeToString(key)
	}
	key, _ := hex.DecodeString(c.snapshotKey)
	return key
}

// executor builds the in-process executor the flags describe.
func (c *serveConfig) executor() (*codemode.Executor, error) {
	key := c.sealKey()
	rt, err := codemode.New(codemode.Options{Engine: c.engine, SnapshotKey: key,
		Limits: codemode.Limits{MaxMemoryBytes: int64(c.maxMemory), MaxSourceBytes: int(c.maxSource)}})
	if err != nil {
		return nil, err
	}
	native, err := outbound.New(outbound.Config{AllowLoopback: c.allowLoop, AllowPrivate: c.allowPriv})
	if err != nil {
		return nil, err
	}
	return rt.Executor(codemode.ExecutorOptions{DefaultTimeout: c.srv.DefaultTimeout, MaxTimeout: c.srv.MaxTimeout,
		Native: native.Fetch(), DefaultOutbound: protocol.OutboundMode(c.outbound)}), nil
}

// runServe is `codemode serve`: it serves until ctx ends, then drains.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	c, err := parseServe(args, getenv, stderr)
	if err != nil {
		return argsFailure("serve", err, serveUsage, "codemode serve [flags] (codemode serve -h lists them)", stdout, stderr)
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	c.srv.Logger = logger
	randomKey := c.snapshotKey == ""
	backend, err := c.backend(logger, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		return 1
	}
	defer backend.Close()
	srv, err := server.New(c.srv, backend)
	if err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "listening on ws://%s/\n", ln.Addr())
	if c.srv.Token == "" {
		logger.Warn("no token: every client is admitted; set --token or CODEMODE_TOKEN")
	}
	if randomKey {
		logger.Info("states are sealed with a random key: set --snapshot-key on every server of a deployment so that they resume each other's runs")
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "codemode serve: %v\n", err)
			return 1
		}
		return 0
	case <-ctx.Done():
	}
	logger.Info("draining")
	budget := c.srv.ShutdownDelay + c.srv.ShutdownDrain + time.Minute
	sctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		fmt.Fprintf(stderr, "codemode serve: shutdown: %v\n", err)
		return 1
	}
	<-served
	logger.Info("stopped")
	return 0
}

// backend is what runs the programs: an in-process Executor, or with
// --isolate a pool of worker processes running `codemode worker` with
// the same flags (and the same sealing key, through the environment).
func (c *serveConfig) backend(logger *slog.Logger, stderr io.Writer) (interface {
	server.Backend
	Close() error
}, error) {
	if !c.isolate {
		return c.executor()
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--isolate: cannot find this program to start its workers: %v", err)
	}
	key := hex.EncodeToString(c.sealKey())
	env := append(os.Environ(), "CODEMODE_SNAPSHOT_KEY="+key)
	argv := []string{self, "worker", "--engine", c.engine, "--max-memory", fmt.Sprint(int64(c.maxMemory)), "--max-source", fmt.Sprint(int64(c.maxSource)),
		"--outbound", c.outbound, "--default-timeout", c.srv.DefaultTimeout.String(), "--max-timeout", c.srv.MaxTimeout.String()}
	if c.allowLoop {
		argv = append(argv, "--allow-loopback")
	}
	if c.allowPriv {
		argv = append(argv, "--allow-private")
	}
	return workerpool.New(workerpool.Config{Command: argv, Env: env, Stderr: stderr, Logger: logger,
		MaxWorkers: c.srv.MaxWorkers, ExecutionsPerWorker: c.srv.ExecutionsPerWorker,
		RetireAfterExecutions: c.retireAfter, WorkerMemoryLimit: int64(c.workerMem), Grace: c.srv.Grace,
		DefaultTimeout: c.srv.DefaultTimeout, MaxTimeout: c.srv.MaxTimeout})
}

const workerUsage = `usage: codemode worker [flags]

Runs programs for codemode serve --isolate, which starts it: it reads
requests on standard input and answers on standard output, in the worker
pool's framing (package internal/workerpool). It takes serve's flags that
shape a run (--engine, --max-memory, --outbound, --allow-loopback,
--allow-private, --default-timeout, --max-timeout) and its sealing key
from CODEMODE_SNAPSHOT_KEY. It exits when its standard input closes.
`

// runWorker is `codemode worker`.
func runWorker(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseServe(args, getenv, stderr)
	if err != nil {
		return argsFailure("worker", err, workerUsage, "codemode worker [flags] (started by codemode serve --isolate)", stdout, stderr)
	}
	ex, err := c.executor()
	if err != nil {
		fmt.Fprintf(stderr, "codemode worker: %v\n", err)
		return 1
	}
	defer ex.Close()
	if err := workerpool.Serve(ctx, stdin, stdout, ex); err != nil {
		fmt.Fprintf(stderr, "codemode worker: %v\n", err)
		return 1
	}
	return 0
}
