"""Graph workloads from Python: analyze in process, run through the command, each kernel's
figures beside the graph's totals."""

from __future__ import annotations

from conftest import config

import ridgeline

H100 = config("hardware/h100-sxm5-80gb.yaml")


def test_analyze_gives_every_kernel_and_their_sums_in_process():
    report = ridgeline.analyze(H100, config("workloads/models/llama-2-7b-decode.yaml"),
                               {"workload.layers": 2})
    assert report["workload"]["kind"] == "transformer"
    kernels = report["analytical"]["kernels"]
    # The embedding lookup, 15 kernels a layer, the final norm and the LM head.
    assert len(kernels) == 1 + 2 * 15 + 2
    assert sum(k["flops"] for k in kernels) == report["analytical"]["flops"]
    assert sum(k["hbm_bytes"] for k in kernels) == report["analytical"]["hbm_bytes"]
    # The same report as the command line's, key for key.
    again = ridgeline.analyze(H100, config("workloads/models/llama-2-7b-decode.yaml"),
                              ["workload.layers=2"])
    assert again == report


def test_run_simulates_each_distinct_kernel_once():
    report = ridgeline.run(H100, config("workloads/models/mlp-block.yaml"), jobs=1)
    simulated = report["simulated"]
    assert simulated["simulations"] == len(simulated["kernels"]) == 5
    assert abs(sum(k["time_s"] for k in simulated["kernels"]) - simulated["time_s"]) <= (
        1e-12 * simulated["time_s"])


def test_an_input_left_in_the_l2_is_not_read_again():
    gemm = {"workload": {"kind": "gemm", "m": 512, "n": 4096, "k": 1024, "dtype": "bf16",
                         "strategy": "tiled", "tile": "auto"}}
    cold = ridgeline.run(H100, gemm)["simulated"]["hbm_read_bytes"]
    warm = ridgeline.run(H100, gemm, l2_resident=["A"])["simulated"]["hbm_read_bytes"]
    assert cold - warm == 512 * 1024 * 2  # A, BF16, read once when cold
    written = ridgeline.run(H100, gemm, l2_written=["A"])["simulated"]
    assert written["hbm_read_bytes"] == warm  # in the L2 all the same, at home only


def test_kernels_is_a_table_of_a_graphs_kernels_with_the_simulated_beside():
    analytical = ridgeline.analyze(H100, config("workloads/models/mlp-block.yaml"))
    table = ridgeline.kernels(analytical)
    assert list(table["name"]) == ["norm", "up_proj", "gelu", "down_proj", "residual"]
    assert table["flops"].sum() == analytical["analytical"]["flops"]
    assert "simulated.time_s" not in table.columns
    simulated = ridgeline.run(H100, config("workloads/models/mlp-block.yaml"), jobs=2)
    table = ridgeline.kernels(simulated)
    assert abs(table["simulated.time_s"].sum() - simulated["simulated"]["time_s"]) <= (
        1e-12 * simulated["simulated"]["time_s"])
    assert set(table["simulated.limit"]) <= {"hbm", "l2", "sram", "compute", "registers"}
    # A single kernel's report has no kernel list.
    single = ridgeline.analyze(H100, {"workload": {"kind": "gemm", "m": 512, "n": 512, "k": 512,
                                                    "dtype": "bf16", "strategy": "tiled",
                                                    "tile": "auto"}})
    try:
        ridgeline.kernels(single)
    except ridgeline.RidgelineError as error:
        assert "single kernel" in str(error)
    else:
        raise AssertionError("no error for a single kernel's report")
