"""A NumPy reference interpreter of cuTile for the random kernels' GPU oracle (issue 26, oracle 3).

    expected = reference.run_case(source, kernel_name, case)

runs a kernel's Python source for every block of the case's grid, three times (exact, perturbed
and the perturbed run's mirror image: numerics.py), and returns the written arrays and their racy masks; compare.py judges a GPU's
outputs against them."""
from dataclasses import dataclass

from . import interpreter, numerics
from .inputs import Case, make_case
from .numerics import NotModelled, UndefinedBehaviour


@dataclass
class Expected:
    exact: dict       # array name -> numpy array after the exact run
    perturbed: dict   # array name -> numpy array after the perturbed run
    racy: dict        # array name -> bool mask of elements the GPU may leave either way
    mirrored: dict = None  # array name -> numpy array after the perturbed run's mirror image


def run_case(source, kernel_name, case, seed=0):
    results = {}
    for mode in ("exact", "perturbed", "mirrored"):
        args = case.args()
        interpreter.run(source, kernel_name, args, case.grid, mode=mode, seed=seed)
        results[mode] = {n: args[n] for n in case.outputs}
    racy = {n: results["exact"][n].racy | results["perturbed"][n].racy | results["mirrored"][n].racy
            for n in case.outputs}
    return Expected({n: b.data for n, b in results["exact"].items()},
                    {n: b.data for n, b in results["perturbed"].items()}, racy,
                    {n: b.data for n, b in results["mirrored"].items()})


__all__ = ["Case", "Expected", "make_case", "run_case", "NotModelled", "UndefinedBehaviour", "numerics"]
