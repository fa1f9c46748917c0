"""A persistent thread pool in native code, built once per process (like XLA's intra-op pool).

Starting a thread per partition per call costs tens of microseconds on an idle machine and
milliseconds on a busy one, so JIT-compiled programs hand their partitions to this pool:

    void hloscope_pool_run(ptr task, ptr contexts, i64 stride, i64 count)

runs `task(contexts + i * stride)` for i in [0, count) and returns when all are done. The
calling thread works too; up to count - 1 pool threads (started on first need, parked on a
condition variable between jobs, never stopped) claim partitions under one mutex. One job
runs at a time: a caller that finds the pool busy (another Python thread's program) simply
runs all its partitions itself.

Waiting spins before it sleeps. A pool thread that has finished a job watches for the next
one for SPIN_NANOSECONDS before it parks on the condition variable, and the caller watches
for the last partition to finish for as long before it parks: a program's parallel kernels
follow one another within microseconds, and so do the calls of a loop, while waking a
parked thread goes through the kernel (and, on a virtual machine, the hypervisor, which can
take milliseconds to run an idle virtual CPU again: then the caller has done every
partition itself by the time the worker wakes). XLA's Eigen pool and OpenMP runtimes spin
the same way. The spin reads the job counters with atomic loads and pauses between reads
(x86 `pause`, arm64 `yield`); the counters are stored atomically, always under the mutex.

The pool is its own small LLVM module, compiled at first use; its entry point is registered
with llvm.add_symbol so every JIT module can call it. (AOT objects cannot rely on it and
start threads per call instead; see parallel.py.)

What it assumes of the host's pthreads, and why each holds on every supported host
(64-bit Linux with glibc or musl, and macOS, on x86-64 and arm64):

  storage   the mutex and the two condition variables are SYNC_BYTES (64) bytes each,
            aligned to 64: the largest of the supported types, macOS's pthread_mutex_t
            (64 bytes; pthread_cond_t 48, on x86-64 and arm64). glibc's are 40 (x86-64)
            or 48 (aarch64) and 48, musl's 40 and 48. None needs more than 8-byte alignment.
  init      zero-filled storage is a valid mutex only on some C libraries (glibc, musl);
            macOS's types carry a signature word that only PTHREAD_*_INITIALIZER or
            pthread_*_init set. So the module has an init function,

                i32 hloscope_pool_init()     pthread_mutex_init / pthread_cond_init with
                                             default (NULL) attributes; 0 or the first error

            which the loader (jit.load_thread_pool) calls exactly once, before anything
            can call hloscope_pool_run. The storage itself starts as `sync_fill` bytes
            (0; a test passes another pattern to show the init alone makes it valid).
  pthread_t pthread_create writes it into an i64 slot and pthread_detach takes it as an
            i64: pthread_t is an 8-byte integer (glibc) or pointer (macOS, musl) on LP64
            hosts, and both ABIs (x86-64 SysV, AArch64 incl. Apple's) pass an integer
            and a pointer argument in the same register.
  stacks    threads start with the default attributes (NULL): kernels keep only a few
            scalar slots on the stack, far below the smallest default thread stack
            (musl 128 KiB, macOS 512 KiB, glibc the stack limit, usually 8 MiB).
"""

from __future__ import annotations

import time

import llvmlite.binding as llvm
from llvmlite import ir

from ...llvm_types import I8, I32, I64, PTR, VOID, internal_global

SYMBOL = "hloscope_pool_run"
INIT_SYMBOL = "hloscope_pool_init"
SYNC_BYTES = 64  # room for the largest pthread_mutex_t / pthread_cond_t (see above)
SYNC_OBJECTS = {"mutex": "pthread_mutex_init", "work": "pthread_cond_init", "done": "pthread_cond_init"}
MAX_WORKERS = 63
SPIN_NANOSECONDS = 200_000  # how long a waiting thread watches before it sleeps (see above)
# A spin loop's hint to the CPU, by the triple's architecture: intrinsic name and arguments.
PAUSE = {"x86_64": ("llvm.x86.sse2.pause", ()), "aarch64": ("llvm.aarch64.hint", (1,)),  # 1: yield
         "arm64": ("llvm.aarch64.hint", (1,))}
