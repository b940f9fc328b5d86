#!/bin/bash
# Scratch (decision 0097), with scratch.patch applied: one line of tune or test figures per options JSON read from stdin.
# usage: experiments/wordnet/sweep.sh tune|test < configs.txt
# Columns: 199 tools single top-1/top-5, multi top-1/top-5; 468 tools the same.
cd "$(dirname "$0")/../../packages/schema"
while read -r cfg; do
  [ -z "$cfg" ] && continue
  out=$(npx tsx --conditions=@ctxkit/source bench/retrieval-eval.ts $1 "$cfg" | awk -F'\t' '{split($5,a," "); split($4,b," "); printf "%s/%s ", b[2], a[2]}')
  echo "$out  $cfg"
done
