"""The install compiles the message catalogs (issue 19: "compiled at install or build time, never committed as
binaries"): a wheel built from the sources holds each language's .mo, and git keeps none."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "games", "render", "i18n", "playground", "pyproject.toml", "setup.py", "README.md")


def test_a_built_wheel_holds_the_compiled_catalogs(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo", "artefacts"))
        else:
            shutil.copy(path, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(tmp_path / "dist"), str(src)], check=True, capture_output=True)
    [wheel] = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"i18n/locales/de.mo", "i18n/locales/es.mo"} <= names
    assert "i18n/locales/geodeto/de.po" in names


def test_git_keeps_no_compiled_catalog():
    tracked = subprocess.run(["git", "ls-files", "i18n"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert tracked.stdout.strip(), "git ls-files found nothing: not a checkout?"
    assert not [f for f in tracked.stdout.split() if f.endswith(".mo")]
