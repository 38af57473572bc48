"""Oracle 1: every generated kernel transpiles (or is refused with a documented error class), and
what tile2cu writes builds with nvcc for sm_80 and sm_90a.

nvcc spends most of a small translation unit parsing the runtime headers, so accepted programs
are built in batches: their kernels go into one Python module (each keeps its own names, rk<i>
and rk<i>_h<j>), with one signature line per kernel, which tile2cu turns into one .cu file and
nvcc into one object for both architectures. A batch that fails names its culprits through the
`// ---- <specialization>:` section the error lines fall in."""
import re
import subprocess
from dataclasses import dataclass

# Refusals that a well-typed program may meet: tile2cu's documented "not supported yet" class
# (docs/coverage.md lists each). Any other class on a generated kernel is a finding.
DOCUMENTED_REFUSALS = ("TileUnsupportedFeatureError",)
TRANSPILE_TIMEOUT_S = 20
NVCC_FLAGS = ["-std=c++17", "-O3", "-Werror", "all-warnings",
              "-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90a,code=sm_90a"]

DIAGNOSTIC = re.compile(r":(\d+):(\d+): error\[(\w+)\]: (.*)")


@dataclass
class Outcome:
    kind: str            # ok, refused (documented), rejected (other class), crash, timeout
    error_class: str = ""
    message: str = ""
    detail: str = ""     # stderr, for the report

    @property
    def failed(self):
        return self.kind in ("rejected", "crash", "timeout")

    def signature(self):
        """What a shrunk program must keep to count as the same failure."""
        return (self.kind, self.error_class, self.message)


def transpile(tool, module_path, sig, out_path):
    cmd = [tool, str(module_path), "-o", str(out_path)] + (["--sig", sig] if sig else [])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=TRANSPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Outcome("timeout", detail=f"no answer in {TRANSPILE_TIMEOUT_S} s")
    if r.returncode == 0:
        return Outcome("ok")
    m = DIAGNOSTIC.search(r.stderr)
    if r.returncode == 1 and m:
        kind = "refused" if m.group(3) in DOCUMENTED_REFUSALS else "rejected"
        return Outcome(kind, m.group(3), m.group(4).strip(), r.stderr)
    first = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[0]
    return Outcome("crash", f"exit {r.returncode}", re.sub(r"^\S+:\d+:\d+: ", "", first), r.stderr)


def kernel_text(module_source):
    """A generated module without its header comments and import: what a batch concatenates."""
    lines = module_source.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("import cuda.tile"))
    return "\n".join(lines[start + 1:]).strip("\n") + "\n"


def batch_module(programs):
    """One module and its signature file for programs given as (kernel name, module source, sig)."""
    source = ["import math", "", "import cuda.tile as ct", ""]  # math: generated module constants
    sigs = []
    for name, module, sig in programs:
        source += ["", kernel_text(module)]
        sigs.append(f"{name}_s = {name}({sig})")
    return "\n".join(source), "\n".join(sigs) + "\n"


def transpile_batch(tool, stem, programs):
    """Writes a batch's module (stem.py) and signatures (stem.sigs) for `programs` (each with
    name, source and sig) and transpiles it into stem.cu: the outcome."""
    module, sigs = batch_module([(p.name, p.source, p.sig) for p in programs])
    stem.with_suffix(".py").write_text(module)
    stem.with_suffix(".sigs").write_text(sigs)
    return transpile(tool, stem.with_suffix(".py"), None, stem.with_suffix(".cu"))


def nvcc_build(nvcc, runtime_dir, cu_path, obj_path, timeout_s=1800):
    cmd = [nvcc, *NVCC_FLAGS, "-I", str(runtime_dir), "-c", str(cu_path), "-o", str(obj_path)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return False, f"nvcc: no answer in {timeout_s} s"
    return r.returncode == 0, r.stdout + r.stderr


def errors_by_kernel(cu_text, cu_name, log):
    """nvcc's log lines grouped by the kernel whose `// ---- <kernel>_s:` section they point into
    (a line in a runtime header counts where its "at line N of <cu>" instantiation points)."""
    sections = []  # (first line, kernel name)
    for number, line in enumerate(cu_text.splitlines(), start=1):
        m = re.match(r"// ---- \w+_s: (\w+)\(", line)
        if m:
            sections.append((number, m.group(1)))
    found = {}
    pending = []  # lines of a message whose location comes later (an instantiation context)
    for line in log.splitlines():
        pending.append(line)
        m = re.search(re.escape(cu_name) + r"\((\d+)\)", line) or \
            re.search(r"at line (\d+) of \S*" + re.escape(cu_name), line)
        if not m:
            continue
        owners = [name for first, name in sections if first <= int(m.group(1))]
        if owners:
            found.setdefault(owners[-1], []).extend(pending)
        pending = []
    return found


def nvcc_errors(log):
    """What nvcc said, errors before warnings (which -Werror makes errors: a kernel's first
    symptom is its first hard error), each once, without file, line or numbers."""
    found = {"error": [], "warning": []}
    for line in log.splitlines():
        m = re.search(r"\b(error|warning)\b[^:]*: (.*)", line)
        if m:
            message = re.sub(r"\b\d+\b", "N", m.group(2).strip())
            if message not in found[m.group(1)]:
                found[m.group(1)].append(message)
    ordered = found["error"] + found["warning"]
    return ordered or [log.strip().splitlines()[-1] if log.strip() else "nvcc failed"]


def first_nvcc_error(log):
    return nvcc_errors(log)[0]
