#!/bin/sh
# Starts a child that sleeps, records the child's pid in the file named by
# $PIDFILE, and waits: cancelling the call must kill both.
sleep 10 &
echo $! > "$PIDFILE"
wait
echo '{"slept":true}'
