#!/usr/bin/env python3
"""--emit=html: the side-by-side page.

    check_html.py TILE2CU                  # the page itself (no browser)
    check_html.py TILE2CU --browser OUTDIR # rendered by headless chromium: screenshots in OUTDIR

Without a browser: the page is self-contained (no URL it would fetch), shows every Python line,
and its CUDA pane is exactly the .cu that --emit=cu prints (the #line directives it was built
from are hidden), and the statement -> code links are the ones the #line directives give.

With --browser: chromium (headless) renders the pages; the screenshots must not be blank (many
distinct colours, much non-background area), and after `?highlight=N` (the page's own URL
parameter, what a click does) the DOM has the highlight class on Python line N and on the CUDA
lines it produced, in the specialization `?spec=` selects, and nowhere else. Exits 77 (CTest:
skipped) when no chromium is installed; it installs nothing.
"""
import html
import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ["vector_add", "row_bias_scale", "softmax", "gelu_helper", "tile_walk"]

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)
    return cond


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def page_lines(page, pane):
    """(attributes, text) of each line of the pane with id `pane` (py or cu)."""
    start = page.index(f'id="{pane}"')
    end = page.index("</section>", start)
    body = page[start:end]
    if pane == "cu":
        body = body.split('<details class="cuh">')[0]
    out = []
    for m in re.finditer(r'<div class="(ln[^"]*)"([^>]*)><span class="no">(\d+)</span><span class="src">(.*?)</span>(?:<span class="badge"></span>)?</div>', body):
        text = html.unescape(re.sub(r"<[^>]+>", "", m.group(4)))
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(2)))
        attrs["class"] = m.group(1)
        attrs["no"] = int(m.group(3))
        out.append((attrs, text))
    return out


