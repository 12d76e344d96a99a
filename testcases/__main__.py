"""`python -m testcases`: see testcases/cli.py."""

from testcases.cli import main

raise SystemExit(main())
