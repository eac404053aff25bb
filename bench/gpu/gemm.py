#!/usr/bin/env python3
"""GEMM throughput of the GPU at hand with PyTorch (cuBLAS), for `ridgeline validate`.

Prints one JSON line a measurement: {"probe": "gemm_<dtype>_<M>x<N>x<K>", "value": TFLOP/s,
"unit": "TFLOP/s", "detail": ...}. BF16 and FP16 through torch.matmul, FP8 (e4m3) through
torch._scaled_mm where the GPU and PyTorch have it. Inputs are normally distributed (matrices
of +-1 make the tensor cores draw less power and run faster than real data does). Each figure is
the median of 20 timed replays, after warm-up, of a CUDA graph of GRAPH_LAUNCHES back-to-back
launches, with CUDA events: the kernels' own time, as a simulation gives it, without the host's
time to launch each one (tens of microseconds through PyTorch, which timing single launches
added to the 2048^3 GEMMs' 25 us). Where a graph cannot be captured, single launches are timed
and the detail says so.

Where NVML answers (the nvidia-ml-py package), the board power and the SM clock are also read
while one kernel runs back to back for POWER_SECONDS: "power_<kernel>" in W, the median of the
samples taken every 0.1 s after the first second (NVML averages power over about a second), with
the median SM clock of the same samples in its detail. The kernels: the BF16, FP16, FP32 (SGEMM)
and FP8 GEMMs at 8192^3, and a read of a 1 GiB FP32 array (torch.sum). Run by bench/gpu/run.sh; never part of the
build or of CI.
"""
import json
import os
import statistics
import sys
import threading
import time

SHAPES = [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (4096, 7168, 16384)]
# RIDGELINE_GEMM_ONCE=1 (bench/gpu/profile.sh, under Nsight Compute): each GEMM once after one
# warm-up, and no power measured.
ONCE = os.environ.get("RIDGELINE_GEMM_ONCE") == "1"
REPETITIONS = 1 if ONCE else 20
GRAPH_LAUNCHES = 10
WARM_UPS = 1 if ONCE else 3
POWER_SHAPE = (8192, 8192, 8192)
POWER_SECONDS = 4.0
SAMPLE_SECONDS = 0.1


def nvml_device():
    """The NVML handle of GPU 0, or None where NVML is not there."""
    try:
        import pynvml
        pynvml.nvmlInit()
        return pynvml, pynvml.nvmlDeviceGetHandleByIndex(0)
    except Exception as error:  # no package, no library, no permission: no power figures
        print(f"gemm.py: NVML not available, no power measured: {error}", file=sys.stderr)
        return None


def power_while(torch, nvml, run, name, detail):
    """Runs `run` back to back for POWER_SECONDS and reports the board power and SM clock."""
    pynvml, handle = nvml
    samples, done = [], threading.Event()

    def sample():
        start = time.monotonic()
        while not done.wait(SAMPLE_SECONDS):
            if time.monotonic() - start < 1.0:
                continue
            samples.append((pynvml.nvmlDeviceGetPowerUsage(handle) / 1000.0,
                            pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM)))

    run()
    torch.cuda.synchronize()
    sampler = threading.Thread(target=sample)
    sampler.start()
    end = time.monotonic() + POWER_SECONDS
    launches = 0
    while time.monotonic() < end:
        for _ in range(8):
            run()
        launches += 8
        torch.cuda.synchronize()
    done.set()
    sampler.join()
    if not samples:
        return
    watts = statistics.median(w for w, _ in samples)
    megahertz = statistics.median(c for _, c in samples)
    print(json.dumps({"probe": f"power_{name}", "value": round(watts, 1), "unit": "W",
                      "detail": f"{detail}; NVML board power, median of {len(samples)} samples "
                                f"0.1 s apart over {launches} back-to-back launches, SM clock "
                                f"{megahertz:.0f} MHz (median of the same samples)"}),
          flush=True)


def median_seconds(torch, run):
    for _ in range(WARM_UPS):
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


def kernel_seconds(torch, run):
    """The median time of one launch of `run`, s, and how it was timed."""
    if ONCE:
        return median_seconds(torch, run), "single launches"
    try:
        for _ in range(WARM_UPS):  # cuBLAS sets up its workspace before capture
            run()
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(GRAPH_LAUNCHES):
                run()
    except RuntimeError as error:
        print(f"gemm.py: no CUDA graph ({error}); single launches timed", file=sys.stderr)
        return median_seconds(torch, run), "single launches (no CUDA graph)"
    return (median_seconds(torch, graph.replay) / GRAPH_LAUNCHES,
            f"a CUDA graph of {GRAPH_LAUNCHES} launches")


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
    nvml = None if ONCE else nvml_device()
    if nvml is not None:
        x = torch.randn(1 << 28, device="cuda", dtype=torch.float32)
        power_while(torch, nvml, lambda: x.sum(), "read_fp32_1GiB", "torch.sum of 2^28 FP32")
        del x
    for m, n, k in SHAPES:
        flops = 2.0 * m * n * k
        for name, dtype in (("bf16", torch.bfloat16), ("fp16", torch.float16)):
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            t, how = kernel_seconds(torch, lambda: torch.matmul(a, b))
            report(f"gemm_{name}_{m}x{n}x{k}", flops / t / 1e12,
                   f"torch.matmul, row-major A and B, {how}, median of {REPETITIONS}")
            if nvml is not None and (m, n, k) == POWER_SHAPE:
                power_while(torch, nvml, lambda: torch.matmul(a, b), f"gemm_bf16_{m}x{n}x{k}",
                            "torch.matmul")
            del a, b
        if (m, n, k) == POWER_SHAPE:  # cuBLAS's SGEMM on the CUDA cores (TF32 is off, above)
            a = torch.randn(m, k, device="cuda", dtype=torch.float32)
            b = torch.randn(k, n, device="cuda", dtype=torch.float32)
            t, how = kernel_seconds(torch, lambda: torch.matmul(a, b))
            report(f"gemm_fp32_{m}x{n}x{k}", flops / t / 1e12,
                   f"torch.matmul in FP32 (SGEMM, TF32 off), {how}, median of {REPETITIONS}")
            if nvml is not None:
                power_while(torch, nvml, lambda: torch.matmul(a, b), f"gemm_fp32_{m}x{n}x{k}",
                            "torch.matmul in FP32")
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
            t, how = kernel_seconds(torch, scaled)
        except (RuntimeError, TypeError) as error:  # no FP8 tensor cores, or another signature
            print(f"gemm.py: FP8 not measured: {error}", file=sys.stderr)
            continue
        report(f"gemm_fp8_{m}x{n}x{k}", flops / t / 1e12,
               f"torch._scaled_mm, e4m3 inputs, BF16 out, {how}, median of {REPETITIONS}")
        if nvml is not None and (m, n, k) == POWER_SHAPE:
            power_while(torch, nvml, scaled, f"gemm_fp8_{m}x{n}x{k}", "torch._scaled_mm")
        del a, b
    return 0


if __name__ == "__main__":
    sys.exit(main())
