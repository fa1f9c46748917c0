"""The package's version, in a module of its own: the compile cache keys on it, and the
cache must not import the package root (which imports the compiler, which imports the cache)."""

__version__ = "0.2.0"
