// Package workerpool runs executions in worker processes: the crash
// isolation of `codemode serve --isolate`, after the executor seed's
// WorkerPool.
//
// A Go program cannot recover from every failure: a stack overflow in
// Go code, concurrent map writes or running out of memory kill the
// process. [Pool] therefore runs each program in a child process
// (`codemode worker`, which calls [Serve] on its stdin and stdout with
// an in-process codemode.Executor), so that such a death fails only
// the runs that worker was running, with results of code
// WORKER_CRASHED, and the next request gets a fresh worker. A Pool
// implements protocol.Executor and protocol.Resumer, and the server's
// Backend and CrashReporter.
//
// # Framing
//
// Each direction of the pipe carries frames: a 4-byte big-endian
// length, then one JSON object of that many bytes, at most
// protocol.MaxFrameSize (64 MiB). The objects are messages of package
// protocol, encoded with protocol.Encode and decoded as strictly as
// protocol.DecodeLimit decodes the WebSocket's frames, and three
// worker-only messages:
//
//	pool to worker:  start {id, request: execute|resume, dispatch, fetch, suspend}
//	                 suspend {id}
//	                 invokeHandle, closeHandles, cancel,
//	                 dispatchResult, fetchResult
//	worker to pool:  dispatch, fetch (of the request id)
//	                 memory {rss, heap}, before every answer
//	                 result, error (of the request id)
//
// A start wraps the protocol's execute or resume message and says
// which of the request's Go fields were set (Dispatch, Fetch, Suspend),
// so that the worker's executor sees the same request. Ids are the
// pool's ("r12", "i13", "c14"); callIds of tool calls are the worker's.
// The tool calls of a handle invocation carry the invocation's id. The
// pool never sends a malformed frame, so the worker treats one as a
// broken pipe and exits; a malformed or oversized frame from a worker
// marks it as broken (it is untrusted after a fatal bug): the pool
// kills it and its runs fail as crashed. Shutting a worker down is
// closing its stdin: [Serve] cancels what still runs and returns.
//
// # Lifecycle
//
// Workers start lazily, when a run finds no free slot, up to
// MaxWorkers running ExecutionsPerWorker runs each; a run waits for a
// slot until its context ends. A worker retires after
// RetireAfterExecutions runs, or once the memory it reports after a run
// (resident set where known, else Go heap in use) passes
// WorkerMemoryLimit: it takes no new runs, finishes those in flight,
// keeps serving invocations of the executions it retains until they
// are closed or idle for HandlesIdleTimeout, and is then asked to exit
// (stdin closed) and killed after TerminationDelay. A retired worker
// that only keeps retained executions does not count against
// MaxWorkers.
//
// A worker whose process exits, whose pipe breaks or that sends garbage
// is dead: every request in flight on it is answered WORKER_CRASHED
// (the message has the exit status and the fatal error line of its
// stderr), its retained executions are forgotten (invoking them is
// UNKNOWN_EXECUTION), OnCrash is called and the end of its stderr is
// logged. A watchdog per request kills a worker that has not answered
// a run within its timeout plus Grace plus TerminationDelay of active
// time (time spent waiting on the host's tool calls does not count
// unless the request counts host waits), or a cancelled run within
// Grace plus TerminationDelay.
//
// Retained executions are routed by id: the pool gives each the id
// "<worker id>-<the worker's id>" and keeps which worker holds it, with
// the Dispatch and Fetch of the request that retained it, which answer
// the invocations' tool calls.
//
// [Pool.Close] answers the requests in flight with SHUTTING_DOWN
// results, shuts every worker down and returns once every process is
// reaped and every goroutine of the pool has ended.
package workerpool
