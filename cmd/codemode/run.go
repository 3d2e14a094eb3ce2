package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/go-codemode/codemode"
)

// runRun executes a program and prints its Result as one line of JSON
// (indented with --pretty).
func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pretty := fs.Bool("pretty", false, "indent the Result JSON")
	timeout := fs.Duration("timeout", 30*time.Second, "wall-clock limit for the run (0: none)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: codemode run [--pretty] [--timeout D] FILE|-")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	text, err := readProgram(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "codemode run: %v\n", err)
		return 2
	}
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: *timeout}})
	if err != nil {
		fmt.Fprintf(stderr, "codemode run: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res := rt.Execute(ctx, text)
	out, err := res.MarshalJSON()
	if err != nil {
		fmt.Fprintf(stderr, "codemode run: %v\n", err)
		return 2
	}
	if *pretty {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err == nil {
			out = b.Bytes()
		}
	}
	stdout.Write(append(out, '\n'))
	if !res.OK {
		return 1
	}
	return 0
}
