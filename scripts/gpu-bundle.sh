#!/usr/bin/env bash
# Builds clreduce here (Debian 12) for a GPU machine with the NVIDIA driver but no build tools
# (no compiler, CLHPP, Catch2, CLI11, C++ OpenCV or CLBlast, no network). Writes .gpu/: the
# binaries, and lib/ with their non-system shared libraries (OpenCV, CLBlast, fmt, ... for
# clreduce-perf compare). Copy the repository with .gpu/ (ignored by git) to that machine and
# run scripts/gpu-run.sh there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.gpu
"$root/scripts/install-deps.sh"
CLREDUCE_BUILD_DIR=$out/build "$root/scripts/build.sh"
rm -rf "$out/bin" "$out/lib"
mkdir -p "$out/bin" "$out/lib"
cp "$out/build/perf/clreduce-perf" "$out/build/perf/clreduce-floor" "$out/build/tests/clreduce-tests" \
  "$out/build/examples/clreduce-example" "$out/bin/"
# The CUB comparator of `clreduce-perf compare`, built where nvcc is found (CUDA runtime linked
# statically: the target's driver is all it needs).
if [ -x "$out/build/perf/clreduce-cub-sum" ]; then
  cp "$out/build/perf/clreduce-cub-sum" "$out/bin/"
else
  echo "gpu-bundle: no clreduce-cub-sum (no CUDA compiler here); compare will skip CUB"
fi
# Shared libraries the target has newer or not at all; the OpenCL ICD loader is the target's own.
ldd "$out"/bin/* | awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*|libz|libOpenCL)\.so' |
  xargs -r -I{} cp -L {} "$out/lib/"
rm -rf "$out/build"
du -sh "$out"
