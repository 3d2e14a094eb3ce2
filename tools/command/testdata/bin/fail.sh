#!/bin/sh
# Fails with a message on standard error.
cat >/dev/null
echo "customer 99 not found" >&2
exit 3
