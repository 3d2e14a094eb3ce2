package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/go-codemode/codemode/protocol"
)

// The outcomes codemode_executions_total counts.
const (
	outcomeOK           = "ok"           // the run returned a value
	outcomeError        = "error"        // the program failed (a throw, a syntax or module error)
	outcomeTimeout      = "timeout"      // TIMEOUT
	outcomeCancelled    = "cancelled"    // CANCELLED
	outcomeSuspended    = "suspended"    // SUSPENDED: saved by a drain
	outcomeCrashed      = "crashed"      // WORKER_CRASHED
	outcomeRejected     = "rejected"     // refused before it ran: QUEUE_OVERFLOW, SHUTTING_DOWN, PROTOCOL_MISMATCH, UNKNOWN_EXECUTION
	outcomeInvalid      = "invalid"      // INVALID_REQUEST
	outcomeTooLarge     = "too_large"    // PAYLOAD_TOO_LARGE
	outcomeShutdown     = "shutdown"     // cancelled by the end of a drain
	outcomeInternal     = "internal"     // INTERNAL, or a code this server does not know
	outcomeDisconnected = "disconnected" // the connection went away before the answer
)

// The request kinds the execution series are labelled with.
const (
	kindExecute = "execute"
	kindResume  = "resume"
	kindInvoke  = "invokeHandle"
	kindClose   = "closeHandles"
)

// metrics are the server's Prometheus series, in a registry of its own.
type metrics struct {
	reg         *prometheus.Registry
	executions  *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	active      prometheus.Gauge
	queueDepth  prometheus.Gauge
	slots       prometheus.Gauge
	callLatency *prometheus.HistogramVec
	crashes     prometheus.Counter
	connections prometheus.Gauge
	handshakes  *prometheus.CounterVec
	errors      *prometheus.CounterVec
	draining    prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		executions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codemode_executions_total",
			Help: "Requests that run a program (execute, resume, invokeHandle) and closeHandles requests, by kind and outcome: ok, error (the program failed), timeout, cancelled, suspended, crashed, rejected (refused before running), invalid, too_large, shutdown, internal, disconnected.",
		}, []string{"kind", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codemode_execution_duration_seconds",
			Help:    "Time from a run's start on a worker to its answer, by kind; queueing excluded.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"kind"}),
		active: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "codemode_executions_active",
			Help: "Runs on a worker now.",
		}),
		queueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "codemode_queue_depth",
			Help: "Requests waiting for a worker now.",
		}),
		slots: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "codemode_execution_slots",
			Help: "How many runs may be on workers at once (max workers × executions per worker).",
		}),
		callLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codemode_dispatch_duration_seconds",
			Help:    "Round trip of a program's tool call (dispatch) or stub fetch (fetch) to the client and back, by type.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 14),
		}, []string{"type"}),
		crashes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "codemode_worker_crashes_total",
			Help: "Worker processes that died.",
		}),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "codemode_connections",
			Help: "Open WebSocket connections, handshaking ones included.",
		}),
		handshakes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codemode_handshakes_total",
			Help: "Handshakes by outcome: accepted, rejected (CONNECTION_REJECTED), mismatch (PROTOCOL_MISMATCH), shutting_down, malformed, timeout.",
		}, []string{"outcome"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codemode_errors_total",
			Help: "Error messages sent to clients, by code.",
		}, []string{"code"}),
		draining: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "codemode_draining",
			Help: "1 while the server takes no new connections (draining or stopped accepting), 0 otherwise.",
		}),
	}
	m.reg.MustRegister(m.executions, m.duration, m.active, m.queueDepth, m.slots,
		m.callLatency, m.crashes, m.connections, m.handshakes, m.errors, m.draining,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// outcomeOf names the outcome of a request answered with err (an error
// message) or res.
func outcomeOf(res *protocol.ExecuteResult, err *protocol.Error) string {
	if err == nil && res != nil {
		err = res.Error
	}
	if err == nil {
		return outcomeOK
	}
	switch err.Code {
	case "":
		return outcomeError
	case protocol.CodeTimeout:
		return outcomeTimeout
	case protocol.CodeCancelled:
		return outcomeCancelled
	case protocol.CodeSuspended:
		return outcomeSuspended
	case protocol.CodeWorkerCrashed:
		return outcomeCrashed
	case protocol.CodeQueueOverflow, protocol.CodeProtocolMismatch, protocol.CodeUnknownExecution,
		protocol.CodeMalformedMessage, protocol.CodeConnectionRejected:
		return outcomeRejected
	case protocol.CodeShuttingDown:
		if res != nil { // a result: the run was cancelled by the drain
			return outcomeShutdown
		}
		return outcomeRejected
	case protocol.CodeInvalidRequest:
		return outcomeInvalid
	case protocol.CodePayloadTooLarge:
		return outcomeTooLarge
	}
	return outcomeInternal
}
