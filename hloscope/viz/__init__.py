"""Views of the compiler's artifacts: pure functions that return text or HTML.

Nothing here imports IPython or ipywidgets, so every view can be tested (and exported)
without Jupyter.
"""

from .hlo_html import highlight_hlo, hlo_block, module_html

__all__ = ["highlight_hlo", "hlo_block", "module_html"]
