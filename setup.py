"""Maps the repository's top-level folders into the `forumgm` import package, and builds the
optional compiled body walker.

pyproject.toml holds everything else; setup.py exists because the package list is computed
(every sub-package found below the owner's folders is installed as forumgm.<folder>.…) and
because the walker records the selectolax it is built against.
"""
import selectolax
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

FOLDERS = ("daemon", "parsers", "engines", "config")

packages = []
package_dir = {}
for folder in FOLDERS:
    package_dir[f"forumgm.{folder}"] = folder
    packages.append(f"forumgm.{folder}")
    packages += [f"forumgm.{folder}.{sub}" for sub in find_packages(folder)]

# Reads lexbor's nodes as the selectolax of the build lays them out: parsers/forums/body.py uses it
# only under that same selectolax. Optional: without a C compiler the install goes on, and bodies
# are read by the Python walker (slower, same results).
walker = Extension(
    "forumgm.parsers.forums._bodywalk", ["parsers/forums/_bodywalk.pyx"], optional=True,
    define_macros=[("FORUMGM_SELECTOLAX_VERSION", f'"{selectolax.__version__}"')])

setup(packages=packages, package_dir=package_dir,
      ext_modules=cythonize([walker], build_dir="build", compiler_directives={"language_level": 3}))
