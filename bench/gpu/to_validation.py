#!/usr/bin/env python3
"""Turns bench/gpu's measurements (JSON lines from probes and gemm.py) into a validation file.

    bench/gpu/to_validation.py --results results.jsonl --gpu "NVIDIA H200" --driver 550.54 \
        --clocks "1980 MHz max, 1755 MHz under load" --date 2026-12-02 [--out FILE]

writes configs/validation/measured-<preset>-<date>.yaml (or FILE, or that name in the folder
FILE): one case a measurement that a
bundled workload expresses, on the bundled preset of the GPU, in the form of
configs/validation/published-a100-h100.yaml (docs/CONFIG.md, "Validation files"). Measurements
without a workload (copy, L1 latency, the FMA loop) are listed in its header.
"""
import argparse
import json
import os
import sys

# The bundled preset for a GPU name as nvidia-smi prints it, most specific first.
PRESETS = [
    (("H100", "PCIe"), "h100-pcie-80gb", "hopper"),
    (("H200",), "h200-sxm5-141gb", "hopper"),
    (("H100",), "h100-sxm5-80gb", "hopper"),
    (("A100", "80GB"), "a100-sxm4-80gb", "ampere"),
    (("A100",), "a100-sxm4-40gb", "ampere"),
]

READ_1GIB = {"workload.pattern.accesses": 16777216}


def in_flight(kib):
    # probes.cu's in_flight_kernel: a warp's 32 threads issue 4 loads of 16 B each (2 KiB) and
    # wait for all four before the next, so each warp's 2 KiB is a group (workload.issue_group).
    return {"workload.pattern.accesses": 4194304,
            "hardware.hbm.max_bytes_in_flight_per_core": f"{kib}KiB",
            "workload.issue_group": "2KiB"}


# probe -> (workload file, overrides, figure)
MEMORY_CASES = {
    "read": ("memory/sequential-loads.yaml", READ_1GIB, "bandwidth"),
    "write": ("memory/sequential-stores.yaml", READ_1GIB, "bandwidth"),
    "triad": ("vector-add.yaml", {}, "bandwidth"),
    **{f"in_flight_{kib}KiB": ("memory/sequential-loads.yaml", in_flight(kib), "bandwidth")
       for kib in (2, 4, 8, 16, 32)},
    # gpu-benches' gpu-stream read, as the published A100 and H100 PCIe cases run it.
    **{f"gpu_stream_read_{threads}": ("stream/read.yaml",
                                      {"workload.length": 134217730, "workload.threads": threads,
                                       "hardware.cores.max_resident_blocks": 2},
                                      "bandwidth")
       for threads in (128, 512, 1024)},
    "latency_hbm": ("memory/random-trace.yaml",
                    {"hardware.cores.count": 1, "hardware.hbm.max_bytes_in_flight_per_core": "64B"},
                    "latency"),
    # probes.cu's L2 chase walks 8 MiB at random, warm: the case's trace starts with its lines in
    # the L2 (L2_RESIDENT).
    "latency_l2": ("memory/sequential-loads.yaml",
                   {"hardware.cores.count": 1, "hardware.hbm.max_bytes_in_flight_per_core": "64B",
                    "workload.pattern.order": "random", "workload.pattern.span": "8MiB",
                    "workload.pattern.accesses": 20000},
                   "latency"),
    # A stream's power is its HBM's and the chip's static power: torch.sum's kernel is expressed
    # as gpu-stream's read kernel, as in configs/validation/published-power.yaml.
    "power_read_fp32_1GiB": ("stream/read.yaml",
                             {"workload.length": 268435456, "workload.dtype": "fp32",
                              "workload.threads": 256, "workload.elements_per_thread": 16,
                              "hardware.cores.max_resident_blocks": 8},
                             "power"),
}
# probe -> the input tensors its case finds in the L2 when the run starts (the case's l2_resident)
L2_RESIDENT = {"latency_l2": ["data"]}
UNIT_SUFFIX = {"GB/s": "GB/s", "TFLOP/s": "TFLOP/s", "ns": "ns", "W": "W"}


def preset_for(gpu):
    for words, preset, family in PRESETS:
        if all(word in gpu for word in words):
            return preset, family
    return None, None


