"""Tile-order helpers shared by kernels (imported as `from tile_order import grouped_tile`).

tile2cu finds a module imported by a kernel file next to it (tile_order.py here), evaluates it
like the kernel's own file and inlines its helpers; the generated code quotes their lines from
this file.
"""
import cuda.tile as ct


def grouped_tile(tile_id, tiles_m, tiles_n, GROUP: ct.Constant[int]):
    """Output tile (row, col) for a linear tile id, walking GROUP tile-rows at a time down each
    column: neighbouring CTAs share B columns and A rows, so the operands stay in L2."""
    per_group = GROUP * tiles_n
    group = tile_id // per_group
    first_row = group * GROUP
    rows_here = min(tiles_m - first_row, GROUP)
    row = first_row + (tile_id % per_group) % rows_here
    col = (tile_id % per_group) // rows_here
    return row, col
