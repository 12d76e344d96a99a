"""A queue URL's password kept out of what is printed: every line shows the URL masked."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

MASK = "***"


def has_password(url: str) -> bool:
    try:
        return bool(urlsplit(url).password)
    except ValueError:
        return ":" in url.partition("@")[0].partition("//")[2]


def masked(url: str) -> str:
    """The URL with its password (and a user's name beside it) shown as ***."""
    try:
        parts = urlsplit(url)
        if parts.password is None and parts.username is None:
            return url
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        port = f":{parts.port}" if parts.port else ""
        user = f"{parts.username}:" if parts.username and parts.password is not None else ""
        return urlunsplit((parts.scheme, f"{user}{MASK}@{host}{port}", parts.path, parts.query, parts.fragment))
    except ValueError:  # an address urllib cannot split: everything before the @ hidden
        head, at, tail = url.rpartition("@")
        return f"{head.partition('//')[0]}//{MASK}@{tail}" if at else url
