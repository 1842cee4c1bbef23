#!/usr/bin/env bash
# Builds clreduce here (Debian 12) for a GPU machine with the NVIDIA driver but no build tools
# (no compiler, CLHPP, Catch2, CLI11, C++ OpenCV or CLBlast, no network). Writes .gpu/: the
# binaries, and lib/ with their non-system shared libraries (OpenCV, CLBlast, fmt, ... for
# clreduce-perf compare). Copy the repository with .gpu/ (ignored by git) to that machine and
# run scripts/gpu-run.sh there.
# With a build folder as its argument (one scripts/build.sh made, e.g. build/) it bundles that
# build instead of building afresh (its CUB comparators where it was configured with
# -DCLREDUCE_BUILD_CUB=ON, which build.sh leaves out on a machine without an NVIDIA GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.gpu
if [ $# -ge 1 ]; then
  build=$(cd "$1" && pwd)
else
  "$root/scripts/install-deps.sh"
  build=$out/build
  CLREDUCE_BUILD_DIR=$build "$root/scripts/build.sh" -DCLREDUCE_BUILD_CUB=ON
fi
rm -rf "$out/bin" "$out/lib"
mkdir -p "$out/bin" "$out/lib"
cp "$build/perf/clreduce-perf" "$build/perf/clreduce-floor" "$build/perf/clreduce-exact-lanes" "$build/tests/clreduce-tests" \
  "$build/tests/unit/clreduce-unit-tests" "$build/examples/clreduce-example" "$out/bin/"
# The CUB comparator of `clreduce-perf compare`, built where nvcc is found (CUDA runtime linked
# statically: the target's driver is all it needs).
for cub in clreduce-cub-sum clreduce-cub-segmented clreduce-cub-by-key; do
  if [ -x "$build/perf/$cub" ]; then
    cp "$build/perf/$cub" "$out/bin/"
  else
    echo "gpu-bundle: no $cub (no CUDA compiler here); compare, segments and by-key will skip CUB"
  fi
done
# Shared libraries the target has newer or not at all; the OpenCL ICD loader is the target's own.
ldd "$out"/bin/* | awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*|libz|libOpenCL)\.so' |
  xargs -r -I{} cp -L {} "$out/lib/"
rm -rf "$out/build"
du -sh "$out"
