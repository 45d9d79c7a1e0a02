"""Data-movement kernels: one strided copy (``view_copy``) behind Contiguous, ViewCopy, broadcast
copies, Permute, Slice and InplaceCopy; the shape rules of Permute and Slice.

``plan_view_copy`` turns a view copy ``dst_view[...] = src_view[...]`` (both views given by a
shape shared by the two, strides and an offset in elements into their storages) into a plan for
a chip preset; ``view_copy_kernel(plan)`` builds the kernel, launched as
``k[plan.block_dim, stream](src_addr, dst_addr)`` with the device base addresses of the two
storages.  An empty view needs no launch: ``plan.block_dim == 0`` (``plan.empty``).

How it moves data (as a DMA-only copy kernel on the device does):

1. the view is normalized: dims of size 1 dropped, dims ordered by the destination's strides
   (its memory order, outermost first), neighbours merged where both sides are contiguous
   across them;
2. if the innermost dim is contiguous on both sides, its elements are *runs* moved by
   ``data_copy_pad`` (byte-granular ``DataCopyExtParams``: tails that are not a multiple of
   32 B need no padding tricks); several runs move in one instruction (``block_count``) along
   the next dim whose GM gaps are representable; runs longer than a UB tile are cut into
   chunks.  Otherwise (a transposing or gathering copy) the DMA moves *one element per block*
   (each element in its own 32 B UB slot) along the innermost dim: a strided gather on the
   read side and a strided scatter on the write side, with no vector work;
3. a source stride of 0 along the batched dim (a broadcast) loads the block once and repeats
   it in UB with vector copies (doubling), then writes all the copies in one instruction;
4. the work units (batches of blocks, or chunks of a long run) are spread evenly over the
   preset's vector cores, each core double buffering through one ``TQueBind`` (MTE2 -> MTE3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.arch import ChipSpec
from aclsim.errors import AclnnParamInvalidError

__all__ = [
    "MAX_RANK",
    "View",
    "ViewCopyPlan",
    "broadcast_view",
    "contiguous_strides",
    "permute_shape",
    "permute_view",
    "plan_permute",
    "plan_slice",
    "plan_view_copy",
    "slice_bounds",
    "slice_view",
    "view_copy_kernel",
]

MAX_RANK = 8
BLOCK = 32  # bytes of one UB block: a DMA block takes a whole number of them in UB
MAX_BLOCK_COUNT = 4095  # DataCopyExtParams.blockCount range 1..4095
MAX_GAP = 2**32 - 1  # DataCopyExtParams strides are uint32 bytes
BUFFERS = 2  # double buffering
KERNEL_DTYPES = (asc.float16, asc.bfloat16, asc.float32, asc.int8, asc.uint8, asc.int16, asc.uint16,
                 asc.int32, asc.uint32, asc.int64, asc.uint64)
_UINT_OF_SIZE: dict[int, np.dtype] = {1: asc.uint8, 2: asc.uint16, 4: asc.uint32, 8: asc.uint64}


@dataclass(frozen=True)
class ViewCopyPlan:
    """The tiling of one view copy for one chip (from :func:`plan_view_copy`).

    Attributes
    ----------
    dtype, move_dtype
        The elements' dtype, and the kernel dtype the DMA moves them as (the same, or the
        unsigned integer of the same size for dtypes the kernel language lacks: bool, float64,
        complex64; complex128 moves as two uint64).
    shape, src_strides, dst_strides, src_offset, dst_offset
        The view as given (offsets and strides in elements of ``dtype``).
    mode
        ``"run"`` (contiguous runs on both sides), ``"element"`` (one element per DMA block), or
        ``"empty"``.
    block_elems, tail_elems
        Elements (of ``move_dtype``) per DMA block, and in the last chunk of a chunked run.
    chunks
        Chunks a run is cut into (1 when a run fits a tile).
    count, src_step, dst_step
        The batched dim: its size, and its strides in ``move_dtype`` elements (count 1: none).
    group, groups
        Blocks per instruction along the batched dim, and instructions per batched dim.
    repeat
        The source stride of the batched dim is 0: load once, repeat in UB.
    outer
        ``(size, src_stride, dst_stride)`` of the remaining loops, outermost first.
    units
        Work units (one instruction pair each): ``prod(outer sizes) * groups * chunks``.
    block_dim
        Cores to launch (0: nothing to do, do not launch).
    tile_bytes, in_bytes, ub_bytes
        UB bytes of one buffer of the output tiles, of one buffer of the repeat path's input
        (0 without it), and all UB the kernel takes.
    src_span, dst_span
        Elements of ``dtype`` the copy reaches from the storages' base (offset + largest index
        + 1; 0 when empty): each storage must hold at least that many.
    """

    dtype: np.dtype
    move_dtype: np.dtype
    chip: ChipSpec
    shape: tuple[int, ...]
    src_strides: tuple[int, ...]
    dst_strides: tuple[int, ...]
    src_offset: int
    dst_offset: int
    mode: str
    block_elems: int
    tail_elems: int
    chunks: int
    count: int
    src_step: int
    dst_step: int
    group: int
    groups: int
    repeat: bool
    outer: tuple[tuple[int, int, int], ...]
    units: int
    block_dim: int
    tile_bytes: int
    in_bytes: int
    ub_bytes: int
    src_span: int
    dst_span: int
    move_src_offset: int
    move_dst_offset: int

    @property
    def empty(self) -> bool:
        """True when the view has no element: no kernel to launch (``block_dim == 0``)."""
        return self.block_dim == 0

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    def units_of(self, block: int) -> range:
        """The work units block ``block`` of ``block_dim`` runs."""
        lo = block * self.units // self.block_dim
        hi = (block + 1) * self.units // self.block_dim
        return range(lo, hi)


def _bad(message: str, hint: str) -> AclnnParamInvalidError:
    return AclnnParamInvalidError(message, hint=hint)


def _int_tuple(name: str, values: Any, rank: int | None) -> tuple[int, ...]:
    try:
        out = tuple(int(v) for v in values)
        ok = all(int(v) == v for v in values)
    except (TypeError, ValueError):
        raise _bad(f"{name} must be a sequence of integers, got {values!r}",
                   f"pass {name} as a tuple of ints") from None
    if not ok:
        raise _bad(f"{name} must hold integers, got {values!r}", f"pass {name} as a tuple of ints")
    if rank is not None and len(out) != rank:
        raise _bad(f"{name} has {len(out)} entries for a view of rank {rank}",
                   f"give one {name[:-1] if name.endswith('s') else name} per dim")
    if any(v < 0 for v in out):
        raise _bad(f"{name} {out} has a negative entry", "view strides, offsets and sizes are >= 0 elements")
    return out


Dims = tuple[int, ...]


def _move_view(dtype: np.dtype, shape: Dims, ss: Dims, ds: Dims, so: int,
               do: int) -> tuple[np.dtype, Dims, Dims, Dims, int, int]:
    """The same copy in a dtype the kernel language has (an extra inner dim for 16 B elements)."""
    if dtype in KERNEL_DTYPES:
        return dtype, shape, ss, ds, so, do
    if dtype.itemsize in _UINT_OF_SIZE:
        return _UINT_OF_SIZE[dtype.itemsize], shape, ss, ds, so, do
    if dtype.itemsize == 16:
        return (asc.uint64, shape + (2,), tuple(2 * s for s in ss) + (1,), tuple(2 * s for s in ds) + (1,),
                2 * so, 2 * do)
    raise _bad(f"view_copy cannot move {dtype} ({dtype.itemsize} B elements)",
               "use a dtype of 1, 2, 4, 8 or 16 bytes")


def _normalize(shape: tuple[int, ...], ss: tuple[int, ...],
               ds: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Size-1 dims dropped, dims by destination stride (outermost first), mergeable ones merged."""
    dims = sorted(((n, s, d) for n, s, d in zip(shape, ss, ds, strict=True) if n != 1),
                  key=lambda t: (t[2], t[1]), reverse=True)
    merged: list[tuple[int, int, int]] = []
    for n, s, d in reversed(dims):  # innermost first
        if merged:
            n0, s0, d0 = merged[-1]
            if s == s0 * n0 and d == d0 * n0:
                merged[-1] = (n * n0, s0, d0)
                continue
        merged.append((n, s, d))
    merged.reverse()
    return merged or [(1, 1, 1)]


