"""Maps the repository's top-level folders onto the ``lawmaster`` import name.

The folders follow the design (``rules/``, ``host/``, ``firmware/``,
``hardware/``); installed they are ``lawmaster.rules``, ``lawmaster.host`` and so
on. Everything else about the distribution is in ``pyproject.toml``.
"""

from setuptools import find_packages, setup

ROOTS = {
    "lawmaster": "lawmaster",
    "lawmaster.rules": "rules",
    "lawmaster.host": "host",
    "lawmaster.firmware": "firmware",
    "lawmaster.hardware": "hardware",
}

packages = []
for name, folder in ROOTS.items():
    packages.append(name)
    packages.extend(f"{name}.{sub}" for sub in find_packages(folder))

setup(packages=packages, package_dir=ROOTS)
