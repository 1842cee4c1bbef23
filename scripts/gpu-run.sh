#!/usr/bin/env bash
# Runs on the lent GPU machine from the repository root, after scripts/gpu-bundle.sh here:
# registers NVIDIA's OpenCL driver, then runs the example, the test suite and the sweeps on
# the GPU. Output goes to ${OUT:-out}/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out}
mkdir -p "$out" /tmp/vendors
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd /tmp/vendors/
export OCL_ICD_VENDORS=/tmp/vendors
export LD_LIBRARY_PATH=$root/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CLREDUCE_DEVICE=${CLREDUCE_DEVICE:-nvidia}
export CLREDUCE_SOURCE_KERNEL_DIR=$root/cl_kernels
bin=$root/.gpu/bin
status=0
step() {
  local name=$1; shift
  echo "=== $name: $*"
  "$@" 2>&1 | tee "$out/$name.txt"
  local rc=${PIPESTATUS[0]}
  echo "=== $name: exit $rc"
  [ "$rc" -eq 0 ] || status=1
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
step devices "$bin/clreduce-perf" devices
step example "$bin/clreduce-example"
step tests "$bin/clreduce-tests"
step tests-huge "$bin/clreduce-tests" "[huge]"
step first-result "$bin/clreduce-perf" first-result -r 7
# Sweeps as type:n pairs, separated by blanks.
for sweep in ${CLREDUCE_GPU_SWEEPS:-uint32:16777216 int32:1073741824 float32:16777216 float64:268435456}; do
  type=${sweep%%:*} n=${sweep##*:}
  step "sweep-$type-$n" "$bin/clreduce-perf" sweep -t "$type" -n "$n" -r 15
done
exit $status
