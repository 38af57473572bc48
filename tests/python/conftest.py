"""Shared set-up for the launcher's tests: the package on sys.path, the tile2cu binary of this
build, a private kernel cache per test, and stand-in device arrays that need no GPU."""

import os
import shutil
import sys
from pathlib import Path

import pytest


REPO = Path(__file__).resolve().parents[2]
# TILE2CU_TEST_INSTALLED=1 (scripts/test-wheel.sh): test the installed package and the binary it
# ships, not this checkout's.
INSTALLED = os.environ.get("TILE2CU_TEST_INSTALLED") == "1"
# What a child Python process needs on sys.path to import the package under test.
PACKAGE_PATH = [] if INSTALLED else [str(REPO / "python")]
if not INSTALLED:
    sys.path.insert(0, str(REPO / "python"))
    if "TILE2CU_BIN" not in os.environ and (REPO / "build" / "tile2cu").exists():
        os.environ["TILE2CU_BIN"] = str(REPO / "build" / "tile2cu")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tile2cu import _alias  # noqa: E402

if INSTALLED:
    assert "TILE2CU_BIN" not in os.environ, "TILE2CU_TEST_INSTALLED: unset TILE2CU_BIN"
    assert REPO not in Path(_alias.__file__).resolve().parents, f"not installed: {_alias.__file__}"

_alias.install()   # the test kernels say `import cuda.tile as ct`


class FakeDeviceArray:
    """A device array as far as the launcher can tell (__cuda_array_interface__), with no GPU
    behind it: for signature and cache tests."""

    def __init__(self, shape, typestr="<f4", ptr=0x7F0000000000, strides=None):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr,
                                         "data": (ptr, False), "strides": strides, "version": 3}


@pytest.fixture
def fake_array():
    return FakeDeviceArray


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("TILE2CU_CACHE_DIR", str(d))
    return d


def nvcc_available():
    return shutil.which("nvcc") or os.access("/usr/local/cuda/bin/nvcc", os.X_OK)


def gpu_available():
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False
