"""The type stub (python/clreduce/__init__.pyi) declares every public name of the package and
every public member of its classes, every public function has a docstring, and the core's
operation list reaches the package at run time."""

import ast
import inspect
import pathlib

import clreduce

STUB = pathlib.Path(__file__).resolve().parents[2] / "python" / "clreduce" / "__init__.pyi"


def declared():
    tree = ast.parse(STUB.read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    return names, members


def public_members(cls):
    return {n for n in dir(cls) if not n.startswith("_")} - {n for n in dir(tuple) if not n.startswith("_")}


def test_stub_declares_every_public_name():
    names, members = declared()
    assert set(clreduce.__all__) - names == set()
    for cls in ("Reducer", "Partial", "MultiReducer", "Statistics", "DeviceArray", "Plan"):
        assert public_members(getattr(clreduce, cls)) - members[cls] == set(), cls


def test_every_public_function_has_a_docstring():
    for name in clreduce.__all__:
        obj = getattr(clreduce, name)
        assert inspect.getdoc(obj), name
    for cls in (clreduce.Reducer, clreduce.Partial, clreduce.MultiReducer):
        for name in public_members(cls):
            assert inspect.getdoc(getattr(cls, name)), f"{cls.__name__}.{name}"


def test_every_core_operation_has_a_call():
    """The core's operation list, read at run time, reaches Python: each operation numpy names
    no call for has one of its own name whose docstring starts with the core's summary, and a
    segment call (the norms: norm()); values take the core's result kind."""
    from clreduce import _clreduce
    served = {"sum", "product", "min", "max", "argmin", "argmax", "count_nonzero", "mean", "norm_l1", "norm_l2",
              "norm_inf", "all", "any"}
    for op in clreduce.operations():
        summary = _clreduce.operation_summary(op)
        assert summary and summary.endswith("."), op
        if op not in served:
            assert inspect.getdoc(getattr(clreduce, op)).startswith(summary), op
            assert inspect.getdoc(getattr(clreduce.Reducer, op)).startswith(summary), op
        if not op.startswith("norm_"):
            assert callable(getattr(clreduce, "segment_" + op)), op
    assert _clreduce.operation_result("sum", "int8") == "int64"
    assert _clreduce.operation_result("sum_of_squares", "int8") == "uint64"
    assert _clreduce.operation_result("min", "uint16") == "uint16"
    assert _clreduce.operation_result("argmin", "float32") == "arg"
    assert _clreduce.operation_result("statistics", "int32") == "statistics"
    assert type(clreduce.bit_or(__import__("numpy").array([True, False]))) is __import__("numpy").bool_
