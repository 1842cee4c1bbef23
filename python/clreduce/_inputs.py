"""What a call reduces: numpy arrays and PyOpenCL arrays/buffers (how ``axis=`` groups their
elements: _layout.py)."""

import numpy as np

# The element types clreduce reduces (bool arrays are read as uint8).
ELEMENT_TYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                 "float16", "float32", "float64")


class DeviceArray:
    """A PyOpenCL ``Buffer`` read as an array: ``shape`` C-contiguous elements of ``dtype`` from
    element ``offset``, reduced on ``queue`` in place (no copy). Made by :func:`clreduce.buffer`."""

    def __init__(self, queue, buffer, dtype, shape=None, offset=0):
        self.queue = queue
        self.buffer = buffer
        self.dtype = np.dtype(dtype)
        if shape is None:
            size = buffer.size // self.dtype.itemsize
            shape = (max(0, size - int(offset)),)
        self.shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
        if int(offset) < 0:
            raise ValueError(f"offset must be >= 0; got {offset}")
        self.offset = int(offset)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))


def is_pyopencl_array(a):
    """Whether ``a`` is a ``pyopencl.array.Array`` (checked without importing PyOpenCL)."""
    return hasattr(a, "base_data") and hasattr(a, "queue") and hasattr(a, "offset") and hasattr(a, "dtype")


def is_device_input(a):
    if type(a) is np.ndarray:  # the common case, without the attribute lookups
        return False
    return isinstance(a, DeviceArray) or is_pyopencl_array(a)


def device_view(a):
    """(queue, buffer, dtype, element offset, shape) of a PyOpenCL array or a DeviceArray."""
    if isinstance(a, DeviceArray):
        return a.queue, a.buffer, a.dtype, a.offset, a.shape
    if a.queue is None:
        raise ValueError("the PyOpenCL array has no queue: give it one (a.with_queue(queue))")
    if not a.flags.c_contiguous:
        raise ValueError("the PyOpenCL array is not C-contiguous: clreduce reads device arrays in place")
    if a.offset % a.dtype.itemsize:
        raise ValueError(f"the PyOpenCL array's byte offset {a.offset} is not a multiple of its element size")
    return a.queue, a.base_data, a.dtype, a.offset // a.dtype.itemsize, tuple(a.shape)


# numpy dtype -> the element type's name (a dict: dtype.name is slow on every call).
_ELEMENT_NAMES = {np.dtype(name): name for name in ELEMENT_TYPES}
_ELEMENT_NAMES[np.dtype(np.bool_)] = "uint8"


def element_dtype(dtype):
    """The name of the element type clreduce reads for numpy dtype ``dtype`` (bool as uint8)."""
    name = _ELEMENT_NAMES.get(dtype if isinstance(dtype, np.dtype) else np.dtype(dtype))
    if name is None:  # also non-native byte orders: their dtypes compare unequal to these
        raise TypeError(f"clreduce reduces {', '.join(ELEMENT_TYPES)} and bool arrays "
                        f"(native byte order); got {np.dtype(dtype)}")
    return name


def flat_element(a):
    """The element type's name where ``a`` is the common input, read whole as it lies: a plain
    numpy array (not bool, not masked), C-contiguous and not empty; else None."""
    if type(a) is not np.ndarray or not a.flags.c_contiguous or a.size == 0:
        return None
    name = _ELEMENT_NAMES.get(a.dtype)
    return None if name is None or a.dtype == np.bool_ else name


def host_array(a):
    """``a`` as a numpy array clreduce can read (bool viewed as uint8; no copy of numpy arrays)."""
    if isinstance(a, np.ma.MaskedArray):
        # Reading a.data would count the masked elements; the calls that honour masks fill them
        # first (_masked.py), the others refuse.
        raise TypeError("this clreduce call does not take numpy.ma masked arrays: pass a.filled(value) or "
                        "a.compressed()")
    if not isinstance(a, np.ndarray):
        a = np.asarray(a)
    element_dtype(a.dtype)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    return a


def accumulator_name(dtype):
    if dtype is None:
        return None
    name = np.dtype(dtype).name
    if name not in ("int32", "uint32", "int64", "uint64", "float32", "float64"):
        raise ValueError(f"dtype= (the accumulator) must be int32, uint32, int64, uint64, float32 or float64; "
                         f"got {name}")
    return name


def offsets_array(offsets):
    """CSR offsets as a uint64 numpy array, checked to be integers >= 0."""
    o = np.asarray(offsets)
    if o.ndim != 1:
        raise ValueError(f"offsets must be 1-D; got {o.ndim}-D")
    if o.size and not np.issubdtype(o.dtype, np.integer):
        raise ValueError(f"offsets must be integers; got {o.dtype}")
    if o.size and np.issubdtype(o.dtype, np.signedinteger) and o.min() < 0:
        raise ValueError(f"offsets must be >= 0; got {o.min()}")
    return np.ascontiguousarray(o, dtype=np.uint64)