def _balance(units_outer: int, need: int, limit: int, dim_bytes: int, chip: ChipSpec) -> int:
    """Pieces to cut a dim of ``dim_bytes`` into: at least ``need``, at most ``limit``, so that
    ``units_outer * pieces`` spreads evenly over the cores, but no piece so small that the
    GM latency of its move outweighs its transfer (pieces of at least the bytes MTE2 moves in
    one ``gm_latency_cycles``)."""
    cores = chip.cores
    min_bytes = max(1, int(chip.mte2_bytes_per_cycle * chip.gm_latency_cycles))
    limit = max(need, min(limit, dim_bytes // min_bytes))
    total = units_outer * need
    if total >= 8 * cores:  # already fine-grained: the last round costs at most 1/8
        return need
    per_core = -(-total // cores)
    return max(need, min(limit, -(-(per_core * cores) // units_outer)))


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _gap_ok(step: int, blen: int, isz: int) -> bool:
    return 0 <= step * isz - blen <= MAX_GAP


def plan_view_copy(shape: Any, dtype: Any, src_strides: Any, src_offset: int, dst_strides: Any,
                   dst_offset: int, chip: ChipSpec) -> ViewCopyPlan:
    """Plan the copy of a strided view into another (same shape, same dtype) on ``chip``.

    Strides and offsets count elements; a source stride of 0 broadcasts.  The destination
    must not write one element twice (a stride of 0 on a dim of size > 1 is refused).

    Raises
    ------
    AclnnParamInvalidError (161002)
        Rank over 8, a negative size, stride or offset, mismatched lengths, a destination that
        overlaps itself, or an element size the DMA cannot move.

    >>> from aclsim.arch import get_chip
    >>> p = plan_view_copy((4, 6), "float32", (1, 4), 0, (6, 1), 0, get_chip("tiny"))
    >>> p.mode, p.block_dim
    ('element', 4)
    """
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise _bad(f"view_copy dtype {dtype!r} is not a dtype", "pass a NumPy dtype or its name") from None
    shp = _int_tuple("shape", shape, None)
    if len(shp) > MAX_RANK:
        raise _bad(f"view of rank {len(shp)}: at most {MAX_RANK} dims", "reshape the view to 8 dims or fewer")
    ss = _int_tuple("src_strides", src_strides, len(shp))
    ds = _int_tuple("dst_strides", dst_strides, len(shp))
    so, do = _int_tuple("src_offset", (src_offset,), 1)[0], _int_tuple("dst_offset", (dst_offset,), 1)[0]
    numel = math.prod(shp)
    for i, (n, d) in enumerate(zip(shp, ds, strict=True)):
        if d == 0 and n > 1 and numel:
            raise _bad(f"dst_strides[{i}] is 0 on a dim of size {n}: the destination writes one element "
                       f"{n} times", "copy into a destination whose elements are distinct (no stride 0)")
    src_span = so + sum((n - 1) * s for n, s in zip(shp, ss, strict=True)) + 1 if numel else 0
    dst_span = do + sum((n - 1) * d for n, d in zip(shp, ds, strict=True)) + 1 if numel else 0
    mdt, mshape, mss, mds, mso, mdo = _move_view(dt, shp, ss, ds, so, do)
    common = dict(dtype=dt, move_dtype=mdt, chip=chip, shape=shp, src_strides=ss, dst_strides=ds,
                  src_offset=so, dst_offset=do, src_span=src_span, dst_span=dst_span,
                  move_src_offset=mso, move_dst_offset=mdo)
    if numel == 0:
        return ViewCopyPlan(mode="empty", block_elems=0, tail_elems=0, chunks=0, count=1, src_step=0,
                            dst_step=0, group=1, groups=1, repeat=False, outer=(), units=0, block_dim=0,
                            tile_bytes=0, in_bytes=0, ub_bytes=0, **common)
    return _plan_moves(_normalize(mshape, mss, mds), mdt, chip, common)


def _plan_moves(dims: list[tuple[int, int, int]], mdt: np.dtype, chip: ChipSpec,
                common: dict[str, Any]) -> ViewCopyPlan:
    isz = mdt.itemsize
    usable = chip.ub_usable_bytes
    plain_tile = usable // BUFFERS // BLOCK * BLOCK
    n_in, s_in, d_in = dims[-1]
    if s_in == 1 and d_in == 1:
        mode, run, rest = "run", n_in, dims[:-1]
    else:
        mode, run, rest = "element", 1, dims
    blen = run * isz
    slot = -(-blen // BLOCK) * BLOCK
    # the batched dim: the innermost whose GM gaps are representable, or a broadcast (stride 0)
    pick = None
    if slot <= plain_tile:
        for i in range(len(rest) - 1, -1, -1):
            n, s, d = rest[i]
            if _gap_ok(d, blen, isz) and (s == 0 or _gap_ok(s, blen, isz)):
                pick = i
                break
    if pick is not None and rest[pick][1] == 0 and (usable - BUFFERS * slot) // BUFFERS < slot:
        pick = None  # no room to repeat a block that long: move it once per destination
    if pick is None:
        count, src_step, dst_step, outer = 1, 0, 0, list(rest)
    else:
        count, src_step, dst_step = rest[pick]
        outer = list(rest[:pick]) + list(rest[pick + 1:])
    repeat = count > 1 and src_step == 0
    in_bytes = slot if repeat else 0
    tile = (usable - BUFFERS * in_bytes) // BUFFERS // BLOCK * BLOCK
    outer_units = math.prod(n for n, _, _ in outer)
    if slot > tile:  # a run longer than a tile: cut it into chunks of whole 32 B
        align = BLOCK // isz
        need = -(-blen // tile)
        chunks = _balance(outer_units, need, -(-run // align), blen, chip)
        chunk = _ceil(_ceil(run, chunks), align) * align
        chunks = -(-run // chunk)
        block_elems, tail = chunk, run - (chunks - 1) * chunk
        groups, group = 1, 1
    else:
        chunks, block_elems, tail = 1, run, run
        per_tile = min(MAX_BLOCK_COUNT, tile // slot, count)
        groups = _balance(outer_units, -(-count // per_tile), count, count * blen, chip)
        group = -(-count // groups)
        groups = -(-count // group)
    units = outer_units * groups * chunks
    tile_bytes = min(tile, group * -(-block_elems * isz // BLOCK) * BLOCK)
    return ViewCopyPlan(
        mode=mode, block_elems=block_elems, tail_elems=tail, chunks=chunks, count=count, src_step=src_step,
        dst_step=dst_step, group=group, groups=groups, repeat=repeat, outer=tuple(outer), units=units,
        block_dim=min(chip.cores, units), tile_bytes=tile_bytes, in_bytes=in_bytes,
        ub_bytes=BUFFERS * (tile_bytes + in_bytes), **common,
    )


def _unit_offsets(plan: ViewCopyPlan, u: int) -> tuple[int, int, int, int]:
    """``(src element offset, dst element offset, blocks, elements per block)`` of work unit ``u``."""
    u, chunk = divmod(u, plan.chunks)
    u, grp = divmod(u, plan.groups)
    s = plan.move_src_offset + chunk * plan.block_elems + grp * plan.group * plan.src_step
    d = plan.move_dst_offset + chunk * plan.block_elems + grp * plan.group * plan.dst_step
    for n, ss, ds in reversed(plan.outer):
        u, i = divmod(u, n)
        s += i * ss
        d += i * ds
    blocks = min(plan.group, plan.count - grp * plan.group)
    elems = plan.tail_elems if chunk == plan.chunks - 1 else plan.block_elems
    return s, d, blocks, elems


def view_copy_kernel(plan: ViewCopyPlan) -> asc.Kernel:
    """The kernel of ``plan``: launch it as ``k[plan.block_dim, stream](src_addr, dst_addr)``
    with the device base addresses of the source and destination storages.

    Raises ``ValueError`` for an empty plan (``plan.block_dim == 0``): there is nothing to launch.
    """
    if plan.empty:
        raise ValueError("view_copy_kernel: the view is empty (plan.block_dim == 0); skip the launch")
    dt = plan.move_dtype
    isz = dt.itemsize

    @asc.kernel
    def view_copy(src: Any, dst: Any) -> None:
        gs, gd = asc.GlobalTensor(dt), asc.GlobalTensor(dt)
        gs.set_global_buffer(src.cast(dt))
        gd.set_global_buffer(dst.cast(dt))
        pipe = asc.TPipe()
        if plan.repeat:
            qin, qout = asc.TQue(asc.QuePosition.VECIN, 1), asc.TQue(asc.QuePosition.VECOUT, 1)
            pipe.init_buffer(qin, BUFFERS, plan.in_bytes)
            pipe.init_buffer(qout, BUFFERS, plan.tile_bytes)
        else:
            q = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 1)
            pipe.init_buffer(q, BUFFERS, plan.tile_bytes)
        for u in plan.units_of(asc.get_block_idx()):
            s, d, blocks, elems = _unit_offsets(plan, u)
            blen = elems * isz
            if plan.repeat:
                t = _load_repeated(qin, qout, gs[s], dt, blen, blocks)
            else:
                t = q.alloc_tensor(dt)
                sgap = plan.src_step * isz - blen if blocks > 1 else 0
                asc.data_copy_pad(t, gs[s], asc.DataCopyExtParams(blocks, blen, sgap, 0, 0))
                q.enque(t)
                t = q.deque(dt)
            dgap = plan.dst_step * isz - blen if blocks > 1 else 0
            asc.data_copy_pad(gd[d], t, asc.DataCopyExtParams(blocks, blen, 0, dgap, 0))
            (qout if plan.repeat else q).free_tensor(t)

    return view_copy


def _load_repeated(qin: asc.TQue, qout: asc.TQue, src: asc.GlobalTensor, dt: np.dtype, blen: int,
                   blocks: int) -> asc.LocalTensor:
    """One block loaded (MTE2) and repeated ``blocks`` times in UB (V copies, doubling): the
    dequeued output tile, one 32 B-aligned slot per block."""
    a = qin.alloc_tensor(dt)
    asc.data_copy_pad(a, src, asc.DataCopyExtParams(1, blen, 0, 0, 0))
    qin.enque(a)
    a = qin.deque(dt)
    slot = -(-blen // BLOCK) * BLOCK // dt.itemsize
    b = qout.alloc_tensor(dt)
    asc.data_copy(b, a, slot)
    qin.free_tensor(a)
    have = 1
    while have < blocks:
        n = min(have, blocks - have)
        asc.data_copy(b[have * slot], b, n * slot)
        have += n
    qout.enque(b)
    return qout.deque(dt)


# --- Permute and Slice: the views they copy (aclnn-api.md section 6.8) ------------------------


@dataclass(frozen=True)
class View:
    """A strided view of a storage: ``shape``, ``strides`` and ``offset`` in elements."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int = 0


def _check_view(name: str, shape: Any, strides: Any, offset: int) -> View:
    shp = _int_tuple(f"{name} shape", shape, None)
    st = _int_tuple(f"{name} strides", strides, len(shp))
    return View(shp, st, _int_tuple(f"{name} offset", (offset,), 1)[0])


def _integer(name: str, v: Any, hint: str) -> int:
    try:
        ok = not isinstance(v, bool) and int(v) == v
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise _bad(f"{name} {v!r} is not an integer", hint)
    return int(v)


def _dim(name: str, d: Any, rank: int) -> int:
    d = _integer(name, d, f"pass {name} as an int in [-{rank}, {rank - 1}]")
    if rank == 0 or not -rank <= d < rank:
        raise _bad(f"{name} {d} is out of range for a tensor of rank {rank}",
                   f"pass {name} in [-{rank}, {rank - 1}]" if rank else "the tensor has no dims")
    return d % rank


def permute_shape(shape: Any, dims: Any) -> tuple[int, ...]:
    """aclnnPermute's out shape: ``self``'s sizes reordered by ``dims`` (negative dims count from
    the end; every dim once; rank <= 8).

    >>> permute_shape((2, 3, 5), (2, 0, 1))
    (5, 2, 3)
    >>> permute_shape((2, 3, 5), (-1, 0, -2))
    (5, 2, 3)
    """
    shp = _int_tuple("self shape", shape, None)
    return tuple(shp[d] for d in _permutation(dims, len(shp)))


def _permutation(dims: Any, rank: int) -> tuple[int, ...]:
    if rank > MAX_RANK:
        raise _bad(f"self has rank {rank}: Permute takes at most {MAX_RANK} dims",
                   "use a tensor of rank <= 8")
    try:
        raw = list(dims)
    except TypeError:
        raise _bad(f"dims {dims!r} is not a sequence", "pass dims as a tuple of ints") from None
    if len(raw) != rank:
        raise _bad(f"dims {tuple(raw)} has {len(raw)} entries for self of rank {rank}",
                   "give every dim of self exactly once")
    perm = tuple(_dim("dims entry", d, rank) for d in raw)
    if len(set(perm)) != rank:
        raise _bad(f"dims {tuple(raw)} repeats a dim", "give every dim of self exactly once")
    return perm


def permute_view(shape: Any, strides: Any, offset: int, dims: Any) -> View:
    """The view of ``self`` (shape, strides, offset) read in ``out``'s order by aclnnPermute:
    ``out[i0, ..., ik] = self[...]`` is ``permute_view(...)[i0, ..., ik]``.

    >>> permute_view((2, 3, 5), (15, 5, 1), 0, (2, 0, 1))
    View(shape=(5, 2, 3), strides=(1, 15, 5), offset=0)
    """
    v = _check_view("self", shape, strides, offset)
    perm = _permutation(dims, len(v.shape))
    return View(tuple(v.shape[d] for d in perm), tuple(v.strides[d] for d in perm), v.offset)


def slice_bounds(n: int, start: int, end: int, step: int) -> tuple[int, int, int]:
    """aclnnSlice's ``(start, end, size)`` on a dim of size ``n``: start -> 0 if < -n, n if >= n,
    else (start + n) mod n; end -> n if >= n, start if < -n, else max(start, (end + n) mod n);
    size = (end - start + step - 1) // step.  ``step`` must be > 0.

    >>> slice_bounds(10, -3, 100, 2), slice_bounds(10, 4, 2, 1), slice_bounds(10, -20, -20, 1)
    ((7, 10, 2), (4, 4, 0), (0, 0, 0))
    """
    start, end, step = (_integer(f"Slice {k}", v, f"pass {k} as an int64")
                        for k, v in (("start", start), ("end", end), ("step", step)))
    n = int(n)
    if step <= 0:
        raise _bad(f"Slice step {step} must be > 0", "pass a positive step")
    start = 0 if start < -n else n if start >= n else (start + n) % n
    end = n if end >= n else start if end < -n else max(start, (end + n) % n)
    return start, end, (end - start + step - 1) // step


def slice_view(shape: Any, strides: Any, offset: int, dim: int, start: int, end: int, step: int) -> View:
    """The view of ``self`` that aclnnSlice copies to ``out`` (rank 1..8, ``dim`` in range).

    >>> slice_view((4, 10), (10, 1), 0, -1, 1, 8, 3)
    View(shape=(4, 3), strides=(10, 3), offset=1)
    """
    v = _check_view("self", shape, strides, offset)
    rank = len(v.shape)
    if not 1 <= rank <= MAX_RANK:
        raise _bad(f"self has rank {rank}: Slice takes rank 1..{MAX_RANK}", "slice a tensor of rank 1..8")
    d = _dim("dim", dim, rank)
    s, _, size = slice_bounds(v.shape[d], start, end, step)
    shp, st = list(v.shape), list(v.strides)
    shp[d], st[d] = size, v.strides[d] * int(step)
    return View(tuple(shp), tuple(st), v.offset + s * v.strides[d])


def _plan_into(src: View, out_shape: Any, out_strides: Any, out_offset: int, dtype: Any,
               chip: ChipSpec) -> ViewCopyPlan:
    out = _check_view("out", out_shape, out_strides, out_offset)
    if out.shape != src.shape:
        raise _bad(f"out has shape {out.shape}, the result has shape {src.shape}",
                   f"pass an out tensor of shape {src.shape}")
    return plan_view_copy(src.shape, dtype, src.strides, src.offset, out.strides, out.offset, chip)


def plan_permute(self_shape: Any, self_strides: Any, self_offset: int, dims: Any, out_shape: Any,
                 out_strides: Any, out_offset: int, dtype: Any, chip: ChipSpec) -> ViewCopyPlan:
    """The view copy that runs aclnnPermute (``out`` checked against the permuted shape).

    >>> from aclsim.arch import get_chip
    >>> p = plan_permute((2, 3), (3, 1), 0, (1, 0), (3, 2), (2, 1), 0, "float16", get_chip("tiny"))
    >>> p.shape, p.src_strides, p.mode
    ((3, 2), (1, 3), 'element')
    """
    return _plan_into(permute_view(self_shape, self_strides, self_offset, dims), out_shape, out_strides,
                      out_offset, dtype, chip)


def plan_slice(self_shape: Any, self_strides: Any, self_offset: int, dim: int, start: int, end: int,
               step: int, out_shape: Any, out_strides: Any, out_offset: int, dtype: Any,
               chip: ChipSpec) -> ViewCopyPlan:
    """The view copy that runs aclnnSlice (``out`` checked against the sliced shape).

    >>> from aclsim.arch import get_chip
    >>> p = plan_slice((4, 10), (10, 1), 0, 1, 2, 9, 2, (4, 4), (4, 1), 0, "int32", get_chip("tiny"))
    >>> p.src_strides, p.src_offset
    ((10, 2), 2)
    """
    return _plan_into(slice_view(self_shape, self_strides, self_offset, dim, start, end, step), out_shape,
                      out_strides, out_offset, dtype, chip)


def contiguous_strides(shape: Any) -> tuple[int, ...]:
    """Row-major strides (elements) of ``shape``: the layout of a workspace copy or a fresh ``out``.

    >>> contiguous_strides((2, 3, 4)), contiguous_strides(())
    ((12, 4, 1), ())
    """
    shp = _int_tuple("shape", shape, None)
    out, acc = [], 1
    for n in reversed(shp):
        out.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(out))


def broadcast_view(shape: Any, strides: Any, offset: int, to_shape: Any) -> View:
    """``src`` (shape, strides, offset) broadcast to ``to_shape`` as InplaceCopy reads it: dims
    aligned from the right, a size-1 dim (or a missing leading one) repeats with stride 0.

    >>> broadcast_view((3, 1), (1, 1), 2, (4, 3, 5))
    View(shape=(4, 3, 5), strides=(0, 1, 0), offset=2)
    """
    v = _check_view("src", shape, strides, offset)
    to = _int_tuple("shape to broadcast to", to_shape, None)
    if len(v.shape) > len(to):
        raise _bad(f"src of shape {v.shape} has more dims than {to}", "src must be broadcastable to selfRef")
    lead = len(to) - len(v.shape)
    st = [0] * lead
    for i, (n, s) in enumerate(zip(v.shape, v.strides, strict=True)):
        if n == to[lead + i]:
            st.append(s)
        elif n == 1:
            st.append(0)
        else:
            raise _bad(f"src of shape {v.shape} cannot broadcast to {to} (dim {i}: {n} vs {to[lead + i]})",
                       "src must be broadcastable to selfRef: each dim equal or 1")
    return View(to, tuple(st), v.offset)
