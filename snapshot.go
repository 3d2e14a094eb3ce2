package codemode

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/builtin/collections"
	"github.com/go-codemode/codemode/builtin/numeric"
	"github.com/go-codemode/codemode/builtin/text"
	"github.com/go-codemode/codemode/builtin/web"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/internal/snapfile"
	"github.com/go-codemode/codemode/internal/snapshot"
	"github.com/go-codemode/codemode/value"
	"github.com/go-codemode/codemode/vm"
)

// A saved run is an envelope (internal/snapfile) around three sections:
//   - "source": the program's text, recompiled on resume (bytecode is
//     never saved) and checked against the header's hash;
//   - "run": the active time used and the suspensions so far, read first
//     because the resumed run's deadline depends on them;
//   - "heap": the VM's state and the host's (hostState), one graph
//     written by internal/snapshot.

// hostState is what a saved run keeps of its host side.
type hostState struct {
	// Main is the promise the run is settling: the program body's.
	Main *value.Object
	// Root is the tools reference (compared by identity).
	Root  *value.Object
	Calls []ToolCall
	Seq   int
	// Held are the tool calls waiting for a decision.
	Held []*pendingCall
	// ExtObjects are the extension globals made so far.
	ExtObjects map[string]value.Value
}

// sectionName is a section's name, with ".z" when it is deflated.
func sectionName(name string, z bool) string {
	if z {
		return name + ".z"
	}
	return name
}

// sectionIs reports whether section i is name, deflated (z) or not.
func sectionIs(secs []snapfile.Section, i int, name string) (z, ok bool) {
	if i >= len(secs) {
		return false, false
	}
	switch secs[i].Name {
	case name:
		return false, true
	case name + ".z":
		return true, true
	}
	return false, false
}

// StateInfo describes a saved state without resuming it.
type StateInfo struct {
	Header snapfile.Header `json:"header"`
	// Sizes are the bytes of each part: the envelope's header and seal,
	// and each section.
	Sizes map[string]int `json:"sizes"`
	// Used is the active time the run had, Suspensions how often it was
	// suspended, ToolCalls how many calls it made.
	UsedMillis  int64         `json:"usedMs"`
	Suspensions int           `json:"suspensions"`
	ToolCalls   int           `json:"toolCalls"`
	Pending     []PendingCall `json:"pending"`
}

// InspectState reads what a state says about itself: its header, the
// sizes of its parts, the limits used and the calls waiting for a
// decision. It checks the envelope's form but not its seal (it needs no
// key) and does not read the heap.
func InspectState(state []byte) (StateInfo, error) {
	hdr, err := snapfile.ReadHeader(state)
	if err != nil {
		return StateInfo{}, snapshotError(err)
	}
	if _, ok := sectionIs(hdr.Sections, 2, "heap"); !ok || hdr.Sections[1].Name != "run" {
		return StateInfo{}, &SnapshotError{Reason: "malformed", Msg: "it is not a saved run of engine \"vm\""}
	}
	info := StateInfo{Header: hdr, Sizes: map[string]int{}}
	body := 0
	for _, sec := range hdr.Sections {
		info.Sizes[sec.Name] = sec.Size
		body += sec.Size
	}
	info.Sizes["envelope"] = len(state) - body
	info.Sizes["total"] = len(state)
	// The run section ends where the envelope's body does, less the heap
	// and the seal.
	end := len(state) - hdr.Sections[2].Size
	if hdr.Sealed {
		end -= sha256.Size
	}
	runSec := state[end-hdr.Sections[1].Size : end]
	rs, err := parseRunSection(runSec)
	if err != nil {
		return StateInfo{}, &SnapshotError{Reason: "malformed", Msg: err.Error()}
	}
	info.UsedMillis, info.Suspensions, info.ToolCalls, info.Pending = rs.UsedNanos/1e6, rs.Suspensions, rs.ToolCalls, rs.Pending
	if info.Pending == nil {
		info.Pending = []PendingCall{}
	}
	return info, nil
}

