"""The class's store: one SQLite file in WAL mode under the class folder (readers never wait for
the one writer). Users, sign-in sessions, API tokens, and every submission with its code, times,
verdict and per-test results. A result is written once per judging round: a late or repeated one
(a worker that was thought dead, a message delivered twice) changes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import stat
import threading
import time
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path

from classroom.console import bounded
from grading.judgement import summary_from_json

DB_NAME = "class.sqlite"
SESSION_DAYS = 14
PAGE = 500  # submissions in a listing's page (GET /api/submissions?before=<id> for the next)
FOLDER_MODE, FILE_MODE = 0o700, 0o600  # code, emails and password hashes: for the class's owner only
STATUSES = ("queued", "judging", "done")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, email TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('student', 'admin')), password TEXT NOT NULL, token TEXT UNIQUE);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), csrf TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), problem TEXT NOT NULL,
    code TEXT NOT NULL, created REAL NOT NULL, status TEXT NOT NULL, verdict TEXT, message TEXT,
    tests TEXT, cpu_ms REAL, memory_mb REAL, attempts INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 0, judged REAL);
CREATE INDEX IF NOT EXISTS submissions_user ON submissions (user_id, problem);
CREATE INDEX IF NOT EXISTS submissions_problem ON submissions (problem);
CREATE INDEX IF NOT EXISTS submissions_status ON submissions (status);
CREATE TABLE IF NOT EXISTS drafts (
    user_id INTEGER NOT NULL REFERENCES users(id), problem TEXT NOT NULL, code TEXT NOT NULL,
    version TEXT NOT NULL, saved REAL NOT NULL, PRIMARY KEY (user_id, problem));
"""


ABSENT = "absent"  # the version of a draft never saved


