#!/bin/sh
# Prints something that is not JSON.
echo "hello, not json"
