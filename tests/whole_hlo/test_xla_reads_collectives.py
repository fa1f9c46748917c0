"""XLA's own parser (jaxlib) on the collectives cases of test_collectives.py: it accepts
every valid one and reads hloscope's print as the same module; it rejects every bad one."""

import pytest
from test_collectives import BAD_PARSE, DUMPS, VALID, XLA_REJECTS, module

import hloscope as hs

pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
from jax._src.lib import xla_client  # noqa: E402

pytestmark = pytest.mark.jax

xla_hlo = xla_client.hlo


@pytest.mark.parametrize("name", list(VALID))
def test_xla_reads_our_collectives_as_the_same_module(name):
    ours = hs.parse_hlo(module(VALID[name]))
    theirs = hs.parse_hlo(xla_hlo.hlo_module_from_text(ours.to_text()).to_string())
    theirs.verify()
    assert instructions(theirs) == instructions(ours)


# Attributes newer jaxlibs print with their default value (0.12: has_dynamic_root=false).
DEFAULTS = {("has_dynamic_root", "False")}


def instructions(m):
    """XLA may rename (s -> s.1, unique in the module) and reorder: compare what each is."""
    def value(key, v):  # an async-start's computation by what it computes (names differ)
        return m.computation(v).instructions[-1].opcode if key == "calls" else str(v)
    return sorted((i.opcode, str(i.shape), len(i.operands),
                   sorted(value(k, v) for k, v in i.attrs.items() if (k, str(v)) not in DEFAULTS))
                  for c in m.computations if not c.name.startswith("async_computation") and c.name != "neg"
                  for i in c.instructions)


@pytest.mark.parametrize("body", [b[0] for b in BAD_PARSE[:XLA_REJECTS]])
def test_xla_rejects_what_we_reject(body):
    with pytest.raises(Exception):
        xla_hlo.hlo_module_from_text(module(body))


@pytest.mark.parametrize("path", sorted(DUMPS.glob("*.hlo")), ids=lambda p: p.name)
def test_xla_reads_our_print_of_the_mesh_program(path):
    ours = hs.parse_hlo(path.read_text())
    theirs = hs.parse_hlo(xla_hlo.hlo_module_from_text(ours.to_text()).to_string())
    # (XLA renumbers the stack-frame tables of metadata, so whole texts differ there)
    assert instructions(theirs) == instructions(ours)


SHORTHAND = """HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  i = s32[] parameter(1)
  s = ((f32[8], s32[]), f32[2], s32[]) dynamic-slice-start(p, i), dynamic_slice_sizes={2}
  u = ((f32[8], s32[]), f32[2], s32[]) dynamic-slice-update(s)
  ROOT d = f32[2] dynamic-slice-done(u)
}
"""


def test_xla_reads_the_async_shorthand_and_our_explicit_form_alike():
    ours = hs.parse_hlo(SHORTHAND)
    xla_hlo.hlo_module_from_text(SHORTHAND)
    theirs = hs.parse_hlo(xla_hlo.hlo_module_from_text(ours.to_text()).to_string())
    assert instructions(theirs) == instructions(ours)
