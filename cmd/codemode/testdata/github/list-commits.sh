#!/bin/sh
# A stand-in for GitHub's "list commits", in two pages: without a cursor
# the first page and "next": "p2"; with cursor "p2" the last page.
input=$(cat)
case "$input" in
*'"cursor":"p2"'*)
  echo '{"items":[{"sha":"c4","author":"ada"},{"sha":"c5","author":"chen"}],"next":null}' ;;
*)
  echo '{"items":[{"sha":"c1","author":"ada"},{"sha":"c2","author":"bola"},{"sha":"c3","author":"ada"}],"next":"p2"}' ;;
esac
