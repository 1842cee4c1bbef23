"""clreduce.Partial and clreduce.MultiReducer: reductions beyond one call on one device."""

from . import _clreduce
from ._inputs import element_dtype, host_array
from ._reducer import _options
from ._results import cast


class Partial:
    """A reduction's partial result (``Reducer.partial(op, a)``).

    ``p.merge(later)`` makes ``p`` the partial of its range followed by ``later``'s (merge in the
    data's order); ``p.to_bytes()`` / ``Partial.from_bytes(b)`` send it between processes
    (pickle and copy go through them: a copy is independent);
    ``p.value()`` is what the call over the whole range returns: integers exact, argmin/argmax
    the index in the whole, correctly rounded sums the same bits whatever the split.
    """

    def __init__(self, native=None):
        self._native = native if native is not None else _clreduce.Partial()

    operation = property(lambda self: self._native.operation, doc="The operation's name.")
    element = property(lambda self: self._native.element, doc="The element type's name.")
    count = property(lambda self: self._native.count, doc="Elements it covers.")
    empty = property(lambda self: self._native.empty, doc="Whether it is a Partial of nothing.")

    def merge(self, later):
        """Appends ``later``'s range to this partial's (same operation, type, float mode and
        accumulator, else clreduce.InvalidArgument). Returns self."""
        self._native.merge(later._native)
        return self

    def to_bytes(self):
        """A self-describing byte string of this partial."""
        return self._native.to_bytes()

    @classmethod
    def from_bytes(cls, data):
        """The Partial of ``to_bytes()``'s bytes; clreduce.InvalidArgument naming what is wrong."""
        return cls(_clreduce.Partial.from_bytes(bytes(data)))

    def value(self):
        """The value of the whole range, in the call's default result type (sums: int64, uint64
        or float64, whatever the accumulator)."""
        return cast(self._native.operation, self._native.value(), self._native.element, None, False)

    def __reduce__(self):
        # pickle, copy.copy and copy.deepcopy go through the bytes: the copy is a Partial of its
        # own (merging into it leaves this one as it is), and crosses processes.
        return _from_bytes, (self.to_bytes(),)

    def __eq__(self, other):
        return isinstance(other, Partial) and self._native == other._native

    def __repr__(self):
        return repr(self._native)


def _from_bytes(data):
    """Partial.from_bytes, by a module-level name for pickle."""
    return Partial.from_bytes(data)


class MultiReducer:
    """Reductions over several devices of one host: host data split between them, their
    partials merged in the data's order (integers exact, correctly rounded sums the same bits as
    one device). ``MultiReducer()``: every GPU of the default device's platform (else every
    device of it); ``MultiReducer(devices="0:0,0:1")`` by spec."""

    def __init__(self, devices=None):
        self._native = _clreduce.MultiReducer() if devices is None else _clreduce.MultiReducer(str(devices))

    @property
    def size(self):
        """How many devices."""
        return self._native.size

    def partial(self, op, a, dtype=None, float_mode=None, overflow=None):
        """The Partial of ``op`` over the C-contiguous host array ``a``, split between the devices."""
        return Partial(self._native.partial(op, host_array(a), **_options(dtype, float_mode, overflow)))

    def reduce(self, op, a, dtype=None, float_mode=None, overflow=None):
        """``op`` over the whole of ``a`` (C-contiguous host data), as Reducer.reduce gives it."""
        options = _options(dtype, float_mode, overflow)
        h = host_array(a)
        raw = self._native.partial(op, h, **options).value()
        return cast(op, raw, element_dtype(h.dtype), options["accumulator"], False,
                    wrap=options["overflow"] == "wrap")
