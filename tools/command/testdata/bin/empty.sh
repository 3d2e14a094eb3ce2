#!/bin/sh
# Prints nothing: the result is null.
cat >/dev/null
