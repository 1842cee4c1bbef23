#!/usr/bin/env bash
# Builds clreduce here (Debian 12) for a machine that has an OpenCL driver but none of the
# build dependencies (the lent GPU machine: no CLHPP, Catch2, CLI11 or C++ OpenCV, no
# network). Writes .gpu/: the binaries, and lib/ with their non-system shared libraries.
# Then scripts/gpu-run.sh runs there. .gpu/ is ignored by git; carry it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.gpu
"$root/scripts/install-deps.sh"
CLREDUCE_BUILD_DIR=$out/build "$root/scripts/build.sh"
rm -rf "$out/bin" "$out/lib"
mkdir -p "$out/bin" "$out/lib"
cp "$out/build/perf/clreduce-perf" "$out/build/tests/clreduce-tests" "$out/build/examples/clreduce-example" "$out/bin/"
# Shared libraries the target has newer or not at all; the OpenCL ICD loader is the target's own.
ldd "$out"/bin/* | awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*|libz|libOpenCL)\.so' |
  xargs -r -I{} cp -L {} "$out/lib/"
rm -rf "$out/build"
du -sh "$out"
