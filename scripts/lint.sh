#!/usr/bin/env bash
# Static checks of the library's sources: clang-tidy (the checks in .clang-tidy, with the
# build's compile_commands.json) and cppcheck (warnings, performance, portability) on src/.
#
#   scripts/lint.sh              every .cpp under src/
#   scripts/lint.sh FILE...      only these files (clang-tidy and cppcheck)
#
# Exit status: 0 when neither tool finds anything, 1 when either reports a finding, 2 when a
# tool is missing. The build folder is $CLREDUCE_BUILD_DIR (default build/); when it has no
# compile_commands.json it is configured (not built) with CMAKE_EXPORT_COMPILE_COMMANDS=ON.
# $CLANG_TIDY and $CPPCHECK name other binaries.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${CLREDUCE_BUILD_DIR:-$root/build}
clang_tidy=${CLANG_TIDY:-clang-tidy}
cppcheck=${CPPCHECK:-cppcheck}

for tool in "$clang_tidy:clang-tidy" "$cppcheck:cppcheck"; do
  if ! command -v "${tool%%:*}" > /dev/null; then
    echo "lint: ${tool%%:*} not found (Debian: apt-get install ${tool##*:})" >&2
    exit 2
  fi
done

if (($# > 0)); then
  files=("$@")
else
  mapfile -t files < <(find src -name '*.cpp' | sort)
fi

if [ ! -f "$build/compile_commands.json" ]; then
  echo "lint: configuring $build for compile_commands.json"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > "$build.lint-configure.log" 2>&1 ||
    { cat "$build.lint-configure.log" >&2; exit 2; }
  rm -f "$build.lint-configure.log"
fi

findings=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "lint: clang-tidy on ${#files[@]} files"
# One process per file, as many at once as there are cores; a file that does not compile is a
# finding too (clang-tidy prints its error).
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -I{} "$clang_tidy" -p "$build" --quiet {} > "$log" 2>/dev/null || true
if grep -qE '(warning|error): ' "$log"; then
  grep -E '(warning|error): ' "$log" | sort -u
  count=$(grep -E '(warning|error): ' "$log" | sort -u | wc -l)
  echo "lint: clang-tidy: $count findings (the lines above, with context in a verbose run: $clang_tidy -p $build FILE)"
  findings=$((findings + count))
else
  echo "lint: clang-tidy: no findings"
fi

echo "lint: cppcheck on ${#files[@]} files"
if "$cppcheck" --std=c++17 --language=c++ -I include -I src \
    --enable=warning,performance,portability --inline-suppr \
    --suppress=missingIncludeSystem --suppress=missingInclude \
    --quiet -j "$(nproc)" --error-exitcode=1 "${files[@]}"; then
  echo "lint: cppcheck: no findings"
else
  echo "lint: cppcheck: findings above"
  findings=$((findings + 1))
fi

if ((findings > 0)); then
  exit 1
fi
echo "lint: clean"
