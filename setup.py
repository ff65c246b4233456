"""Maps the repository's top-level folders into the `forumgm` import package.

pyproject.toml holds everything else; setup.py exists because the package list is computed:
every sub-package found below the owner's folders is installed as forumgm.<folder>.… (the
package finder of pyproject.toml names packages as it finds them, without such a prefix).
"""
from setuptools import find_packages, setup

FOLDERS = ("daemon", "parsers", "engines", "config")

packages = []
package_dir = {}
for folder in FOLDERS:
    package_dir[f"forumgm.{folder}"] = folder
    packages.append(f"forumgm.{folder}")
    packages += [f"forumgm.{folder}.{sub}" for sub in find_packages(folder)]

setup(packages=packages, package_dir=package_dir)
