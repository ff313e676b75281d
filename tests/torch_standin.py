"""A stand-in for ``torch`` with a CUDA device, backed by NumPy/SciPy, for the ``--device cuda``
code path (leanbridge/numeric/gpu.py) on machines without a GPU (all of this project's).

It implements exactly the torch calls gpu.py makes, with torch's semantics for them
(``cholesky_ex`` reports a non-positive-definite matrix in ``info`` instead of raising;
``cholesky_solve(B, L)`` solves with a lower factor; ``argmax()`` without ``dim`` is a flat
index), refuses tensors that are not on the device where the real torch would fail (mixing a
CPU tensor into a CUDA product), and counts what ran "on the GPU" in ``calls``."""

from __future__ import annotations

import types
from collections import Counter

import numpy as np
import scipy.linalg as sl

float64 = "float64"
calls: Counter = Counter()


class Tensor:
    def __init__(self, array, device="cpu"):
        self.array = np.asarray(array)
        self.device = device

    # --- placement -----------------------------------------------------------------------
    def to(self, device, dtype=None):
        calls["to_" + str(device)] += 1
        array = self.array if dtype is None else self.array.astype(dtype)
        return Tensor(array, str(device))

    def cpu(self):
        return Tensor(self.array, "cpu")

    def numpy(self):
        assert self.device == "cpu", "can't convert cuda tensor to numpy: use .cpu() first"
        return self.array

    def item(self):
        assert self.array.size == 1
        return self.array.item()

    def _same(self, other):
        assert isinstance(other, Tensor) and other.device == self.device, \
            "Expected all tensors to be on the same device"
        return other.array

    # --- arithmetic (in place where torch's name ends in _) ---------------------------------
    @property
    def T(self):
        return Tensor(self.array.T, self.device)

    @property
    def shape(self):
        return self.array.shape

    def __matmul__(self, other):
        calls["matmul"] += 1
        return Tensor(self.array @ self._same(other), self.device)

    def __getitem__(self, index):
        return Tensor(self.array[index], self.device)

    def __ge__(self, value):
        return Tensor(self.array >= value, self.device)

    def mul_(self, other):
        self.array *= self._same(other)
        return self

    def div_(self, other):
        self.array /= self._same(other)
        return self

    def abs_(self):
        np.abs(self.array, out=self.array)
        return self

    def abs(self):
        return Tensor(np.abs(self.array), self.device)

    def triu_(self, diagonal=0):
        self.array[...] = np.triu(self.array, diagonal)
        return self

    def argmax(self):
        return Tensor(np.argmax(self.array), self.device)

    def max(self):
        return Tensor(self.array.max(), self.device)

    def sum(self, dim=None):
        return Tensor(self.array.sum(axis=dim), self.device)


def from_numpy(array):
    return Tensor(array, "cpu")


def device(name):
    return name


def _cholesky_ex(A):
    calls["cholesky_ex"] += 1
    assert A.device == "cuda"
    try:
        L = np.linalg.cholesky(A.array)
        info = 0
    except np.linalg.LinAlgError:
        L, info = np.zeros_like(A.array), 1
    return Tensor(L, A.device), Tensor(np.int32(info), A.device)


def cholesky_solve(B, L):
    calls["cholesky_solve"] += 1
    assert B.device == L.device == "cuda"
    return Tensor(sl.cho_solve((L.array, True), B.array), B.device)


def module(available: bool = True, version: str = "9.9"):
    """A fresh ``torch`` module object (put it in ``sys.modules["torch"]``)."""
    calls.clear()
    return types.SimpleNamespace(
        __version__=version, cuda=types.SimpleNamespace(is_available=lambda: available),
        device=device, from_numpy=from_numpy, float64=float64, cholesky_solve=cholesky_solve,
        linalg=types.SimpleNamespace(cholesky_ex=_cholesky_ex), calls=calls)
