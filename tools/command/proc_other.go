//go:build !unix

package command

import "os/exec"

// setProcessGroup leaves the command as it is: without Unix process
// groups, cancellation kills the command itself (exec.CommandContext's
// default) and WaitDelay bounds the wait for its children's pipes.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup does nothing without Unix process groups.
func killProcessGroup(int) {}
