"""clreduce._cpu_runtime: the ICD loader is pointed at intel-opencl-rt's library (pip install
clreduce[cpu]) only where nothing else names an OpenCL implementation. The end-to-end check (the
wheel with the extra on a machine without OpenCL) is scripts/python-wheel-alone.sh."""

import os
import site
import sys

import pytest

from clreduce import _cpu_runtime


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """An environment prefix holding the runtime's library, an empty vendors folder, no
    OCL_ICD_VENDORS; the test changes what it checks."""
    prefix = tmp_path / "venv"
    (prefix / "lib").mkdir(parents=True)
    (prefix / "lib" / "libintelocl.so").write_bytes(b"")
    vendors = tmp_path / "vendors"
    vendors.mkdir()
    monkeypatch.setattr(sys, "prefix", str(prefix))
    monkeypatch.setattr(site, "getuserbase", lambda: str(tmp_path / "no-user-base"))
    monkeypatch.setenv("OPENCL_VENDOR_PATH", str(vendors))
    monkeypatch.delenv("OCL_ICD_VENDORS", raising=False)
    return prefix, vendors


def test_no_opencl_installed_uses_the_runtime(machine):
    prefix, _ = machine
    _cpu_runtime.use_cpu_runtime_where_no_opencl()
    assert os.environ["OCL_ICD_VENDORS"] == str(prefix / "lib" / "libintelocl.so")


def test_a_machine_with_opencl_keeps_it(machine):
    _, vendors = machine
    (vendors / "pocl.icd").write_text("libpocl.so.2\n")
    _cpu_runtime.use_cpu_runtime_where_no_opencl()
    assert "OCL_ICD_VENDORS" not in os.environ


def test_a_users_choice_is_kept(machine, monkeypatch):
    monkeypatch.setenv("OCL_ICD_VENDORS", "/somewhere/else.icd")
    _cpu_runtime.use_cpu_runtime_where_no_opencl()
    assert os.environ["OCL_ICD_VENDORS"] == "/somewhere/else.icd"


def test_without_the_runtime_nothing_changes(machine):
    prefix, _ = machine
    (prefix / "lib" / "libintelocl.so").unlink()
    _cpu_runtime.use_cpu_runtime_where_no_opencl()
    assert "OCL_ICD_VENDORS" not in os.environ
