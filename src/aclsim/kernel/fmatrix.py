"""The img2col ``LoadData``'s two registers: ``SetFmatrix`` / ``FmatrixMode`` (the Feature Map description:
``l1H``, ``l1W``, ``padList``), ``SetLoadDataPaddingValue`` (the pad value), and the template switch
``IsResetLoad3dConfig{isSetFMatrix, isSetPadding}`` of ``LoadData(dst, src, LoadData3DParamsV2)``.

As the LoadData (卷积数据搬运) page's "Feature Map、Pad属性描述寄存器设置" section says: with the
default config (``IS_RESER_LOAD3D_DEFAULT_CONFIG`` = ``{true, true}``) the load sets both registers
from its parameters; with ``is_set_f_matrix=False`` its ``l1_h``, ``l1_w`` and ``pad_list`` are
ignored and the Feature Map register is read (set by ``set_fmatrix`` or by an earlier load that set
it); with ``is_set_padding=False`` its ``pad_value`` is ignored and the pad register is read (set
by ``set_load_data_padding_value`` or an earlier load).  In aclsim the config is ``load_data``'s
keyword: ``LoadData<T, CFG>(dst, src, p)`` -> ``load_data(dst, src, p, config=CFG)``.

``set_fmatrix(l1_h, l1_w, pad_list, FmatrixMode.FMATRIX_LEFT)`` writes the left register, which the
load reads (``f_matrix_ctrl`` False, the only value the page allows); ``FMATRIX_RIGHT`` writes the
right register, kept per block but read by no load aclsim models.  Ranges as the SetFmatrix page
gives them: ``l1_h``, ``l1_w`` in 1..32767, each pad in 0..255.  A register read before anything
set it is refused (207000): the device would use whatever it holds.  The register writes are
scalar-unit settings, not recorded as instructions (as ``set_deq_scale``); the loads that read
them are.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any, TypeVar

from aclsim.kernel._core import Core, UnsupportedFault, current

_FM = {0: "fmatrix_left", 1: "fmatrix_right"}  # Core.spr keys: (l1_h, l1_w, pad_list)
_PAD = "load3d_pad_value"
P = TypeVar("P")


class FmatrixMode(enum.IntEnum):
    """``FmatrixMode``: which Feature Map register ``set_fmatrix`` writes."""

    FMATRIX_LEFT = 0
    FMATRIX_RIGHT = 1


@dataclasses.dataclass(frozen=True)
class IsResetLoad3dConfig:
    """``IsResetLoad3dConfig{isSetFMatrix, isSetPadding}``: whether the img2col load sets the Feature Map
    and pad registers from its parameters (True) or reads them as set before (False)."""

    is_set_f_matrix: bool = True
    is_set_padding: bool = True


#: ``IS_RESER_LOAD3D_DEFAULT_CONFIG`` (Ascend C's spelling): both registers set by the load.
IS_RESER_LOAD3D_DEFAULT_CONFIG = IsResetLoad3dConfig()


def set_fmatrix(l1_h: int, l1_w: int, pad_list: Sequence[int], fmatrix_mode: FmatrixMode) -> None:
    """``SetFmatrix(l1H, l1W, padList, fmatrixMode)``: the Feature Map description a
    ``load_data(..., config=IsResetLoad3dConfig(is_set_f_matrix=False))`` uses.

    >>> # inside a kernel: set_fmatrix(16, 1, [0, 0, 0, 0], FmatrixMode.FMATRIX_LEFT)
    """
    h, w = int(l1_h), int(l1_w)
    pads = tuple(int(p) for p in pad_list)
    if not (1 <= h <= 32767 and 1 <= w <= 32767):
        raise ValueError(f"set_fmatrix: l1_h {h} and l1_w {w} must be in 1..32767")
    if len(pads) != 4 or not all(0 <= p <= 255 for p in pads):
        raise ValueError(f"set_fmatrix: pad_list must be 4 values [left, right, top, bottom] in 0..255, "
                         f"got {pads}")
    current().spr[_FM[int(FmatrixMode(fmatrix_mode))]] = (h, w, pads)


def set_load_data_padding_value(pad_value: Any) -> None:
    """``SetLoadDataPaddingValue(padValue)``: the pad value a ``load_data(..., config=
    IsResetLoad3dConfig(is_set_padding=False))`` uses (converted to the loaded type there)."""
    current().spr[_PAD] = pad_value


def load3d_params(core: Core, name: str, p: P, config: IsResetLoad3dConfig | None) -> P:
    """The img2col parameters a load uses under ``config``: its own (and it sets the registers), or those
    of the registers; called by ``load_data`` with ``LoadData3DParamsV2``."""
    cfg = IS_RESER_LOAD3D_DEFAULT_CONFIG if config is None else config
    if not isinstance(cfg, IsResetLoad3dConfig):
        raise TypeError(f"{name}: config must be an IsResetLoad3dConfig, got {type(cfg).__name__}")
    fm: Any = p
    changes: dict[str, Any] = {}
    if cfg.is_set_f_matrix:
        core.spr[_FM[0]] = (int(fm.l1_h), int(fm.l1_w), tuple(int(v) for v in fm.pad_list))
    else:
        h, w, pads = _read(core, name, _FM[0], "set_fmatrix(..., FmatrixMode.FMATRIX_LEFT)")
        changes.update(l1_h=h, l1_w=w, pad_list=pads)
    if cfg.is_set_padding:
        core.spr[_PAD] = fm.pad_value
    else:
        changes["pad_value"] = _read(core, name, _PAD, "set_load_data_padding_value")
    return dataclasses.replace(fm, **changes) if changes else p


def _read(core: Core, name: str, key: str, setter: str) -> Any:
    if key not in core.spr:
        core.fault(UnsupportedFault, f"{name}: the config reads the {key.replace('_', ' ')} register, which "
                   "nothing set in this block (the device would use whatever it holds)",
                   hint=f"call {setter} first, or load once with the default config")
    return core.spr[key]


__all__ = [
    "IS_RESER_LOAD3D_DEFAULT_CONFIG",
    "FmatrixMode",
    "IsResetLoad3dConfig",
    "set_fmatrix",
    "set_load_data_padding_value",
]
