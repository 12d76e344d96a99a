"""What the practice server (web/) and the class's server (classroom/) share: access, answers, listening,
the problem page (its template, script, routes and store interface) and the vendored libraries."""
