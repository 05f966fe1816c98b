"""The numpy array types the package's signatures name, defined once: ``I64`` is an array of int64 of
any shape, and so on."""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

Array = TypeVar("Array", bound=np.ndarray[Any, Any])


def read_only(array: Array) -> Array:
    """``array`` if it is read-only, else a read-only view of it. The kernels' tables go in read-only
    wherever they come from: numba compiles a kernel apart for a writable array (seconds each time)."""
    if not array.flags.writeable:
        return array
    view = array.view()
    view.flags.writeable = False
    return view


__all__ = ["F32", "F64", "I16", "I32", "I64", "read_only"]
