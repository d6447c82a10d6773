"""The lock files are what every install uses (issue 24: a fresh install floated to Babel 2.19, which broke
Spanish plurals while the suite stayed green). requirements-dev.lock (./scripts/test, CI) and requirements.lock
(./scripts/run, the Dockerfile) pin every dependency, with hashes, inside pyproject.toml's ranges; the
environment the suite runs in is the locked one; the image's install steps, run as written, give a working bot."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
_PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def pins(lock: str) -> dict[str, tuple[str, str | None, int]]:
    """name -> (version, marker, number of hashes) of a lock file."""
    out: dict[str, tuple[str, str | None, int]] = {}
    name = None
    for line in (ROOT / lock).read_text(encoding="utf-8").splitlines():
        if match := _PIN.match(line):
            name = canonicalize_name(match[1])
            out[name] = (match[2], match[3], 0)
        elif line.strip().startswith("--hash=sha256:") and name:
            version, marker, hashes = out[name]
            out[name] = (version, marker, hashes + 1)
    return out


def wanted(extra: str | None) -> list[Requirement]:
    reqs = [*PYPROJECT["project"]["dependencies"], *PYPROJECT["build-system"]["requires"]]
    if extra:
        reqs += PYPROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(r) for r in reqs]


@pytest.mark.parametrize(("lock", "extra"), [("requirements.lock", None), ("requirements-dev.lock", "dev")])
def test_the_lock_pins_every_dependency_inside_its_range_with_hashes(lock, extra):
    pinned = pins(lock)
    for req in wanted(extra):
        name = canonicalize_name(req.name)
        assert name in pinned, f"{lock} lacks {req.name} (run ./scripts/lock)"
        assert req.specifier.contains(pinned[name][0], prereleases=True), \
            f"{lock} pins {req.name}=={pinned[name][0]}, outside pyproject.toml's {req} (run ./scripts/lock)"
    unhashed = [name for name, (_v, _m, hashes) in pinned.items() if not hashes]
    assert not unhashed, f"{lock}: no hashes for {unhashed}"


def test_the_runtime_lock_pins_what_the_dev_lock_pins():
    dev = pins("requirements-dev.lock")
    differ = {name: (v, dev.get(name, ("missing",))[0]) for name, (v, _m, _h) in pins("requirements.lock").items()
              if dev.get(name, (None,))[0] != v}
    assert not differ, f"requirements.lock and requirements-dev.lock disagree: {differ} (run ./scripts/lock)"


def test_the_installed_versions_are_the_locked_ones():
    """The suite runs on what users install. (./scripts/test --latest deselects this one: there the point is to
    run on newer releases.)"""
    differ = {}
    for name, (version, marker, _h) in pins("requirements-dev.lock").items():
        if marker and not Marker(marker).evaluate():
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "not installed"
        if installed != version:
            differ[name] = (version, installed)
    assert not differ, f"locked vs installed: {differ} (./scripts/test installs the lock)"


@pytest.mark.parametrize("script", ["scripts/run", "scripts/test"])
def test_the_scripts_install_from_the_lock(script):
    text = (ROOT / script).read_text(encoding="utf-8")
    lock = "requirements.lock" if script == "scripts/run" else "requirements-dev.lock"
    assert f"./scripts/install {lock}" in text


def _dockerfile_installs() -> list[str]:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    runs = re.findall(r"^RUN (.*?)(?<!\\)$", dockerfile.replace("\\\n", " "), re.M)
    return [part.strip() for run in runs for part in run.split("&&") if part.strip().startswith("pip ")]


def test_the_image_installs_the_lock_with_hashes_and_nothing_else():
    installs = _dockerfile_installs()
    assert installs[0].split() == ["pip", "install", "--no-cache-dir", "--require-hashes", "--no-deps", "-r",
                                   "requirements.lock"]
    assert all("--no-deps" in step for step in installs if step.startswith("pip install")), installs


def test_the_images_install_steps_give_a_bot_that_speaks_spanish(tmp_path):
    """The Dockerfile's pip steps, run as written in a fresh virtualenv (no Docker engine here): the locked
    packages install, the build compiles the catalogs with the locked Babel, and the bot's Spanish plural
    works."""
    app = tmp_path / "app"
    app.mkdir()
    for name in ("requirements.lock", "pyproject.toml", "setup.py", "README.md"):
        (app / name).write_bytes((ROOT / name).read_bytes())
    import shutil
    for name in ("bot", "games", "render", "i18n"):
        shutil.copytree(ROOT / name, app / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env_bin = venv / "bin"
    for step in _dockerfile_installs():
        args = step.split()
        subprocess.run([str(env_bin / "python"), "-m", *args], cwd=app, check=True, capture_output=True)
    probe = ("import i18n; from i18n import ngettext; "
             "print(i18n.localize(ngettext('{n} point', '{n} points', 2, n=2), 'es'))")
    out = subprocess.run([str(env_bin / "python"), "-c", probe], cwd=tmp_path, check=True, capture_output=True,
                         text=True)
    assert out.stdout.strip() == "2 puntos"
