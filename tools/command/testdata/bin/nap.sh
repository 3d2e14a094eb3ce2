#!/bin/sh
# Sleeps a moment, then echoes its input: parallel calls overlap.
sleep 1
cat
