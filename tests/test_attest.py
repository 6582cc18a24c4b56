"""pin, keygen, attest and verify: DSSE encoding, signatures, and subjects checked against the bytes now."""

from __future__ import annotations

import base64
import hashlib
import json
import stat
from pathlib import Path

import pytest

from mechlint.authoring.attest import (
    PAYLOAD_TYPE,
    AttestError,
    check_signature,
    keygen,
    load_private_key,
    load_public_key,
    pae,
)
from mechlint.cli import main

from .gitrepo import commit, init, write


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


V1 = sha("v1\n")


def test_pae_matches_the_published_example() -> None:
    assert (
        pae("http://example.com/HelloWorld", b"hello world")
        == b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"
    )


def test_pae_counts_bytes_not_characters() -> None:
    assert pae("t", "é".encode()) == b"DSSEv1 1 t 2 " + "é".encode()


def _envelope(key_path: Path, payload: bytes, payload_type: str = PAYLOAD_TYPE) -> dict[str, object]:
    key = load_private_key(key_path)
    return {
        "payloadType": payload_type,
        "payload": base64.b64encode(payload).decode(),
        "signatures": [{"keyid": "x", "sig": base64.b64encode(key.sign(pae(payload_type, payload))).decode()}],
    }


def test_signature_round_trip_and_tampering(tmp_path: Path) -> None:
    keygen(tmp_path / "me")
    keygen(tmp_path / "other")
    envelope = _envelope(tmp_path / "me.key", b'{"a": 1}')
    public = load_public_key(tmp_path / "me.pub")
    assert check_signature(envelope, public) == (PAYLOAD_TYPE, b'{"a": 1}')
    tampered = {**envelope, "payload": base64.b64encode(b'{"a": 2}').decode()}
    with pytest.raises(AttestError):
        check_signature(tampered, public)
    swapped = {**envelope, "payloadType": "application/json"}
    with pytest.raises(AttestError):
        check_signature(swapped, public)
    with pytest.raises(AttestError, match="wrong key"):
        check_signature(envelope, load_public_key(tmp_path / "other.pub"))


@pytest.mark.parametrize(
    "envelope",
    [{}, {"payloadType": 1}, {"payloadType": PAYLOAD_TYPE, "payload": "!!!", "signatures": []},
     {"payloadType": PAYLOAD_TYPE, "payload": "e30=", "signatures": "x"},
     {"payloadType": PAYLOAD_TYPE, "payload": "e30=", "signatures": [{"sig": 5}]}],
)  # fmt: skip
def test_malformed_envelopes_are_refused(tmp_path: Path, envelope: dict[str, object]) -> None:
    keygen(tmp_path / "me")
    with pytest.raises(AttestError):
        check_signature(envelope, load_public_key(tmp_path / "me.pub"))


def test_keygen_writes_private_key_0600_and_refuses_to_overwrite(tmp_path: Path) -> None:
    private, public = keygen(tmp_path / "k")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    assert public.read_text().startswith("-----BEGIN PUBLIC KEY-----")
    with pytest.raises(AttestError, match="exists"):
        keygen(tmp_path / "k")


@pytest.fixture
def blog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"content/post.md": "v1\n", "content/old.svg": "<svg/>\n"})
    commit(repo, "second", {"content/old.svg": None})
    base = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json").read_text()
    )
    base["sources"] = [
        {"path": "content/post.md", "description": "The post."},
        {"path": "content/old.svg", "sha256": sha("<svg/>\n"), "description": "A frozen figure."},
    ]
    write(repo, "content/mechanisms/m.json", json.dumps(base, indent=2, ensure_ascii=False) + "\n")
    monkeypatch.chdir(repo)
    return repo


