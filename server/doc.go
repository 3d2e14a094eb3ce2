// Package server is the WebSocket executor server behind `codemode
// serve`: it speaks the codemode executor protocol (docs/protocol.md,
// messages in package protocol) to hosts in any language, and runs their
// programs through a [Backend], in process on the runtime or in worker
// processes.
//
// A [Server] serves WebSocket upgrades at "/", and GET /healthz (200 while
// the process runs), /readyz (200 while it accepts connections, 503 once
// it drains) and /metrics (Prometheus text from a registry of its own,
// [Server.Registry]) on the same address. Use [Server.Handler] with an
// http.Server of your own, or [Server.Serve] and [Server.ListenAndServe].
//
// # Connections
//
// A client opens a WebSocket and says hello; the server checks the
// version and the client's identity (the bearer token of [Config.Token],
// or the [Config.Identify] hook) and acknowledges. The client then sends
// execute, resume, invokeHandle and closeHandles requests, each with an
// id of its own, concurrently; the server answers each with one result
// or error of that id, and meanwhile sends the programs' tool calls
// (dispatch) and stub fetches (fetch) for the client to answer. Writes to
// a connection go through a bounded queue and one writer, so a client
// that does not read blocks nobody else; one that leaves its queue full,
// or a frame unwritten, for [Config.WriteTimeout] is dropped. When a
// connection goes away, the contexts of its runs end (their tool calls
// answer "Execution has already completed.") and the executions it
// retained are closed through the backend.
//
// # Admission and bounds
//
// At most MaxWorkers × ExecutionsPerWorker runs (executions, resumes and
// handle invocations) call the backend at once; the others wait first
// come first served, at most MaxQueue of them, and one more is refused
// with QUEUE_OVERFLOW. Each request's timeout is resolved against
// DefaultTimeout and MaxTimeout and passed to the backend, which enforces
// it; the server answers TIMEOUT itself, cancelling the backend's
// context, when the backend has not answered by the timeout plus Grace
// plus TerminationDelay of the run's active time (the time it waits on
// the client does not count unless the request counts host waits). A
// cancelled run whose backend does not answer within TerminationDelay is
// answered for it, as CANCELLED.
//
// # Draining
//
// [Server.Shutdown] drains the server for a deploy. It stops accepting
// (readyz 503, new connections' hellos SHUTTING_DOWN) and keeps serving
// the open connections for ShutdownDelay, so that load balancers move
// new traffic elsewhere. Then it refuses new requests on the open
// connections (SHUTTING_DOWN) and waits up to ShutdownDrain for the
// requests in flight. The requests still queued are answered
// SHUTTING_DOWN, since they never started; every run still going is
// asked to save itself (its request's Suspend channel closes): a run
// that waits on the host comes back as a result of code SUSPENDED
// carrying its sealed state, which the client resumes on another server
// with a resume message. After SuspendWait the runs left (computing, or
// not suspendable) are cancelled, and answered with a result of code
// SHUTTING_DOWN. Then every connection is closed with status 1001 and
// the executions they retained are released. No request is left without
// an answer unless Shutdown's own context ends first, which cuts the
// waits short and drops the connections.
//
// A connection older than MaxConnectionAge retires the same way on its
// own: it refuses new requests, waits ShutdownDrain for its runs, asks
// the rest to save themselves, cancels what is left after SuspendWait,
// and closes with status 1001; the server keeps accepting.
//
// # Metrics
//
// The series are codemode_executions_total{kind,outcome},
// codemode_execution_duration_seconds{kind}, codemode_executions_active,
// codemode_queue_depth, codemode_execution_slots,
// codemode_dispatch_duration_seconds{type} (the round trip of a tool
// call or a stub fetch), codemode_worker_crashes_total (from a
// [CrashReporter] backend's hook, or else from WORKER_CRASHED results),
// codemode_connections, codemode_handshakes_total{outcome},
// codemode_errors_total{code} and codemode_draining, with the Go and
// process collectors.
package server
