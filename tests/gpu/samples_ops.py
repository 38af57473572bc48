"""GPU checks of the samples for scans, custom reductions and layout operations (issue 3).

run_samples.py calls make_samples(its own module) and adds what comes back to SAMPLES; the
classes follow its Sample protocol (cases / build / grid / reference / torch_fn / bench_case).
`rs.torch` is read at call time: run_samples imports torch in main().
"""


def make_samples(rs):
    cdiv, fmt_shape, FLOAT_DTYPES, F32_ULP = rs.cdiv, rs.fmt_shape, rs.FLOAT_DTYPES, rs.F32_ULP

    def shapes_cases(shapes):
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    class Transpose(rs.Sample):
        name, kernel, outputs = "transpose", "transpose", ("y",)
        kernels = ("transpose", "transpose_pipelined")

        def cases(self, spec, quick):
            tm, tn = spec.const("TM"), spec.const("TN")
            shapes = [(1, 1), (tm, tn), (3 * tm + 5, 2 * tn - 1), (tm - 1, 7), (100, 1000)]
            if not quick:
                shapes += [(1025, 3 * tn + 3)]
            return shapes_cases(shapes)

        def bench_case(self, spec):
            return {"label": fmt_shape((8192, 8192)), "shape": (8192, 8192)}

        def grid(self, spec, case, args):
            m, n = case["shape"]
            steps = spec.const("STEPS") if spec.kernel == "transpose_pipelined" else 1
            return (cdiv(m, spec.const("TM") * steps), cdiv(n, spec.const("TN")))

        def build(self, spec, case, ctx):
            m, n = case["shape"]
            return {"x": ctx.randn((m, n), spec.dtype("x")), "y": ctx.out("y", (n, m), spec.dtype("y"))}

        def reference(self, spec, case, args):
            return {"y": {"ref": args["x"].double().t().contiguous(), "exact": True}}

        def torch_fn(self, spec, args):
            x, y = args["x"], args["y"]
            return lambda: y.copy_(x.t())

    class CumsumRows(rs.Sample):
        name, kernel, outputs = "cumsum_rows", "cumsum_rows", ("y",)

        def cases(self, spec, quick):
            t = spec.const("TILE")
            shapes = [(1, 1), (3, t), (5, t + 1), (7, 3 * t - 5), (2, 100_003)]
            if not quick:
                shapes += [(300, 2 * t + 17)]
            return shapes_cases(shapes)

        def bench_case(self, spec):
            return {"label": fmt_shape((4096, 32768)), "shape": (4096, 32768)}

        def grid(self, spec, case, args):
            return (case["shape"][0],)

        def build(self, spec, case, ctx):
            m, n = case["shape"]
            dt = spec.dtype("x")
            x = ctx.randn((m, n), dt) if dt in FLOAT_DTYPES else ctx.randint(-1000, 1000, (m, n), dt)
            return {"x": x, "y": ctx.out("y", (m, n), spec.dtype("y"))}

        def reference(self, spec, case, args):
            x = args["x"]
            if not x.is_floating_point():
                return {"y": rs.torch.cumsum(x.long(), dim=1)}
            ref = rs.torch.cumsum(x.double(), dim=1)
            # Each tile is a tree of partial sums, then a chain of tile totals: the error grows
            # with the magnitude of what was added so far.
            slack = 64 * F32_ULP * rs.torch.cumsum(x.double().abs(), dim=1)
            return {"y": {"ref": ref, "slack": slack, "norm_tol": 1e-5}}

        def torch_fn(self, spec, args):
            x, y = args["x"], args["y"]
            return lambda: rs.torch.cumsum(x, dim=1, out=y)

    class Rope(rs.Sample):
        name, kernel, outputs = "rope", "rope", ("y",)

        def cases(self, spec, quick):
            ts = spec.const("TS")
            shapes = [(1, 1), (2, ts), (3, 3 * ts + 1), (4, ts - 1)]
            if not quick:
                shapes += [(8, 1000)]
            return [{"label": f"heads={h} seq={s}", "heads": h, "seq": s} for h, s in shapes]

        def bench_case(self, spec):
            return {"label": "heads=32 seq=8192", "heads": 32, "seq": 8192}

        def grid(self, spec, case, args):
            return (cdiv(case["seq"], spec.const("TS")), case["heads"])

        def build(self, spec, case, ctx):
            h, s, d = case["heads"], case["seq"], spec.const("D")
            theta = ctx.randn((s, d // 2), "float32", scale=3.0)
            cos = ctx.randn((s, d // 2), spec.dtype("cos"))
            sin = ctx.randn((s, d // 2), spec.dtype("sin"))
            cos.copy_(rs.torch.cos(theta))
            sin.copy_(rs.torch.sin(theta))
            return {"x": ctx.randn((h, s, d), spec.dtype("x")), "cos": cos, "sin": sin,
                    "y": ctx.out("y", (h, s, d), spec.dtype("y"))}

        def reference(self, spec, case, args):
            x, c, s = args["x"].double(), args["cos"].double(), args["sin"].double()
            half = x.shape[-1] // 2
            x1, x2 = x[..., :half], x[..., half:]
            ref = rs.torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1)
            mag = rs.torch.cat((x1.abs() * c.abs() + x2.abs() * s.abs(),) * 2, dim=-1)
            return {"y": {"ref": ref, "slack": 8 * F32_ULP * mag}}

        def torch_fn(self, spec, args):
            x, c, s, y = args["x"], args["cos"], args["sin"], args["y"]
            half = x.shape[-1] // 2

            def run():
                x1, x2 = x[..., :half].float(), x[..., half:].float()
                y.copy_(rs.torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1))
            return run

    class RowTop1(rs.Sample):
        name, kernel, outputs = "row_top1", "row_top1", ("index", "value")

        def cases(self, spec, quick):
            tn = spec.const("TN")
            shapes = [(1, 1), (3, tn), (100, tn - 1), (37, tn // 2 + 3)]
            if not quick:
                shapes += [(1000, 5)]
            return shapes_cases(shapes)

        def bench_case(self, spec):
            return {"label": fmt_shape((32768, spec.const("TN"))), "shape": (32768, spec.const("TN"))}

        def grid(self, spec, case, args):
            return (case["shape"][0],)

        def build(self, spec, case, ctx):
            m, n = case["shape"]
            return {"x": ctx.randn((m, n), spec.dtype("x")), "index": ctx.out("index", (m,), "int32"),
                    "value": ctx.out("value", (m,), spec.dtype("value"))}

        def reference(self, spec, case, args):
            x = args["x"].double()
            return {"index": x.argmax(dim=1), "value": {"ref": x.max(dim=1).values, "exact": True}}

        def torch_fn(self, spec, args):
            x = args["x"]
            return lambda: rs.torch.max(x, dim=1)

    class ShapeOps(rs.Sample):
        """Several kernels (samples/shape_ops.py); each method dispatches on spec.kernel."""
        name, kernel = "shape_ops", "permute_3d"
        kernels = ("permute_3d", "scan_variants", "bytes_views", "patch", "rank5_permute", "scratch_transpose")
        OUTPUTS = {"permute_3d": ("y",), "scan_variants": ("rev", "prod", "run_max"),
                   "bytes_views": ("raw", "bits", "halves"), "patch": ("y",), "rank5_permute": ("y",),
                   "scratch_transpose": ("y",)}

        def cases(self, spec, quick):
            self.outputs = self.OUTPUTS[spec.kernel]
            if spec.kernel == "scan_variants":
                tm, tn = spec.const("TM"), spec.const("TN")
                return shapes_cases([(1, 1), (tm, tn), (3 * tm + 1, 2 * tn - 3), (5, 333)])
            if spec.kernel == "bytes_views":
                t = spec.const("TILE")
                return [{"label": rs.fmt_n(n), "n": n} for n in (1, t, 3 * t + 1, 100_001)]
            if spec.kernel in ("permute_3d", "rank5_permute"):
                return [{"label": f"n={n}", "n": n} for n in (1, 16, 53, 1000)]
            return [{"label": f"m={m}", "m": m} for m in (1, 8, 29, 1001)]

        def bench_case(self, spec):
            self.outputs = self.OUTPUTS[spec.kernel]
            if spec.kernel == "scan_variants":
                return {"label": fmt_shape((4096, 4096)), "shape": (4096, 4096)}
            if spec.kernel == "bytes_views":
                return {"label": rs.fmt_n(1 << 24), "n": 1 << 24}
            if spec.kernel in ("permute_3d", "rank5_permute"):
                return {"label": "n=2^16", "n": 1 << 16}
            return {"label": "m=2^20", "m": 1 << 20}

        def grid(self, spec, case, args):
            if spec.kernel == "scan_variants":
                m, n = case["shape"]
                return (cdiv(m, spec.const("TM")), cdiv(n, spec.const("TN")))
            if spec.kernel == "bytes_views":
                return (cdiv(case["n"], spec.const("TILE")),)
            if spec.kernel in ("permute_3d", "rank5_permute"):
                return (cdiv(case["n"], spec.const("TA")),)
            if spec.kernel == "scratch_transpose":
                return (cdiv(case["m"], spec.const("T")),)
            return (cdiv(case["m"], spec.const("TM")),)

        def build(self, spec, case, ctx):
            k = spec.kernel
            if k == "permute_3d":
                n, b, c = case["n"], spec.const("B"), spec.const("C")
                return {"x": ctx.randn((n, b, c), "float32"), "y": ctx.out("y", (c, n, b), "float32")}
            if k == "rank5_permute":
                n = case["n"]
                return {"x": ctx.randn((n, 8, 32), "float32"), "y": ctx.out("y", (n, 8, 32), "float32")}
            if k == "scan_variants":
                m, n = case["shape"]
                dt = spec.dtype("x")
                if dt in FLOAT_DTYPES:  # near 1 so that products along 16 rows stay in range
                    x = ctx.randn((m, n), dt, scale=0.25)
                    x.add_(1.0)
                else:
                    x = ctx.randint(-3, 4, (m, n), dt)
                return {"x": x, **{o: ctx.out(o, (m, n), spec.dtype(o)) for o in ("rev", "prod", "run_max")}}
            if k == "bytes_views":
                n = case["n"]
                return {"x": ctx.randn((n,), "float32"), "raw": ctx.out("raw", (4 * n,), "uint8"),
                        "bits": ctx.out("bits", (n,), "int32"),
                        "packed": ctx.randint(0, 256, (2 * n,), "uint8"),
                        "halves": ctx.out("halves", (n,), "int16")}
            if k == "scratch_transpose":
                m, t = case["m"], spec.const("T")
                return {"x": ctx.randn((m, t), "float32"), "scratch": ctx.out("scratch", (m, t), "float32"),
                        "y": ctx.out("y", (m, t), "float32")}
            m, n = case["m"], spec.const("TN")
            return {"x": ctx.randn((m, n), "float32"), "y": ctx.out("y", (m, n), "float32")}

        def reference(self, spec, case, args):
            torch = rs.torch
            k = spec.kernel
            if k == "permute_3d":
                return {"y": {"ref": args["x"].double().permute(2, 0, 1), "exact": True}}
            if k == "rank5_permute":
                x = args["x"].double()
                ref = x.reshape(-1, 2, 4, 4, 8).permute(0, 3, 1, 4, 2).reshape(-1, 8, 32)
                return {"y": {"ref": ref, "exact": True}}
            if k == "bytes_views":
                x = args["x"].contiguous()
                halves = args["packed"].contiguous().view(torch.int16)
                return {"raw": x.view(torch.uint8), "bits": x.view(torch.int32), "halves": halves}
            if k == "scratch_transpose":
                t, m = spec.const("T"), case["m"]
                blocks = cdiv(m, t)
                padded = torch.zeros((blocks * t, t), dtype=torch.float32, device="cuda")
                padded[:m] = args["x"]
                tiles = padded.reshape(blocks, t, t)
                y = (tiles + tiles.transpose(1, 2)).reshape(blocks * t, t)[:m]  # one f32 rounding, as the kernel's
                return {"y": {"ref": y.double(), "exact": True}}
            if k == "patch":
                tm, tn = spec.const("TM"), spec.const("TN")
                m = case["m"]
                blocks = cdiv(m, tm)
                ref = torch.zeros((blocks * tm, tn), dtype=torch.float64, device="cuda")
                ref[:m] = args["x"].double()
                ref = ref.reshape(blocks, tm, tn)
                ref[:, : tm // 2, tn // 2:] = -1.0
                ref[:, tm - 1, 0] = 42.0
                return {"y": {"ref": ref.reshape(blocks * tm, tn)[:m], "exact": True}}
            # scan_variants: per (TM, TN) tile of the zero-padded input
            tm, tn = spec.const("TM"), spec.const("TN")
            x = args["x"]
            m, n = x.shape
            bm, bn = cdiv(m, tm), cdiv(n, tn)
            is_float = x.is_floating_point()
            wide = torch.float64 if is_float else torch.int64
            p = torch.zeros((bm * tm, bn * tn), dtype=wide, device="cuda")
            p[:m, :n] = x.to(wide)
            tiles = p.reshape(bm, tm, bn, tn)
            rev = tiles.flip(3).cumsum(3).flip(3)
            prod = tiles.cumprod(1)
            run_max = tiles.cummax(3).values
            out = {}
            for name, r, mag in (("rev", rev, tiles.abs().flip(3).cumsum(3).flip(3)),
                                 ("prod", prod, prod.abs()), ("run_max", run_max, None)):
                r = r.reshape(bm * tm, bn * tn)[:m, :n]
                if not is_float:
                    out[name] = (r + 2**31) % 2**32 - 2**31  # int32 wraps, as in cuTile
                elif mag is None:
                    out[name] = {"ref": r, "exact": True}
                else:
                    out[name] = {"ref": r, "slack": 64 * F32_ULP * mag.reshape(bm * tm, bn * tn)[:m, :n]}
            return out

        def torch_fn(self, spec, args):
            return None

    # A class listing `kernels` describes each of them (run_samples.py: one entry per kernel).
    return {s.name: {k: s for k in s.kernels} if hasattr(s, "kernels") else s
            for s in (Transpose(), CumsumRows(), Rope(), RowTop1(), ShapeOps())}
