"""Host program for samples/tile_walk.py, written as for cuTile: a runtime int scalar and a
persistent grid, launched on a side stream and inside a CUDA graph.

    python -m tile2cu run samples/host/tile_walk.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tile_walk import tile_walk  # noqa: E402

TILE = 512


def close(y, x, stop_tile):
    # y is computed in float32: 1 + x + x may lose up to a few float32 ulps of (1 + 2|x|).
    slack = 4 * 2.0**-23 * (1 + 2 * x.double().abs())
    return bool(((y.double() - reference(x, stop_tile)).abs() <= slack).all())


def reference(x, stop_tile):
    n = x.numel()
    k = torch.arange(n, device=x.device)
    t = k // TILE
    y = torch.where(t % 3 == 2, -x.double(), 1 + 2 * x.double())
    marker = 0.5 + (k % 1000).double()
    return torch.where(t >= stop_tile, marker, y)


n, stop = 100_003, 57
x = torch.randn(n, device="cuda")
y = torch.full_like(x, float("nan"))
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())   # x and y were written on the default stream
with torch.cuda.stream(side):
    ct.launch(side, (40,), tile_walk, (x, y, stop, TILE))
side.synchronize()
assert close(y, x, stop), "tile_walk on a side stream"
print("tile_walk on a side stream: ok")

# CUDA graph: capture one launch, replay it on new data in the same buffers.
y.fill_(float("nan"))
graph = torch.cuda.CUDAGraph()
capture = torch.cuda.Stream()
with torch.cuda.stream(capture):
    with torch.cuda.graph(graph, stream=capture):
        ct.launch(capture, (40,), tile_walk, (x, y, stop, TILE))
for _ in range(3):
    x.copy_(torch.randn(n, device="cuda"))
    y.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    assert close(y, x, stop), "tile_walk graph replay"
print("tile_walk in a CUDA graph (3 replays): ok")
