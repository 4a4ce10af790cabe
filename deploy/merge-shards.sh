#!/bin/sh
# The merge step after every shard of a run has finished: `rulesmith merge` of
# $OUT_DIR/shard-*-of-N.json into $OUT_DIR/report.json, and the text report on stdout.
# merge refuses missing, repeated or foreign shards (exit 2), so a partial run is never
# taken for a whole one.
#
# env: SHARDS (N), OUT_DIR (default: .), RULESMITH (default: rulesmith on the PATH)
set -eu

out=${OUT_DIR:-.}
shards=${SHARDS:?set SHARDS to the number of shards}
rulesmith=${RULESMITH:-rulesmith}
set -- "$out"/shard-*-of-"$shards".json
[ -e "$1" ] || { echo "merge-shards.sh: no shard reports in $out" >&2; exit 2; }
"$rulesmith" merge --format json "$@" >"$out/report.json.tmp"
mv "$out/report.json.tmp" "$out/report.json"
"$rulesmith" merge "$@"
