// Command codemode runs and inspects code-mode programs from the command
// line.
//
//	codemode check [--strict] FILE|- parse a program; print its free names or its error
//	codemode run [flags] FILE|-      run a program; print its Result
//	codemode resume FILE [flags]     continue a run that paused for approval
//	codemode snapshot inspect FILE   describe a paused run's saved state
//	codemode catalog [flags]         list the tools: signatures, JSON, or instructions
//	codemode search [flags] [QUERY]  print what search({query, ...}) returns in a program
//	codemode disasm FILE|-           print the program's bytecode for engine "vm"
//	codemode serve [flags]           serve the executor protocol over WebSocket
//	codemode version                 print the module version and the Go version
//
// run gives the program the tools of a manifest (--tools FILE, see package
// tools/command: each tool a command that reads its input as JSON on
// standard input and writes its result as JSON on standard output) or,
// without one, the built-in demo namespace (tools.demo.*, see package
// tools/demo). Its flags set the limits (--timeout, default 30s;
// --max-tool-calls; --max-output-bytes; --max-memory, default 256MiB) and
// the program's bindings (--bindings '{"name": value}'); `codemode run -h`
// lists them.
//
// With --approve PATH and --state FILE, run pauses at each call of the
// tool PATH: the run is saved to FILE, the calls waiting for a decision
// are printed as {"ok":"suspended","pending":[...]}, and the exit status
// is 3. resume FILE --approve KEY (or --deny KEY=REASON) continues it, in
// this process or another, with the same tool flags.
//
// check, run and search print one JSON value on standard output; catalog
// prints text (or, with --format json, a JSON array). Every subcommand
// works on the demo namespace or, with --tools FILE, a manifest's tools;
// the manifest's warnings (a tool without an output schema, whose results
// the program never sees) go to standard error.
// Exit status: 0 when the program is fine, 1 when it is not (or a saved
// state cannot be used), 2 on a usage error (with the reason on standard
// error), 3 when a run paused for approval and was saved.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
)

const usage = `usage: codemode <command> [arguments]

commands:
  check [--strict] [--tools FILE] FILE|-
                  parse a program (from FILE, or standard input with -) without
                  running it and print its globals and the tool calls it makes
                  (checked against the demo tools or the manifest), or its
                  ParseError: {"ok":true,"globals":[...],"tools":[...],...};
                  --strict fails (exit 1) when a called tool does not exist
  run [flags] FILE|-
                  run a program and print its Result as one line of JSON
                  (exit 0 when ok, 1 when not); the program gets the demo
                  tools (tools.demo.*) or those of a manifest (--tools FILE);
                  with --approve PATH --state FILE a call of the tool PATH
                  pauses the run: it is saved to FILE and its pending calls
                  printed, {"ok":"suspended","pending":[...]} (exit 3)
  resume FILE [--approve KEY]... [--deny KEY=REASON]... [--hold PATH]... [--state FILE2] [flags]
                  continue a paused run: approve or deny its pending calls
                  (KEY as printed, e.g. call-3), hold new calls of PATH again;
                  prints the Result, or pauses again (exit 3) saving to FILE2
                  (default FILE); takes run's tool flags (codemode resume -h)
  snapshot inspect FILE
                  print what a saved run says about itself as indented JSON:
                  header, sizes, time used, tool calls, pending calls
  catalog [--tools FILE] [--format text|json|instructions] [--budget N]
                  print the tools: each signature with its description as a
                  comment (text), the catalog as JSON, or the instructions a
                  host gives a model, within N characters (codemode catalog -h)
  disasm FILE|-   print the program's bytecode for engine "vm", each
                  instruction with its source line:col
  serve [flags]   serve the executor protocol over WebSocket for hosts in any
                  language (docs/protocol.md); SIGTERM drains it (codemode serve -h)
  version         print the module version and the Go version (also --version)
  search [--tools FILE] [--namespace NS] [--limit N] [--offset N] [--pretty] [QUERY]
                  print what search({query, namespace, limit, offset}) returns
                  in a program, as one line of JSON: {"items":[...],"remaining":N,"next":...}

` + runFlags

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "check":
		return runCheck(args[1:], stdin, stdout, stderr)
	case "run":
		return runRun(args[1:], stdin, stdout, stderr)
	case "resume":
		return runResume(args[1:], stdout, stderr)
	case "snapshot":
		return runSnapshot(args[1:], stdout, stderr)
	case "catalog":
		return runCatalog(args[1:], stdout, stderr)
	case "search":
		return runSearch(args[1:], stdout, stderr)
	case "disasm":
		return runDisasm(args[1:], stdin, stdout, stderr)
	case "serve":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runServe(ctx, args[1:], os.Getenv, stdout, stderr)
	case "worker":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runWorker(ctx, args[1:], os.Getenv, stdin, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, versionLine(debug.ReadBuildInfo()))
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "codemode: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// versionLine is what `codemode version` prints: the module version from
// the build info ("(devel)" when built from a checkout, as the go command
// records it) and the Go version that built the binary.
func versionLine(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "codemode (unknown) " + runtime.Version()
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	return "codemode " + v + " " + info.GoVersion
}

// readProgram reads the program named by path, or standard input for "-".
func readProgram(path string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	return string(b), err
}

// writeJSON writes v as one line of JSON, without escaping HTML.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
