#!/bin/sh
# Fails without saying why.
exit 4
