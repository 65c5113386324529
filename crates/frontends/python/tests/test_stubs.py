"""The type stubs describe the native module exactly: no missing or stale names."""

import ast
from pathlib import Path

import kessel_sabacc
from kessel_sabacc import _native

STUB = Path(kessel_sabacc.__file__).with_name("_native.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            top.add(node.name)
            members[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("__")
            }
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
    return top - {"Rules"}, members


def test_stub_lists_every_native_name_and_nothing_else():
    top, members = stub_names()
    native = {n for n in dir(_native) if not n.startswith("_")}
    assert top == native
    for cls, names in members.items():
        real = {n for n in dir(getattr(_native, cls)) if not n.startswith("_")}
        assert names == real, cls
