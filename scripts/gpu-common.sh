# Sourced by scripts/gpu-run.sh and scripts/measure-multi-gpu.sh, which run on a GPU machine with
# the NVIDIA driver but no build tools, from the repository root, with .gpu/ from
# scripts/gpu-bundle.sh: registers NVIDIA's OpenCL driver (and PoCL's where installed) and
# points the binaries at .gpu/lib and the source tree. Defines `step`.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p /tmp/vendors
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd /tmp/vendors/
export OCL_ICD_VENDORS=/tmp/vendors
export LD_LIBRARY_PATH=$root/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CLREDUCE_DEVICE=${CLREDUCE_DEVICE:-nvidia}
export CLREDUCE_SOURCE_KERNEL_DIR=$root/cl_kernels
bin=$root/.gpu/bin
status=0

# step NAME CMD...: runs CMD with its output in $results/NAME.txt, prints its last lines and
# appends "=== NAME: exit RC, N s" to $summary; a failure sets status=1. The caller's
# after_step function, where it defines one, runs after every step.
step() {
  local name=$1; shift
  echo "=== $name: $*"
  local start=$SECONDS
  "$@" > "$results/$name.txt" 2>&1
  local rc=$?
  tail -n 3 "$results/$name.txt"
  echo "=== $name: exit $rc, $((SECONDS - start)) s" | tee -a "$summary"
  if declare -F after_step > /dev/null; then after_step; fi
  [ "$rc" -eq 0 ] || status=1
}
