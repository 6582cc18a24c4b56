"""Find a repository's git folders and check them before git is let in.

Nothing here opens anything but a regular file, and nothing here runs git
on a folder before it was checked: a FIFO or a device where git reads a file
(``HEAD``, ``config``, ``packed-refs``, a ref, the index,
``objects/info/alternates``, …) would make git wait forever or read forever,
so the repository is refused at once, naming the file. The configuration is
read by git's own parser with includes off; a configuration that includes
other files (``include.path``, ``includeIf``) is refused, since git offers no
way to ignore an include, and one that moves the working tree elsewhere
(``core.worktree``) is refused too.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from mechlint.provenance.errors import GitError
from mechlint.records import Record

#: Folders of a git folder that git never reads for mechlint's commands (and may be large).
_SKIPPED = frozenset({"modules", "lfs", "mechlint", "logs", "hooks", "rr-cache"})
#: Links to folders that are followed (git-new-workdir links these); any other linked folder is not git's.
_FOLLOWED = frozenset({"refs", "objects", "info", "worktrees", "pack"})
#: Entries looked at, at most: beyond this the watchdog still bounds git.
_MAX_ENTRIES = 200_000
_MAX_SMALL = 64 * 1024


class GitDirs(Record):
    git_dir: Path
    common_dir: Path


def _describe(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a special file"  # a socket, or a kind of file Linux does not have


def is_regular(path: Path, what: str) -> bool:
    """Whether a regular file is there (``False`` when nothing is); refuses anything else."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise GitError(f"{what} cannot be read ({error.strerror or error})") from None
    if not stat.S_ISREG(info.st_mode):
        raise GitError(f"{what} is {_describe(info.st_mode)}, not a regular file; git is not run on it")
    return True


def read_small(path: Path, what: str) -> bytes | None:
    """The bytes of a small regular file, ``None`` when absent; refuses anything else."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise GitError(f"{what} cannot be read ({error.strerror or error})") from None
    if not stat.S_ISREG(info.st_mode):
        raise GitError(f"{what} is {_describe(info.st_mode)}, not a regular file; git is not run on it")
    if info.st_size > _MAX_SMALL:
        raise GitError(f"{what} is larger than {_MAX_SMALL} bytes; git is not run on it")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise GitError(f"{what} cannot be read ({error.strerror or error})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise GitError(f"{what} changed into a special file while it was opened")
        return os.read(fd, _MAX_SMALL)  # its size was looked at: a file grown since is cut, never read on
    finally:
        os.close(fd)


def locate(worktree: Path) -> GitDirs:
    """The git folder and common folder of the repository whose top folder is ``worktree``."""
    dotgit = worktree / ".git"
    try:
        info = os.stat(dotgit)
    except OSError:
        raise GitError("this is not a git repository", broken=False) from None
    if stat.S_ISDIR(info.st_mode):
        git_dir = dotgit
    else:
        text = (read_small(dotgit, ".git") or b"").decode("utf-8", "surrogateescape").strip()
        if not text.startswith("gitdir:"):
            raise GitError("this is not a git repository (.git is a file without gitdir:)", broken=False)
        git_dir = worktree / text[len("gitdir:") :].strip()
    common = read_small(git_dir / "commondir", "the git folder's commondir")
    common_dir = git_dir / common.decode("utf-8", "surrogateescape").strip() if common else git_dir
    try:
        git_dir, common_dir = git_dir.resolve(strict=True), common_dir.resolve(strict=True)
    except (OSError, RuntimeError):
        raise GitError("the git folder named by .git does not exist", broken=False) from None
    head = read_small(git_dir / "HEAD", "the git folder's HEAD")
    if head is None or not (common_dir / "objects").is_dir():
        raise GitError("this is not a git repository (no HEAD or objects in the git folder)", broken=False)
    return GitDirs(git_dir, common_dir)


def special_file(dirs: GitDirs) -> str | None:
    """The first file git could read that is a FIFO or a device, described; else ``None``."""
    roots = [dirs.git_dir, dirs.common_dir, *alternates(dirs.common_dir / "objects")]
    stack = list(dict.fromkeys(os.fspath(root) for root in roots))
    linked_seen: set[str] = set()
    count = 0
    while stack and count < _MAX_ENTRIES:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        count += len(entries)
        for entry in entries:
            try:
                if entry.is_file(follow_symlinks=False):  # the common case, answered without a system call
                    continue
                linked = entry.is_symlink()
                if entry.is_dir(follow_symlinks=False):
                    mode = stat.S_IFDIR
                else:
                    mode = os.stat(entry.path).st_mode if linked else entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue  # a broken link: git finds nothing there either
            if stat.S_ISDIR(mode):
                if entry.name in _SKIPPED or (linked and entry.name not in _FOLLOWED):
                    continue
                if linked:
                    real = os.path.realpath(entry.path)
                    if real in linked_seen:
                        continue
                    linked_seen.add(real)
                stack.append(entry.path)
            elif stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                return f"{entry.path} is {_describe(mode)}"
    return None


def alternates(objects: Path, depth: int = 0) -> list[Path]:
    """The object folders ``objects/info/alternates`` lends, recursively as git does.

    git reads six levels of borrowed folders (``depth`` 0 to 5) and the
    alternates file of the sixth, to say that the nesting is too deep.
    """
    data = read_small(objects / "info" / "alternates", "objects/info/alternates")
    if not data or depth > 5:
        return []
    found: list[Path] = []
    for line in data.decode("utf-8", "surrogateescape").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        folder = objects / line if not os.path.isabs(line) else Path(line)
        if folder.is_dir():
            found += [folder, *alternates(folder, depth + 1)]
    return found


class Configuration(Record):
    """What mechlint needs from a repository's own configuration files."""

    partial: bool