TASK_TYPE = ir.FunctionType(PTR, [PTR])
TIMESPEC = ir.LiteralStructType([I64, I64])  # struct timespec on LP64 hosts: seconds, nanoseconds


class PoolModule:
    """Builds the pool's LLVM module: globals, the init function, the worker loop and
    hloscope_pool_run. `sync_fill` is the byte the mutex and condition storage starts as
    (0 in the real pool; the init function overwrites it either way)."""

    def __init__(self, sync_fill: int = 0, arch: str | None = None):
        if not 0 <= sync_fill <= 255:
            raise ValueError(f"sync_fill is one byte (0..255), not {sync_fill}")
        self.m = ir.Module(name="hloscope_thread_pool")
        sync_type = ir.ArrayType(I8, SYNC_BYTES)
        fill = ir.Constant(sync_type, bytearray([sync_fill] * SYNC_BYTES))
        self.sync = {n: self._global(sync_type, f"pool.{n}", fill) for n in SYNC_OBJECTS}
        self.state = {n: self._global(I64, f"pool.{n}") for n in
                      ("generation", "next", "count", "remaining", "stride", "workers")}
        self.task = self._global(PTR, "pool.task")
        self.contexts = self._global(PTR, "pool.contexts")
        self.busy = self._global(I32, "pool.busy")
        self.lib = {name: ir.Function(self.m, ir.FunctionType(I32, args), name) for name, args in (
            ("pthread_mutex_lock", [PTR]), ("pthread_mutex_unlock", [PTR]), ("pthread_cond_wait", [PTR, PTR]),
            ("pthread_cond_broadcast", [PTR]), ("pthread_create", [PTR, PTR, PTR, PTR]), ("pthread_detach", [I64]),
            ("pthread_mutex_init", [PTR, PTR]), ("pthread_cond_init", [PTR, PTR]), ("clock_gettime", [I32, PTR]))}
        self.pause = self._pause_hint(arch or llvm.get_process_triple().split("-")[0])
        self.init = self._init()
        self.drain = self._drain()
        self.worker = self._worker()
        self.run = self._run()

    def _global(self, ty, name, initializer=None):
        return internal_global(self.m, ty, name, initializer or ir.Constant(ty, None), align=64)

    def _get(self, b, name):
        return b.load(self.state[name], typ=I64)

    def _pause_hint(self, arch):
        """The pause intrinsic for `arch` with its arguments, or None (no hint: a plain spin)."""
        if arch not in PAUSE:
            return None
        name, args = PAUSE[arch]
        return ir.Function(self.m, ir.FunctionType(VOID, [I32] * len(args)), name), args

    def _set(self, b, name, value):
        """Store a job counter (mutex held); atomic, since spinning threads read it without the mutex."""
        b.store_atomic(value, self.state[name], "monotonic", 8)

    def _watch(self, b, name):
        """Read a job counter without the mutex (a spinning thread's look)."""
        return b.load_atomic(self.state[name], "monotonic", 8, typ=I64)

    def _now(self, b, clock):
        """CLOCK_MONOTONIC in nanoseconds; `clock` is a TIMESPEC slot."""
        self._call(b, "clock_gettime", I32(time.CLOCK_MONOTONIC), clock)
        seconds, nanos = (b.load(b.gep(clock, [I32(0), I32(i)], inbounds=True), typ=I64) for i in (0, 1))
        return b.add(b.mul(seconds, I64(1_000_000_000)), nanos)

    def _spin_while(self, b, clock, waiting):
        """Watch (pausing between looks) while waiting(b) holds, for at most SPIN_NANOSECONDS;
        the caller then takes the mutex and sleeps if it still has to wait."""
        fn = b.function
        look, timed, pause, out = (fn.append_basic_block(n) for n in ("spin", "spin.timed", "spin.pause", "spin.out"))
        start = self._now(b, clock)
        b.branch(look)
        b.position_at_end(look)
        b.cbranch(waiting(b), timed, out)
        b.position_at_end(timed)
        elapsed = b.sub(self._now(b, clock), start)
        b.cbranch(b.icmp_signed("<", elapsed, I64(SPIN_NANOSECONDS)), pause, out)
        b.position_at_end(pause)
        if self.pause:
            hint, args = self.pause
            b.call(hint, [I32(a) for a in args])
        b.branch(look)
        b.position_at_end(out)

    def _call(self, b, name, *args):
        return b.call(self.lib[name], list(args))

    def _lock(self, b):
        self._call(b, "pthread_mutex_lock", self.sync["mutex"])

    def _unlock(self, b):
        self._call(b, "pthread_mutex_unlock", self.sync["mutex"])

    def _function(self, name, ret, args, linkage="internal"):
        fn = ir.Function(self.m, ir.FunctionType(ret, args), name)
        fn.linkage = linkage
        return fn, ir.IRBuilder(fn.append_basic_block("entry"))

    def _init(self):
        """hloscope_pool_init: initialize the mutex and both condition variables (default
        attributes); returns 0, or the first non-zero error code."""
        fn, b = self._function(INIT_SYMBOL, I32, [], linkage="external")
        codes = [self._call(b, init, self.sync[name], ir.Constant(PTR, None)) for name, init in SYNC_OBJECTS.items()]
        result = codes[-1]
        for rc in reversed(codes[:-1]):
            result = b.select(b.icmp_signed("!=", rc, I32(0)), rc, result)
        b.ret(result)
        return fn

    def _drain(self):
        """Claim and run partitions until none is left; the last one done wakes the caller."""
        fn, b = self._function("pool.drain", VOID, [])
        loop, work, done = (fn.append_basic_block(n) for n in ("claim", "work", "out"))
        b.branch(loop)
        b.position_at_end(loop)
        self._lock(b)
        i = self._get(b, "next")
        b.cbranch(b.icmp_signed("<", i, self._get(b, "count")), work, done)
        b.position_at_end(work)
        b.store(b.add(i, I64(1)), self.state["next"])
        task = b.load(self.task, typ=ir.types._TypedPointerType(TASK_TYPE))  # llvmlite calls only typed pointers
        ctx = b.gep(b.load(self.contexts, typ=PTR), [b.mul(i, self._get(b, "stride"))], source_etype=I8)
        self._unlock(b)
        b.call(task, [ctx])
        self._lock(b)
        left = b.sub(self._get(b, "remaining"), I64(1))
        self._set(b, "remaining", left)
        with b.if_then(b.icmp_signed("==", left, I64(0))):
            self._call(b, "pthread_cond_broadcast", self.sync["done"])
        self._unlock(b)
        b.branch(loop)
        b.position_at_end(done)
        self._unlock(b)
        b.ret_void()
        return fn

    def _worker(self):
        """A pool thread: wait for a new job (generation), drain it, repeat forever."""
        fn, b = self._function("pool.worker", PTR, [PTR])
        wait, check, go = (fn.append_basic_block(n) for n in ("wait", "check", "go"))
        seen = b.alloca(I64)  # typed pointer: loads know their type
        clock = b.alloca(TIMESPEC)
        b.store(I64(0), seen)
        b.branch(check)
        b.position_at_end(check)
        self._spin_while(b, clock, lambda b: b.icmp_signed("==", self._watch(b, "generation"), b.load(seen)))
        self._lock(b)
        b.branch(wait)
        b.position_at_end(wait)
        gen = self._get(b, "generation")
        same = b.icmp_signed("==", gen, b.load(seen))
        with b.if_then(same):
            self._call(b, "pthread_cond_wait", self.sync["work"], self.sync["mutex"])
        gen = self._get(b, "generation")
        b.cbranch(b.icmp_signed("==", gen, b.load(seen)), wait, go)
        b.position_at_end(go)
        b.store(gen, seen)
        self._unlock(b)
        b.call(self.drain, [])
        b.branch(check)
        return fn

    def _run(self):
        task_ptr = ir.types._TypedPointerType(TASK_TYPE)  # printed as `ptr`, but callable
        fn, b = self._function(SYMBOL, VOID, [task_ptr, PTR, I64, I64], linkage="external")
        task, contexts, stride, count = fn.args
        pair = b.cmpxchg(self.busy, I32(0), I32(1), "acquire", "monotonic")
        got = b.extract_value(pair, 1)
        with b.if_else(got) as (pooled, alone):
            with pooled:
                self._lock(b)
                self._start_workers(b, b.sub(count, I64(1)))
                for name, value in (("next", I64(0)), ("count", count), ("remaining", count), ("stride", stride)):
                    self._set(b, name, value)
                b.store(task, self.task)
                b.store(contexts, self.contexts)
                self._set(b, "generation", b.add(self._get(b, "generation"), I64(1)))
                self._call(b, "pthread_cond_broadcast", self.sync["work"])
                self._unlock(b)
                b.call(self.drain, [])
                self._wait_done(fn, b)
                b.store_atomic(I32(0), self.busy, "release", 4)
            with alone:
                self._run_inline(fn, b, task, contexts, stride, count)
        b.ret_void()
        return fn

    def _start_workers(self, b, wanted):
        """Start pool threads until there are `wanted` (at most MAX_WORKERS); mutex held."""
        wanted = b.select(b.icmp_signed(">", wanted, I64(MAX_WORKERS)), I64(MAX_WORKERS), wanted)
        tid = b.alloca(I64)
        cond, body, done = (b.function.append_basic_block(n) for n in ("spawn.check", "spawn", "spawn.done"))
        b.branch(cond)
        b.position_at_end(cond)
        b.cbranch(b.icmp_signed("<", self._get(b, "workers"), wanted), body, done)
        b.position_at_end(body)
        rc = self._call(b, "pthread_create", tid, ir.Constant(PTR, None), self.worker, ir.Constant(PTR, None))
        started = b.function.append_basic_block("spawn.ok")
        b.cbranch(b.icmp_signed("==", rc, I32(0)), started, done)  # no thread: the caller drains the rest
        b.position_at_end(started)
        self._call(b, "pthread_detach", b.load(tid))
        b.store(b.add(self._get(b, "workers"), I64(1)), self.state["workers"])
        b.branch(cond)
        b.position_at_end(done)

    def _wait_done(self, fn, b):
        wait, out = fn.append_basic_block("wait"), fn.append_basic_block("all.done")
        self._spin_while(b, b.alloca(TIMESPEC), lambda b: b.icmp_signed(">", self._watch(b, "remaining"), I64(0)))
        self._lock(b)
        b.branch(wait)
        b.position_at_end(wait)
        with b.if_then(b.icmp_signed(">", self._get(b, "remaining"), I64(0))):
            self._call(b, "pthread_cond_wait", self.sync["done"], self.sync["mutex"])
        b.cbranch(b.icmp_signed(">", self._get(b, "remaining"), I64(0)), wait, out)
        b.position_at_end(out)
        self._unlock(b)

    def _run_inline(self, fn, b, task, contexts, stride, count):
        """The pool is busy with another caller's job: run every partition here."""
        i_slot = b.alloca(I64)
        b.store(I64(0), i_slot)
        cond, body, done = (fn.append_basic_block(n) for n in ("inline.check", "inline", "inline.done"))
        b.branch(cond)
        b.position_at_end(cond)
        i = b.load(i_slot)
        b.cbranch(b.icmp_signed("<", i, count), body, done)
        b.position_at_end(body)
        b.call(task, [b.gep(contexts, [b.mul(i, stride)], source_etype=I8)])
        b.store(b.add(i, I64(1)), i_slot)
        b.branch(cond)
        b.position_at_end(done)


def pool_ir(sync_fill: int = 0) -> str:
    """The pool module's LLVM IR text."""
    return str(PoolModule(sync_fill).m)
