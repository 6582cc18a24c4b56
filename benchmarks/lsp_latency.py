"""How long ``mechlint server`` takes from a change of the seed-sized example to its diagnostics.

Starts the server as an editor does, opens the example mechanism (5 KB, the
seed's size), then sends changes one at a time, each a new duration in a step,
and times each from the ``didChange`` notification to the
``publishDiagnostics`` of that version: the debounce (50 ms) and every rule,
provenance included, are in it. Target: under 100 ms.

    .venv/bin/python benchmarks/lsp_latency.py [CHANGES]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.lspclient import Client  # noqa: E402

POST = "content/blog/2026-06-11_life-of-a-request-vllm/mechanisms/prefix-cache.json"


def main(changes: int = 40) -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        shutil.copytree(ROOT / "fixtures" / "content", project / "content")
        shutil.copytree(ROOT / "fixtures" / "research", project / "research")
        client = Client.mechlint(project, "--root", str(project))
        client.initialize(project)
        path = project / POST
        text = path.read_text(encoding="utf-8")
        uri = path.as_uri()
        item = {"uri": uri, "languageId": "json", "version": 1, "text": text}
        client.notify("textDocument/didOpen", {"textDocument": item})
        client.diagnostics(uri, version=1)
        times = []
        for version in range(2, changes + 2):
            changed = text.replace('"duration": 3000', f'"duration": {3000 + version}', 1)
            started = time.perf_counter()
            params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": changed}]}
            client.notify("textDocument/didChange", params)
            client.diagnostics(uri, version=version)
            times.append((time.perf_counter() - started) * 1000)
        client.close()
    times.sort()
    print(f"{changes} changes of a {len(text.encode())}-byte mechanism: change to diagnostics")
    print(f"median {statistics.median(times):.0f} ms, 90th percentile {times[int(len(times) * 0.9)]:.0f} ms, ", end="")
    print(f"max {times[-1]:.0f} ms (debounce {50} ms included)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
