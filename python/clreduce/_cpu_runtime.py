"""A CPU device where the machine has no OpenCL: Intel's OpenCL runtime for CPUs from PyPI
(``pip install clreduce[cpu]``: intel-opencl-rt and the compiler runtime it links).

intel-opencl-rt puts its library into the environment's ``lib/`` (``libintelocl.so``), and an
``.icd`` file naming a path of its own build machine. The OpenCL ICD loader inside clreduce's
wheel (ocl-icd) reads ``/etc/OpenCL/vendors`` (or ``$OPENCL_VENDOR_PATH``), or
``$OCL_ICD_VENDORS`` instead: a folder, an ``.icd`` file or the library itself. So, where
``OCL_ICD_VENDORS`` is not set and the vendors folder names no implementation, it is set to that
library before the first OpenCL call (PyOpenCL's loader reads it too). A machine with OpenCL of
its own keeps it: nothing is changed there.
"""

import glob
import os
import site
import sys


def _runtime_library():
    """The path of intel-opencl-rt's library in this environment (or the user's site), or None."""
    for prefix in (sys.prefix, site.getuserbase()):
        library = os.path.join(prefix, "lib", "libintelocl.so")
        if os.path.isfile(library):
            return library
    return None


def use_cpu_runtime_where_no_opencl():
    """Points the ICD loader at intel-opencl-rt's library where nothing else is configured."""
    if os.environ.get("OCL_ICD_VENDORS"):
        return
    vendors = os.environ.get("OPENCL_VENDOR_PATH") or "/etc/OpenCL/vendors"
    if glob.glob(os.path.join(vendors, "*.icd")):
        return
    library = _runtime_library()
    if library is not None:
        os.environ["OCL_ICD_VENDORS"] = library
