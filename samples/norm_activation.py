"""Row RMS-normalisation followed by an activation: y[i, :] = act(x[i, :] / sqrt(mean(x[i, :]^2) + eps)).

The settings live in a frozen dataclass (a module-level default, specialised per kernel with
dataclasses.replace) and the activation is an enum picked by the ACT constant, so each
specialisation keeps only its own activation's code. A second dataclass bundles the row a
block works on with the tile width and knows how to load and store it.

Launch: grid = (n_rows,); TN >= the number of columns.
"""
import dataclasses
import enum

import cuda.tile as ct


class Activation(enum.Enum):
    RELU = 0
    GELU = 1  # the tanh approximation
    SILU = 2


@dataclasses.dataclass(frozen=True)
class NormActivation:
    act: Activation = Activation.GELU
    eps: float = 1e-5

    GELU_K = 0.7978845608028654  # sqrt(2 / pi)

    def activate(self, t):
        if self.act == Activation.RELU:
            return ct.maximum(t, 0.0)
        if self.act == Activation.GELU:
            return 0.5 * t * (1.0 + ct.tanh(self.GELU_K * (t + 0.044715 * t * t * t)))
        return t / (1.0 + ct.exp(-t))


@dataclasses.dataclass(frozen=True)
class RowTile:
    row: int    # a run-time block id
    width: int  # the tile width, a compile-time constant

    def load(self, x):
        t = ct.load(x, index=(self.row, 0), shape=(1, self.width), padding_mode=ct.PaddingMode.ZERO)
        return t.astype(ct.float32)

    def store(self, y, t):
        ct.store(y, index=(self.row, 0), tile=t.astype(y.dtype))


DEFAULT = NormActivation()


@ct.kernel
def norm_activation(x, y, TN: ct.Constant[int], ACT: ct.Constant[int]):
    cfg = dataclasses.replace(DEFAULT, act=Activation(ACT))
    rows = RowTile(ct.bid(0), TN)
    t = rows.load(x)
    scale = ct.rsqrt(ct.sum(t * t, axis=1, keepdims=True) / x.shape[1] + cfg.eps)
    rows.store(y, cfg.activate(t * scale))
