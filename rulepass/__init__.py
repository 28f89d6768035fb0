"""rulepass: declarative compiler passes for distributed training programs (Paddle PIR).

The installed package maps ``rulepass.engine``, ``rulepass.runtime``, ``rulepass.grammar`` and
``rulepass.rules`` onto the top-level folders ``engine/``, ``runtime/``, ``grammar/`` and
``rules/`` of the source tree.
"""

import os as _os

# In a source checkout (running from the repository root without installing) the subpackages are
# siblings of this folder, not children: let the import system find them there.
_here = _os.path.dirname(_os.path.abspath(__file__))
_root = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "engine")) and _os.path.isfile(
    _os.path.join(_root, "engine", "__init__.py")
):
    __path__.append(_root)  # noqa: F821 - __path__ is defined for packages

__version__ = "0.1.0"
