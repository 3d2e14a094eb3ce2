package vm

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/internal/snapshot"
	"github.com/go-codemode/codemode/value"
)

// This file saves a run between jobs and brings it back: the VM's own
// state as data (docs/architecture.md, "Suspending a run"). The heap is
// written by internal/snapshot; compiled code is never written, only
// referred to by function number ("f3"), against the program recompiled
// from its source.

// SnapshotTypes registers the VM's types that a saved heap holds.
func SnapshotTypes(reg *snapshot.Registry) {
	snapshot.Register[*closure](reg, "vm.closure")
	snapshot.Register[*coroutine](reg, "vm.coroutine")
	snapshot.Register[*generator](reg, "vm.generator")
	snapshot.Register[*frame](reg, "vm.frame", snapshot.After(checkFrame))
	snapshot.Register[*cell](reg, "vm.cell")
	snapshot.Register[*privScope](reg, "vm.privScope")
	snapshot.Register[*classRuntime](reg, "vm.classRuntime")
	snapshot.Register[*yieldStar](reg, "vm.yieldStar")
	snapshot.Register[*asyncIter](reg, "vm.asyncIter")
	snapshot.Register[*forIn](reg, "vm.forIn")
	snapshot.Register[jsops.FieldInit](reg, "vm.FieldInit")
	// Compiled code and the run itself are the process's: pointers to
	// them are written by name (SaveState), never as content.
	snapshot.Register[*Funcode](reg, "vm.Funcode", snapshot.ExternBy(func(*Funcode) (string, bool) { return "", false }))
	snapshot.Register[*Run](reg, "vm.Run", snapshot.ExternBy(func(*Run) (string, bool) { return "", false }))
}

// runState is what a saved run keeps of the VM.
type runState struct {
	Globals   []value.Value
	Warnings  []Warning
	Warned    map[ast.Pos]bool
	EndPos    int
	Templates []*value.Object
	PrivIDs   int
	MainCo    *coroutine
	MainExc   *value.Exception
	StopJobs  bool
	Realm     value.RealmState
}

// CanSave reports why the run cannot be saved now, or "" when it can: it
// is between jobs, with no program frame running.
func (run *Run) CanSave() string {
	if len(run.frames) > 0 {
		return "the program is running (a frame is on the VM's stack)"
	}
	return ""
}

// SaveState makes e write the run's compiled code and the run itself by
// name, and returns the run's state as a root for e (a pointer) to
// encode. The run must be between jobs (CanSave).
func (run *Run) SaveState(e *snapshot.Encoder) (root any, err error) {
	if why := run.CanSave(); why != "" {
		return nil, fmt.Errorf("vm: cannot save the run: %s", why)
	}
	e.Extern(run, "agent")
	e.Extern(&run.mainCl, "mainCl")
	for i, fc := range run.prog.Funcs {
		e.Extern(fc, "f"+strconv.Itoa(i))
	}
	st := &runState{Globals: run.globals, Warnings: run.warnings, Warned: run.warned, EndPos: run.endPos,
		Templates: run.templates, PrivIDs: run.privIDs, MainCo: run.mainCo, MainExc: run.mainExc,
		StopJobs: run.stopJobs}
	st.Realm = run.realm.SaveState(e)
	return st, nil
}

// NewStateRoot is the root SaveState's counterpart decodes into.
func NewStateRoot() any { return &runState{} }

// ResolveExtern finds what an extern name SaveState wrote names in this
// run: the run, its compiled functions, the realm's objects; ok is false
// for a name that is not the run's.
func (run *Run) ResolveExtern(name string, t reflect.Type) (reflect.Value, bool, error) {
	switch {
	case name == "agent":
		return reflect.ValueOf(run), true, nil
	case name == "mainCl":
		run.mainCl = closure{fc: run.prog.Funcs[0]}
		return reflect.ValueOf(&run.mainCl), true, nil
	case strings.HasPrefix(name, "f"):
		i, err := strconv.Atoi(name[1:])
		if err != nil || i < 0 || i >= len(run.prog.Funcs) {
			return reflect.Value{}, true, snapshot.Malformedf("the state refers to function %q, which the program does not have", name)
		}
		return reflect.ValueOf(run.prog.Funcs[i]), true, nil
	}
	return run.realm.ResolveExtern(name, t)
}

// RestoreState puts a state decoded into root (NewStateRoot) back into a
// run made fresh for the same program.
func (run *Run) RestoreState(root any) error {
	st, ok := root.(*runState)
	if !ok {
		return fmt.Errorf("vm: RestoreState needs the root of NewStateRoot, not %T", root)
	}
	if len(st.Globals) != len(run.prog.Globals) {
		return snapshot.Malformedf("the state has %d globals, the program %d", len(st.Globals), len(run.prog.Globals))
	}
	if err := run.realm.RestoreState(st.Realm); err != nil {
		return err
	}
	run.globals, run.warnings, run.warned, run.endPos = st.Globals, st.Warnings, st.Warned, st.EndPos
	run.templates, run.privIDs, run.mainCo, run.mainExc, run.stopJobs = st.Templates, st.PrivIDs, st.MainCo, st.MainExc, st.StopJobs
	if run.mainCo != nil {
		run.mainCl = closure{fc: run.prog.Funcs[0]}
	}
	return nil
}

// checkFrame refuses a saved frame that could not run: its code and its
// place in its segment must agree.
func checkFrame(_ *snapshot.Decoder, fr *frame) error {
	if fr.fc == nil {
		return snapshot.Malformedf("a frame without code")
	}
	if fr.pc < 0 || fr.pc > len(fr.fc.insns) || fr.bp < 0 || fr.sp < fr.bp ||
		fr.bp+fr.fc.NumLocals > len(fr.seg) || fr.sp > len(fr.seg) {
		return snapshot.Malformedf("a frame of %s at pc %d, bp %d, sp %d in a segment of %d",
			fr.fc.Name, fr.pc, fr.bp, fr.sp, len(fr.seg))
	}
	for _, h := range fr.handlers {
		if h.pc < 0 || h.pc > len(fr.fc.insns) || h.sp < 0 || h.sp > len(fr.seg) {
			return snapshot.Malformedf("a try region of %s at pc %d", fr.fc.Name, h.pc)
		}
	}
	return nil
}

// ApplyPosted applies the host outcomes waiting, without running a job.
func (run *Run) ApplyPosted() *engine.Failure { return run.Loop.ApplyPosted(run.guard) }

// SaveEveryJobs makes Settle stop every n jobs (n > 0) with a Failure
// whose Suspend is SuspendRequested, for the host to save the run there:
// round-trip mode saves a run at job boundaries.
func (run *Run) SaveEveryJobs(n int) { run.saveEvery = n }

// WaitHost waits for one host outcome, ignoring a suspend request.
func (run *Run) WaitHost() *engine.Failure { return run.Loop.WaitHost(run.guard) }
