// Which masks of a flash-attention score function hold on a whole score tile, so that the main
// loop can skip them there. A causal or sequence-end mask (`where(cols <= rows, s, -inf)`) only
// changes the few tiles on the diagonal or past the end; evaluating it on every element of every
// tile cost 15 % of the causal loop's time on an H100 (docs/attention-notes.md, v6).
#pragma once

#include "ir/ir.hpp"

namespace tile2cu::ir {

// `score` is an AttentionLoop's score region, (s, row, col, j) -> the new s, with row and col
// the element's place in the BM x BN tile and j the key tile. A `where(c, a, b)` in it whose
// condition c is a conjunction of comparisons (<, <=, >, >=, ==) between integer values affine
// in (row, col), with coefficients that do not vary inside a tile, holds on the whole tile
// exactly when it holds at the tile's four corners: an affine inequality is true on a box iff it
// is true at the box's vertices. (Integer arithmetic is taken not to wrap: indices below 2^31.)
//
// Returns the mask region (row, col, j) -> bool, the conjunction of every such condition, and
// rewrites the score region: a new last argument `interior` (bool), and each such where reads
// `where(interior | c, a, b)`. The main loop evaluates the mask at the corners once per tile and
// passes the answer as `interior`; where it is true the compiler folds the conditions away.
// A score function with no such where gets the mask `true`: every tile is interior.
Block split_tile_mask(Function& fn, Block& score, const SourceRange& loc);

}  // namespace tile2cu::ir
