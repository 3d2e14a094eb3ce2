#!/bin/sh
# Fails with a message on standard error.
cat >/dev/null
echo "the backend is down" >&2
exit 3
