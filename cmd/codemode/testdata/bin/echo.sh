#!/bin/sh
# Echoes the call's input back as the result.
cat
