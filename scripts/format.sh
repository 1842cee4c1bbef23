#!/usr/bin/env bash
# Formats the C++ sources with clang-format and the repository's .clang-format.
#
#   scripts/format.sh            formats every file in place
#   scripts/format.sh --check    changes nothing; lists the files that differ and exits 1 if any do
#
# Files: *.cpp, *.hpp, *.h and *.cu under src, include, perf, tests, examples and reference, the
# C API's sources (c_api/) and the C files of tests and examples, as
# git knows them (so build folders and .gpu/ are never touched). $CLANG_FORMAT names another
# clang-format binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

check=false
case ${1:-} in
  --check) check=true ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" > /dev/null; then
  echo "format: $clang_format not found (Debian: apt-get install clang-format)" >&2
  exit 2
fi

# Tracked and new (not ignored) files; tests/docs/fixtures are the snippet checker's test data.
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
    'src/*.cpp' 'src/*.hpp' 'src/*.h' 'src/*.cu' \
    'include/*.cpp' 'include/*.hpp' 'include/*.h' 'include/*.cu' \
    'perf/*.cpp' 'perf/*.hpp' 'perf/*.h' 'perf/*.cu' \
    'tests/*.cpp' 'tests/*.hpp' 'tests/*.h' 'tests/*.cu' \
    'examples/*.cpp' 'examples/*.hpp' 'examples/*.h' 'examples/*.cu' \
    'reference/*.cpp' 'reference/*.hpp' 'reference/*.h' 'reference/*.cu' \
    'c_api/*.cpp' 'c_api/*.hpp' 'tests/*.c' 'examples/*.c' |
  grep -v '^tests/docs/fixtures/' | sort -u)
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if ((${#existing[@]} == 0)); then
  echo "format: no files"
  exit 0
fi

if ! $check; then
  "$clang_format" -i --style=file "${existing[@]}"
  echo "format: ${#existing[@]} files formatted"
  exit 0
fi

differ=0
for f in "${existing[@]}"; do
  if ! "$clang_format" --style=file "$f" | cmp -s - "$f"; then
    echo "$f"
    differ=$((differ + 1))
  fi
done
if ((differ > 0)); then
  echo "format: $differ of ${#existing[@]} files differ from .clang-format (scripts/format.sh formats them)" >&2
  exit 1
fi
echo "format: ${#existing[@]} files match .clang-format"
