"""tilegen: random, well-typed cuTile kernels for differential testing of tile2cu (issue 26)."""
