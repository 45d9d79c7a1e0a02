"""``ChipSpec``: every hardware number aclsim uses, in one frozen object.

Nothing outside :mod:`aclsim.arch` holds a hardware figure; every other layer receives
a ``ChipSpec``.  Presets (with the public source of each number) are in
:mod:`aclsim.arch.presets`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB


@dataclass(frozen=True, kw_only=True)
class ChipSpec:
    """A chip description; frozen and keyword-only.

    >>> from aclsim.arch import get_chip
    >>> chip = get_chip("910B")
    >>> chip.ub_bytes // 1024, chip.events_per_pipe_pair
    (192, 8)
    """

    name: str
    arch_version: str
    description: str
    # cores
    cube_cores: int
    vector_cores: int
    coupled: bool  # cube and vector units in one core sharing a scalar unit (310P-style)
    clock_hz: float
    # per-core on-chip memories (bytes) and their start-address alignment
    ub_bytes: int
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    ub_align: int = 32
    l1_align: int = 32
    l0ab_align: int = 512
    l0c_align: int = 64
    # bias table (BT, TPosition C2): 1 KiB with 64 B alignment on Atlas A2/A3 (the L1ToBiasTable
    # DataCopy page); 0 where a chip has none (the 310P: Mmad's cmatrixSource is false only there)
    bt_bytes: int = 1024
    bt_align: int = 64
    ub_reserved_bytes: int = 0
    # synchronization resources
    events_per_pipe_pair: int = 8
    que_buffers_per_position: int = 8
    # vector unit: bytes per operand per repeat, and the repeat limit of one instruction
    vector_repeat_bytes: int = 256
    max_repeat: int = 255
    # cube unit: fractal edge (m = n = k) and fp16 MACs per cycle per cube core
    cube_fractal: int = 16
    cube_macs_per_cycle: int = 4096
    # device memory
    dram_kind: str = "HBM"  # "HBM" or "DDR": which get_mem_info attributes report it
    dram_bytes: int
    dram_bandwidth: float  # bytes per second, whole chip
    l2_bytes: int = 0
    # host link (PCIe) used by host<->device copies
    host_link_bandwidth: float  # bytes per second, one direction
    host_link_latency_s: float
    # fixed cost of one device-side copy or memset task (launch + DMA set-up)
    dma_latency_s: float
    # core model: per-core data paths (bytes per cycle) and fixed latencies (cycles)
    mte2_bytes_per_cycle: float = 32.0  # GM -> UB / L1 (before sharing HBM with other cores)
    mte3_bytes_per_cycle: float = 32.0  # UB -> GM
    mte1_l0a_bytes_per_cycle: float = 256.0  # L1 -> L0A
    mte1_l0b_bytes_per_cycle: float = 128.0  # L1 -> L0B
    fixpipe_bytes_per_cycle: float = 64.0  # L0C -> GM / L1
    gm_latency_cycles: int = 200  # first byte of a GM access
    local_copy_latency_cycles: int = 20  # first byte of an on-chip copy
    vector_cycles_per_repeat: float = 1.0  # one 256 B repeat per cycle
    vector_issue_cycles: int = 8  # fixed start-up of one vector instruction
    cube_cycles_per_fractal: float = 1.0  # one 16x16x16 fp16 fractal MAC per cycle
    cube_issue_cycles: int = 8
    scalar_cycles_per_op: int = 1
    flag_latency_cycles: int = 4  # from a set_flag executing to the waiting pipe resuming
    # from a CrossCoreSetFlag firing (on every core its mode involves) to a waiting core resuming
    cross_core_flag_latency_cycles: int = 100
    # global-memory copies: the cube side's GM -> L1 path, the fixed cost of one copy on its pipe
    # (descriptor set-up, not overlapped), and the L2 cache between the cores and device memory
    mte2_l1_bytes_per_cycle: float = 32.0  # GM -> L1 (a cube core's MTE2)
    mte2_copy_cycles: float = 0.0
    mte3_copy_cycles: float = 0.0
    fixpipe_copy_cycles: float = 0.0
    l2_latency_cycles: int = 0  # first byte of an L2 hit (a write lands in L2); 0: no L2 modelled
    l2_bandwidth: float = 0.0  # bytes per second, whole chip; 0: not a limit
    l2_line_bytes: int = 512
    l2_writes_first: bool = False  # written lines are the first to leave L2 under pressure
    # vector unit: per-instruction costs by API, (op name, head cycles, cycles per repeat for 8- and
    # 16-bit elements, the same two for 32-bit ones), for the ops listed (others:
    # vector_issue_cycles + repeats * vector_cycles_per_repeat); UB banks:
    # rows of ub_bank_row_bytes interleave over ub_bank_groups groups within each slice of
    # ub_bank_slice_bytes (a bank is a group in a slice); 0 groups: no bank conflicts modelled
    vector_api_costs: tuple[tuple[str, float, float, float, float], ...] = ()
    ub_bank_groups: int = 0
    ub_bank_row_bytes: int = 32
    ub_bank_slice_bytes: int = 65536
    # a launch's task duration beyond its cores' span (scheduling the task, the first block's
    # dispatch, completion), and the interval between two blocks' dispatch (block k of a wave
    # starts k intervals after the first)
    task_head_s: float = 0.0
    task_per_block_s: float = 0.0
    # the scalar unit's cycles of control code (address arithmetic, loop and queue bookkeeping)
    # around each instruction it issues: issue is one instruction after the other
    scalar_issue_cycles: float = 0.0
    sources: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    # AI CPU (appended block): the ARM cores that run the aclnn ops' AI CPU kernels (the dtypes
    # the AI Core kernels do not hold); how many, the fixed cost of one task (launch, argument
    # set-up, scheduling on the AI CPU), and the elements one AI CPU core processes per second
    aicpu_count: int = 6
    aicpu_launch_s: float = 30e-6
    aicpu_elements_per_s: float = 2.5e8

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
                raise ValueError(f"ChipSpec.{f.name} must be >= 0, got {value}")
        for name in ("cube_cores", "vector_cores", "ub_bytes", "dram_bytes", "events_per_pipe_pair"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ChipSpec.{name} must be > 0")
        if self.dram_kind not in ("HBM", "DDR"):
            raise ValueError(f"ChipSpec.dram_kind must be 'HBM' or 'DDR', got {self.dram_kind!r}")
        if self.clock_hz <= 0 or self.dram_bandwidth <= 0 or self.host_link_bandwidth <= 0:
            raise ValueError("ChipSpec clock and bandwidths must be > 0")

    # derived figures
    @property
    def ub_usable_bytes(self) -> int:
        """UB bytes a kernel may use (the size minus what the toolkit reserves)."""
        return self.ub_bytes - self.ub_reserved_bytes

    @property
    def cores(self) -> int:
        """Cores a vector kernel runs on (the AIVs of a split chip, the AI Cores of a coupled one)."""
        return self.vector_cores

    @property
    def cycle_s(self) -> float:
        return 1.0 / self.clock_hz

    def host_copy_seconds(self, nbytes: int) -> float:
        """Modeled time of one host<->device copy of ``nbytes``: latency + bytes / link bandwidth."""
        return self.host_link_latency_s + nbytes / self.host_link_bandwidth

    def device_copy_seconds(self, nbytes: int) -> float:
        """Modeled time of a device-to-device copy: the bytes are read and written once each."""
        return self.dma_latency_s + 2 * nbytes / self.dram_bandwidth

    def device_fill_seconds(self, nbytes: int) -> float:
        """Modeled time of a device memset (write only)."""
        return self.dma_latency_s + nbytes / self.dram_bandwidth

    def memory_bound_seconds(self, bytes_read: int, bytes_written: int) -> float:
        """Modeled time of device work limited by device memory: all traffic at full bandwidth."""
        return self.dma_latency_s + (bytes_read + bytes_written) / self.dram_bandwidth

    def with_changes(self, **changes: object) -> ChipSpec:
        """Return a copy with some fields replaced (for configured memory limits, tests)."""
        from dataclasses import replace

        return replace(self, **changes)  # type: ignore[arg-type]
