"""Problem packages: one folder per problem (problem.toml, spec.md, reference.py, tests/).

This package is also the one reader of that format, shared by the judge and the test engine.
"""

from problems.package import Arg, Problem, ProblemError, Rule, Size, all_problems, by_method, load, load_path
from problems.testfile import TestCase, category_of, read_test, read_tests

__all__ = [
    "Arg", "Problem", "ProblemError", "Rule", "Size", "TestCase",
    "all_problems", "by_method", "category_of", "load", "load_path", "read_test", "read_tests",
]
