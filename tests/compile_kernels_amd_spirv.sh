#!/usr/bin/env bash
# Compiles every kernel specialisation the library builds on an AMD GPU (clang's
# amdgcn-amd-amdhsa target: gfx90a and gfx942, wavefronts of 64; gfx1100, 32) or on a SPIR-V
# device (clang's spir64 target to LLVM IR, then llvm-spirv), failing on any error. The
# specialisations are clreduce-kernel-specs's (tests/kernel_specs.cpp): the planner's plans for
# a described device, made into specs by the library's own code, so the choices of
# device/vendor.cpp are the ones compiled.
# Usage: compile_kernels_amd_spirv.sh <clreduce-kernel-specs> <gfx90a|gfx1100|gfx942> <clang> [I/N]
#        compile_kernels_amd_spirv.sh <clreduce-kernel-specs> spir64 <clang> <llvm-spirv>
# I/N compiles the specialisations of the lines numbered I modulo N only (0/1, all, by default):
# gfx90a and gfx942 share one set, which CTest splits between them (tests/CMakeLists.txt).
set -uo pipefail
specs=$1 target=$2 clang=$3 translator='' share=0/1
if [[ $target == spir64 ]]; then translator=${4:-}; else share=${4:-0/1}; fi
if [[ ! $share =~ ^([0-9]+)/([1-9][0-9]*)$ ]] || ((BASH_REMATCH[1] >= BASH_REMATCH[2])); then
  echo "compile_kernels_amd_spirv: '$share' is not I/N with 0 <= I < N" >&2
  exit 2
fi
part=${BASH_REMATCH[1]} parts=${BASH_REMATCH[2]}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$specs" "$target" "$work" || exit 1
jobs=$(nproc)
awk -v part="$part" -v parts="$parts" '(NR - 1) % parts == part' "$work/specs.txt" > "$work/share.txt"

# compile_one K OPTIONS: source K with OPTIONS; prints FAILED and the first errors, exits 1.
compile_one() {
  local k=$1 options=$2 out
  local object=$work/k$BASHPID
  # The extensions the library's kernels enable where the device has them (cl_khr_fp16,
  # cl_khr_fp64, 64-bit atomics): every described device has them but spir64's fp64.
  if [[ $target == spir64 ]]; then
    # Unoptimised, as SPIR-V is handed to drivers: llvm-spirv 14 cannot translate the `freeze`
    # instructions LLVM 14's optimiser inserts.
    out=$("$clang" -x cl -Xclang -finclude-default-header -target spir64 -O0 -emit-llvm -c -o "$object.bc" \
      "$work/source$k.cl" $options 2>&1) && out=$("$translator" "$object.bc" -o "$object.spv" 2>&1)
  else
    out=$("$clang" -x cl -Xclang -finclude-default-header -target amdgcn-amd-amdhsa -mcpu="$target" -nogpulib -O1 \
      -c -o "$object.o" "$work/source$k.cl" $options 2>&1)
  fi
  local rc=$?
  rm -f "$object".*
  if ((rc != 0)); then
    printf 'FAILED: source%s.cl %s\n%s\n' "$k" "$options" "$(echo "$out" | head -6)"
    return 1
  fi
}
export -f compile_one
export work target clang translator

total=$(wc -l < "$work/share.txt")
if ((total == 0)); then
  echo "compile_kernels_amd_spirv: no specialisation in share $share of $(wc -l < "$work/specs.txt")" >&2
  exit 1
fi
# A line per specialisation, compiled $jobs at a time; each failure is printed.
failed=$(tr '\t' '\n' < "$work/share.txt" | xargs -d '\n' -n 2 -P "$jobs" bash -c 'compile_one "$0" "$1"' |
  tee /dev/stderr | grep -c '^FAILED')
echo "$((total - failed)) of $total specialisations compiled for $target (share $share of $(wc -l < "$work/specs.txt"))"
[[ $failed -eq 0 ]]
