#!/usr/bin/env bash
# The release checklist of docs/release.md, every step up to the upload: build the sdist and the wheel, check them
# with twine, install the wheel in a fresh virtual environment and run the README's first command with it.
# Writes nothing in the repository (everything happens in a temporary folder); exit 0 only if every step passed.
# Needs PyPI (build, twine and mechlint's dependencies); each step prints the seconds since the start.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { printf 'release check (%ss): %s\n' "$SECONDS" "$*"; }

version=$("$python" -c 'import re, sys; print(re.search(r"__version__ = \"([^\"]+)\"", open(sys.argv[1]).read())[1])' mechlint/version.py)
step "version $version (mechlint/version.py)"
grep -q "^## \[$version\]" CHANGELOG.md || { echo "release check: CHANGELOG.md has no section for $version" >&2; exit 1; }

step "build the sdist and the wheel"
"$python" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --disable-pip-version-check build twine
"$work/tools/bin/python" -m build --sdist --wheel --outdir "$work/dist" . >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; exit 1; }
sdist="$work/dist/mechlint-$version.tar.gz"
wheel="$work/dist/mechlint-$version-py3-none-any.whl"
[ -f "$sdist" ] && [ -f "$wheel" ] || { ls "$work/dist" >&2; echo "release check: expected $sdist and $wheel" >&2; exit 1; }

step "twine check"
"$work/tools/bin/twine" check --strict "$sdist" "$wheel"

step "install the wheel in a fresh virtual environment"
"$python" -m venv "$work/fresh"
"$work/fresh/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
shown=$("$work/fresh/bin/mechlint" --version)
[ "$shown" = "mechlint $version" ] || { echo "release check: mechlint --version says '$shown', not 'mechlint $version'" >&2; exit 1; }

step "no extra came with it: gitpython, pygls, lsprotocol and cryptography are not installed"
for module in git pygls lsprotocol cryptography; do
  if "$work/fresh/bin/python" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('$module') is None)"; then
    echo "release check: pip install mechlint installed $module, which only an extra may bring" >&2
    exit 1
  fi
done
"$work/fresh/bin/mechlint" server </dev/null 2>"$work/server.err" && { echo "release check: mechlint server ran without mechlint[lsp]" >&2; exit 1; }
grep -q "pip install 'mechlint\[lsp\]'" "$work/server.err" \
  || { cat "$work/server.err" >&2; echo "release check: mechlint server did not name the lsp extra" >&2; exit 1; }

step "the README's first command, with the installed wheel"
# the console script of the fresh environment: the package comes from the wheel, never from this checkout
"$work/fresh/bin/mechlint" check --root fixtures fixtures/content
step "the wheel with its lsp extra: mechlint server starts"
"$work/fresh/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[lsp]"
"$work/fresh/bin/mechlint" server </dev/null || { echo "release check: mechlint server failed with mechlint[lsp]" >&2; exit 1; }
step "passed: $sdist and $wheel are ready to upload (twine upload, by hand: see docs/release.md)"
