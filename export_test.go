package codemode

import "time"

// ProgramTimes is how long p's suspend and resume took (for benchmarks).
func ProgramTimes(p *Program) (saved, restored time.Duration) { return p.saved, p.restored }

// SaveRepeatedly makes p, when it suspends, save its state n more times
// first (a benchmark of the save alone).
func SaveRepeatedly(p *Program, n int) { p.extraSaves = n }

// ForgetCompiled empties rt's cache of compiled programs, so that the
// next run or resume parses and compiles its program again.
func ForgetCompiled(rt *Runtime) { rt.compiled.clear() }
