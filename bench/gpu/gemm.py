#!/usr/bin/env python3
"""GEMM throughput of the GPU at hand with PyTorch (cuBLAS), for `ridgeline validate`.

Prints one JSON line a measurement: {"probe": "gemm_<dtype>_<M>x<N>x<K>", "value": TFLOP/s,
"unit": "TFLOP/s", "detail": ...}. BF16 and FP16 through torch.matmul, FP8 (e4m3) through
torch._scaled_mm where the GPU and PyTorch have it. Inputs are normally distributed (matrices
of +-1 make the tensor cores draw less power and run faster than real data does). Each figure is
the median of 20 timed runs after warm-up, with CUDA events. Run by bench/gpu/run.sh; never part
of the build or of CI.
"""
import json
import sys

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 7168, 16384)]
REPETITIONS = 20


def median_seconds(torch, run):
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    times = []
    for _ in range(REPETITIONS):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3)
    times.sort()
    return times[len(times) // 2]


def report(probe, tflops, detail):
    print(json.dumps({"probe": probe, "value": round(tflops, 4), "unit": "TFLOP/s",
                      "detail": detail}), flush=True)


def main():
    try:
        import torch
    except ImportError:
        print("gemm.py: PyTorch is not installed; no GEMM measured", file=sys.stderr)
        return 0
    if not torch.cuda.is_available():
        print("gemm.py: no CUDA device; no GEMM measured", file=sys.stderr)
        return 0
    torch.backends.cuda.matmul.allow_tf32 = False
    for m, n, k in SHAPES:
        flops = 2.0 * m * n * k
        for name, dtype in (("bf16", torch.bfloat16), ("fp16", torch.float16)):
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            t = median_seconds(torch, lambda: torch.matmul(a, b))
            report(f"gemm_{name}_{m}x{n}x{k}", flops / t / 1e12,
                   f"torch.matmul, row-major A and B, median of {REPETITIONS}")
            del a, b
        fp8 = getattr(torch, "float8_e4m3fn", None)
        if fp8 is None or not hasattr(torch, "_scaled_mm"):
            continue
        a = torch.randn(m, k, device="cuda").to(fp8)
        b = torch.randn(n, k, device="cuda").to(fp8).t()  # column-major, as _scaled_mm needs
        one = torch.tensor(1.0, device="cuda")

        def scaled():
            out = torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
            return out[0] if isinstance(out, tuple) else out

        try:
            t = median_seconds(torch, scaled)
        except (RuntimeError, TypeError) as error:  # no FP8 tensor cores, or another signature
            print(f"gemm.py: FP8 not measured: {error}", file=sys.stderr)
            continue
        report(f"gemm_fp8_{m}x{n}x{k}", flops / t / 1e12,
               f"torch._scaled_mm, e4m3 inputs, BF16 out, median of {REPETITIONS}")
        del a, b
    return 0


if __name__ == "__main__":
    sys.exit(main())
