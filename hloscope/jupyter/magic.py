"""`%%hlo`: compile a cell with hloscope and explore it.

Two kinds of cell:

    %%hlo f(x, w) --pipeline default          Python: the cell defines f (or it was defined
    def f(x, w):                              above); x and w are notebook variables, or
        return np.tanh(x @ w)                 shapes such as f32[128,256] for random inputs

    %%hlo --args x,w                          HLO text (starts with `HloModule`), or StableHLO
    HloModule m                               (`module @jit_f ...`, as JAX prints it); without
    ...                                       --args, seeded random inputs

    %%hlo --jax f(x)                          JAX code: JAX lowers f to StableHLO, and hloscope
    def f(x):                                 legalizes and compiles it (a function that uses
        return jnp.tanh(x) @ x.T              jax is recognised without --jax too)

With --xla, XLA compiles the cell too (through jaxlib, hloscope.xla.compare) and the explorer
shows XLA's own compilation, with a "vs XLA" tab comparing it to hloscope's. A Python cell is
numpy-style code, which JAX cannot trace: hloscope traces it and XLA compiles the traced HLO.
The notebook then also has `hlo_comparison` (the hloscope.xla.Comparison).

The explorer is displayed first, then the stages run and fill it in. Afterwards the
notebook has `hlo_report` (the Compilation; --name changes it), `_hlo` (the compiled
function: call it with numpy arrays) and, for a Python cell, the function's name bound to
`hloscope.jit` of it. Errors show as a short message pointing at the line.

Running the same cell again closes the explorer it showed before (its output is replaced
anyway), so a notebook that recompiles hundreds of times does not keep hundreds of them.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, line_cell_magic, line_magic, magics_class
from IPython.display import HTML, display

from .. import session
from ..compilation.record import Compilation
from ..compiler import jit
from ..errors import HloscopeError
from ..frontend.jit import Jitted
from ..ir.mlir_text import mlir_form
from ..stablehlo.from_jax import JaxCall, is_jax_function
from . import warm_up
from .errors import CellError, cell_error, user_code_error
from .inputs import named_inputs, parse_call, resolve_call
from .options import OPTIONS_HELP, ExploreOptions, OptionError, parse_options, split_line


@magics_class
class HloMagics(Magics):
    @line_cell_magic
    def hlo(self, line: str, cell: str | None = None):
        """%%hlo [f(args)] [options]: see hloscope.jupyter.magic (or docs/notebook.md).
        As a line magic, `%hlo f(x, w)` compiles a function defined in an earlier cell."""
        cell = cell or ""
        options = ExploreOptions()
        try:
            call, tokens = split_line(line)
            options = parse_options(tokens)
            report = self._report(call, cell, options)
            self._explore(report, options)
        except CellError as e:
            if options.debug:
                raise e.error from None
            raise
        except (HloscopeError, SyntaxError) as e:
            if options.debug:
                raise
            raise cell_error(e) from None
        return None

    @property
    def _ipython(self) -> InteractiveShell:
        assert self.shell is not None, "register_magics gives its magics the shell"
        return self.shell

    @line_magic
    def hlo_options(self, line: str = ""):
        """%hlo_options: list the options of %%hlo."""
        print(OPTIONS_HELP)

    # ---- building the report ----
    def _report(self, call: str | None, cell: str, options: ExploreOptions) -> Compilation:
        if options.xla:
            return self._xla_report(call, cell, options)
        ns = self._ipython.user_ns
        if cell.lstrip().startswith("HloModule") or mlir_form(cell) is not None:
            if call is not None:
                raise OptionError(f"%%hlo: an HLO cell takes its inputs from --args, not a call ({call})")
            inputs = named_inputs(options.args, ns) if options.args is not None else None
            return session.new(cell, inputs=inputs, options=options, title="hloscope: HLO module")
        if call is None:
            raise OptionError("%%hlo: say which function to compile and its inputs, e.g. `%%hlo f(x, w)` or "
                              "`%%hlo f(f32[128,256], f32[256,64])` (or start the cell with HloModule)")
        spec = parse_call(call)
        self._run_cell_code(cell)
        fn, args, kwargs = resolve_call(spec, ns, options.seed)
        if options.jax or is_jax_function(fn):
            source = JaxCall(fn, tuple(args), dict(kwargs))
            return session.new(source, options=options, title=f"hloscope: {spec.describe()} (JAX)")
        jitted = fn if isinstance(fn, Jitted) else jit(fn)
        if spec.function.isidentifier():
            ns[spec.function] = jitted
        return session.new(jitted, *args, options=options, title=f"hloscope: {spec.describe()}", **kwargs)

    def _xla_report(self, call: str | None, cell: str, options: ExploreOptions) -> Compilation:
        """--xla: the cell's module compiled by XLA and by hloscope; XLA's record is shown."""
        from ..xla import compare  # jax is imported only here

        ours = self._report(call, cell, dataclasses.replace(options, xla=False))
        try:
            session.run(ours, limit=1, strict=True)  # parse or trace: the module XLA compiles
        except Exception as e:  # noqa: BLE001 - bad input: a short message, no traceback
            if options.debug:
                raise
            raise cell_error(e, "while tracing" if ours.kind == "python" else "") from None
        assert ours.input_module is not None, "the first stage parses or traces the module"
        comparison = compare(ours.input_module, *(ours.inputs or []))
        self._ipython.user_ns["hlo_comparison"] = comparison
        return comparison.xla

    def _run_cell_code(self, cell: str) -> None:
        """Run the cell's Python in the notebook namespace, under a name Python's linecache
        knows (so traced instructions point at the cell's lines)."""
        if not cell.strip():
            return
        # A blank first line stands for the %%hlo line, so line numbers in traced metadata
        # and in errors are the ones the notebook shows for this cell.
        code = "\n" + self._ipython.transform_cell(cell)
        filename = self._ipython.compile.cache(code, self._ipython.execution_count, raw_code=cell)
        try:
            compiled = compile(code, filename, "exec")
        except SyntaxError as e:
            text = f"SyntaxError in the cell, line {e.lineno}: {e.msg}\n  {(e.text or '').rstrip()}"
            raise CellError(e, text) from None
        try:
            exec(compiled, self._ipython.user_ns)  # noqa: S102 - the user's own cell
        except Exception as e:  # noqa: BLE001 - shown shortly, pointing at the cell line
            raise user_code_error(e, cell, filename) from None

    # ---- showing it ----
    def _explore(self, report: Compilation, options: ExploreOptions) -> None:
        """Trace or parse (errors here are the user's: shown shortly), then show the explorer
        and run the remaining stages into it."""
        ns = self._ipython.user_ns
        try:
            session.run(report, limit=1, strict=True)
        except Exception as e:  # noqa: BLE001 - bad input: a short message, no traceback
            if options.debug:
                raise
            raise cell_error(e, "while tracing" if report.kind == "python" else "") from None
        ns[options.report_name] = report
        explorer = _make_explorer(report, options)
        if explorer is not None:
            self._replace_explorer_of_this_cell(explorer)
            display(explorer)
            explorer.run()
        else:
            session.run(report)
            display(HTML(report._repr_html_()))
        ns["_hlo"] = report.executable

    def _replace_explorer_of_this_cell(self, explorer: Any) -> None:
        """Close the explorer this cell showed last time: its output is being replaced, and
        an open widget keeps its whole compilation alive for as long as the kernel runs."""
        cell = _cell_id(self.shell)
        if cell is None:
            return
        shown = self._ipython.user_ns.setdefault("__hloscope_explorers__", {})  # per kernel, not per module
        previous = shown.get(cell)
        if previous is not None and previous is not explorer:
            previous.close()
        shown[cell] = explorer


def _cell_id(shell: Any) -> str | None:
    """The id JupyterLab gives the running cell (in the execute request's metadata), or None
    outside a notebook front end that sends one."""
    kernel = getattr(shell, "kernel", None)
    parent = kernel.get_parent() if kernel is not None and hasattr(kernel, "get_parent") else None
    metadata = (parent or {}).get("metadata") or {}
    cell = metadata.get("cellId")
    return str(cell) if cell else None


def _make_explorer(report: Compilation, options: ExploreOptions) -> Any:
    """The explorer widget, or None (with a note) where ipywidgets is not installed (a plain
    IPython shell may lack it; a broken import of our own still raises)."""
    if importlib.util.find_spec("ipywidgets") is None:
        display(HTML("<p>ipywidgets is not installed: showing the static report instead.</p>"))
        return None
    from .explorer import Explorer  # imports ipywidgets: only where it is installed

    return Explorer(report, show=options.show)


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext hloscope`: register %%hlo, and start loading the backend meanwhile."""
    ipython.register_magics(HloMagics)
    warm_up.start()