// snapshotRegistry is the Runtime's registry of saved types, made once.
func (rt *Runtime) snapshotRegistry() *snapshot.Registry {
	if rt.snapDone {
		return rt.snapReg
	}
	rt.snapOnce.Do(func() {
		reg := snapshot.NewRegistry()
		value.SnapshotTypes(reg, rt.lib)
		vm.SnapshotTypes(reg)
		builtin.SnapshotTypes(reg)
		collections.SnapshotTypes(reg)
		numeric.SnapshotTypes(reg)
		text.SnapshotTypes(reg)
		web.SnapshotTypes(reg)
		snapshot.Register[*toolRef](reg, "codemode.toolRef")
		snapshot.Register[*providerRef](reg, "codemode.providerRef")
		snapshot.Register[*providerMethod](reg, "codemode.providerMethod")
		snapshot.Register[*pendingCall](reg, "codemode.pendingCall", snapshot.Custom(encodePendingCall, decodePendingCall))
		snapshot.Register[*extFunc](reg, "codemode.extFunc", snapshot.Custom(encodeExtFunc, decodeExtFunc))
		snapshot.Register[*toolHost](reg, "codemode.toolHost", snapshot.ExternBy(func(*toolHost) (string, bool) { return "", false }))
		snapshot.Register[*host](reg, "codemode.host", snapshot.ExternBy(func(*host) (string, bool) { return "", false }))
		snapshot.Register[*extHost](reg, "codemode.extHost", snapshot.ExternBy(func(*extHost) (string, bool) { return "", false }))
		rt.snapReg = reg
	})
	return rt.snapReg
}

// buildFingerprint names this build: a state resumes only on the build
// that wrote it, because the heap's layout is the build's own.
var buildFingerprint = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "codemode (no build info)"
	}
	h := sha256.New()
	fmt.Fprintln(h, bi.GoVersion, bi.Path, bi.Main.Version, bi.Main.Sum)
	for _, d := range bi.Deps {
		fmt.Fprintln(h, d.Path, d.Version, d.Sum)
	}
	for _, s := range bi.Settings {
		fmt.Fprintln(h, s.Key, s.Value)
	}
	// The module's path is the magic's to say; the version is for people.
	if bi.Main.Version == "(devel)" || bi.Main.Version == "" {
		return fmt.Sprintf("%x", h.Sum(nil)[:8])
	}
	return fmt.Sprintf("%s %x", bi.Main.Version, h.Sum(nil)[:8])
})

// toolsHash fingerprints the tool tree and the extensions a run sees: a
// state resumes only where the same tools and globals exist.
func (s *session) toolsHash() [16]byte {
	h := sha256.New()
	for _, n := range s.th.tree.Tools() {
		fmt.Fprintln(h, "tool", n.Path)
	}
	if s.h.exts != nil {
		names := make([]string, 0, len(s.h.exts.globals))
		for name, g := range s.h.exts.globals {
			names = append(names, g.ext+"/"+name)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintln(h, "ext", n)
		}
	}
	var out [16]byte
	copy(out[:], h.Sum(nil)) // 128 bits tell tool trees apart; the seal is what resists forgery
	return out
}

