"""The enums and flag sets of ``acl_rt.h`` that the runtime's calls take and return."""

from __future__ import annotations

import enum

__all__ = [
    "EVENT_FLAGS",
    "STREAM_FLAGS",
    "CallbackBlockType",
    "EventRecordedStatus",
    "EventStatus",
    "MemAttr",
    "MemcpyKind",
    "RunMode",
]


class MemcpyKind(enum.IntEnum):
    """``aclrtMemcpyKind``."""

    HOST_TO_HOST = 0
    HOST_TO_DEVICE = 1
    DEVICE_TO_HOST = 2
    DEVICE_TO_DEVICE = 3
    DEFAULT = 4
    HOST_TO_BUF_TO_DEVICE = 5
    INNER_DEVICE_TO_DEVICE = 6
    INTER_DEVICE_TO_DEVICE = 7


class MemAttr(enum.IntEnum):
    """``aclrtMemAttr`` (which memory ``get_mem_info`` reports)."""

    DDR_MEM = 0
    HBM_MEM = 1
    DDR_MEM_HUGE = 2
    DDR_MEM_NORMAL = 3
    HBM_MEM_HUGE = 4
    HBM_MEM_NORMAL = 5
    DDR_MEM_P2P_HUGE = 6
    DDR_MEM_P2P_NORMAL = 7
    HBM_MEM_P2P_HUGE = 8
    HBM_MEM_P2P_NORMAL = 9
    HBM_MEM_HUGE1G = 10
    HBM_MEM_P2P_HUGE1G = 11

    @property
    def is_ddr(self) -> bool:
        return self.name.startswith("DDR")


class RunMode(enum.IntEnum):
    """``aclrtRunMode``: aclsim always runs the host program on the host."""

    DEVICE = 0
    HOST = 1


class EventRecordedStatus(enum.IntEnum):
    """``aclrtEventRecordedStatus``: note NOT_READY is 0 here, unlike ``aclrtEventStatus``."""

    NOT_READY = 0
    COMPLETE = 1


class EventStatus(enum.IntEnum):
    """``aclrtEventStatus`` (the older query API): COMPLETE is 0."""

    COMPLETE = 0
    NOT_READY = 1


class CallbackBlockType(enum.IntEnum):
    NO_BLOCK = 0
    BLOCK = 1


EVENT_FLAGS = 0x1 | 0x2 | 0x8 | 0x10 | 0x20 | 0x40  # ACL_EVENT_SYNC ... ACL_EVENT_IPC
STREAM_FLAGS = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20  # ACL_STREAM_FAST_LAUNCH ... DEVICE_USE_ONLY
