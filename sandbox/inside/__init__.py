"""Code that runs inside the sandbox. Each module here is a plain script module: they import only
the standard library, numpy and each other by bare name, because the sandbox holds these files
alone at /opt/judge, never the checkout. The judge imports three of them as sandbox.inside.*:
`protocol` (the messages and a run's result header), `wire` (their frames) and `walls` (its
constants and the Landlock probe)."""
