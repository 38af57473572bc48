"""The typed model a generated kernel is built in, and its printing as Python plus signature.

A Value is a name the kernel has bound, with its dtype and static shape (a scalar has shape ()).
A Scope is what a statement may read: the values visible at that point (a loop body or a branch
gets a child scope whose new values do not escape it). KernelBuilder collects the parameters,
helper functions and body lines of one kernel."""
import math
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Value:
    name: str
    dtype: str
    shape: tuple

    @property
    def rank(self):
        return len(self.shape)

    @property
    def numel(self):
        return math.prod(self.shape)


@dataclass
class Param:
    name: str
    sig: str          # what follows "name=" in the signature: float32[?, 16], int32, True, 64
    annotation: str = ""


class Scope:
    def __init__(self, parent=None, values=None):
        self.values = list(parent.values if parent else []) + list(values or [])

    def add(self, value):
        self.values.append(value)
        return value

    def child(self):
        return Scope(self)


def broadcast(a, b):
    """NumPy broadcasting of two static shapes; None where they do not broadcast."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(reversed(out))


def shape_text(shape):
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ", ".join(str(d) for d in shape) + ")"


def sig_dims(dims):
    return "[" + ", ".join(str(d) for d in dims) + "]"


@dataclass
class KernelBuilder:
    name: str
    arrays: list = field(default_factory=list)      # Param, in creation order
    scalars: list = field(default_factory=list)
    constants: list = field(default_factory=list)
    helpers: list = field(default_factory=list)     # each a list of source lines
    body: list = field(default_factory=list)        # (indent, text)
    indent: int = 1
    counters: dict = field(default_factory=dict)
    extents: dict = field(default_factory=dict)    # array name -> per-axis hint (gpu_safe mode)
    module_constants: list = field(default_factory=list)  # "NAME = expr" lines above the helpers
    decorator_options: str = ""                      # "occupancy=2": @ct.kernel(...)

    def hint(self, array, axis, rank, text):
        """How the kernel reaches `axis` of `array` (t<N>, t<N>s or g<N>; reference/inputs.py)."""
        hints = self.extents.setdefault(array, [None] * rank)
        if hints[axis] is None or int(hints[axis].strip("tgs")) < int(text.strip("tgs")):
            hints[axis] = text

    def extents_header(self):
        return " ".join(f"{name}=" + ",".join(h or "t1" for h in hints)
                        for name, hints in self.extents.items())

    def fresh(self, prefix):
        n = self.counters.get(prefix, 0)
        self.counters[prefix] = n + 1
        return f"{prefix}{n}"

    def emit(self, text):
        self.body.append((self.indent, text))

    def array(self, prefix, dtype, dims, qualifiers=""):
        name = self.fresh(prefix)
        self.arrays.append(Param(name, f"{dtype}{sig_dims(dims)}{qualifiers}"))
        return name

    def scalar(self, dtype, annotation=""):
        """A runtime scalar parameter; annotation ": int" / ": float" / ": bool" where it agrees."""
        name = self.fresh("s")
        self.scalars.append(Param(name, dtype, annotation))
        return name

    def module_constant(self, expr):
        """A module-level constant the kernel reads as a loose literal (e.4)."""
        name = f"{self.name.upper()}_K{len(self.module_constants)}"  # unique in a batch module
        self.module_constants.append(f"{name} = {expr}")
        return name

    def constant(self, prefix, value, kind):
        name = self.fresh(prefix)
        self.constants.append(Param(name, repr(value), f": ct.Constant[{kind}]"))
        return name

    def params(self):
        return self.arrays + self.scalars + self.constants

    def signature(self):
        return ", ".join(f"{p.name}={p.sig}" for p in self.params())

    def source(self):
        """The kernel and its helpers as Python (without the module header)."""
        lines = []
        if self.module_constants:
            lines += self.module_constants + ["", ""]
        for helper in self.helpers:
            lines += helper + ["", ""]
        lines.append(f"@ct.kernel({self.decorator_options})" if self.decorator_options else "@ct.kernel")
        params = ", ".join(f"{p.name}{p.annotation}" for p in self.params())
        lines.append(f"def {self.name}({params}):")
        lines += ["    " * indent + text for indent, text in self.body]
        return "\n".join(lines) + "\n"
