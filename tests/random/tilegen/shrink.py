"""Delta debugging of a failing generated module: fewer statements, smaller shapes, fewer parameters.

A candidate is kept when `still_fails(source, sig)` holds: the caller checks that the failure is
the same one (same class and message, or the same first nvcc error), so deleting a statement
another one needs (an undefined name) is simply not kept."""
import re

KERNEL_DEF = re.compile(r"(?<=@ct\.kernel\n)def (\w+)\((.*)\):$", re.M)


def _blocks(lines, start):
    """(first, end) line ranges that may go: each statement of the kernel and helper bodies (a
    compound statement with the lines indented under it), and each helper function whole."""
    out = []
    for i in range(start, len(lines)):
        line = lines[i]
        if not line.strip() or line.startswith(("@", "#")):
            continue
        helper = line.startswith("def ") and not lines[i - 1].startswith("@ct.kernel")
        if not line.startswith("    ") and not helper:
            continue
        indent = len(line) - len(line.lstrip())
        end = i + 1
        if line.rstrip().endswith(":"):
            while end < len(lines) and (not lines[end].strip() or
                                        len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
        out.append((i, end))
    return out


def _split(source):
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("import cuda.tile"))
    return lines, start


def delete_statements(source, sig, still_fails):
    """Remove statements, chunks of consecutive ones first, then one at a time, to a fixpoint."""
    changed = True
    while changed:
        changed = False
        lines, start = _split(source)
        blocks = _blocks(lines, start)
        size = max(1, len(blocks) // 2)
        while size >= 1:
            i = len(blocks) - size
            while i >= 0:
                first, end = blocks[i][0], max(b[1] for b in blocks[i:i + size])
                candidate = "\n".join(lines[:first] + lines[end:]) + "\n"
                if still_fails(candidate, sig):
                    source, changed = candidate, True
                    lines, start = _split(source)
                    blocks = _blocks(lines, start)
                    i = min(i, len(blocks)) - size
                else:
                    i -= size
            size //= 2
    return source


def halve_shapes(source, sig, still_fails):
    """Replace every occurrence of one power of two (in the code and the signature) by its half."""
    changed = True
    while changed:
        changed = False
        values = sorted({int(v) for v in re.findall(r"\b(\d+)\b", source + " " + sig)
                         if int(v) >= 2 and int(v) & (int(v) - 1) == 0}, reverse=True)
        for v in values:
            pattern = re.compile(rf"(?<![\w.]){v}(?![\w.])")
            lines, start = _split(source)
            code = "\n".join(lines[start:])
            new_code, new_sig = pattern.sub(str(v // 2), code), pattern.sub(str(v // 2), sig)
            candidate = "\n".join(lines[:start] + [new_code]) + "\n"
            if (new_code, new_sig) != (code, sig) and still_fails(candidate, new_sig):
                source, sig, changed = candidate, new_sig, True
    return source, sig


def drop_unused_parameters(source, sig, still_fails):
    """Remove kernel parameters the body no longer names, from the def line and the signature."""
    m = KERNEL_DEF.search(source)
    entries = [e.strip() for e in re.split(r",(?![^\[]*\])", sig) if e.strip()]
    for entry in list(entries):
        name = entry.split("=")[0].strip()
        body = source[m.end():]
        if re.search(rf"\b{name}\b", body):
            continue
        params = [p.strip() for p in m.group(2).split(",") if p.strip() and p.split(":")[0].strip() != name]
        candidate = source[:m.start()] + f"def {m.group(1)}({', '.join(params)}):" + source[m.end():]
        new_sig = ", ".join(e for e in entries if e != entry)
        if still_fails(candidate, new_sig):
            source, sig, entries = candidate, new_sig, [e for e in entries if e != entry]
            m = KERNEL_DEF.search(source)
    return source, sig


def with_sig_header(source, sig):
    """The module with its `# sig:` header line replaced by sig."""
    return re.sub(r"^# sig: .*$", lambda _: f"# sig: {sig}", source, count=1, flags=re.M)


def shrink(source, sig, still_fails, log=print):
    """The smallest variant of (source, sig) found that still fails the same way."""
    def check(candidate, candidate_sig):
        return still_fails(with_sig_header(candidate, candidate_sig), candidate_sig)

    log(f"shrinking: {len(source.splitlines())} lines")
    source = delete_statements(source, sig, check)
    source, sig = halve_shapes(source, sig, check)
    source = delete_statements(source, sig, check)
    source, sig = drop_unused_parameters(source, sig, check)
    source = with_sig_header(source, sig)
    log(f"shrunk to {len(source.splitlines())} lines")
    return source, sig