def data_of(page):
    m = re.search(r'<script type="application/json" id="tile2cu-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1)) if m else None


def check_page(tool, name, tmp):
    py = ROOT / "samples" / f"{name}.py"
    out = tmp / f"{name}.html"
    r = run([tool, str(py), "--emit=html", "-o", str(out)])
    if not check(r.returncode == 0, f"{name}: --emit=html failed: {r.stderr}"):
        return None
    page = out.read_text()
    stdout = run([tool, str(py), "--emit=html"]).stdout
    check(stdout == page, f"{name}: --emit=html to stdout and to -o differ")
    # Self-contained: nothing to fetch.
    check(not re.search(r'(src|href)\s*=\s*"(?!#)', page), f"{name}: the page links an external resource")
    check(not re.search(r"@import|url\(|https?://", page), f"{name}: the page references a URL")
    check("<style>" in page and "<script>" in page, f"{name}: no inline CSS/JS")
    data = data_of(page)
    if not check(data is not None, f"{name}: no annotation data"):
        return None
    # Python pane: every line, in order.
    src = py.read_text().split("\n")
    if src and src[-1] == "":
        src.pop()
    py_lines = page_lines(page, "py")
    check([t for _, t in py_lines] == src, f"{name}: the Python pane is not the source")
    # CUDA pane: exactly the .cu that --emit=cu prints, no #line.
    cu = run([tool, str(py), "--emit=cu"]).stdout.split("\n")
    if cu and cu[-1] == "":
        cu.pop()
    cu_lines = page_lines(page, "cu")
    check([t for _, t in cu_lines] == cu, f"{name}: the CUDA pane differs from --emit=cu")
    check([a["no"] for a, _ in cu_lines] == list(range(1, len(cu) + 1)), f"{name}: CUDA line numbers")
    check("#line" not in page.split('id="tile2cu-data"')[0], f"{name}: a #line directive is shown")
    # Links: against the #line directives themselves.
    directed = run([tool, str(py), "--emit=cu", "--line-directives"]).stdout.split("\n")
    starts = {int(a["id"][4:]): int(a["data-stmt"]) for a, _ in py_lines}
    expected, current = [], 0
    for line in directed:
        m = re.match(r'#line (\d+) "(.*)"', line)
        if m:
            current = 0 if m.group(2).endswith(".cu") else starts[int(m.group(1))]
            continue
        expected.append(current)
    # Closing lines ("}", "} else {", "});" of with_whole_tiles) belong to the block they close.
    closers = ("}", "} else {", "});")
    code_lines = [(a, t) for (a, t), e in zip(cu_lines, expected) if e and not t.strip().startswith("//")
                  and t.strip() not in closers]
    check(all(int(a.get("data-py", 0)) == starts[e] for (a, t), e in zip(cu_lines, expected)
              if e and not t.strip().startswith("//") and t.strip() not in closers),
          f"{name}: a CUDA line is linked to another statement than its #line says")
    check(len(code_lines) > 0, f"{name}: no CUDA line linked to Python")
    names = [s["name"] for s in data["specs"]]
    check(names and all(f'data-spec="{n}"' in page for n in names), f"{name}: specialization sections")
    for s in data["specs"]:
        check(s["threads"] > 0 and s["layouts"], f"{name}/{s['name']}: thread count / layouts not found")
        layout_names = [l["name"] for l in s["layouts"]]
        check(len(layout_names) == len(set(layout_names)), f"{name}/{s['name']}: a layout listed twice")
        # softmax's bf16 rows: a copy for whole tiles on its own thread count (layout_plan.cpp).
        if s["name"] == "softmax_bf16":
            check((s["threads"], s.get("wholeThreads")) == (256, 512),
                  f"{name}/{s['name']}: threads {s['threads']}, copy for whole tiles {s.get('wholeThreads')}")
    return out, data, py_lines, cu_lines


# ---- PNG, just enough to count colours in a chromium screenshot ---------------------------------
def png_pixels(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browser_checks(tool, outdir):
    chromium = find_chromium()
    if not chromium:
        print("chromium not found: browser checks skipped")
        return 77
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        profile = tmp / "profile"
        base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--virtual-time-budget=3000"]
        # (sample, the Python line to highlight: the first one that starts with this text, and the
        # specialization to select)
        cases = [("row_bias_scale", "result = x_tile * scale", "row_bias_scale_f16"),
                 ("vector_add", "a_tile = ct.load(", None), ("softmax", "e = ct.exp(", "softmax_f32"),
                 ("tile_walk", "if t % 3 == 2:", None), ("gelu_helper", "inner = SQRT_2_OVER_PI", "gelu_bf16")]
        for name, text, spec in cases:
            line = next(n for n, src in enumerate((ROOT / "samples" / f"{name}.py").read_text().split("\n"), 1)
                        if src.strip().startswith(text))
            got = check_page(tool, name, tmp)
            if not got:
                continue
            page, data, py_lines, cu_lines = got
            url = page.resolve().as_uri() + f"?highlight={line}" + (f"&spec={spec}" if spec else "")
            shot = outdir / f"{name}.png"
            if shot.exists():
                shot.unlink()
            r = run(base + [f"--screenshot={shot}", "--window-size=1400,900", "--hide-scrollbars", url], timeout=120)
            if not check(shot.exists(), f"{name}: no screenshot ({r.stderr[-2000:]})"):
                continue
            width, height, bpp, rows = png_pixels(shot)
            check((width, height) == (1400, 900), f"{name}: screenshot is {width}x{height}")
            colours, busy = set(), 0
            background = rows[0][:3]
            for row in rows[::3]:
                for x in range(0, width * bpp, bpp * 3):
                    px = row[x:x + 3]
                    colours.add(px)
                    if px != b"\xff\xff\xff" and px != background:
                        busy += 1
            total = len(rows[::3]) * len(range(0, width * bpp, bpp * 3))
            print(f"{name}: screenshot {shot}: {len(colours)} distinct colours, {100 * busy // total}% non-background")
            check(len(colours) >= 64, f"{name}: screenshot looks blank ({len(colours)} colours)")
            check(busy * 10 >= total, f"{name}: screenshot mostly empty")
            # The DOM after the page's script ran, highlighting `line`.
            r = run(base + ["--dump-dom", url], timeout=120)
            dom = r.stdout
            if not check('data-ready="1"' in dom, f"{name}: the page's script did not finish ({r.stderr[-2000:]})"):
                continue
            stmt = next(int(a["data-stmt"]) for a, _ in py_lines if a["id"] == f"py-L{line}")
            want_spec = spec or data["specs"][0]["name"]
            on = re.findall(r'<div class="sec on" data-spec="([^"]+)"', dom)
            check(on == [want_spec], f"{name}: selected specialization {on}, expected {want_spec}")
            hl_py = re.findall(r'<div class="ln[^"]*\bhl\b[^"]*" id="py-L(\d+)" data-stmt="(\d+)"', dom)
            check(hl_py and all(int(s) == stmt for _, s in hl_py) and str(line) in [l for l, _ in hl_py],
                  f"{name}: Python line {line} not highlighted (got {hl_py})")
            # CUDA lines highlighted: all in the selected section, all linked to the statement.
            sections = re.split(r'(<div class="sec[^"]*" data-spec="[^"]+">)', dom)
            hl_cu = []
            current = None
            for part in sections:
                m = re.match(r'<div class="sec[^"]*" data-spec="([^"]+)">', part)
                if m:
                    current = m.group(1)
                    continue
                for cls, py in re.findall(r'<div class="(ln[^"]*)" data-py="(\d+)"', part):
                    if re.search(r"\bhl\b", cls):
                        hl_cu.append((current, int(py)))
            check(hl_cu, f"{name}: no CUDA line highlighted for Python line {line}")
            check(all(py == stmt for _, py in hl_cu), f"{name}: CUDA lines of other statements highlighted")
            check(all(sec in (want_spec, None) for sec, _ in hl_cu),
                  f"{name}: highlighted CUDA lines outside {want_spec}")
            details = re.search(r'<div class="details" id="details">(.*?)</div>', dom, re.S)
            check(details and f"Python line {stmt}" in details.group(1), f"{name}: details panel not filled")
            print(f"{name}: ?highlight={line}: {len(hl_py)} Python and {len(hl_cu)} CUDA lines highlighted")
    print(f"{len(failures)} failed" if failures else "html (browser): all checks passed")
    return 1 if failures else 0


def main():
    tool = os.path.abspath(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[2] == "--browser":
        return browser_checks(tool, sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name in SAMPLES:
            check_page(tool, name, tmp)
        # Errors: a message and no page.
        out = tmp / "bad.html"
        r = run([tool, str(ROOT / "tests" / "bad_inputs" / "039_broadcast_mismatch.py"), "--emit=html", "-o", str(out),
                 "--sig", "a=float32[?], b=float32[?], TILE=16"])
        check("not broadcastable" in r.stderr, "bad input: not the expected error")
        check(r.returncode != 0 and "error" in r.stderr and not out.exists(), "bad input: a page was written")
    print(f"{len(failures)} failed" if failures else "html: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
