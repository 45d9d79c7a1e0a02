"""The core model: pipes, costs, scheduling, reports and trace export."""

from aclsim.sim.engine import CoreTimeline, KernelDeadlockError, SimReport, SyncError, simulate

__all__ = ["CoreTimeline", "KernelDeadlockError", "SimReport", "SyncError", "simulate"]
