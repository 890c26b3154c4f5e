"""A hint to the processor, for the compiled search: ask for a cache line
before it is read, so that the misses of several lookups overlap instead
of stalling one after another."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic


@intrinsic
def prefetch(typingctx, arr, i):
    """Ask the processor to bring into cache word ``i`` of a 1-d array, or
    row ``i`` of an array of more dimensions (``llvm.prefetch``: a read,
    kept in every level of cache)."""
    sig = types.void(arr, i)

    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        ary = context.make_array(aty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        idx = [args[1]] + [zero] * (aty.ndim - 1)
        ptr = cgutils.get_item_pointer(context, builder, aty, ary, idx)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return sig, codegen
