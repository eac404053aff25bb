// Microbenchmarks of one NVIDIA GPU, for `ridgeline validate`: the cases of
// configs/validation/published-a100-h100.yaml, measured on the GPU at hand.
//   read, write, copy, triad   bandwidth of 1 GiB arrays (16 B loads and stores, all SMs full)
//   in_flight_<N>KiB           read bandwidth with N = 2, 4, 8, 16, 32 KiB in flight per SM (one
//                              block an SM, threads x 4 independent 16 B loads each)
//   gpu_stream_read_<T>        gpu-benches' gpu-stream read: one double a thread, waited for, then
//                              the block exits; blocks of T = 128, 512, 1024 threads, two an SM
//                              (2, 8, 16 KiB at most in flight per SM), 2^27 + 2 doubles
//   latency_l1, _l2, _hbm      pointer chasing, one thread, over 16 KiB, 8 MiB and 1 GiB
//   fma_fp32                   FP32 FMA throughput, 8 independent chains a thread
// Each prints one JSON line: {"probe": ..., "value": ..., "unit": ..., "detail": ...}. Times are
// medians of `kRepetitions` runs after a warm-up, with CUDA events.
// Built only by bench/gpu/run.sh, where nvcc is present; never part of the CMake build or of CI.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kRepetitions = 20;

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "probes: %s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}
#define CHECK(call) check((call), #call)

void print(const char* probe, double value, const char* unit, const std::string& detail) {
  std::printf("{\"probe\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"detail\": \"%s\"}\n", probe,
              value, unit, detail.c_str());
  std::fflush(stdout);
}

// The median time of `launch` (which enqueues kernels), seconds, after one warm-up run.
template <class Launch>
double median_seconds(Launch launch, int repetitions = kRepetitions) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> seconds;
  for (int i = 0; i < repetitions; ++i) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    seconds.push_back(ms * 1e-3);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

// The sums below are stored only if they equal an unlikely value, so that no load is dead code.
constexpr float kNever = -1.2345e-30f;

__global__ void read_kernel(const float4* __restrict__ in, std::size_t n, float* sink) {
  float sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float4 v = in[i];
    sum += v.x + v.y + v.z + v.w;
  }
  if (sum == kNever) *sink = sum;
}

__global__ void write_kernel(float4* __restrict__ out, std::size_t n, float value) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    out[i] = make_float4(value, value, value, value);
  }
}

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out,
                            std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    out[i] = in[i];
  }
}

// a = b + s c, as STREAM's triad.
__global__ void triad_kernel(float4* __restrict__ a, const float4* __restrict__ b,
                             const float4* __restrict__ c, std::size_t n, float s) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

// Each thread keeps kUnroll independent 16 B loads in flight, then consumes them: a block of T
// threads keeps T x kUnroll x 16 B in flight. n is a multiple of kUnroll x the grid's threads.
constexpr int kUnroll = 4;
__global__ void in_flight_kernel(const float4* __restrict__ in, std::size_t n, float* sink) {
  extern __shared__ float one_block_per_sm[];  // its size, not its use, is the point
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  float sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += kUnroll * stride) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  if (sum == kNever) {
    one_block_per_sm[0] = sum;
    *sink = one_block_per_sm[0];
  }
}

// One double a thread, as gpu-stream's read kernel: the thread waits for it, and its block exits.
__global__ void stream_read_kernel(const double* __restrict__ in, std::size_t n, double* sink) {
  extern __shared__ double two_blocks_per_sm[];  // its size, not its use, is the point
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const double v = in[i];
  if (v == double{kNever}) {
    two_blocks_per_sm[0] = v;
    *sink = two_blocks_per_sm[0];
  }
}

__global__ void chase_kernel(const std::uint32_t* __restrict__ next, std::uint32_t start,
                             int steps, std::uint32_t* sink) {
  std::uint32_t j = start;
  for (int i = 0; i < steps; ++i) j = next[j];
  *sink = j;
}