def parse_listing(listing: bytes, worktree: Path, git_dir: Path, what: str) -> Configuration:
    """Check ``git config --list --null --no-includes`` output of one of the repository's files."""
    partial = False
    for item in listing.split(b"\0"):
        key, newline, value = item.decode("utf-8", "surrogateescape").partition("\n")
        lowered = key.lower()
        section, _, name = lowered.partition(".")
        if section in ("include", "includeif") and lowered.endswith(".path"):
            raise GitError(
                f"{what} includes another file ({key} = {value!r}); git cannot be told to ignore an include, "
                "so mechlint does not let git read this configuration"
            )
        if lowered == "core.worktree":
            target = (git_dir / value).resolve() if value else None
            if target != worktree.resolve():
                raise GitError(f"{what} sets core.worktree to another folder ({value!r}); git is not run on it")
        if lowered == "extensions.partialclone" or (section == "remote" and name.endswith(".promisor")):
            # a key written without "= value" is a true boolean (and listed without the line break)
            partial = partial or not newline or value.lower() not in ("", "false", "no", "off", "0")
    return Configuration(partial)


def git_toplevel(start: Path, known: dict[str, Path | None] | None = None) -> Path | None:
    """The nearest folder at or above ``start`` that holds ``.git``.

    ``known`` remembers the answer for every folder looked at, so that the
    mechanism files of one run, folder after folder, cost a lookup each.
    """
    looked: list[str] = []
    found: Path | None = None
    folder = os.fspath(start)
    while True:
        if known is not None and folder in known:
            found = known[folder]
            break
        looked.append(folder)
        if os.path.exists(os.path.join(folder, ".git")):
            found = Path(folder)
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    if known is not None:
        known.update(dict.fromkeys(looked, found))
    return found


#: The largest ``shallow`` file read (one line a boundary commit): beyond it, the key says it could not read it.
_MAX_SHALLOW = 16 * 1024 * 1024


def objects_state(dirs: GitDirs, partial: bool) -> str:
    """What, besides the refs and HEAD, decides which objects a clone has: the other half of every history key.

    A complete clone has every object its refs reach, so its refs decide.
    A shallow clone has the commits down to the boundary its ``shallow`` file
    lists (``git fetch --deepen`` changes that file and no ref), so the
    file's bytes are part of the key. A partial clone has whatever was
    fetched so far (a lazy fetch adds a pack, or loose objects, and changes
    no ref), so the names of its packs (each named by its content), the
    modification times of the loose-object folders and the alternates are.
    Read without git: about one ``stat`` a folder, and only in such clones.
    """
    parts = []
    shallow = dirs.common_dir / "shallow"
    try:
        size = os.stat(shallow).st_size
        with open(shallow, "rb") as stream:  # a special file here was refused when the repository was vetted
            data = stream.read(_MAX_SHALLOW + 1) if size <= _MAX_SHALLOW else os.urandom(16)
        parts.append(b"shallow:" + hashlib.sha256(data).hexdigest().encode())
    except FileNotFoundError:
        parts.append(b"complete" if not partial else b"full depth")
    except OSError:
        parts.append(b"shallow, unreadable:" + os.urandom(16).hex().encode())  # never a key a later run meets
    if partial:
        objects = dirs.common_dir / "objects"
        try:
            with os.scandir(objects) as entries:
                for entry in sorted(entries, key=lambda e: e.name):
                    info = entry.stat()  # a linked folder's objects land in the folder it names
                    parts.append(f"{entry.name}:{info.st_mtime_ns}".encode("utf-8", "surrogateescape"))
            parts += sorted(name.encode("utf-8", "surrogateescape") for name in os.listdir(objects / "pack"))
        except OSError:
            parts.append(b"objects, unreadable:" + os.urandom(16).hex().encode())
        parts.append(read_small(objects / "info" / "alternates", "objects/info/alternates") or b"")
    return hashlib.sha256(b"\0".join(parts)).hexdigest()