def test_pin_changes_only_the_digests(blog: Path) -> None:
    target = blog / "content/mechanisms/m.json"
    before = target.read_text()
    assert main(["pin", "--check", str(target)]) == 1
    assert target.read_text() == before
    assert main(["pin", str(target)]) == 0
    after = target.read_text()
    added = [line for line in after.splitlines() if line not in before.splitlines()]
    assert added == [f'      "sha256": "{V1}",']
    assert main(["pin", "--check", str(target)]) == 0
    write(blog, "content/post.md", "v2\n")
    assert main(["pin", str(target)]) == 0
    assert sha("v2\n") in target.read_text() and V1 not in target.read_text()
    assert sha("<svg/>\n") in target.read_text(), "a frozen source found in history is left alone"


def test_pin_inserts_into_a_one_line_source_and_refuses_unsafe_paths(blog: Path) -> None:
    target = blog / "content/mechanisms/m.json"
    data = json.loads(target.read_text())
    data["sources"] = []
    text = json.dumps(data, indent=2).replace(
        '"sources": []',
        '"sources": [{"path": "content/post.md", "description": "x"}, {"path": "../x", "description": "y"}]',
    )
    target.write_text(text)
    assert main(["pin", str(target)]) == 1
    assert f'{{"path": "content/post.md", "sha256": "{V1}", "description": "x"}}' in target.read_text()