__global__ void fma_kernel(float* sink, int iterations, float a, float b) {
  float x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,
        x6 = x0 + 6, x7 = x0 + 7;
  for (int i = 0; i < iterations; ++i) {
    x0 = fmaf(x0, a, b);
    x1 = fmaf(x1, a, b);
    x2 = fmaf(x2, a, b);
    x3 = fmaf(x3, a, b);
    x4 = fmaf(x4, a, b);
    x5 = fmaf(x5, a, b);
    x6 = fmaf(x6, a, b);
    x7 = fmaf(x7, a, b);
  }
  const float sum = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
  if (sum == kNever) *sink = sum;
}

struct Device {
  int sms = 0;
  int max_threads_per_sm = 0;
  int shared_per_sm = 0;
  int clock_khz = 0;
};

void bandwidths(const Device& d, float* sink) {
  const std::size_t bytes = std::size_t{1} << 30;
  const std::size_t n = bytes / sizeof(float4);
  float4 *a, *b, *c;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMemset(a, 0, bytes));
  CHECK(cudaMemset(b, 0, bytes));
  CHECK(cudaMemset(c, 0, bytes));
  const int threads = 256;
  const int blocks = d.sms * (d.max_threads_per_sm / threads);
  const std::string how = "1 GiB arrays, 16 B accesses, " + std::to_string(blocks) + " x " +
                          std::to_string(threads) + " threads, median of " +
                          std::to_string(kRepetitions);
  const double read = median_seconds([&] { read_kernel<<<blocks, threads>>>(a, n, sink); });
  print("read", bytes / read / 1e9, "GB/s", how);
  const double write = median_seconds([&] { write_kernel<<<blocks, threads>>>(a, n, 1.0f); });
  print("write", bytes / write / 1e9, "GB/s", how);
  const double copy = median_seconds([&] { copy_kernel<<<blocks, threads>>>(b, a, n); });
  print("copy", 2 * bytes / copy / 1e9, "GB/s", how + "; bytes read + written");
  const double triad = median_seconds([&] { triad_kernel<<<blocks, threads>>>(a, b, c, n, 3.0f); });
  print("triad", 3 * bytes / triad / 1e9, "GB/s", how + "; bytes read + written");
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
}

void in_flight(const Device& d, float* sink) {
  // More than half of an SM's shared memory a block: one block an SM.
  const int shared = d.shared_per_sm / 2 + 1024;
  CHECK(cudaFuncSetAttribute(in_flight_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             shared));
  for (const int kib : {2, 4, 8, 16, 32}) {
    const int threads = kib * 1024 / (kUnroll * 16);
    const std::size_t per_pass = std::size_t{kUnroll} * d.sms * threads;
    const std::size_t n = (std::size_t{1} << 26) / per_pass * per_pass;  // about 1 GiB
    float4* in;
    CHECK(cudaMalloc(&in, n * sizeof(float4)));
    CHECK(cudaMemset(in, 0, n * sizeof(float4)));
    const double t = median_seconds(
        [&] { in_flight_kernel<<<d.sms, threads, shared>>>(in, n, sink); }, 10);
    const std::string probe = "in_flight_" + std::to_string(kib) + "KiB";
    print(probe.c_str(), n * sizeof(float4) / t / 1e9, "GB/s",
          std::to_string(threads) + " threads an SM x " + std::to_string(kUnroll) +
              " loads of 16 B in flight, one block an SM, median of 10");
    CHECK(cudaFree(in));
  }
}

