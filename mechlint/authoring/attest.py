"""Signed attestations: an in-toto Statement v1 in a DSSE envelope, signed with Ed25519.

``attest`` records the mechanism file and each source (``sha256`` and
``gitBlob`` digests) and, as the predicate, the HEAD commit, whether the tree
was dirty or shallow, the tool version and where each source's bytes were
found. ``verify`` checks the signature over the DSSE pre-authentication
encoding *before* it parses the payload, then checks every subject against
the bytes now. cryptography is imported only here.

Long: the envelope, the statement and its check are one contract (the
subjects ``attest`` writes are the ones ``verify`` reads back, digested the
same way); split, the two halves could drift apart unnoticed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mechlint.document.views import as_object, items
from mechlint.provenance.paths import git_blob_id
from mechlint.provenance.repository import Repository
from mechlint.provenance.resolve import Provenance

PAYLOAD_TYPE = "application/vnd.in-toto+json"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE = "https://mechlint.dev/attestation/mechanism/v1"
MAX_ENVELOPE = 10 * 1024 * 1024
MAX_KEY = 64 * 1024


class AttestError(Exception):
    """Why an attestation cannot be made or does not verify, in a person's words."""


def pae(payload_type: str, payload: bytes) -> bytes:
    """The DSSE v1 pre-authentication encoding; lengths are byte counts in decimal."""
    kind = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(payload), payload)


_URL_SAFE = str.maketrans("-_", "+/")


def _b64decode(text: Any, what: str) -> bytes:
    """Strict, canonical base64: the standard alphabet or the URL-safe one (DSSE allows both), never mixed.

    Padding is required and nothing else is accepted: no whitespace, no other
    character, no non-zero bits after the last byte, so one value has exactly
    one spelling.
    """
    if not isinstance(text, str):
        raise AttestError(f"the envelope's {what} is not a string")
    url_safe = "-" in text or "_" in text
    if not text.isascii() or (url_safe and ("+" in text or "/" in text)):
        raise AttestError(f"the envelope's {what} is not base64")
    standard = text.translate(_URL_SAFE) if url_safe else text
    try:
        data = base64.b64decode(standard, validate=True)
    except (binascii.Error, ValueError):
        raise AttestError(f"the envelope's {what} is not base64") from None
    if base64.b64encode(data).decode("ascii") != standard:
        raise AttestError(f"the envelope's {what} is not canonical base64 (padding or trailing bits)")
    return data


# -- keys ----------------------------------------------------------------------


