# case: ct.grid_dependency_control_launch_dependents (programmatic dependent launch, spec T3) is rejected as not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:5: TileUnsupportedFeatureError: ct.grid_dependency_control_launch_dependents() is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.grid_dependency_control_launch_dependents()
    ct.store(b, index=(ct.bid(0),), tile=t)
