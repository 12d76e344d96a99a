"""The suite never writes a user's practice history: every judging it starts records into a
throwaway JUDGE_HOME (subprocesses inherit it)."""

import os
import tempfile

os.environ["JUDGE_HOME"] = tempfile.mkdtemp(prefix="judge-home-tests-")
