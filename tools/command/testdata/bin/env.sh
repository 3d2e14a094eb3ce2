#!/bin/sh
# Reports its working directory, an environment variable and its arguments.
printf '{"dir":"%s","greeting":"%s","args":"%s"}\n' "$(pwd -P)" "$GREETING" "$*"