// save writes the run, stopped between jobs, as a state.
func (s *session) save(main *value.Object, suspensions int) (*Suspended, error) {
	vr, ok := s.run.(*vm.Run)
	if !ok {
		return nil, &SuspendError{Reason: `only a run on engine "vm" can be saved`}
	}
	if max := s.rt.opts.MaxSuspensions; max > 0 && suspensions > max {
		return nil, &SuspendError{Reason: fmt.Sprintf("the run was already suspended %d times, the MaxSuspensions limit", max)}
	}
	e := snapshot.NewEncoder(s.rt.snapshotRegistry())
	e.Env = s
	root, err := vr.SaveState(e)
	if err != nil {
		return nil, &SuspendError{Reason: err.Error()}
	}
	e.Extern(s.th, "toolHost")
	e.Extern(s.h, "host")
	e.Extern(s.h.exts, "extHost")
	hs := hostState{Main: main, Root: s.th.root, Calls: s.th.calls, Seq: s.th.seq}
	if s.h.exts != nil {
		hs.ExtObjects = s.h.exts.objects
	}
	var pending []PendingCall
	for _, c := range s.run.Calls() {
		if !c.Held {
			continue
		}
		pc := c.Settler.(*pendingCall)
		hs.Held = append(hs.Held, pc)
		if !pc.retry { // a call cut off is made again, not decided
			pending = append(pending, PendingCall{Key: callKey(c.Seq), Path: c.Path, Input: pc.info.Input})
		}
	}
	if err := e.EncodeMore(root); err != nil {
		return nil, &SuspendError{Reason: err.Error()}
	}
	if err := e.EncodeMore(&hs); err != nil {
		return nil, &SuspendError{Reason: err.Error()}
	}
	heap, err := e.Finish()
	if err != nil {
		return nil, &SuspendError{Reason: err.Error()}
	}
	used := s.used + time.Since(s.start) - s.run.Paused()
	runSec := runSection{UsedNanos: int64(used), Suspensions: suspensions,
		ToolCalls: len(s.th.calls), Pending: pending}.append(nil)
	if s.srcStored == nil {
		s.srcStored, s.srcZ = s.rt.pack([]byte(s.code), []byte(sourceDict))
	}
	src, srcZ := s.srcStored, s.srcZ
	heap, heapZ := s.rt.pack(heap, []byte(s.code))
	body := make([]byte, 0, len(src)+len(runSec)+len(heap))
	body = append(append(append(body, src...), runSec...), heap...)
	hdr := snapfile.Header{Build: buildFingerprint(), Engine: EngineVM, ProgramHash: sha256.Sum256([]byte(s.code)),
		ToolsHash: s.toolsHash(), Sections: []snapfile.Section{
			{Name: sectionName("source", srcZ), Size: len(src)}, {Name: "run", Size: len(runSec)},
			{Name: sectionName("heap", heapZ), Size: len(heap)}}}
	state, err := snapfile.Write(hdr, body, snapfile.Options{Key: s.rt.opts.SnapshotKey, MaxBytes: s.rt.opts.MaxSnapshotBytes})
	if err != nil {
		return nil, &SuspendError{Reason: err.Error()}
	}
	return &Suspended{State: state, Pending: pending}, nil
}

// snapshotError converts an envelope error to the public form.
func snapshotError(err error) *SnapshotError {
	var fe *snapfile.Error
	if errors.As(err, &fe) {
		return &SnapshotError{Reason: string(fe.Reason), Msg: strings.TrimPrefix(fe.Error(), "snapshot: ")}
	}
	var se *SnapshotError
	if errors.As(err, &se) {
		return se
	}
	reason := "malformed"
	if !snapshot.IsMalformed(err) {
		reason = "build"
	}
	return &SnapshotError{Reason: reason, Msg: strings.TrimPrefix(err.Error(), "snapshot: ")}
}

