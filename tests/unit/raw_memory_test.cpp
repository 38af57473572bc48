// Array.get_raw_memory() (cuTile's RawArrayMemory): load_offset / store_offset / atomic_*_offset
// address elements by offset from the array's data pointer. They lower to the Gather / Scatter /
// Atomic ops of ct.gather & co. with raw_offset set, and print as those calls with
// raw_offset(offs) in place of indices(...). Kernels follow cuTile's test_raw_array_memory.py and
// test_atomic.py.
#include <gtest/gtest.h>

#include <string>

#include "nvcc_compile.hpp"
#include "sema_test_util.hpp"
#include "text_match.hpp"
#include "transpile_one.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

// test_raw_array_memory.py::test_2d_sparse_load_offset_vs_gather_scatter: offsets on a 2-D array
// ignore its shape and strides, and have no bounds to check.
TEST(RawMemory, OffsetsIgnoreShapeStridesAndBounds) {
  TranspileResult r = transpile_one(
      "def k(x, y, offsets, N: ct.Constant[int]):\n"
      "    offs = ct.load(offsets, (0,), shape=(N,))\n"
      "    mem_in = x.get_raw_memory()\n"
      "    mem_out = y.get_raw_memory()\n"
      "    t = mem_in.load_offset(offs)\n"
      "    mem_out.store_offset(offs, t)\n",
      "x=float32[?, ?], y=float32[?, ?], offsets=int64[?], N=8");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.ir, "gather x raw_offset")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "scatter y raw_offset")) << r.ir;
  EXPECT_TRUE(contains(r.cu, "const auto t = gather<Layout_8>(x, raw_offset(offs));")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "scatter<Layout_8>(y, raw_offset(offs), t);")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "Bounds::")) << r.cu;
}

// test_raw_array_memory.py: test_load_offset_with_padding_value, test_load_offset_broadcast_mask,
// test_store_offset_value_broadcasts_to_offset_shape, test_store_offset_broadcast_value_scalar.
TEST(RawMemory, MaskPaddingAndValuesBroadcastToTheOffsetShape) {
  TranspileResult r = transpile_one(
      "def k(x, y, pad: ct.Constant[float]):\n"
      "    offs = ct.arange(8, dtype=ct.int64)\n"
      "    t = x.get_raw_memory().load_offset(offs, mask=ct.full((1,), True, dtype=ct.bool_), padding_value=pad,\n"
      "                                       latency=5)\n"
      "    u = x.get_raw_memory().load_offset(offs, mask=offs < 5, padding_value=pad)\n"
      "    mem = y.get_raw_memory()\n"
      "    mem.store_offset(offs, t + u, latency=3)\n"
      "    mem.store_offset(ct.reshape(offs, (4, 2)), ct.full((4, 1), 11.0, dtype=ct.float32))\n"
      "    mem.store_offset(offs, 7.0)\n",
      "x=float32[?], y=float32[?], pad=-1.0");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "gather<Layout_8>(x, raw_offset(offs), ")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "-1.0f)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "scatter<Layout_4x2>(y, raw_offset(")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "scatter<Layout_8>(y, raw_offset(offs), 7.0f);")) << r.cu;
}

// test_raw_array_memory.py::test_interleave_load_store_gather_scatter_offset_ordering,
// test_scalar_load_store_via_get_raw_memory: one-element accesses of an array the kernel writes
// run once per block, ordered with ct.store / ct.gather on the same array.
TEST(RawMemory, ScalarOffsetsRunOncePerBlockInProgramOrder) {
  TranspileResult r = transpile_one(
      "def k(a):\n"
      "    mem = a.get_raw_memory()\n"
      "    ct.store(a, (0,), ct.full((1,), 100.0, dtype=ct.float32))\n"
      "    t = mem.load_offset(0)\n"
      "    mem.store_offset(1, t)\n"
      "    g = ct.gather(a, ct.arange(4, dtype=ct.int64))\n"
      "    mem.store_offset(ct.arange(4, dtype=ct.int64) + 4, g)\n",
      "a=float32[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "const auto t = once_per_block([&] { return gather(a, raw_offset(0)); });")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "once_per_block([&] { scatter(a, raw_offset(1), t); });")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "__syncthreads();  // a:")) << r.cu;
}

// test_atomic.py: test_atomic_offset_mask, test_atomic_offset_cas_mask, test_mixed_scalar_tile_atomic,
// test_atomic_order_scope: every atomic takes a mask (left out when there is none) and keeps
// its memory order and scope; Bounds is never spelled out.
TEST(RawMemory, AtomicsTakeAMaskOrderAndScope) {
  TranspileResult r = transpile_one(
      "def k(x, upd, y, TILE: ct.Constant[int]):\n"
      "    offset = ct.arange(TILE, dtype=ct.int64) + ct.bid(0) * TILE\n"
      "    val = ct.gather(upd, offset)\n"
      "    mem_x = x.get_raw_memory()\n"
      "    mem_x.atomic_add_offset(offset, val, mask=(offset % 2) == 0)\n"
      "    old = mem_x.atomic_cas_offset(offset, val, 1, mask=offset < 256)\n"
      "    mem_x.atomic_max_offset(offset, old, memory_order=ct.MemoryOrder.RELAXED,\n"
      "                            memory_scope=ct.MemoryScope.BLOCK)\n"
      "    mem_y = y.get_raw_memory()\n"
      "    s = ct.gather(upd, 0)\n"
      "    mem_y.atomic_xchg_offset(1, s)\n"
      "    mem_y.atomic_xor_offset(3, s, mask=s > 0)\n",
      "x=int32[?], upd=int32[?], y=int32[?], TILE=128");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.ir, "atomic add x raw_offset acq_rel device")) << r.ir;
  EXPECT_TRUE(contains(r.cu, "atomic_add<Layout_128>(x, raw_offset(offset), val, ")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "atomic_cas<Layout_128>(x, raw_offset(offset), val, 1, ")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "atomic_max<Layout_128, MemoryOrder::Relaxed, MemoryScope::Block>(x, raw_offset(offset), old);"))
      << r.cu;
  EXPECT_TRUE(contains(r.cu, "once_per_block([&] { atomic_xchg(y, raw_offset(1), s); });")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "atomic_xor(y, raw_offset(3), s, ")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "Bounds::")) << r.cu;
}

