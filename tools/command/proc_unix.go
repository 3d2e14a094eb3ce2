//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the command in a process group of its own and
// makes cancellation kill the whole group, so that the children of a
// shell script die with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		killProcessGroup(cmd.Process.Pid)
		return cmd.Process.Kill()
	}
}

// killProcessGroup kills every process in the group led by pid.
func killProcessGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
