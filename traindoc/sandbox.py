"""An operating-system sandbox for re-executing a user's script: it reads everything and
writes only into its own scratch folder.

The replay (and any later re-execution: confirmation experiments) runs the user's own
training script again. That script may delete its output folder, write checkpoints, logs
and CSVs: none of it may touch the user's files. Patching Python functions cannot promise
that (C extensions, subprocesses, ``os.system``), so the kernel enforces it. Two
mechanisms, tried in this order:

``namespace`` (Linux >= 5.11, unprivileged user namespaces allowed)
    A user + mount namespace in which every directory tree the script could write to
    (each top-level directory of ``/``, each other mount, ``/dev/shm``) is covered by an
    overlay whose upper layer is a private tmpfs. The script sees its own writes (a
    vocabulary file it writes and reads back, a checkpoint folder it clears and refills)
    and they vanish when it ends. ``/`` itself is remounted read-only; a mount that cannot
    be overlaid is bound back read-only. Only the scratch folder is the real one.

``landlock`` (Linux >= 5.13 with Landlock enabled; no privileges, no namespaces)
    Every write-type access (create, write, truncate, remove, rename, link) is denied
    outside the scratch folder and ``/dev/shm`` (DataLoader workers' shared memory);
    ``/dev/null`` and terminals stay writable. A script that writes elsewhere gets
    ``PermissionError`` at that call: its run in the sandbox may end early, nothing is
    written. Used where user namespaces are off (Docker's default seccomp profile,
    Ubuntu's AppArmor restriction).

Where neither exists, :func:`available` says why, and callers do not re-execute unasked.

This file is standard-library only and runs as a script (``python sandbox.py MODE SCRATCH
-- ARGS...``): it must enter the sandbox in a fresh, single-threaded process
(``unshare(CLONE_NEWUSER)`` refuses a process with threads, which importing NumPy's
OpenBLAS already starts), then ``exec`` Python with ARGS inside it. Both mechanisms
survive ``exec`` and are inherited by every child process (DataLoader workers).
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

MODES = ("namespace", "landlock")
ENV_MODE = "TRAINDOC_SANDBOX"  # force a mode ("namespace", "landlock") or "off" (tests, users)
ENV_ALLOW_NONE = "TRAINDOC_ALLOW_UNSANDBOXED"  # "1": where no sandbox works, re-execute without one

_libc = None


def _c() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


class SandboxError(OSError):
    pass


def _check(ret: int, what: str) -> int:
    if ret < 0:
        err = ctypes.get_errno()
        raise SandboxError(err, f"{what}: {os.strerror(err)}")
    return ret


# ---------------------------------------------------------------- Landlock
# <linux/landlock.h>; syscall numbers are the same on every architecture (generic table).
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_RULE_PATH_BENEATH = 1
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE = sum(1 << b for b in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when Landlock is missing or disabled."""
    if not sys.platform.startswith("linux"):
        return 0
    r = _c().syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(int(r), 0)


