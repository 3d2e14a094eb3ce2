// Package remote is the Go client of `codemode serve`: an [Executor]
// that runs programs on an executor server over the wire protocol of
// docs/protocol.md, behind the same contract as the in-process
// codemode.Executor (protocol.Executor and protocol.Resumer), so that a
// host moves a request between the two without changing it. It is the
// Go counterpart of the seed's connect and RemoteExecutor.
//
//	ex, err := remote.Dial(ctx, "ws://executor:8080/", remote.Options{Token: token})
//	...
//	defer ex.Close()
//	res, err := ex.Execute(ctx, protocol.ExecuteRequest{Code: code, Providers: providers, Dispatch: dispatch})
//
// # Sessions
//
// An Executor holds one live session (a WebSocket after its hello) at a
// time, and sends every request on it; requests run concurrently, and
// their answers, tool calls and fetches are matched by id. [Dial] opens
// the first session, once. A call that finds no live session opens one,
// retrying a connection that fails (or a server that is SHUTTING_DOWN)
// as Options.Reconnect says, by default after 250, 500 and 750 ms;
// PROTOCOL_MISMATCH and CONNECTION_REJECTED are never retried.
//
// After Options.RotateAfterExecutions executions and resumes (100 by
// default) a session is retired: it takes no new work, and closes once
// its requests in flight are answered and the executions it retained
// are closed; the next call opens a new one. A session whose server
// answers SUSPENDED or refuses a request with SHUTTING_DOWN is retired
// the same way, since that server is draining.
//
// A session that dies (its connection drops) fails the requests in
// flight on it with CONNECTION_LOST ([CodeConnectionLost]): they are
// never sent again, since they may have run. The executions it retained
// are gone with it: InvokeHandle and CloseHandles then answer
// UNKNOWN_EXECUTION.
//
// # Results and errors
//
// Every result the server sends is Execute's result, whatever its code,
// exactly as codemode.Executor returns its runs' failures (TIMEOUT,
// CANCELLED, INVALID_REQUEST, a throw of the program...). The error is
// the executor's failure that no result carries: the server's error
// messages (QUEUE_OVERFLOW, SHUTTING_DOWN, PAYLOAD_TOO_LARGE, ...) as
// *protocol.Error, and this side's CONNECTION_LOST, CANCELLED (ctx ended
// before the request went out, or the server never answered its cancel)
// and SHUTTING_DOWN (after Close). Branch on the code:
//
//	if errors.Is(err, &protocol.Error{Code: protocol.CodeQueueOverflow}) { ... }
//
// # Draining
//
// A server that drains while a run waits on a tool saves the run and
// answers SUSPENDED with its state. The Executor resumes it on a new
// session (the server's successor behind the same URL, sharing its
// snapshot key) with the request's providers, Dispatch and Fetch, and
// returns the resumed run's result; the tool call the drain cut off
// reaches Dispatch a second time. With Options.ResumeSuspended false the
// SUSPENDED result is returned instead, for [Executor.Resume].
//
// # The wire
//
// Frames are text frames of one message each, encoded by
// protocol.Encode and decoded by protocol.DecodeLimit, at most
// Options.MaxFrameBytes. One goroutine per session reads and never
// blocks on a tool call (each runs in a goroutine of its own; the
// server's pings are answered as it reads); one writes the frames
// queued for it, through a bounded queue, each within 30 s, or the
// session is dropped.
package remote
