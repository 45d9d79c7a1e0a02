"""npusim: the Ascend operator execution stack in pure Python, on a simulated NPU.

>>> import numpy as np, npusim
>>> npusim.init(chip="tiny"); npusim.set_device(0)
>>> x = np.arange(8, dtype=np.float32); y = np.empty_like(x)
>>> buf = npusim.malloc(x.nbytes)
>>> npusim.memcpy(buf, x.nbytes, x, x.nbytes, npusim.MemcpyKind.HOST_TO_DEVICE)
>>> npusim.memcpy(y, y.nbytes, buf, x.nbytes, npusim.MemcpyKind.DEVICE_TO_HOST)
>>> bool((x == y).all())
True
>>> npusim.free(buf); npusim.reset_device(0); npusim.finalize()
[]
"""

from npusim import errors
from npusim.arch import ChipSpec, get_chip, list_chips
from npusim.errors import AclError, LeakWarning
from npusim.runtime import *  # noqa: F403
from npusim.runtime import __all__ as _runtime_all

__version__ = "0.1.0"

__all__ = [*_runtime_all, "AclError", "ChipSpec", "LeakWarning", "errors", "get_chip", "list_chips",
           "__version__"]
