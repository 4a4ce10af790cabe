#!/bin/sh
# One shard of a `rulesmith simulate` run, on any engine that numbers its tasks:
#   Kubernetes Indexed Job  JOB_COMPLETION_INDEX  0 … N-1
#   Slurm job array         SLURM_ARRAY_TASK_ID   from SLURM_ARRAY_TASK_MIN (e.g. --array=0-7)
# Task i runs `rulesmith simulate ARGS --shard i+1/N --format json` and writes
# $OUT_DIR/shard-(i+1)-of-N.json (through a temporary file: a killed task leaves no report).
#
# usage: run-shard.sh RULESET [simulate options: --games, --players, --seed, --bots, ...]
# env:   SHARDS     N, the number of shards (Slurm: defaults to SLURM_ARRAY_TASK_COUNT)
#        OUT_DIR    where reports go, a volume all tasks share (default: .)
#        RULESMITH  the binary (default: rulesmith on the PATH)
set -eu

fail() {
  echo "run-shard.sh: $*" >&2
  exit 2
}

if [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
  index=$JOB_COMPLETION_INDEX
  min=0
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
  index=$SLURM_ARRAY_TASK_ID
  min=${SLURM_ARRAY_TASK_MIN:-0}
else
  fail "no task index: set JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array)"
fi
shards=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-}}
[ -n "$shards" ] || fail "set SHARDS to the number of shards"
case "$index:$min:$shards" in
  *[!0-9:]* | :* | *::*) fail "task index '$index' (from $min) and SHARDS '$shards' must be whole numbers" ;;
esac
k=$((index - min + 1))
if [ "$k" -lt 1 ] || [ "$k" -gt "$shards" ]; then
  fail "task index $index (from $min) is outside the $shards shards"
fi
[ $# -ge 1 ] || fail "usage: run-shard.sh RULESET [simulate options]"

out=${OUT_DIR:-.}
mkdir -p "$out"
file="$out/shard-$k-of-$shards.json"
"${RULESMITH:-rulesmith}" simulate "$@" --shard "$k/$shards" --format json >"$file.tmp"
mv "$file.tmp" "$file"
echo "shard $k/$shards: $file"
