"""Compiles the message catalogs (i18n/locales/*.po -> one .mo per language) whenever the package is built or
installed, editable installs included: compiled catalogs are build output, never committed."""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self):
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from i18n.catalogs import compile_all

        compile_all()
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})