def test_keygen_attest_verify_and_failures(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = blog / "content/mechanisms/m.json"
    assert main(["pin", str(target)]) == 0
    assert main(["keygen", "me"]) == 0
    assert main(["keygen", "other"]) == 0
    assert main(["attest", str(target), "--key", "me.key"]) == 0
    envelope = json.loads((blog / "content/mechanisms/m.json.intoto.jsonl").read_text())
    statement = json.loads(base64.b64decode(envelope["payload"]))
    assert statement["_type"] == "https://in-toto.io/Statement/v1"
    assert [s["name"] for s in statement["subject"]] == [
        "content/mechanisms/m.json",
        "content/post.md",
        "content/old.svg",
    ]
    assert all(set(s["digest"]) == {"sha256", "gitBlob"} for s in statement["subject"])
    assert [s["found"] for s in statement["predicate"]["sources"]] == ["working-tree", "history"]
    assert statement["predicate"]["git"]["head"]
    capsys.readouterr()
    assert main(["verify", str(target), "--key", "me.pub"]) == 0
    assert main(["verify", str(target), "--key", "other.pub"]) == 1
    assert "wrong key" in capsys.readouterr().err
    write(blog, "content/post.md", "changed\n")
    assert main(["verify", str(target), "--key", "me.pub"]) == 1
    assert "content/post.md" in capsys.readouterr().err
    write(blog, "content/post.md", "v1\n")
    assert main(["verify", str(target), "--key", "me.pub"]) == 0
    target.write_text(target.read_text().replace("Two full", "Three full"))
    assert main(["verify", str(target), "--key", "me.pub"]) == 1


def test_unknown_payload_type_is_refused_even_when_signed(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = blog / "content/mechanisms/m.json"
    keygen(blog / "me")
    envelope = _envelope(blog / "me.key", b"{}", "application/json")
    (blog / "m.intoto.jsonl").write_text(json.dumps(envelope))
    assert main(["verify", str(target), "--key", "me.pub", "--attestation", "m.intoto.jsonl"]) == 1
    assert "unknown payload type" in capsys.readouterr().err


def test_attest_refuses_an_unpinned_source(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keygen(blog / "me")
    assert main(["attest", str(blog / "content/mechanisms/m.json"), "--key", "me.key"]) == 1
    assert "pin" in capsys.readouterr().err


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_each_subjects_git_blob_is_the_id_git_gives_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, object_format: str
) -> None:
    """In a SHA-256 repository too: ``gitBlob`` is what ``git hash-object`` gives the file (working tree) and what
    the commit holds (history), never a SHA-1 id git does not know."""
    from .gitrepo import git

    repo = tmp_path / "blog"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main", f"--object-format={object_format}")
    commit(repo, "first", {"content/post.md": "v1\n", "content/old.svg": "<svg/>\n"})
    commit(repo, "second", {"content/old.svg": None})
    base = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json").read_text()
    )
    base["sources"] = [
        {"path": "content/post.md", "sha256": V1, "description": "The post."},
        {"path": "content/old.svg", "sha256": sha("<svg/>\n"), "description": "A frozen figure."},
    ]
    target = write(repo, "content/mechanisms/m.json", json.dumps(base, indent=2, ensure_ascii=False) + "\n")
    monkeypatch.chdir(repo)
    assert main(["keygen", "me"]) == 0
    assert main(["attest", str(target), "--key", "me.key"]) == 0
    envelope = json.loads((repo / "content/mechanisms/m.json.intoto.jsonl").read_text())
    subjects = {s["name"]: s["digest"]["gitBlob"] for s in json.loads(base64.b64decode(envelope["payload"]))["subject"]}
    first = git(repo, "rev-list", "--max-parents=0", "HEAD")
    assert subjects == {
        "content/mechanisms/m.json": git(repo, "hash-object", "content/mechanisms/m.json"),
        "content/post.md": git(repo, "hash-object", "content/post.md"),
        "content/old.svg": git(repo, "rev-parse", f"{first}:content/old.svg"),
    }
    assert all(len(blob) == (64 if object_format == "sha256" else 40) for blob in subjects.values())
    assert main(["verify", str(target), "--key", "me.pub"]) == 0


def test_an_attestation_made_on_a_crlf_checkout_verifies_on_an_lf_one_and_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mechanism file's digests are of its bytes as git stores them, as a source's are: an attestation made
    in a ``core.autocrlf`` checkout (CRLF on disk) names the blob the commit holds, and verifies in an LF
    checkout of the same commit; one made in the LF checkout verifies in the CRLF one."""
    import os
    import subprocess

    from .gitrepo import _ENV, git

    origin = init(tmp_path / "origin")
    base = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json").read_text()
    )
    base["sources"] = [{"path": "content/post.md", "sha256": V1, "description": "The post."}]
    mechanism = "content/mechanisms/m.json"
    commit(origin, "blog", {"content/post.md": "v1\n", mechanism: json.dumps(base, indent=2) + "\n"})
    windows = tmp_path / "windows"
    subprocess.run(
        ["git", "clone", "-q", "-c", "core.autocrlf=true", os.fspath(origin), os.fspath(windows)],
        env=_ENV, check=True, capture_output=True,
    )  # fmt: skip
    assert b"\r\n" in (windows / mechanism).read_bytes()
    keygen(tmp_path / "me")
    key, public = str(tmp_path / "me.key"), str(tmp_path / "me.pub")

    monkeypatch.chdir(windows)
    assert main(["attest", mechanism, "--key", key]) == 0
    envelope = (windows / f"{mechanism}.intoto.jsonl").read_text()
    subject = json.loads(base64.b64decode(json.loads(envelope)["payload"]))["subject"][0]
    assert subject == {
        "name": mechanism,
        "digest": {
            "sha256": hashlib.sha256((origin / mechanism).read_bytes()).hexdigest(),
            "gitBlob": git(origin, "rev-parse", f"HEAD:{mechanism}"),
        },
    }
    assert main(["verify", mechanism, "--key", public]) == 0

    (origin / f"{mechanism}.intoto.jsonl").write_text(envelope)
    monkeypatch.chdir(origin)
    assert main(["verify", mechanism, "--key", public]) == 0  # the LF checkout: the same bytes, as stored
    assert main(["attest", mechanism, "--key", key]) == 0
    (windows / f"{mechanism}.intoto.jsonl").write_text((origin / f"{mechanism}.intoto.jsonl").read_text())
    monkeypatch.chdir(windows)
    assert main(["verify", mechanism, "--key", public]) == 0

    (windows / mechanism).write_bytes((windows / mechanism).read_bytes().replace(b"The post.", b"The text."))
    assert main(["verify", mechanism, "--key", public]) == 1  # an edit is still an edit
