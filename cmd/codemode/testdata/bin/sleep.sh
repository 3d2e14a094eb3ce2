#!/bin/sh
# Sleeps far longer than any test waits, through a child process whose pid
# it writes to the file $PIDFILE names (when set).
sleep 10 &
echo $! > "${PIDFILE:-/dev/null}"
wait
echo '{}'
