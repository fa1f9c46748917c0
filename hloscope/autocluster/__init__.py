"""Auto-clustering, as TensorFlow does it for XLA: compile the parts of a function that can
be, run the rest on the host (docs/autocluster.md).

    trace (tracing.py, host_calls.py) -> mark_for_compilation -> encapsulate_subgraphs
    -> build_xla_ops -> the runtime (runtime.py), all recorded (record.py)
"""

from .autojit import AutoJitted, ClusterInfo, autojit
from .host_calls import HostCallError, host
from .record import AutoClusterRecord

__all__ = ["AutoClusterRecord", "AutoJitted", "ClusterInfo", "HostCallError", "autojit", "host"]
