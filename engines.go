package codemode

import (
	"context"
	"fmt"
	"os"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/vm"
)

// The engines a Runtime can run programs on. Both run the same language
// with the same built-ins and host rules, and give the same Results.
const (
	// EngineAST is the tree-walking interpreter: the default, the quickest
	// to start.
	EngineAST = "ast"
	// EngineVM is the bytecode VM, whose whole run state is data.
	EngineVM = "vm"
)

// EngineEnv is the environment variable that picks the engine of a
// Runtime whose Options.Engine is empty (CODEMODE_ENGINE=vm go test ./...
// runs a test suite on the VM).
const EngineEnv = "CODEMODE_ENGINE"

// chooseEngine is the engine a Runtime made with name runs on.
func chooseEngine(name string) (string, error) {
	from := "Options.Engine"
	if name == "" {
		name, from = os.Getenv(EngineEnv), EngineEnv
	}
	switch name {
	case "":
		return EngineAST, nil
	case EngineAST, EngineVM:
		return name, nil
	}
	return "", fmt.Errorf("codemode: %s is %q, which is not an engine: use %q (the default) or %q", from, name, EngineAST, EngineVM)
}

// newRunFunc starts a run of a compiled program.
type newRunFunc func(ctx context.Context, opts engine.Options) engine.Run

// compileFor compiles prog for the engine.
func compileFor(name string, prog *ast.Program) (newRunFunc, error) {
	if name == EngineVM {
		code, err := vm.Compile(prog)
		if err != nil {
			return nil, fmt.Errorf("Internal error: engine %q cannot run this program: %v. This is a bug in codemode; please report it with the program, and run it on engine %q meanwhile.", EngineVM, err, EngineAST)
		}
		return func(ctx context.Context, opts engine.Options) engine.Run { return vm.NewRun(ctx, code, opts) }, nil
	}
	code, err := interp.Compile(prog)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, opts engine.Options) engine.Run { return interp.NewRun(ctx, code, opts) }, nil
}
