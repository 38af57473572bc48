// tile2cu::whole_in_every_block (memory.cuh), the launcher's proof that lets a kernel's copy for
// kTilesWhole = true run: over many arrays, grids and index patterns it must answer exactly as
// every block's own test (whole_tile, the device code, here run on the host) taken together.
// Run by tests/runtime/run_host_test.sh (ctest runtime_launch_whole). No GPU needed.
#include <tile2cu/tile2cu.cuh>

#include <cstdio>
#include <cstdlib>
#include <random>

namespace {

using tile2cu::Array;
using tile2cu::LaunchIndex;

int failures = 0;
int proofs = 0;  // cases proved whole: the test must see plenty of both answers

// Every block's test, as the kernel makes it.
template <class L, class T, int R>
bool every_block_whole(const Array<T, R>& a, const LaunchIndex (&index)[R], dim3 grid) {
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        const unsigned bid[3] = {x, y, z};
        int64_t at[R];
        for (int k = 0; k < R; ++k) at[k] = index[k].block_axis >= 0 ? bid[index[k].block_axis] : index[k].literal;
        if (!tile2cu::whole_tile<L>(a, at)) return false;
      }
  return true;
}

template <class L, class T, int R>
void check(const char* what, const Array<T, R>& a, const LaunchIndex (&index)[R], dim3 grid) {
  const bool proved = tile2cu::whole_in_every_block<L>(a, index, grid);
  const bool truth = every_block_whole<L>(a, index, grid);
  proofs += proved;
  if (proved && !truth) {
    std::printf("FAIL %s: proved whole, but a block's tile is not\n", what);
    ++failures;
  } else if (truth && !proved) {
    std::printf("FAIL %s: every block's tile is whole, not proved\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  using Row = tile2cu::BlockedLayout<tile2cu::Shape<1, 256>, 64, 8>;  // 2-D, 16-bit: 16-byte runs
  using Vec = tile2cu::BlockedLayout<tile2cu::Shape<512>, 128, 4>;    // 1-D, float: 16-byte runs
  using Tile2d = tile2cu::BlockedLayout<tile2cu::Shape<8, 32>, 64, 4>;
  alignas(16) static unsigned char memory[64];  // never dereferenced: only addresses matter
  std::mt19937 rng(20261126);
  int cases = 0;
  for (int round = 0; round < 4000; ++round, ++cases) {
    const int misalign = rng() % 4 == 0 ? int(rng() % 8) * 2 : 0;
    auto* half_data = reinterpret_cast<__half*>(memory + misalign);
    auto* float_data = reinterpret_cast<float*>(memory + (misalign & ~3));
    const int rows = 1 + int(rng() % 9), cols = 200 + int(rng() % 120);
    const int row_stride = cols + int(rng() % 3) * 4 - (rng() % 5 == 0 ? 1 : 0);
    const int col_stride = rng() % 10 == 0 ? 2 : 1;
    // Rows of 256 halves at (bid.x, 0), (bid.y, literal) ...
    const Array<__half, 2> a{half_data, {rows, cols * (1 + int(rng() % 3))}, {row_stride * 2, col_stride}};
    const dim3 grid(1 + rng() % 10, 1 + rng() % 3, 1);
    check<Row>("row (bid.x, 0)", a, {LaunchIndex::bid(0), 0}, grid);
    check<Row>("row (bid.y, 1)", a, {LaunchIndex::bid(1), 1}, grid);
    check<Row>("row (2, bid.x)", a, {2, LaunchIndex::bid(0)}, grid);
    // ... vectors of 512 floats at (bid.x) and (literal) ...
    const Array<float, 1> v{float_data, {int(rng() % 3000)}, {col_stride}};
    check<Vec>("vector (bid.x)", v, {LaunchIndex::bid(0)}, grid);
    check<Vec>("vector (3)", v, {3}, grid);
    // ... and 8 x 32 float tiles at (bid.y, bid.x).
    const Array<float, 2> m{float_data, {int(rng() % 40), int(rng() % 200)}, {int(rng() % 260), col_stride}};
    check<Tile2d>("tile (bid.y, bid.x)", m, {LaunchIndex::bid(1), LaunchIndex::bid(0)}, grid);
  }
  // The edges: the last block exactly at the end, and one past it.
  const Array<float, 1> exact{reinterpret_cast<float*>(memory), {512 * 7}, {1}};
  if (!tile2cu::whole_in_every_block<Vec>(exact, {LaunchIndex::bid(0)}, dim3(7))) {
    std::printf("FAIL: 7 blocks of 512 over 3584 floats are whole\n");
    ++failures;
  }
  if (tile2cu::whole_in_every_block<Vec>(exact, {LaunchIndex::bid(0)}, dim3(8))) {
    std::printf("FAIL: an 8th block of 512 over 3584 floats is not whole\n");
    ++failures;
  }
  std::printf("%d cases (6 accesses each), %d proved whole, %d failures\n", cases, proofs, failures);
  if (proofs < cases / 4 || proofs > cases * 5) {
    std::printf("FAIL: too few or too many cases proved whole to tell anything\n");
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}
