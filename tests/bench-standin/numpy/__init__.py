# tests/bench-standin/numpy: a stand-in for numpy whose arrays do nothing and whose operations
# take STANDIN_NUMPY_NS (5000) ns, so that tests/gpu/bench-baselines.sh runs on any machine.
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import time

__version__ = "stand-in"
float32 = "float32"
_NS = int(os.environ.get("STANDIN_NUMPY_NS", "5000"))


def _work():
    end = time.perf_counter_ns() + _NS
    while time.perf_counter_ns() < end:
        pass


class _Array:
    def __mul__(self, other):
        return self

    def __sub__(self, other):
        return self

    def __matmul__(self, other):
        _work()
        return self

    def fill(self, value):
        pass


class _Generator:
    def random(self, shape, dtype=None):
        return _Array()


class random:
    @staticmethod
    def default_rng(seed):
        return _Generator()


def empty(*args, **kwargs):
    return _Array()


def empty_like(a):
    return _Array()


def matmul(a, b, out=None):
    _work()
    return out


def add(a, b, out=None):
    _work()
    return out
