#!/bin/sh
# A stand-in for GitHub's "list issues": fixed data.
cat >/dev/null
cat <<'JSON'
{"items": [
  {"number": 12, "title": "Tool calls", "labels": [{"name": "feature"}]},
  {"number": 15, "title": "Crash on empty program", "labels": [{"name": "bug"}, {"name": "parser"}]},
  {"number": 17, "title": "Document the CLI", "labels": []},
  {"number": 18, "title": "Snapshots", "labels": [{"name": "feature"}]}
]}
JSON
