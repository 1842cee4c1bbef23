#!/usr/bin/env bash
# Runs on a machine with two (or more) NVIDIA GPUs of one host and only the driver, from the
# repository root, after scripts/gpu-bundle.sh has built .gpu/ elsewhere (as for
# scripts/gpu-run.sh): one GPU against all of them for data resident on the devices and host
# data (clreduce-perf multi: int32, float32, correctly rounded float32, 2^20 .. 2^31), and
# compare's host-data rows beside the link's ceiling (pinned and pageable writes, the host's
# own read) for int32 and float32. Writes every output into the folder given as its argument.
# About 5 minutes on two H100s; MULTI_MAX_LOG (default 31) and REPEATS (default 9) shorten it.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUTPUT_FOLDER" >&2
  exit 2
fi
source "$(dirname "$0")/gpu-common.sh"
mkdir -p "$1"
results=$(cd "$1" && pwd)
summary=$results/summary.txt
repeats=${REPEATS:-9}
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader | tee "$summary"
nvidia-smi topo -m > "$results/topology.txt" 2>&1
step devices "$bin/clreduce-perf" devices
step multi "$bin/clreduce-perf" multi --max-log "${MULTI_MAX_LOG:-31}" -r "$repeats" --json "$results/multi.json"
for type in int32 float32; do
  step "compare-$type" "$bin/clreduce-perf" compare -t "$type" -r "$repeats" \
    -n 1048576 -n 16777216 -n 67108864 -n 268435456 -n 1073741824 --json "$results/compare-$type.json"
done
exit $status