def draft_version(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", errors="surrogatepass")).hexdigest()


def digest(secret: str) -> str:
    """What the store keeps of a session id or API token: a leaked file signs nobody in."""
    return sha256(secret.encode()).hexdigest()


@dataclass
class User:
    id: int
    name: str
    email: str
    role: str

    @property
    def admin(self) -> bool:
        return self.role == "admin"


@dataclass
class Job:
    """A judging to do: one round of one submission."""

    submission: int
    round: int
    user: int
    problem: str
    code: str


def private_files(folder: Path) -> list[str]:
    """The class folder made 0700 and its store's files 0600 (created so, narrowed when wider);
    a line for each narrowed one, for the command to print."""
    said = []
    mode = stat.S_IMODE(folder.stat().st_mode)
    if mode & 0o077:
        folder.chmod(FOLDER_MODE)
        said.append(f"{folder}: narrowed from {mode:04o} to {FOLDER_MODE:04o} (the class's code and accounts)")
    ignore = folder / ".gitignore"
    if not ignore.exists():  # a class folder inside a checkout: the store stays out of its git status
        ignore.write_text(f"{DB_NAME}\n{DB_NAME}-wal\n{DB_NAME}-shm\n")
    path = folder / DB_NAME
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))  # SQLite gives -wal and -shm this mode
    for name in (DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm"):
        try:
            mode = stat.S_IMODE((folder / name).stat().st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            (folder / name).chmod(FILE_MODE)
            said.append(f"{folder / name}: narrowed from {mode:04o} to {FILE_MODE:04o}")
    return said


class Store:
    def __init__(self, folder: Path):
        self.path = folder / DB_NAME
        self.narrowed = private_files(folder)
        self._local = threading.local()  # a connection per thread (sqlite3's rule)
        with self.db() as db:
            db.executescript(SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('class_id', ?)", (secrets.token_hex(6),))

    def db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL's safe setting: a crash loses no committed row
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @property
    def class_id(self) -> str:
        """Names this class's messages on a queue other classes may share."""
        return self.db().execute("SELECT value FROM meta WHERE key = 'class_id'").fetchone()[0]

    # -- users ---------------------------------------------------------------------------------
    def add_user(self, name: str, email: str, role: str, password_hash: str) -> bool:
        """False when the name or email is taken (the user is left as it was)."""
        try:
            self.db().execute("INSERT INTO users (name, email, role, password) VALUES (?, ?, ?, ?)",
                              (name, email, role, password_hash))
            return True
        except sqlite3.IntegrityError:
            return False

    def user_row(self, login: str) -> sqlite3.Row | None:
        return self.db().execute("SELECT * FROM users WHERE name = ? OR email = ?", (login, login)).fetchone()

    def user(self, user_id: int) -> User | None:
        row = self.db().execute("SELECT id, name, email, role FROM users WHERE id = ?", (user_id,)).fetchone()
        return User(**row) if row else None

    def users(self) -> list[User]:
        return [User(**r) for r in self.db().execute("SELECT id, name, email, role FROM users ORDER BY id")]

    def set_password(self, user_id: int, password_hash: str) -> None:
        self.db().execute("UPDATE users SET password = ? WHERE id = ?", (password_hash, user_id))

    def new_token(self, user_id: int) -> str:
        """A new API token for the user (the old one stops working); only its digest is kept."""
        token = "cj_" + secrets.token_urlsafe(30)
        self.db().execute("UPDATE users SET token = ? WHERE id = ?", (digest(token), user_id))
        return token

    def user_by_token(self, token: str) -> User | None:
        row = self.db().execute("SELECT id, name, email, role FROM users WHERE token = ?", (digest(token),)).fetchone()
        return User(**row) if row else None

    # -- sessions ------------------------------------------------------------------------------
    def new_session(self, user_id: int) -> tuple[str, str]:
        """(session id for the cookie, its CSRF token)."""
        session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        now = time.time()
        db = self.db()
        db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
        db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?)",
                   (digest(session), user_id, csrf, now + SESSION_DAYS * 86400))
        return session, csrf

    def session(self, session: str) -> tuple[User, str] | None:
        row = self.db().execute(
            "SELECT u.id, u.name, u.email, u.role, s.csrf FROM sessions s JOIN users u ON u.id = s.user_id "
            "WHERE s.id = ? AND s.expires > ?", (digest(session), time.time())).fetchone()
        if row is None:
            return None
        return User(row["id"], row["name"], row["email"], row["role"]), row["csrf"]

    def end_session(self, session: str) -> None:
        self.db().execute("DELETE FROM sessions WHERE id = ?", (digest(session),))

    def end_other_sessions(self, user_id: int, kept: str | None) -> int:
        """Every session of the user but `kept` ended (a password change); how many."""
        return self.db().execute("DELETE FROM sessions WHERE user_id = ? AND id != ?",
                                 (user_id, digest(kept) if kept else "")).rowcount

    # -- drafts: each student's last code per problem ------------------------------------------
    def draft(self, user_id: int, problem: str) -> tuple[str, str] | None:
        """The code and its version, or None before the first save."""
        row = self.db().execute("SELECT code, version FROM drafts WHERE user_id = ? AND problem = ?",
                                (user_id, problem)).fetchone()
        return None if row is None else (row["code"], row["version"])

    def save_draft(self, user_id: int, problem: str, code: str, based_on: str) -> tuple[bool, str | None, str]:
        """Saved when the stored version is still `based_on` (ABSENT before the first save); else
        not, with what is stored: (saved, stored code, stored version), one transaction."""
        db = self.db()
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT code, version FROM drafts WHERE user_id = ? AND problem = ?",
                             (user_id, problem)).fetchone()
            current = ABSENT if row is None else row["version"]
            if current != based_on:
                db.execute("COMMIT")
                return False, None if row is None else row["code"], current
            version = draft_version(code)
            db.execute("INSERT OR REPLACE INTO drafts VALUES (?, ?, ?, ?, ?)",
                       (user_id, problem, code, version, time.time()))
            db.execute("COMMIT")
            return True, code, version
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # -- submissions ---------------------------------------------------------------------------
    def add_submission(self, user_id: int, problem: str, code: str, now: float | None = None) -> Job:
        cursor = self.db().execute(
            "INSERT INTO submissions (user_id, problem, code, created, status) VALUES (?, ?, ?, ?, 'queued')",
            (user_id, problem, code, time.time() if now is None else now))
        assert cursor.lastrowid is not None  # an INSERT's row
        return Job(cursor.lastrowid, 0, user_id, problem, code)

    def pending(self, user_id: int, problem: str) -> bool:
        """Whether the user has a judging of this problem queued or running (one at a time)."""
        return self.db().execute(
            "SELECT 1 FROM submissions WHERE user_id = ? AND problem = ? AND status != 'done' LIMIT 1",
            (user_id, problem)).fetchone() is not None

    def recent(self, user_id: int, since: float) -> int:
        return self.db().execute("SELECT COUNT(*) FROM submissions WHERE user_id = ? AND created >= ?",
                                 (user_id, since)).fetchone()[0]

    def stored_bytes(self, user_id: int, since: float = 0.0) -> int:
        """Bytes of code the user has stored (since a time): what the store quota counts."""
        return self.db().execute("SELECT COALESCE(SUM(LENGTH(CAST(code AS BLOB))), 0) FROM submissions "
                                 "WHERE user_id = ? AND created >= ?", (user_id, since)).fetchone()[0]

    def jobs_to_do(self) -> list[Job]:
        """Every judging not done (a restarted server takes them up again), oldest first."""
        return [Job(r["id"], r["round"], r["user_id"], r["problem"], r["code"]) for r in self.db().execute(
            "SELECT id, round, user_id, problem, code FROM submissions WHERE status != 'done' ORDER BY id")]

    def judging(self, job: Job) -> None:
        self.db().execute("UPDATE submissions SET status = 'judging' WHERE id = ? AND round = ? AND status = 'queued'",
                          (job.submission, job.round))

    def current(self, job: Job) -> bool:
        """Whether this round is still the one wanted (not rejudged since, not done)."""
        return self.db().execute("SELECT 1 FROM submissions WHERE id = ? AND round = ? AND status != 'done'",
                                 (job.submission, job.round)).fetchone() is not None

    def finish(self, submission: int, round_: int, result: object) -> bool:
        """Store a round's result (a Summary, read as one whatever came back); False (nothing
        written) when it is not the current round or is stored already: each judging is stored once."""
        summary = summary_from_json(result)
        cursor = self.db().execute(
            "UPDATE submissions SET status = 'done', verdict = ?, message = ?, tests = ?, cpu_ms = ?, memory_mb = ?, "
            "attempts = ?, judged = ? WHERE id = ? AND round = ? AND status != 'done'",
            (summary["verdict"], "\n".join(filter(None, [summary["message"], summary["traceback"]])),
             json.dumps(bounded(summary["tests"])), summary["cpu_ms"], summary["memory_mb"], summary["attempts"],
             time.time(), submission, round_))
        return cursor.rowcount == 1

    def rejudge(self, submission_ids: list[int]) -> list[Job]:
        """A new round for each (its old result, or a late one, no longer counts)."""
        db = self.db()
        jobs = []
        for sid in submission_ids:
            db.execute("UPDATE submissions SET status = 'queued', round = round + 1, verdict = NULL, message = NULL, "
                       "tests = NULL, cpu_ms = NULL, memory_mb = NULL, attempts = 0, judged = NULL WHERE id = ?",
                       (sid,))
            row = db.execute("SELECT id, round, user_id, problem, code FROM submissions WHERE id = ?",
                             (sid,)).fetchone()
            if row is not None:
                jobs.append(Job(row["id"], row["round"], row["user_id"], row["problem"], row["code"]))
        return jobs

    def submission(self, submission_id: int) -> sqlite3.Row | None:
        return self.db().execute(
            "SELECT s.*, u.name AS user_name, u.role AS user_role FROM submissions s JOIN users u ON u.id = s.user_id "
            "WHERE s.id = ?", (submission_id,)).fetchone()

    def submissions(self, user_id: int | None = None, problem: str | None = None, verdict: str | None = None,
                    status: str | None = None, limit: int = PAGE, before: int | None = None) -> list[sqlite3.Row]:
        """The newest first, `limit` of them, with ids below `before` when given (the next page)."""
        where: list[str] = []
        args: list[object] = []
        for column, value in (("s.user_id", user_id), ("s.problem", problem), ("s.verdict", verdict),
                              ("s.status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if before is not None:
            where.append("s.id < ?")
            args.append(before)
        sql = ("SELECT s.id, s.user_id, s.problem, s.created, s.status, s.verdict, s.cpu_ms, s.memory_mb, s.attempts, "
               "s.round, u.name AS user_name, u.role AS user_role FROM submissions s JOIN users u ON u.id = s.user_id"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY s.id DESC LIMIT ?")
        return self.db().execute(sql, (*args, limit)).fetchall()

    def problem_submissions(self, problem: str) -> list[int]:
        return [r[0] for r in self.db().execute("SELECT id FROM submissions WHERE problem = ? ORDER BY id", (problem,))]

    def all_for_standings(self) -> list[sqlite3.Row]:
        """Students' submissions, oldest first: what statistics and the scoreboard are made of."""
        return self.db().execute(
            "SELECT s.id, s.user_id, u.name AS user_name, s.problem, s.created, s.status, s.verdict "
            "FROM submissions s JOIN users u ON u.id = s.user_id WHERE u.role = 'student' ORDER BY s.created, s.id"
        ).fetchall()
