"""Running a submission behind walls: the fork server (inside/), its modes, its tasks."""
