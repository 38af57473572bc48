"""Cumulative sum along each row of a matrix, for rows of any length.

Block r walks row r in tiles of TILE columns. Each tile's inclusive prefix sum (ct.cumsum) is
shifted by the running total of the tiles before it, which is the last element of the previous
shifted prefix (ct.extract of the last column). Padding with zeros keeps the ragged last tile
from disturbing anything that is stored.

Launch: grid = (rows,)
"""
import cuda.tile as ct


@ct.kernel
def cumsum_rows(x, y, TILE: ct.Constant[int]):
    row = ct.bid(0)
    carry = ct.zeros((1, 1), dtype=x.dtype)
    for j in range(ct.num_tiles(x, axis=1, shape=(1, TILE))):
        tile = ct.load(x, index=(row, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
        prefix = ct.cumsum(tile, axis=1) + carry
        ct.store(y, index=(row, j), tile=prefix)
        carry = ct.extract(prefix, index=(0, TILE - 1), shape=(1, 1))
