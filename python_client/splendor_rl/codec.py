"""Frames ↔ Python: msgpack maps, and tensors {dtype, shape, data} ↔ numpy arrays without per-element work."""

from __future__ import annotations

from typing import Any

import msgpack
import numpy as np

DTYPES = {"uint8": np.uint8, "bool": np.bool_, "int32": np.int32, "int64": np.int64, "float32": np.float32}


def pack(message: dict) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def unpack(frame: bytes) -> dict:
    return msgpack.unpackb(frame, raw=False)


def to_numpy(tensor: dict) -> np.ndarray:
    """A read-only view of the tensor's bytes (little-endian, C order): no copy."""
    dtype = np.dtype(DTYPES[tensor["dtype"]]).newbyteorder("<")
    return np.frombuffer(tensor["data"], dtype=dtype).reshape(tensor["shape"])


def from_numpy(array: Any, dtype: str) -> dict:
    """A tensor of the given dtype from anything numpy can read as an array."""
    a = np.ascontiguousarray(array, dtype=np.dtype(DTYPES[dtype]).newbyteorder("<"))
    return {"dtype": dtype, "shape": list(a.shape), "data": a.tobytes()}
