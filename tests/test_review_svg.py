"""An SVG source that changed since its pin: its two versions side by side in the HTML report, sanitised (issue 27).

The drawing is rebuilt from an allowlist (``mechlint/review/svgsafe.py``):
no script, no event attribute, no reference out of the document, no DTD.
"""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mechlint.review.svgsafe import data_uri, sanitised

from .gitrepo import commit, init
from .test_html_report import _open, _playwright
from .test_provenance import mechanism, sha

PINNED = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
    '<rect x="10" y="10" width="60" height="40" fill="#1b6ac9"/><circle cx="150" cy="50" r="30" fill="#c92b1b"/>'
    '<text x="10" y="90">Prefix cache</text></svg>\n'
)
HOSTILE = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100"'
    ' viewBox="0 0 200 100" onload="alert(1)"><script>alert(2)</script>'
    '<rect x="10" y="10" width="60" height="40" fill="#1b6ac9" onclick="steal()"/>'
    '<circle cx="120" cy="50" r="30" fill="url(https://example.com/paint#p)" style="fill:#c92b1b"/>'
    '<image href="https://example.com/tracker.png" width="10" height="10"/>'
    '<use xlink:href="https://example.com/x.svg#a"/><use href="#local"/>'
    '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>'
    '<a href="javascript:alert(3)"><text>link</text></a>'
    '<text x="10" y="90" style="background:url(//example.com/b)">Prefix cache</text></svg>\n'
)
OUTSIDE = re.compile(
    r"script|onload|onclick|(?<!xmlns=\")https?:|//example|javascript|foreignObject|<image|<a |xlink", re.IGNORECASE
)


def test_the_sanitiser_keeps_the_drawing_and_drops_every_script_event_and_outside_reference() -> None:
    clean = sanitised(HOSTILE.encode())
    assert clean is not None
    assert OUTSIDE.search(clean) is None, clean
    assert '<rect x="10" y="10" width="60" height="40" fill="#1b6ac9" />' in clean
    assert '<circle cx="120" cy="50" r="30" style="fill:#c92b1b" />' in clean
    assert '<use href="#local" />' in clean and "Prefix cache</text>" in clean


@pytest.mark.parametrize(
    "svg",
    [
        b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>',
        b'<?xml-stylesheet href="https://example.com/s.css"?><svg xmlns="http://www.w3.org/2000/svg"/>',
        b"<html><script>x()</script></html>",
        b"<svg xmlns='http://www.w3.org/2000/svg'><rect",
        b"\xff\xfe not xml",
    ],
    ids=["dtd", "processing-instruction", "not-svg", "truncated", "binary"],
)
def test_what_cannot_be_shown_safely_is_not_shown(svg: bytes) -> None:
    assert sanitised(svg) is None and data_uri(svg) is None


@pytest.fixture
def svg_report(tmp_path: Path) -> tuple[Path, str]:
    repo = init(tmp_path / "blog")
    commit(repo, "the drawing", {"content/figure.svg": PINNED})
    mechanism(repo, [{"path": "content/figure.svg", "sha256": sha(PINNED)}])
    commit(repo, "a hostile edit", {"content/figure.svg": HOSTILE})
    out = tmp_path / "report.html"
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "content", "-o", f"html:{out}"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    return out, out.read_text(encoding="utf-8")


def test_the_report_shows_both_versions_sanitised_as_data_uris(svg_report: tuple[Path, str]) -> None:
    _, page = svg_report
    uris = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(uris) == 4  # side by side, then overlaid
    drawings = [base64.b64decode(uri).decode("utf-8") for uri in uris]
    assert drawings[0] == drawings[2] and drawings[1] == drawings[3]
    assert '<circle cx="150" cy="50" r="30" fill="#c92b1b" />' in drawings[0]
    assert '<circle cx="120" cy="50" r="30" style="fill:#c92b1b" />' in drawings[1]
    assert all(OUTSIDE.search(drawing) is None for drawing in drawings)
    assert "img-src data:" in page  # the page's policy allows these images and nothing else
    assert '<span class="add">+&lt;svg xmlns=' in page  # the text diff is there too, escaped


def test_chromium_draws_both_versions_and_requests_nothing(svg_report: tuple[Path, str]) -> None:
    sync_playwright = _playwright()
    out, _ = svg_report
    with sync_playwright() as p:
        browser, page, requests = _open(p, out)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        widths = page.evaluate("Array.from(document.querySelectorAll('.drawings img')).map(i => i.naturalWidth)")
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: dialogs.append(dialog.message))
        page.wait_for_timeout(200)
        browser.close()
    assert widths == [200, 200, 200, 200]
    assert requests == [out.as_uri()] and dialogs == []
