#!/bin/bash
# Builds every table decision 0097 measured into tables/ (not committed: WordNet-derived data).
set -e
cd "$(dirname "$0")"
mkdir -p tables
while read -r name settings; do
  node build-table.mjs "tables/$name.json" $settings
done <<'LIST'
s1 senses=1
s2
s3 senses=3
s2h hyper=1
s1h senses=1 hyper=1
s3h senses=3 hyper=1
s2o hypo=1
s2ho hyper=1 hypo=1
u2 tagged=0
s2d0 der=0
s2s0 syn=0
s2m6 max=6
wide senses=99 tagged=0 hyper=1 hypo=1 hypoMax=1000 max=1000
LIST