void stream_reads(const Device& d, double* sink) {
  // Two blocks an SM and not three, whatever their threads: each takes shared memory for it
  // (with the 1 KiB a block the driver keeps).
  const int shared = d.shared_per_sm / 2 - 2048;
  CHECK(cudaFuncSetAttribute(stream_read_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             shared));
  const std::size_t n = (std::size_t{1} << 27) + 2;
  double* in;
  CHECK(cudaMalloc(&in, n * sizeof(double)));
  CHECK(cudaMemset(in, 0, n * sizeof(double)));
  for (const int threads : {128, 512, 1024}) {
    const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
    const double t = median_seconds(
        [&] { stream_read_kernel<<<blocks, threads, shared>>>(in, n, sink); }, 10);
    const std::string probe = "gpu_stream_read_" + std::to_string(threads);
    print(probe.c_str(), n * sizeof(double) / t / 1e9, "GB/s",
          "gpu-stream's read: 2^27 + 2 doubles, one a thread, " + std::to_string(threads) +
              " threads a block, two blocks an SM (" + std::to_string(threads * 2 * 8 / 1024) +
              " KiB at most in flight), median of 10");
  }
  CHECK(cudaFree(in));
}

void latencies(const Device& d, std::uint32_t* sink) {
  struct Level {
    const char* probe;
    std::size_t bytes;
    int steps;
  };
  // Every run walks the same cycle from the same start, so the HBM level's walk must touch far
  // more distinct lines than the L2 holds, or the runs after the first find them there: 2^21
  // steps touch 256 MiB of lines, five times an H100's or H200's 50 MiB L2 (2^18 steps, 32 MiB,
  // measured mostly L2 hits: Nsight Compute counted 64 B of DRAM reads a step).
  for (const Level level : {Level{"latency_l1", 16 << 10, 1 << 20}, Level{"latency_l2", 8 << 20, 1 << 20},
                            Level{"latency_hbm", std::size_t{1} << 30, 1 << 21}}) {
    // A random cycle over slots 128 B apart, so that every step is a new line.
    const std::size_t slots = level.bytes / 128;
    std::vector<std::uint32_t> order(slots);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(42));
    std::vector<std::uint32_t> next(level.bytes / sizeof(std::uint32_t), 0);
    for (std::size_t k = 0; k < slots; ++k) next[order[k] * 32] = order[(k + 1) % slots] * 32;
    std::uint32_t* device_next;
    CHECK(cudaMalloc(&device_next, level.bytes));
    CHECK(cudaMemcpy(device_next, next.data(), level.bytes, cudaMemcpyHostToDevice));
    const double t = median_seconds(
        [&] { chase_kernel<<<1, 1>>>(device_next, order[0] * 32, level.steps, sink); }, 5);
    const double ns = t / level.steps * 1e9;
    print(level.probe, ns, "ns",
          std::to_string(level.bytes) + " B footprint, 128 B apart, " +
              std::to_string(level.steps) + " dependent loads; " +
              std::to_string(ns * d.clock_khz * 1e-6) + " cycles at the attribute clock " +
              std::to_string(d.clock_khz / 1000) + " MHz");
    CHECK(cudaFree(device_next));
  }
}

void fma(const Device& d, float* sink) {
  const int threads = 256;
  const int blocks = d.sms * (d.max_threads_per_sm / threads);
  const int iterations = 1 << 16;
  const double t =
      median_seconds([&] { fma_kernel<<<blocks, threads>>>(sink, iterations, 0.999f, 1e-3f); });
  const double flops = 2.0 * 8 * iterations * double(blocks) * threads;
  print("fma_fp32", flops / t / 1e12, "TFLOP/s",
        std::to_string(blocks) + " x " + std::to_string(threads) +
            " threads, 8 chains of fmaf a thread, median of " + std::to_string(kRepetitions));
}

}  // namespace

int main() {
  Device d;
  CHECK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&d.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
  CHECK(cudaDeviceGetAttribute(&d.shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  CHECK(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, 0));
  float* sink;
  CHECK(cudaMalloc(&sink, 64));
  bandwidths(d, sink);
  in_flight(d, sink);
  stream_reads(d, reinterpret_cast<double*>(sink));
  latencies(d, reinterpret_cast<std::uint32_t*>(sink));
  fma(d, sink);
  CHECK(cudaFree(sink));
  return 0;
}
