"""Accounts: passwords kept as scrypt hashes (hashlib's, a memory-hard KDF: no new dependency), and
`class add-users`, which reads a CSV of name,email[,role] and prints a password for each new user,
shown once and kept nowhere in the clear."""

from __future__ import annotations

import csv
import hashlib
import hmac
import re
import secrets
from pathlib import Path

from classroom.store import Store

ROLES = ("student", "admin")
NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
EMAIL = re.compile(r"[^@\s,]+@[^@\s,]+")
# scrypt's cost: 16 MiB of memory and ~50 ms a try (OWASP's minimum is N=2**17 with r=8 at 128 MiB;
# this one keeps a class's sign-ins from queueing behind each other on a 2-core server)
N, R, P = 2**14, 8, 1


class AccountError(Exception):
    """A CSV line or a request the accounts refuse: one line that says which and why."""


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    key = hashlib.scrypt(password.encode(), salt=salt, n=N, r=R, p=P, maxmem=64 << 20, dklen=32)
    return f"scrypt${N}${R}${P}${salt.hex()}${key.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, key = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             maxmem=64 << 20, dklen=len(key) // 2)
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), key)


def new_password() -> str:
    return secrets.token_urlsafe(12)


def read_users(path: Path) -> list[tuple[str, str, str]]:
    """(name, email, role) of each line; a header line `name,email[,role]` may come first."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise AccountError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise AccountError(f"{path}: not UTF-8 text") from None
    users = []
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or (number == 1 and [c.lower() for c in cells[:2]] == ["name", "email"]):
            continue
        if len(cells) not in (2, 3):
            raise AccountError(f"{path} line {number}: expected name,email[,role], got {len(cells)} fields")
        name, email, role = cells[0], cells[1], (cells[2] if len(cells) == 3 and cells[2] else "student")
        if not NAME.fullmatch(name):
            raise AccountError(f"{path} line {number}: name {name!r}: 1-40 letters, digits, _ . -")
        if not EMAIL.fullmatch(email):
            raise AccountError(f"{path} line {number}: {email!r} is not an email address")
        if role not in ROLES:
            raise AccountError(f"{path} line {number}: role {role!r}: student or admin")
        users.append((name, email, role))
    return users


def add_users(store: Store, path: Path) -> list[tuple[str, str, str, str | None]]:
    """Add every user of the CSV; (name, email, role, password or None when it existed already)."""
    added: list[tuple[str, str, str, str | None]] = []
    for name, email, role in read_users(path):
        password = new_password()
        if store.add_user(name, email, role, hash_password(password)):
            added.append((name, email, role, password))
        else:
            added.append((name, email, role, None))
    return added
