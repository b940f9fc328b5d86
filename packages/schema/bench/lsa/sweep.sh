#!/bin/sh
# Decision 0106: one retrieval-hubs.ts line per LSA setting of a file (one JSON options object a line), tune half.
# `sh bench/lsa/sweep.sh bench/lsa/settings-N.txt` from packages/schema.
while IFS= read -r options; do
  [ -z "$options" ] && continue
  HUBS_TIMING=0 npx tsx --conditions=@ctxkit/source bench/retrieval-hubs.ts "$options" tune 2>/dev/null
done < "$1"
