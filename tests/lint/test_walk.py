"""The rules' cached walk visits what ``ast.walk`` visits, in the same order, and a stored
walk is never served for another node."""

import ast
from pathlib import Path

from traindoc.lint import walk as w

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_same_nodes_same_order_as_ast_walk():
    files = sorted(FIXTURES.rglob("*.py"))[:40]
    assert files
    for f in files:
        tree = ast.parse(f.read_bytes())
        for node in [tree, *[n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.For, ast.Call))]]:
            assert list(w.walk(node)) == list(ast.walk(node))
            assert list(w.walk(node)) == list(ast.walk(node))  # the stored walk
        w.clear()


def test_a_new_node_at_a_reused_id_is_walked_afresh():
    a = ast.parse("x = f(1)")
    first = w.walk(a)
    w.clear()
    b = ast.parse("y = g(2, 3)")
    assert list(w.walk(b)) == list(ast.walk(b)) and w.walk(a) == first
    w.clear()