def _landlock(writable: list[str]) -> None:
    abi = landlock_abi()
    if abi < 1:
        raise SandboxError(0, "Landlock is not available in this kernel")
    handled = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE
    handled |= _REFER if abi >= 2 else 0
    handled |= _TRUNCATE if abi >= 3 else 0
    file_rights = _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0)  # the only rights a file rule may hold
    attr = _RulesetAttr(handled)
    libc = _c()
    rs = _check(libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)),
                             ctypes.c_uint32(0)), "landlock_create_ruleset")
    try:
        rules = [(p, handled) for p in writable]
        rules += [(p, file_rights) for p in ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/pts")]
        for path, rights in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # not on this machine
            try:
                if not os.path.isdir(path):
                    rights &= file_rights
                rule = _PathBeneath(rights, fd)
                _check(libc.syscall(_SYS_ADD_RULE, ctypes.c_int(rs), ctypes.c_int(_RULE_PATH_BENEATH),
                                    ctypes.byref(rule), ctypes.c_uint32(0)), f"landlock_add_rule {path}")
            finally:
                os.close(fd)
        _check(libc.prctl(38, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
        _check(libc.syscall(_SYS_RESTRICT_SELF, ctypes.c_int(rs), ctypes.c_uint32(0)), "landlock_restrict_self")
    finally:
        os.close(rs)


# ---------------------------------------------------------------- user + mount namespace
_CLONE_NEWNS, _CLONE_NEWUSER = 0x00020000, 0x10000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_NOATIME, _MS_NODIRATIME, _MS_BIND = 32, 1024, 2048, 4096
_MS_REC, _MS_PRIVATE, _MS_RELATIME, _MS_STRICTATIME = 16384, 1 << 18, 1 << 21, 1 << 24
_FLAG_OF = {"ro": _MS_RDONLY, "nosuid": _MS_NOSUID, "nodev": _MS_NODEV, "noexec": _MS_NOEXEC,
            "noatime": _MS_NOATIME, "nodiratime": _MS_NODIRATIME, "relatime": _MS_RELATIME,
            "strictatime": _MS_STRICTATIME}
# kernel and device trees: not user files, and overlaying them breaks the process
_KEEP = ("/proc", "/sys", "/dev")


def _enc(s: str | None) -> bytes | None:
    return None if s is None else os.fsencode(s)


def _mount(src: str | None, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    enc = _enc
    _check(_c().mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), f"mount {target}")


def _unescape(s: str) -> str:  # mountinfo writes space, tab, newline and backslash as \ooo
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1:i + 4].isdigit() and len(s[i + 1:i + 4]) == 3:
            out.append(chr(int(s[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _mounts() -> list[tuple[str, int]]:
    """(mount point, its per-mount flags) of this mount namespace, in mountinfo order."""
    out = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            parts = line.split()
            point = _unescape(parts[4])
            flags = 0
            for o in parts[5].split(","):
                flags |= _FLAG_OF.get(o, 0)
            out.append((point, flags))
    return out


def _under(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r + "/") for r in roots)


def _owner(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
        return st.st_uid, st.st_gid
    except OSError:
        return None


def _owned_root(path: str, ids: tuple[int, int]) -> str | None:
    """The highest folder above ``path`` (itself included) such that ``ids`` (uid, gid)
    own every folder from it down to ``path``."""
    p, best = os.path.realpath(path), None
    while _owner(p) == ids:
        best = p
        parent = os.path.dirname(p)
        if parent == p:
            break
        p = parent
    return best


def _enter_user_namespace(uid: int, gid: int) -> None:
    """A new user and mount namespace where this process keeps its own uid and gid."""
    _check(_c().unshare(_CLONE_NEWUSER | _CLONE_NEWNS), "unshare(user, mount namespace)")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE, None)  # nothing done here propagates out


def _overlay_targets(mounts: list[tuple[str, int]], uid: int, gid: int) -> set[str]:
    """The trees to overlay: every mount and top-level folder outside ``_KEEP``."""
    targets = {p for p, _ in mounts if p != "/" and not _under(p, _KEEP)}
    for e in os.scandir("/"):
        if e.is_dir(follow_symlinks=False) and not _under(e.path, _KEEP):
            targets.add(e.path)
    if uid != 0:
        # An overlay copies a file's folders up to its root when the file is first written,
        # and cannot give a copied folder an owner outside this namespace's one mapped user
        # or group (EOVERFLOW): for a user other than root, only trees the user and the
        # user's group own all the way down can be overlaid. So: the user's own mounts, and the highest folder the user
        # owns above the working directory and the home folder; the rest stays read-only.
        targets = {p for p in targets if _owner(p) == (uid, gid)}
        for p in (os.getcwd(), os.path.expanduser("~")):
            top = _owned_root(p, (uid, gid))
            if top and top != "/" and not any(_under(top, (t,)) for t in targets):
                targets = {t for t in targets if not _under(t, (top,))} | {top}
    return targets


def _upper_tmpfs() -> int:
    """A fresh tmpfs on /dev/shm holds the upper layers (an upper layer inside a tree it
    covers is refused as overlapping; /dev is never overlaid) and is the script's shared
    memory (DataLoader workers): private, gone when the sandbox ends. Returns a handle on
    the folder of the upper layers."""
    size = max(256 << 20, os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4)
    _mount("traindoc-sandbox", "/dev/shm", "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={size},mode=1777")
    up = "/dev/shm/.traindoc-sandbox"
    os.mkdir(up, 0o700)
    return os.open(up, os.O_PATH | os.O_CLOEXEC)


def _overlay(fds: dict[str, int], ufd: int, flags_of: dict[str, int], writable: list[str]) -> None:
    """Overlay each tree (``fds``: handles on the originals, closed here) with an upper
    layer under ``ufd``, appending it to ``writable``; a tree not writable is read-only."""
    for i, p in enumerate(sorted(fds)):
        # The kernel refuses to overlay (or bind) a tree that holds mounts inherited from the
        # parent namespace ("locked"), so an overlaid tree hides no mount below it; the
        # others stay read-only: a mount point is remounted so, a plain folder is covered by
        # the read-only root below.
        fd = fds[p]
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            u, w = f"/proc/self/fd/{ufd}/u{i}", f"/proc/self/fd/{ufd}/w{i}"
            os.mkdir(u)
            os.mkdir(w)
            for extra in (",userxattr", ""):  # userxattr: trusted.* xattrs are root-only (Linux >= 5.11)
                try:
                    _mount("overlay", p, "overlay", 0, f"lowerdir=/proc/self/fd/{fd},upperdir={u},workdir={w}{extra}")
                    writable.append(p)
                    break
                except SandboxError:
                    continue
        if p not in writable and p in flags_of:
            _mount(None, p, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | flags_of[p], None)
        os.close(fd)


def _namespace(scratch: str) -> list[str]:
    """Enter the namespace; returns the trees that are writable (overlays, scratch)."""
    uid, gid = os.getuid(), os.getgid()
    _enter_user_namespace(uid, gid)
    mounts = _mounts()
    flags_of = {p: fl for p, fl in mounts}
    targets = _overlay_targets(mounts, uid, gid)
    # handles on the original trees and the scratch folder before anything covers them
    fds = {}
    for p in targets:
        try:
            fds[p] = os.open(p, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            pass
    sfd = os.open(scratch, os.O_PATH | os.O_CLOEXEC)
    ufd = _upper_tmpfs()
    writable = [scratch, "/dev/shm"]
    _overlay(fds, ufd, flags_of, writable)
    # the scratch folder, the real one, on top of whatever covers its path now (before the
    # root turns read-only: a bind mount takes its source mount's flags)
    _mount(f"/proc/self/fd/{sfd}", scratch, None, _MS_BIND, None)
    os.close(sfd)
    os.close(ufd)
    for p in ("/", "/dev"):  # device nodes stay writable on a read-only mount; new files do not
        if p in flags_of:
            _mount(None, p, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | flags_of[p], None)
    return writable


# ---------------------------------------------------------------- entering, probing
def enter(mode: str, scratch: str) -> None:
    """Put this (fresh, single-threaded) process into the sandbox; only ``scratch`` stays
    writable. Raises :class:`SandboxError` when the mode cannot be set up."""
    scratch = os.path.realpath(scratch)
    if mode == "namespace":
        writable = _namespace(scratch)
        if landlock_abi() >= 1:  # and the kernel's second word on it: writes only there
            _landlock(writable)
        os.chdir(os.getcwd())  # the old cwd is the original folder: resolve it through the overlays
    elif mode == "landlock":
        _landlock([scratch, "/dev/shm"])
    else:
        raise SandboxError(0, f"unknown sandbox mode {mode!r}")


_PROBE = "import sys; sys.path.insert(0, {d!r}); import sandbox; sandbox.selftest({m!r}, {s!r})"


def selftest(mode: str, scratch: str) -> None:
    """Enter ``mode`` and check it: the scratch folder is writable, the folder holding it
    is not (a write there must fail or vanish). Exits 0 when the sandbox holds."""
    outside = os.path.join(os.path.dirname(os.path.realpath(scratch)), f".traindoc-probe-{os.getpid()}")
    enter(mode, scratch)
    Path(scratch, "inside").write_text("ok")
    try:
        Path(outside).write_text("leak")
    except OSError:
        pass
    sys.exit(0)


def available(scratch_parent: str | None = None) -> tuple[str | None, str]:
    """The sandbox mode re-executions will use here, and why (tried in a throwaway process,
    about 0.1 s; ``TRAINDOC_SANDBOX`` forces a mode or ``off``). ``(None, reason)`` when none
    works."""
    import tempfile

    want = os.environ.get(ENV_MODE, "").strip().lower()
    if want in ("off", "none", "0"):
        return None, f"{ENV_MODE}={want} turned it off"
    modes = [want] if want in MODES else list(MODES)
    why = []
    for mode in modes:
        with tempfile.TemporaryDirectory(prefix="traindoc-probe-", dir=scratch_parent) as parent:
            scratch = os.path.join(parent, "scratch")
            os.mkdir(scratch)
            code = _PROBE.format(d=str(Path(__file__).parent), m=mode, s=scratch)
            r = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60)
            leaked = [n for n in os.listdir(parent) if n.startswith(".traindoc-probe-")]
            if r.returncode == 0 and Path(scratch, "inside").is_file() and not leaked:
                return mode, f"{mode} sandbox" + (f" (after: {'; '.join(why)})" if why else "")
            err = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
            why.append(f"{mode}: {'a write outside the scratch folder got through' if leaked else err}")
    return None, "; ".join(why)


def command(mode: str, scratch: str, args: list[str]) -> list[str]:
    """argv that runs ``python ARGS`` inside the sandbox."""
    return [sys.executable, "-I", str(Path(__file__).resolve()), mode, scratch, "--", *args]


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[2] != "--":
        sys.exit("usage: python sandbox.py MODE SCRATCH -- PYTHON-ARGS...")
    mode, scratch, rest = argv[0], argv[1], argv[3:]
    try:
        enter(mode, scratch)
    except (SandboxError, OSError) as exc:
        print(f"traindoc: the {mode} sandbox could not be set up: {exc}", file=sys.stderr)
        sys.exit(3)
    os.execv(sys.executable, [sys.executable, *rest])


if __name__ == "__main__":
    main(sys.argv[1:])
