"""Code that runs inside the sandbox. Each module here is a plain script module: they import only
the standard library, numpy and each other by bare name, because the sandbox holds these files
alone at /opt/judge, never the checkout. The judge itself imports only `wire` from here."""
