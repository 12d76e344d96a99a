"""The test engine: one generator and validator for every problem package.

Problems differ in data (problem.toml, recipes.toml, reference.py), never in code here:
recipes.py reads the recipes, draw.py draws inputs, oracle.py runs the reference, condition.py
keeps well-conditioned tests, expose.py checks that tests tell wrong scalings apart,
generate.py seeds, orders and writes, validate.py checks stored tests, render.py writes the
statement's generated blocks, cli.py is `python -m testcases`.
"""

from testcases.validate import validate_data, validate_problem, validate_test

__all__ = ["validate_data", "validate_problem", "validate_test"]