def gemm_case(probe, family):
    """gemm_<dtype>_<M>x<N>x<K> -> the kernel shape the GPU's libraries run, at that shape, its
    FLOP rate; power_gemm_<dtype>_<M>x<N>x<K> -> the same kernel, its power."""
    figure = "power" if probe.startswith("power_") else "flop_rate"
    _, dtype, shape = probe.removeprefix("power_").split("_")
    m, n, k = (int(x) for x in shape.split("x"))
    if dtype == "fp32":  # cuBLAS's SGEMM on the CUDA cores, tiled as tile: auto chooses
        return ("ops/gemm-auto.yaml",
                {"workload.m": m, "workload.n": n, "workload.k": k, "workload.dtype": "fp32"},
                figure)
    workload = f"tensor-core/gemm-4096-bf16-{family}.yaml"
    overrides = {}
    if dtype != "bf16":
        overrides["workload.dtype"] = dtype
    if dtype == "fp8":
        if family != "hopper":
            return None
        overrides["workload.tile.k"] = 128
    for key, value in (("m", m), ("n", n), ("k", k)):
        if value != 4096:
            overrides[f"workload.{key}"] = value
    return workload, overrides, figure


def flow_map(overrides):
    return "{" + ", ".join(f"{key}: {value}" for key, value in overrides.items()) + "}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True, help="JSON lines of probes and gemm.py")
    parser.add_argument("--gpu", required=True, help="the GPU's name, as nvidia-smi prints it")
    parser.add_argument("--driver", required=True)
    parser.add_argument("--clocks", required=True, help="SM clocks: maximum and under load")
    parser.add_argument("--date", required=True, help="YYYY-MM-DD")
    parser.add_argument("--out", help="the validation file to write, or its folder")
    args = parser.parse_args()

    preset, family = preset_for(args.gpu)
    if preset is None:
        print(f"to_validation.py: no bundled preset for '{args.gpu}' (presets: "
              + ", ".join(p for _, p, _ in PRESETS) + "); results kept in " + args.results,
              file=sys.stderr)
        return 1
    with open(args.results) as f:
        results = [json.loads(line) for line in f if line.strip().startswith("{")]

    slug = preset.split("-")[0]
    cases, unexpressed = [], []
    for r in results:
        probe = r["probe"]
        spec = MEMORY_CASES.get(probe) or (gemm_case(probe, family)
                                           if probe.removeprefix("power_").startswith("gemm_")
                                           else None)
        if spec is None:
            unexpressed.append(r)
            continue
        workload, overrides, figure = spec
        case = [f"    - name: {slug}-measured-{probe.replace('_', '-').lower()}",
                f"      gpu: {args.gpu}",
                f"      hardware: ../hardware/{preset}.yaml",
                f"      workload: ../workloads/{workload}"]
        if overrides:
            case.append(f"      set: {flow_map(overrides)}")
        if probe in L2_RESIDENT:
            case.append(f"      l2_resident: [{', '.join(L2_RESIDENT[probe])}]")
        case += [f"      figure: {figure}",
                 f"      measured: {r['value']:.1f}{UNIT_SUFFIX[r['unit']]}",
                 f"      source: \"bench/gpu on this {args.gpu}, {args.date}, driver "
                 f"{args.driver}: {probe}, {r['detail']}\""]
        cases.append("\n".join(case))

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = args.out or os.path.join(root, "configs", "validation")
    if os.path.isdir(out):
        out = os.path.join(out, f"measured-{slug}-{args.date}.yaml")
    header = [f"# Measured with bench/gpu/run.sh on an {args.gpu}, {args.date}: driver {args.driver},",
              f"# SM clocks {args.clocks}.",
              f"# Simulated on configs/hardware/{preset}.yaml, once copied into configs/validation/, by",
              f"#   build/ridgeline validate configs/validation/{os.path.basename(out)}",
              "# Measured too, with no bundled workload to simulate them:"]
    header += [f"#   {r['probe']}: {r['value']} {r['unit']} ({r['detail']})" for r in unexpressed]
    with open(out, "w") as f:
        f.write("\n".join(header) + "\nvalidation:\n  cases:\n" + "\n\n".join(cases) + "\n")
    print(f"to_validation.py: wrote {len(cases)} cases to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
