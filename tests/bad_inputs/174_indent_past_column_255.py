# case: valid Python indented past column 255, which tile2cu's parser cannot read
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:301: TileUnsupportedFeatureError: a line indented 300 columns
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    if TILE > 1:
                                                                                                                                                                                                                                                                                                            t = t + 1.0
    ct.store(b, index=(bid,), tile=t)
