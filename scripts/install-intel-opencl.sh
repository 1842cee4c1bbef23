#!/usr/bin/env bash
# Installs Intel's CPU OpenCL runtime from PyPI (intel-opencl-rt, intel-cmplr-lib-rt: about
# 800 MB) into a virtual environment of the project (.intel-opencl/, or
# $CLREDUCE_INTEL_OPENCL_DIR), and writes there what a process needs to use it, nothing outside:
#   vendors/intel.icd  an ICD file naming lib/libintelocl.so: OCL_ICD_VENDORS=.intel-opencl/vendors
#                      shows Intel's platform alone, in place of /etc/OpenCL/vendors;
#   libs/              links to the wheels' libraries but their libOpenCL.so (the system's ICD
#                      loader stays the one loaded), first on LD_LIBRARY_PATH: a program that
#                      links Debian's older oneTBB (through OpenCV) would otherwise have that
#                      one loaded when the runtime asks for libtbb.so.12; it lacks symbols the
#                      runtime needs, and the loader then lists no Intel platform;
#   env.sh             sets both: `. .intel-opencl/env.sh`, then CLREDUCE_DEVICE=Intel.
# Idempotent: a folder whose runtime already answers is kept. Exits 1 if the runtime cannot be
# installed or does not list a device, with a line that says why.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLREDUCE_INTEL_OPENCL_DIR:-$root/.intel-opencl}
# The versions the project tests; another version may well work, but is not what CI saw.
packages=(intel-opencl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0)

fail() {
  echo "install-intel-opencl: $*" >&2
  exit 1
}

# The runtime answers when the ICD loader, given only its ICD file, lists a device on it.
answers() {
  [[ -f $dir/lib/libintelocl.so && -f $dir/vendors/intel.icd && -f $dir/env.sh ]] || return 1
  (. "$dir/env.sh" && timeout 120 clinfo -l 2> /dev/null | grep -q "Intel(R) OpenCL")
}

command -v clinfo > /dev/null || fail "clinfo is missing (scripts/install-deps.sh installs it)"
if answers; then
  echo "install-intel-opencl: present in $dir (. $dir/env.sh to use it)"
  exit 0
fi
python3 -m venv "$dir" || fail "could not make a virtual environment in $dir (python3-venv)"
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check "${packages[@]}" ||
  fail "pip could not install ${packages[*]}"
[[ -f $dir/lib/libintelocl.so ]] || fail "the wheels hold no lib/libintelocl.so"
mkdir -p "$dir/vendors" "$dir/libs"
echo "$dir/lib/libintelocl.so" > "$dir/vendors/intel.icd"
for library in "$dir"/lib/*.so*; do
  case ${library##*/} in
    libOpenCL.so*) ;;
    *) ln -sf "$library" "$dir/libs/" ;;
  esac
done
{
  echo "# Intel's CPU OpenCL runtime for this shell (written by scripts/install-intel-opencl.sh)."
  echo "export OCL_ICD_VENDORS=$dir/vendors"
  echo "export LD_LIBRARY_PATH=$dir/libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
} > "$dir/env.sh"
answers || fail "the ICD loader lists no Intel(R) OpenCL device from $dir/vendors"
echo "install-intel-opencl: installed in $dir (. $dir/env.sh to use it)"