// test_raw_array_memory.py::test_raw_array_memory_dtype, and a method kept as a value and called
// later (the form test_atomic.py's helpers return).
TEST(RawMemory, DtypeAndMethodsAsValues) {
  TranspileResult r = transpile_one(
      "def k(x, TILE: ct.Constant[int]):\n"
      "    mem = x.get_raw_memory()\n"
      "    ct.static_assert(mem.dtype == x.dtype)\n"
      "    add = mem.atomic_add_offset\n"
      "    add(ct.arange(TILE, dtype=ct.int32), 1)\n",
      "x=uint64[?], TILE=64");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "atomic_add<Layout_64>(x, raw_offset(")) << r.cu;
}

// Every method on every width of offset, built for Ampere and Hopper.
TEST(RawMemory, GeneratedCodeCompiles) {
  if (!testing::have_nvcc()) GTEST_SKIP() << "nvcc not installed";
  TranspileResult r = transpile_one(
      "def k(x, h, f, TILE: ct.Constant[int]):\n"
      "    offs = ct.arange(TILE, dtype=ct.uint32)\n"
      "    mem = x.get_raw_memory()\n"
      "    t = mem.load_offset(offs, mask=offs < 100, padding_value=-1, latency=2)\n"
      "    mem.store_offset(ct.astype(offs, ct.int64), t + 1, mask=t > 0)\n"
      "    mem.atomic_add_offset(offs, t)\n"
      "    mem.atomic_max_offset(offs, t, mask=t > 3)\n"
      "    mem.atomic_min_offset(0, 5)\n"
      "    mem.atomic_and_offset(offs, t, memory_order=ct.MemoryOrder.RELEASE)\n"
      "    mem.atomic_or_offset(offs, t, memory_scope=ct.MemoryScope.SYS)\n"
      "    mem.atomic_xor_offset(1, 3, mask=ct.gather(x, 0) > 2)\n"
      "    old = mem.atomic_xchg_offset(offs, t)\n"
      "    ct.scatter(x, offs, mem.atomic_cas_offset(offs, old, t, mask=old != t))\n"
      "    h.get_raw_memory().atomic_add_offset(offs, 1.0, memory_scope=ct.MemoryScope.BLOCK)\n"
      "    fm = f.get_raw_memory()\n"
      "    fm.atomic_xchg_offset(offs, fm.load_offset(offs) * 2.0)\n",
      "x=int32[?], h=float16[?], f=float64[?], TILE=128");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

TEST(RawMemory, BadCallsAreLocatedErrors) {
  const std::string pre = "@ct.kernel\ndef k(x, y):\n    mem = x.get_raw_memory()\n";
  const char* sig = "x=float32[?], y=int32[?]";
  EXPECT_KERNEL_ERROR(pre + "    mem.load(0)\n", sig, ErrorKind::Type, "RawArrayMemory has no attribute 'load'");
  EXPECT_KERNEL_ERROR(pre + "    t = mem.load_offset(1.5)\n", sig, ErrorKind::Type,
                      "Invalid argument \"offset\" of load_offset(): expected an integer scalar or tile");
  EXPECT_KERNEL_ERROR(pre + "    mem.store_offset(offset=0, value=1.0)\n", sig, ErrorKind::Type,
                      "store_offset() got a positional-only argument 'offset' passed as a keyword");
  EXPECT_KERNEL_ERROR(pre + "    t = mem.load_offset(ct.arange(8, dtype=ct.int32), mask=ct.arange(8, dtype=ct.int32))\n", sig,
                      ErrorKind::Type, "boolean");
  EXPECT_KERNEL_ERROR(pre + "    t = mem.load_offset(0, latency=11)\n", sig, ErrorKind::Value, "between 1 and 10");
  EXPECT_KERNEL_ERROR(pre + "    t = mem.load_offset(ct.arange(8, dtype=ct.int32), padding_value=ct.full((16,), 0.0, dtype=ct.float32))\n",
                      sig, ErrorKind::Type, "Padding shape (16,) is not broadcastable to the index shape (8,)");
  EXPECT_KERNEL_ERROR(pre + "    mem.atomic_cas_offset(0, 1, ct.gather(y, 0), ct.gather(y, 1))\n", sig, ErrorKind::Type,
                      "takes at most 3 positional arguments");
}

// cuTile's words, which its tests match, for the raw-memory methods and ct.atomic_* alike.
// test_raw_array_memory.py::test_no_offset_to_value_broadcasting
TEST(UpstreamMessages, RawMemoryStoreDoesNotBroadcastTheOffset) {
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(y):\n    y.get_raw_memory().store_offset(ct.arange(1, dtype=ct.int64), "
                      "ct.arange(8, dtype=ct.float32))\n",
                      "y=float32[?]", ErrorKind::Type, "Value shape (8,) is not broadcastable to the index shape (1,)");
}

// test_atomic.py: TestInvalidAtomicMemoryOrderAndScope, test_atomic_bitwise, test_atomic_cas
TEST(UpstreamMessages, AtomicsOrderScopeAndDtypes) {
  const std::string pre = "@ct.kernel\ndef k(x, y):\n    mem = x.get_raw_memory()\n";
  const char* sig = "x=int32[?], y=int64[?]";
  for (const char* call : {"mem.atomic_cas_offset(0, 0, 0, ", "ct.atomic_cas(x, 0, 0, 0, "}) {
    EXPECT_KERNEL_ERROR(pre + "    " + call + "memory_order=ct.MemoryOrder.WEAK, memory_scope=ct.MemoryScope.DEVICE)\n",
                        sig, ErrorKind::Type, "Invalid memory order for tile_atomic_cas");
    EXPECT_KERNEL_ERROR(pre + "    " + call + "memory_order=ct.MemoryOrder.ACQUIRE, memory_scope=ct.MemoryScope.NONE)\n",
                        sig, ErrorKind::Type, "tile_atomic_cas with ACQUIRE memory ordering requires a memory scope");
  }
  for (const char* call : {"mem.atomic_add_offset(0, 0, ", "ct.atomic_add(x, 0, 0, "}) {
    EXPECT_KERNEL_ERROR(pre + "    " + call + "memory_order=ct.MemoryOrder.WEAK, memory_scope=ct.MemoryScope.DEVICE)\n",
                        sig, ErrorKind::Type, "Invalid memory order for tile_atomic_rmw");
    EXPECT_KERNEL_ERROR(pre + "    " + call + "memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.NONE)\n",
                        sig, ErrorKind::Type, "tile_atomic_rmw with RELAXED memory ordering requires a memory scope");
  }
  EXPECT_KERNEL_ERROR(pre + "    mem.atomic_and_offset(0, ct.gather(y, 0))\n", sig, ErrorKind::Type,
                      "Bitwise atomic read-modify-write operations require the update dtype (int64) to exactly match "
                      "the target dtype (int32)");
  EXPECT_KERNEL_ERROR(pre + "    mem.atomic_add_offset(0, ct.gather(y, 0))\n", sig, ErrorKind::Type, "cannot implicitly cast");
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(x):\n    x.get_raw_memory().atomic_xor_offset(0, 1)\n", "x=float32[?]",
                      ErrorKind::Type, "Unsupported array dtype: float32");
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(x):\n    ct.atomic_max(x, 0, 1.0)\n", "x=float64[?]", ErrorKind::Type,
                      "Unsupported array dtype: float64");
}

}  // namespace
}  // namespace tile2cu
