"""A judge server for a class or a contest: accounts, every submission stored, statistics, a
scoreboard, and judging by warm workers in this process or on a Redis queue (docs/classroom.md)."""
