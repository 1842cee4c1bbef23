"""The type stub (python/clreduce/__init__.pyi) declares every public name of the package and
every public member of its classes, and every public function has a docstring."""

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
