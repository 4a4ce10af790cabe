#!/bin/sh
# Submits the shard array, then the merge job that runs only once all shards succeeded.
# Run from the repository root on a login node, with `rulesmith` on the PATH of the
# compute nodes (or RULESMITH=/path/to/rulesmith exported).
set -eu
array=$(sbatch --parsable --export=ALL deploy/slurm/shards.sbatch)
array=${array%%;*}
sbatch --parsable --export=ALL --dependency="afterok:$array" deploy/slurm/merge.sbatch
