"""Integer expressions over size names, as written in problem.toml.

problem.toml states shapes ("h_k * d_k"), derived sizes ("d_model // h_q") and rules
("h_q % h_k == 0") as short expressions, so that one file holds every constraint. They are
evaluated with this small interpreter rather than eval(): a problem file is data, and a typo in
one must give a clear message, not run code.
"""

from __future__ import annotations

import ast
import operator

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


class ExprError(ValueError):
    """An expression uses a name or construct the interpreter does not know."""


def names(expr: str) -> set[str]:
    """The size names an expression refers to."""
    return {n.id for n in ast.walk(_parse(expr)) if isinstance(n, ast.Name)}


def evaluate(expr: str, env: dict[str, int]) -> int | bool:
    """Value of `expr` with the sizes in `env`; integers and comparisons only."""
    return _eval(_parse(expr).body, env, expr)


def _parse(expr: str) -> ast.Expression:
    try:
        return ast.parse(expr, mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"cannot parse expression {expr!r}") from exc


def _eval(node: ast.AST, env: dict[str, int], expr: str) -> int | bool:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise ExprError(f"unknown name {node.id!r} in {expr!r}")
        return env[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left, env, expr), _eval(node.right, env, expr)
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and right == 0:
            raise ExprError(f"division by zero in {expr!r}")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env, expr)
        for op, comparator in zip(node.ops, node.comparators):
            if type(op) not in _COMPARE:
                break
            right = _eval(comparator, env, expr)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        else:
            return True
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, env, expr) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    raise ExprError(f"unsupported construct in {expr!r}")
