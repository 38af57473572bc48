"""GPU checks of the samples that work on ragged segments through Array.slice.

run_samples.py calls make_samples(its own module) and adds what comes back to SAMPLES (same
protocol as samples_ops.py). Segments are given by a CSR-style offsets array; the rows before
the first segment and after the last one belong to none, so they must stay untouched: a view
that did not narrow the array would read or write them.
"""


def make_samples(rs):
    cdiv = rs.cdiv

    class Segments(rs.Sample):
        """samples/ragged_segments.py: X with rows grouped in segments of ragged lengths."""
        name = "ragged_segments"

        def cases(self, spec, quick):
            tm, tn = spec.const("TM"), spec.const("TN")
            # (rows before, segment lengths (empty and one-row segments among them), rows after, N)
            sets = [(3, (1, tm, 0, 3 * tm + 1, tm - 1), 5, tn - 3),
                    (0, (2 * tm + 7,), 0, 2 * tn + 1),
                    (tm + 1, (5, 0, 0, 17, 4 * tm, 1), 2, 7)]
            if not quick:
                sets.append((1, tuple((37 * i) % (5 * tm) for i in range(300)), 9, 3 * tn + 5))
            return [{"label": f"{len(s[1])} segs, {sum(s[1])} rows x {s[3]}", "lead": s[0],
                     "lens": s[1], "tail": s[2], "n": s[3]} for s in sets]

        def bench_case(self, spec):
            lens = tuple(64 + (977 * i) % 448 for i in range(4096))  # 64 .. 511 rows
            return {"label": f"4096 segs, {sum(lens)} rows x 512", "lead": 0, "lens": lens,
                    "tail": 0, "n": 512}

        def grid(self, spec, case, args):
            return (len(case["lens"]), cdiv(case["n"], spec.const("TN")))

        def inputs(self, spec, case, ctx):
            rows = case["lead"] + sum(case["lens"]) + case["tail"]
            offsets = [case["lead"]]
            for length in case["lens"]:
                offsets.append(offsets[-1] + length)
            return {"X": ctx.randn((rows, case["n"]), spec.dtype("X")),
                    "offsets": rs.torch.tensor(offsets, dtype=rs.torch.int32, device="cuda")}

        @staticmethod
        def segments(args):
            offs = args["offsets"].tolist()
            return list(zip(offs, offs[1:]))

        @staticmethod
        def torch_segments(args):
            """Eager torch's way: a segment id per row, then index_add_."""
            torch, offs = rs.torch, args["offsets"]
            counts = (offs[1:] - offs[:-1]).long()
            ids = torch.repeat_interleave(torch.arange(len(counts), device="cuda"), counts)
            first, last = int(offs[0]), int(offs[-1])
            return counts, ids, first, last

    class SegmentSum(Segments):
        kernel, outputs = "segment_sum", ("sums",)

        def build(self, spec, case, ctx):
            args = self.inputs(spec, case, ctx)
            args["sums"] = ctx.out("sums", (len(case["lens"]), case["n"]), spec.dtype("sums"))
            return args

        def reference(self, spec, case, args):
            torch, x = rs.torch, args["X"].double()
            segs = self.segments(args)
            sums = torch.stack([x[a:b].sum(0) for a, b in segs])
            mags = torch.stack([x[a:b].abs().sum(0) for a, b in segs])
            return {"sums": {"ref": sums, "slack": 64 * rs.F32_ULP * mags}}

        def torch_fn(self, spec, args):
            _, ids, first, last = self.torch_segments(args)
            rows, sums = args["X"][first:last], args["sums"]
            return lambda: sums.zero_().index_add_(0, ids, rows.float())

    class SegmentCenter(Segments):
        kernel, outputs = "segment_center", ("Y",)

        def build(self, spec, case, ctx):
            args = self.inputs(spec, case, ctx)
            args["Y"] = ctx.out("Y", args["X"].shape, spec.dtype("Y"))
            return args

        def reference(self, spec, case, args):
            torch, x = rs.torch, args["X"].double()
            y = torch.full_like(x, float("nan"))  # rows in no segment keep the NaN poison
            mag = torch.zeros_like(x)
            for a, b in self.segments(args):
                if b > a:
                    y[a:b] = x[a:b] - x[a:b].mean(0, keepdim=True)
                    mag[a:b] = x[a:b].abs() + x[a:b].abs().mean(0, keepdim=True)
            return {"Y": {"ref": y, "slack": 64 * rs.F32_ULP * mag}}

        def torch_fn(self, spec, args):
            torch = rs.torch
            counts, ids, first, last = self.torch_segments(args)
            rows, y = args["X"][first:last], args["Y"][first:last]
            denom = counts.clamp(min=1).unsqueeze(1).float()

            def center():
                sums = torch.zeros((len(counts), rows.shape[1]), device="cuda").index_add_(0, ids, rows.float())
                y.copy_(rows.float() - (sums / denom)[ids])
            return center

    return {Segments.name: {s.kernel: s for s in (SegmentSum(), SegmentCenter())}}