def keygen(prefix: Path, force: bool = False) -> tuple[Path, Path]:
    """Write ``PREFIX.key`` (PKCS#8 PEM, mode 0600) and ``PREFIX.pub`` (SubjectPublicKeyInfo PEM)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private_path = prefix.with_name(prefix.name + ".key")
    public_path = prefix.with_name(prefix.name + ".pub")
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if force else os.O_EXCL) | getattr(os, "O_NOFOLLOW", 0)
    for path, data, secret in ((private_path, private, True), (public_path, public, False)):
        try:
            fd = os.open(path, flags, 0o600 if secret else 0o666)  # the public key gets what the umask gives
        except FileExistsError:
            raise AttestError(f"{path} exists; choose another prefix or pass --force") from None
        except OSError as error:
            raise AttestError(f"cannot write {path}: {error.strerror or error}") from None
        with os.fdopen(fd, "wb") as stream:
            if secret:
                os.fchmod(stream.fileno(), 0o600)
            stream.write(data)
    return private_path, public_path


def _read(path: Path, limit: int, what: str) -> bytes:
    """A regular file of at most ``limit`` bytes; a FIFO, a device or a larger file is an :class:`AttestError`."""
    from mechlint.safety.safeio import NotReadable, read_regular

    try:
        return read_regular(path, limit)
    except NotReadable as error:
        hint = "; run mechlint attest first" if error.missing and what == "the attestation" else ""
        raise AttestError(f"cannot read {what} {path}: it {error.reason}{hint}") from None


def _read_pem(path: Path) -> bytes:
    return _read(path, MAX_KEY, "the key")


def load_private_key(path: Path) -> Any:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        key = serialization.load_pem_private_key(_read_pem(path), password=None)
    except (ValueError, TypeError) as error:
        raise AttestError(f"{path} is not an unencrypted PEM private key ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise AttestError(f"{path} is not an Ed25519 key")
    return key


def load_public_key(path: Path) -> Any:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = serialization.load_pem_public_key(_read_pem(path))
    except (ValueError, TypeError) as error:
        raise AttestError(f"{path} is not a PEM public key ({error})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise AttestError(f"{path} is not an Ed25519 public key")
    return key


def key_id(public_key: Any) -> str:
    from cryptography.hazmat.primitives import serialization

    der = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(der).hexdigest()


# -- attest --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Subject:
    name: str
    sha256: str
    git_blob: str


def _git_facts(provenance: Provenance, mechanism: Path) -> dict[str, Any]:
    repository = provenance.repository(mechanism)
    history = repository.history()
    if not history.exists:
        return {"repository": False, "reason": history.unavailable().why}
    state = history.state()
    return {"repository": True, "head": state.head, "dirty": history.is_dirty(), "shallow": state.shallow}


def _in_repository(repository: Repository, mechanism: Path) -> str | None:
    """The mechanism file's path from the repository's base folder, or ``None`` when it is not below it."""
    try:
        return mechanism.resolve().relative_to(repository.base).as_posix()
    except (OSError, ValueError):
        return None


def _stored_digests(repository: Repository, name: str | None, raw: bytes) -> tuple[str, str]:
    """The ``sha256`` and ``gitBlob`` of the mechanism file's bytes as git stores them, the one definition a
    source's bytes have: line endings a ``core.autocrlf`` checkout converted are converted back, so a file
    attested on a CRLF checkout verifies on an LF one (and the blob id is one git knows). ``raw`` as it is when
    the file (``name``, from :func:`_in_repository`) is not a plain file of the repository."""
    from mechlint.provenance.paths import path_problem

    if name and b"\r\n" in raw and path_problem(name) is None:
        state = repository.file_state(name, blob_id=True)
        if state.kind == "file" and state.git_blob:
            return state.sha256, state.git_blob
    return hashlib.sha256(raw).hexdigest(), git_blob_id(raw, repository.object_format())


def statement(mechanism: Path, raw: bytes, data: Any, provenance: Provenance, version: str) -> dict[str, Any]:
    """The in-toto statement for one mechanism file; raises :class:`AttestError` for a source it cannot find."""
    repository = provenance.repository(mechanism)
    inside = _in_repository(repository, mechanism)
    sha256, blob = _stored_digests(repository, inside, raw)
    subjects = [{"name": inside or mechanism.name, "digest": {"sha256": sha256, "gitBlob": blob}}]
    found = []
    for _, source, pointer in items((as_object(data) or {}).get("sources"), "/sources"):
        if not isinstance(source, dict) or not isinstance(source.get("path"), str):
            raise AttestError(f"{pointer} has no path")
        digest = source.get("sha256")
        if not isinstance(digest, str):
            raise AttestError(f"{pointer} ({source['path']}) has no sha256; run mechlint pin first")
        located = provenance.locate(mechanism, source["path"], digest)
        if located.kind not in ("working-tree", "history"):
            raise AttestError(f"{pointer}: the pinned bytes cannot be found: {located.detail}; run mechlint check")
        subjects.append({"name": source["path"], "digest": {"sha256": digest, "gitBlob": located.git_blob}})
        entry: dict[str, Any] = {"path": source["path"], "found": located.kind}
        if located.commit:
            entry["commit"] = located.commit
        if located.at:  # git show COMMIT:AT gives the bytes (a name before a rename, a frozen copy's original)
            entry["at"] = located.at
        found.append(entry)
    return {
        "_type": STATEMENT_TYPE,
        "subject": subjects,
        "predicateType": PREDICATE_TYPE,
        "predicate": {
            "tool": {"name": "mechlint", "version": version},
            "git": _git_facts(provenance, mechanism),
            "sources": found,
        },
    }


def sign(statement_data: dict[str, Any], private_key: Any) -> dict[str, Any]:
    payload = json.dumps(statement_data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    signature = private_key.sign(pae(PAYLOAD_TYPE, payload))
    return {
        "payloadType": PAYLOAD_TYPE,
        "payload": base64.b64encode(payload).decode("ascii"),
        "signatures": [{"keyid": key_id(private_key.public_key()), "sig": base64.b64encode(signature).decode("ascii")}],
    }


# -- verify --------------------------------------------------------------------


def read_envelope(path: Path) -> dict[str, Any]:
    try:
        text = _read(path, MAX_ENVELOPE, "the attestation").decode("utf-8")
    except UnicodeDecodeError:
        raise AttestError(f"{path} is not UTF-8 text") from None
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise AttestError(f"{path} is empty")
    try:
        envelope = json.loads(lines[-1])
    except (ValueError, RecursionError):
        raise AttestError(f"{path} is not a JSON envelope") from None
    if not isinstance(envelope, dict):
        raise AttestError(f"{path} is not a DSSE envelope (an object)")
    return envelope


def check_signature(envelope: dict[str, Any], public_key: Any) -> tuple[str, bytes]:
    """Verify a signature over PAE(type, payload); only then is the payload trusted."""
    from cryptography.exceptions import InvalidSignature

    payload_type = envelope.get("payloadType")
    if not isinstance(payload_type, str):
        raise AttestError("the envelope has no payloadType")
    payload = _b64decode(envelope.get("payload"), "payload")
    signatures = envelope.get("signatures")
    if not isinstance(signatures, list) or not signatures:
        raise AttestError("the envelope has no signatures")
    message = pae(payload_type, payload)
    wanted = key_id(public_key)
    for entry in signatures[:16]:
        if not isinstance(entry, dict):
            continue
        try:
            public_key.verify(_b64decode(entry.get("sig"), "signature"), message)
        except (InvalidSignature, AttestError):
            continue
        return payload_type, payload
    ids = {e.get("keyid") for e in signatures if isinstance(e, dict)}
    if wanted not in ids:
        raise AttestError("the envelope is not signed by this key (wrong key)")
    raise AttestError("the signature does not verify: the envelope was changed after it was signed")


def verify(mechanism: Path, envelope_path: Path, public_key_path: Path, provenance: Provenance) -> list[str]:
    """Check one attestation; the list of subjects checked, or :class:`AttestError` naming the first failure."""
    public_key = load_public_key(public_key_path)
    payload_type, payload = check_signature(read_envelope(envelope_path), public_key)
    if payload_type != PAYLOAD_TYPE:
        raise AttestError(f"unknown payload type {payload_type!r}; expected {PAYLOAD_TYPE}")
    try:
        statement_data = json.loads(payload)
    except (ValueError, RecursionError):
        raise AttestError("the signed payload is not JSON") from None
    if not isinstance(statement_data, dict) or statement_data.get("_type") != STATEMENT_TYPE:
        raise AttestError("the signed payload is not an in-toto Statement v1")
    if statement_data.get("predicateType") != PREDICATE_TYPE:
        raise AttestError(f"unknown predicate type {statement_data.get('predicateType')!r}")
    subjects = statement_data.get("subject")
    if not isinstance(subjects, list) or not subjects or not all(isinstance(s, dict) for s in subjects):
        raise AttestError("the statement has no subjects")
    from mechlint.config import DEFAULT_MAX_FILE_SIZE

    raw = _read(mechanism, DEFAULT_MAX_FILE_SIZE, "the mechanism file")
    first = subjects[0].get("digest")
    repository = provenance.repository(mechanism)
    now = {hashlib.sha256(raw).hexdigest(), _stored_digests(repository, _in_repository(repository, mechanism), raw)[0]}
    if not isinstance(first, dict) or first.get("sha256") not in now:
        raise AttestError(f"{mechanism} changed since it was attested (its sha256 differs)")
    checked = [str(subjects[0].get("name"))]
    for subject in subjects[1:]:
        name, digest = subject.get("name"), subject.get("digest")
        if not isinstance(name, str) or not isinstance(digest, dict) or not isinstance(digest.get("sha256"), str):
            raise AttestError("a subject has no name or sha256")
        located = provenance.locate(mechanism, name, digest["sha256"])
        if located.kind == "changed":
            raise AttestError(f"the source {name!r} changed since it was attested")
        if located.kind == "refused":
            raise AttestError(f"the source {name!r} cannot be checked: {located.detail}")
        checked.append(name)
    return checked