// resume reads the state and goes on with the run.
func (p *Program) resume(ctx context.Context, opts []ExecOption) (Outcome, error) {
	rt := p.rt
	t0 := time.Now()
	hdr, body, err := snapfile.Read(p.state, snapfile.Options{Key: rt.opts.SnapshotKey, MaxBytes: rt.opts.MaxSnapshotBytes})
	if err != nil {
		return Outcome{}, snapshotError(err)
	}
	if hdr.Build != buildFingerprint() {
		return Outcome{}, &SnapshotError{Reason: "build", Msg: fmt.Sprintf("it was written by build %q and this is %q: resume it with the build that wrote it", hdr.Build, buildFingerprint())}
	}
	srcZ, okSrc := sectionIs(hdr.Sections, 0, "source")
	heapZ, okHeap := sectionIs(hdr.Sections, 2, "heap")
	if hdr.Engine != EngineVM || len(hdr.Sections) != 3 || !okSrc || hdr.Sections[1].Name != "run" || !okHeap {
		return Outcome{}, &SnapshotError{Reason: "malformed", Msg: "it is not a saved run of engine \"vm\""}
	}
	srcBytes := body[:hdr.Sections[0].Size]
	srcStored := srcBytes
	runSec := body[hdr.Sections[0].Size : hdr.Sections[0].Size+hdr.Sections[1].Size]
	heap := body[hdr.Sections[0].Size+hdr.Sections[1].Size:]
	if srcZ {
		if srcBytes, err = rt.unpack(srcBytes, []byte(sourceDict)); err != nil {
			return Outcome{}, &SnapshotError{Reason: "malformed", Msg: "its source: " + err.Error()}
		}
	}
	if heapZ {
		if heap, err = rt.unpack(heap, srcBytes); err != nil {
			return Outcome{}, &SnapshotError{Reason: "malformed", Msg: "its heap: " + err.Error()}
		}
	}
	code := string(srcBytes)
	if sha256.Sum256([]byte(code)) != hdr.ProgramHash {
		return Outcome{}, &SnapshotError{Reason: "program", Msg: "its program source does not match its hash"}
	}
	rs, err := parseRunSection(runSec)
	if err != nil {
		return Outcome{}, &SnapshotError{Reason: "malformed", Msg: err.Error()}
	}
	suspensions := rs.Suspensions
	s, early := rt.newSession(ctx, code, time.Now(), time.Duration(rs.UsedNanos), opts)
	if early != nil {
		return Outcome{Result: *early}, nil
	}
	defer s.close()
	// The next save reuses the source as it was stored.
	s.srcStored, s.srcZ = append([]byte(nil), srcStored...), srcZ
	if s.toolsHash() != hdr.ToolsHash {
		return Outcome{}, &SnapshotError{Reason: "tools", Msg: "the tool tree or the extensions differ from the run's that was saved: resume it on a Runtime with the same tools and extensions"}
	}
	vr := s.run.(*vm.Run)
	d := snapshot.NewDecoder(rt.snapshotRegistry(), heap)
	d.Env = s
	d.Resolve = s.resolveExtern
	root := vm.NewStateRoot()
	var hs hostState
	if err := d.DecodeMore(root); err != nil {
		return Outcome{}, snapshotError(err)
	}
	if err := d.DecodeMore(&hs); err != nil {
		return Outcome{}, snapshotError(err)
	}
	if err := d.Finish(); err != nil {
		return Outcome{}, snapshotError(err)
	}
	if err := vr.RestoreState(root); err != nil {
		return Outcome{}, snapshotError(err)
	}
	var fail *engine.Failure
	if intr := vr.Realm().Recount(value.RestoredBytes(d)); intr != nil {
		fail = &engine.Failure{Interrupt: intr}
	}
	if hs.Main == nil {
		return Outcome{}, &SnapshotError{Reason: "malformed", Msg: "it has no promise to wait for"}
	}
	if _, ok := hs.Main.Internal.(*value.PromiseData); !ok {
		return Outcome{}, &SnapshotError{Reason: "malformed", Msg: "what it waits for is not a promise"}
	}
	s.th.calls, s.th.seq, s.th.root = hs.Calls, hs.Seq, hs.Root
	p.saveJobs(s)
	if s.h.exts != nil {
		s.h.exts.objects = hs.ExtObjects
	}
	p.started(s)
	p.restored = time.Since(t0)
	for _, pc := range hs.Held {
		if fail != nil {
			break
		}
		if pc == nil || pc.promise == nil {
			return Outcome{}, &SnapshotError{Reason: "malformed", Msg: "a held call without its promise"}
		}
		s.run.Restore(&pc.call)
		d, ok := s.cfg.decisions[callKey(pc.call.Seq)]
		if pc.retry {
			d, ok = decision{approve: true}, true
			pc.retry = false
		}
		if !ok {
			continue
		}
		s.run.Unhold(&pc.call)
		if d.approve {
			pc.approved = true
			pc.restart(s.run.Realm())
			continue
		}
		pc.deny(d.reason)
	}
	return p.drive(s, value.Undefined, hs.Main, fail, int(suspensions)), nil
}

