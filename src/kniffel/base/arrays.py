"""The numpy array types the package's signatures name, defined once: ``I64`` is an array of int64 of
any shape, and so on."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

__all__ = ["F32", "F64", "I16", "I32", "I64"]
