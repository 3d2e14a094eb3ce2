#!/bin/sh
# A stand-in for GitHub's "get a repository": fixed data.
cat >/dev/null
echo '{"fullName":"go-codemode/codemode","stars":128,"defaultBranch":"main"}'