// resolveExtern finds what an extern name in a state names here.
func (s *session) resolveExtern(name string, t reflect.Type) (reflect.Value, error) {
	switch name {
	case "toolHost":
		return reflect.ValueOf(s.th), nil
	case "host":
		return reflect.ValueOf(s.h), nil
	case "extHost":
		if s.h.exts == nil {
			return reflect.Value{}, &SnapshotError{Reason: "tools", Msg: "the run used extensions, which this Runtime does not have"}
		}
		return reflect.ValueOf(s.h.exts), nil
	}
	v, ok, err := s.run.(*vm.Run).ResolveExtern(name, t)
	if err != nil {
		return v, err
	}
	if !ok {
		return v, &SnapshotError{Reason: "build", Msg: fmt.Sprintf("it refers to %q, which this build does not have", name)}
	}
	return v, nil
}

// A pending call is saved as its path, argument, promise and, once
// admitted, its input and number; its host side is made again.
func encodePendingCall(e *snapshot.Encoder, pc *pendingCall) {
	e.String(pc.node.Path)
	e.Any(&pc.arg)
	e.Ptr(pc.promise)
	e.Int(int64(pc.waiting))
	e.Int(int64(pc.pos))
	e.Bytes(pc.info.Input)
	e.Int(int64(pc.info.Seq))
	e.String(pc.info.ID)
	flags := int64(0)
	if pc.dispatched {
		flags |= 1
	}
	if pc.retry {
		flags |= 2
	}
	e.Int(flags)
}

func decodePendingCall(d *snapshot.Decoder, pc *pendingCall) {
	s, ok := d.Env.(*session)
	if !ok {
		d.Fail(errors.New("codemode: a pending call read without its session"))
	}
	path := d.String()
	*pc = pendingCall{host: s.th}
	d.Any(&pc.arg)
	d.Ptr(&pc.promise)
	pc.waiting = int(d.Int())
	pc.pos = int(d.Int())
	input := d.Bytes()
	seq := int(d.Int())
	id := d.String()
	flags := d.Int()
	pc.dispatched, pc.retry = flags&1 != 0, flags&2 != 0
	tree := s.th.tree
	if pc.dispatched {
		if s.th.providers == nil {
			d.Fail(&SnapshotError{Reason: "tools", Msg: fmt.Sprintf("the run called provider tool %q; resume it with the same providers (WithProviders)", path)})
			return
		}
		tree = s.th.providers.globals
	}
	node := tree.Lookup(strings.Split(path, "."))
	if node == nil || node.Tool == nil {
		d.Fail(&SnapshotError{Reason: "tools", Msg: fmt.Sprintf("the run called tool %q, which this Runtime does not have", path)})
		return
	}
	pc.node = node
	pc.info = ToolCallInfo{Name: path, Input: input, ID: id, Seq: seq}
	pc.call = engine.HostCall{Seq: seq, Kind: engine.CallTool, Path: path, Input: input,
		Promise: pc.promise, Pos: pc.pos, Settler: pc}
}

// An extension function is saved by its label and found again in the
// new run's extensions.
func encodeExtFunc(e *snapshot.Encoder, f *extFunc) {
	if f.unhooked {
		e.Fail(fmt.Errorf("codemode: cannot save the run: it holds a function that extension %q returned (%s), which cannot be made again", f.ext, f.label))
		return
	}
	e.String(f.ext)
	e.String(f.label)
}

func decodeExtFunc(d *snapshot.Decoder, f *extFunc) {
	s, ok := d.Env.(*session)
	if !ok || s.h.exts == nil {
		d.Fail(&SnapshotError{Reason: "tools", Msg: "the run used extensions, which this Runtime does not have"})
	}
	ext, label := d.String(), d.String()
	segs := strings.Split(label, ".")
	g, ok := s.h.exts.globals[segs[0]]
	v := g.val
	for _, k := range segs[1:] {
		m, isMap := v.(map[string]any)
		if !isMap {
			ok = false
			break
		}
		v = m[k]
	}
	if !ok || g.ext != ext {
		d.Fail(&SnapshotError{Reason: "tools", Msg: fmt.Sprintf("the run used %s of extension %q, which this Runtime does not have", label, ext)})
	}
	fn := s.h.exts.hostValue(s.run.Realm(), ext, label, v).AsObject().Internal.(*extFunc)
	*f = *fn
}
