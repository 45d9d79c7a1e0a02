"""The aclnn ops by family, one module each; importing this package imports every module in
it, so an op module only has to exist here (and call ``register_op``) to be found by name."""

from __future__ import annotations

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_info.name}")
