"""The core model: pipes, costs, scheduling, reports and trace export."""

from aclsim.errors import KernelDeadlockError, SyncError
from aclsim.sim.engine import simulate
from aclsim.sim.report import CoreTimeline, SimReport

__all__ = ["CoreTimeline", "KernelDeadlockError", "SimReport", "SyncError", "simulate"]
