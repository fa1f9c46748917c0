"""What-if experiments: switch a pass, a rule or a heuristic off and see what it costs.

    changes.py     what may change, checked; where in the compile it first matters
    rerun.py       compile again from that stage, reusing the ones before it
    metrics.py     the numbers compared: counts, the cost model, compile time, measured runs
    comparison.py  WhatIf: both records, the delta table, the graph diff
    decisions.py   which pass decisions changed, and why
    experiment.py  whatif(x, **changes)
    sweep.py       sweep(fn, sizes, changes): a grid, and run time against bytes moved
"""

from .changes import Changes, WhatIfError
from .comparison import WhatIf
from .experiment import whatif
from .sweep import Sweep, sweep

__all__ = ["Changes", "Sweep", "WhatIf", "WhatIfError", "sweep", "whatif"]
