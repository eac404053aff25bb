// The one-core machine and two-step GEMM whose timeline tests/module/core_test.cpp computes by
// hand, to the picosecond; the trace tests check their signals against the same timeline.
#pragma once

#include "models/hardware.hpp"
#include "models/kernel.hpp"
#include "workloads/gemm.hpp"

namespace ridgeline::test {

// 1 core at 1 GHz, 100 FLOP/cycle; HBM 1 byte/ps on one channel, 1 ns latency; SRAM ports so wide
// that a transfer is one cycle.
inline HardwareParams machine() {
  HardwareParams hw;
  hw.name = "test";
  hw.core_clock = Clock(1'000'000'000);
  hw.cores = 1;
  hw.core.max_resident_blocks = 1;
  hw.core.max_bytes_in_flight = 64 * 1024;
  hw.core.sram = SramParams{1 << 20, 1 << 20, 1 << 20};
  hw.core.registers = RegisterFileParams{1 << 20};
  hw.core.compute.flops_per_cycle[index_of(DataType::fp32)] = 100;
  hw.core.compute.pipeline_latency = Cycles{0};
  hw.hbm.peak_bandwidth.bytes_per_second = 1'000'000'000'000;
  hw.hbm.access_latency = Time::from_ps(1000);
  hw.hbm.channels = 1;
  hw.hbm.interleave_bytes = 256;
  return hw;
}

// C (32 x 32) = A (32 x 64) B (64 x 32) in one block of 32 x 32, two K-steps of 32.
inline Kernel two_step_gemm(std::uint32_t stages, const KernelTarget& target = {}) {
  GemmSpec spec;
  spec.m = 32;
  spec.n = 32;
  spec.k = 64;
  spec.tile = TileShape{32, 32, 32};
  spec.stages = stages;
  return build_kernel(spec, target);
}

}  // namespace ridgeline::test
