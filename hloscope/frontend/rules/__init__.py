"""The numpy lowering rules, one small function per numpy function or ufunc, grouped by kind.

Each file keeps its own `RULES` table filled by an explicit `@rule(np.xxx)` decorator (or a
table of ufunc -> opcode rows); `frontend/registry.py` imports each file and merges the tables.
"""
