// A thread block's program: a small dependency graph of operations that a Core executes.
//
// The graph is built once per kernel with Boost.Graph (which checks it is acyclic, orders it and
// finds its critical path) and then compiled into flat arrays the core walks with counters: a block
// instance is a copy of the counters, so starting a block costs one memcpy, not a graph build.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/data_type.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct ProgramGraph;  // the Boost.Graph behind a program, defined in program.cpp

enum class OpKind : std::uint8_t {
  load,     ///< HBM -> SRAM (or registers): a region of a tensor
  compute,  ///< FLOPs on the compute unit, operands read from SRAM
  store,    ///< registers -> HBM: a region of a tensor
  barrier,  ///< a block-wide synchronisation that costs a fixed number of cycles
  /// Tells other blocks a result is in memory: adds one to a flag (a semaphore in global memory,
  /// as split-K and stream-K kernels keep one per output tile). Placed after the store it
  /// publishes (a data edge), so the flag counts only data that has arrived.
  signal,
  /// Waits until a flag has been signalled `flag_count` times: a block that reduces the partial
  /// sums other blocks write. Its blocks must be dispatched after those it waits for (the kernel
  /// orders its grid so), or be resident with them, so that the wait always ends.
  wait,
};

const char* name_of(OpKind kind);

enum class EdgeKind : std::uint8_t {
  data,          ///< the successor needs the predecessor's result: waits for its completion
  buffer_reuse,  ///< the successor overwrites the predecessor's buffer: waits for its completion;
                 ///< waiting on such an edge is reported as "waiting for a free buffer"
  issue_order,   ///< the successor may issue once the predecessor has issued (in-order queues)
};

/// A 2-D region of memory: `rows` rows of `row_bytes` contiguous bytes, `pitch_bytes` apart.
/// `repeat` > 1 reads the same region that many times (a kernel without on-chip reuse).
struct Region {
  std::uint64_t base = 0;         ///< byte address of the first row
  std::uint64_t rows = 1;         ///< rows
  std::uint64_t row_bytes = 0;    ///< bytes per row
  std::uint64_t pitch_bytes = 0;  ///< bytes from one row's start to the next
  std::uint64_t repeat = 1;       ///< times the region is transferred

  std::uint64_t bytes() const { return rows * row_bytes * repeat; }

  /// `bytes` contiguous bytes from `base`, moved once.
  static Region contiguous(std::uint64_t base, std::uint64_t bytes) {
    return Region{base, 1, bytes, bytes, 1};
  }
};

/// The coordinates of one thread block in its kernel's grid.
struct BlockCoord {
  std::uint64_t row = 0;
  std::uint64_t col = 0;
};

/// Block rows that come in groups: `rows` block rows a group, the address `bytes` apart from one
/// group to the next (a batch of matrices, the K-slices of a split-K GEMM). rows 0: no groups.
struct RowGroup {
  std::uint64_t rows = 0;
  std::uint64_t bytes = 0;
};

/// Where a load or store falls for block (r, c): base + r * block_row_bytes + c * block_col_bytes,
/// plus, for the slice of a tile one block of a thread-block cluster fetches for all of them (TMA
/// multicast), (r % cluster_rows) * member_row_bytes + (c % cluster_cols) * member_col_bytes.
struct AddressPattern {
  Region region_of_block0;             ///< the region for block (0, 0)
  std::uint64_t block_row_bytes = 0;   ///< address step per block row, bytes
  std::uint64_t block_col_bytes = 0;   ///< address step per block column, bytes
  std::uint32_t cluster_rows = 1;      ///< blocks of a cluster along the rows (1: no slices)
  std::uint32_t cluster_cols = 1;      ///< ...and along the columns
  std::uint64_t member_row_bytes = 0;  ///< address step per block row within its cluster
  std::uint64_t member_col_bytes = 0;  ///< address step per block column within its cluster
  /// Edge tiles (0: none). The tensor's rows from block row 0's first: block row r keeps
  /// min(rows, tensor_rows - r x rows) of the region's rows, as a predicated edge tile of a kernel
  /// loads only what lies in the matrix. Needs block_row_bytes to be `rows` rows of the pitch.
  std::uint64_t tensor_rows = 0;
  /// ...and the bytes of a tensor row from block column 0's first: block column c keeps
  /// min(row_bytes, tensor_row_bytes - c x row_bytes). Needs block_col_bytes = row_bytes.
  std::uint64_t tensor_row_bytes = 0;
  /// Nested groups of block rows, outermost first: block row r lies in group r / outer.rows,
  /// then in group (r % outer.rows) / inner.rows of that, each adding its group's bytes; r is
  /// then the row within the innermost group, which every step above (rows, clusters, edge
  /// tiles) counts from. A grid of split-K slices of a batch of matrices is outer = one slice,
  /// inner = one matrix.
  RowGroup outer;
  RowGroup inner;

  /// The block row within its innermost group, and the bytes its groups add.
  std::uint64_t grouped_row(std::uint64_t row, std::uint64_t& group_bytes) const {
    group_bytes = 0;
    for (const RowGroup* group : {&outer, &inner}) {
      if (group->rows == 0) continue;
      group_bytes += row / group->rows * group->bytes;
      row %= group->rows;
    }
    return row;
  }

  Region for_block(BlockCoord block) const {
    Region region = region_of_block0;
    std::uint64_t group_bytes = 0;
    const std::uint64_t row = grouped_row(block.row, group_bytes);
    region.base += group_bytes + row * block_row_bytes + block.col * block_col_bytes +
                   row % cluster_rows * member_row_bytes +
                   block.col % cluster_cols * member_col_bytes;
    if (tensor_rows != 0) region.rows = std::min(region.rows, tensor_rows - row * region.rows);
    if (tensor_row_bytes != 0) {
      region.row_bytes =
          std::min(region.row_bytes, tensor_row_bytes - block.col * region.row_bytes);
    }
    return region;
  }
};

/// Which flag a signal or wait of block (r, c) uses: base + (r % row_modulo) x row_step +
/// c x col_step (row_modulo 0: r itself), so that the blocks of one output tile share a flag.
struct FlagPattern {
  std::uint64_t base = 0;
  std::uint64_t row_modulo = 0;
  std::uint64_t row_step = 0;
  std::uint64_t col_step = 0;

  std::uint64_t for_block(BlockCoord block) const {
    const std::uint64_t row = row_modulo != 0 ? block.row % row_modulo : block.row;
    return base + row * row_step + block.col * col_step;
  }
};

/// One operation of a block's program.
struct Op {
  OpKind kind = OpKind::barrier;
  std::uint8_t tensor = 0;             ///< load/store: index into Program::tensor_names
  std::uint32_t step = 0;              ///< k-step or chunk the op belongs to (for labels)
  AddressPattern address;              ///< load/store: what is moved
  std::uint64_t flops = 0;             ///< compute: floating-point operations
  std::uint64_t sram_read_bytes = 0;   ///< compute: operand bytes read from SRAM
  std::uint64_t sram_write_bytes = 0;  ///< load: bytes written into SRAM (0 = into registers)
  /// compute: the warp instructions the op's step issues (its multiply-adds, operand loads, tile
  /// copies and barrier), where the workload counts them; 0: not counted.
  std::uint64_t warp_instructions = 0;
  Cycles cycles;                       ///< barrier: cost in core cycles
  bool local = false;  ///< load/store: spilled registers (CUDA local memory), not kernel data
  /// compute: the format the compute unit executes this op in, where it is not the kernel's
  /// (a GEMM's split-K reduction adds FP32 partial sums on the vector units).
  std::optional<DataType> compute_type;
  FlagPattern flag;              ///< signal, wait: the flag
  std::uint32_t flag_count = 0;  ///< wait: the signals it waits for

  /// Bytes moved by block (0, 0), the most any block moves (edge tiles move less).
  std::uint64_t hbm_bytes() const { return address.region_of_block0.bytes(); }
  /// Bytes moved by `block`.
  std::uint64_t hbm_bytes(BlockCoord block) const { return address.for_block(block).bytes(); }
  bool is_memory() const { return kind == OpKind::load || kind == OpKind::store; }

  static Op load(std::uint8_t tensor, std::uint32_t step, const AddressPattern& address,
                 std::uint64_t sram_write_bytes) {
    Op op;
    op.kind = OpKind::load;
    op.tensor = tensor;
    op.step = step;
    op.address = address;
    op.sram_write_bytes = sram_write_bytes;
    return op;
  }
  static Op store(std::uint8_t tensor, std::uint32_t step, const AddressPattern& address) {
    Op op;
    op.kind = OpKind::store;
    op.tensor = tensor;
    op.step = step;
    op.address = address;
    return op;
  }
  static Op compute(std::uint32_t step, std::uint64_t flops, std::uint64_t sram_read_bytes) {
    Op op;
    op.kind = OpKind::compute;
    op.step = step;
    op.flops = flops;
    op.sram_read_bytes = sram_read_bytes;
    return op;
  }
  /// This compute, issuing `count` warp instructions.
  Op issuing(std::uint64_t count) const {
    Op op = *this;
    op.warp_instructions = count;
    return op;
  }
  /// This compute, executed in `type` rather than the kernel's format.
  Op in_type(DataType type) const {
    Op op = *this;
    op.compute_type = type;
    return op;
  }
  static Op signal(std::uint32_t step, const FlagPattern& flag) {
    Op op;
    op.kind = OpKind::signal;
    op.step = step;
    op.flag = flag;
    return op;
  }
  static Op wait(std::uint32_t step, const FlagPattern& flag, std::uint32_t count) {
    Op op;
    op.kind = OpKind::wait;
    op.step = step;
    op.flag = flag;
    op.flag_count = count;
    return op;
  }
  /// This load or store, moving spilled registers instead of the kernel's data.
  Op as_local() const {
    Op op = *this;
    op.local = true;
    return op;
  }
  static Op barrier(std::uint32_t step, Cycles cycles) {
    Op op;
    op.kind = OpKind::barrier;
    op.step = step;
    op.cycles = cycles;
    return op;
  }
};

/// A successor of an op in the compiled program.
struct Successor {
  std::uint32_t op;
  EdgeKind kind;
};

/// Raised for a program that cannot run: a cycle, an edge to a missing op. A workload bug or a
/// bad user-supplied graph, reported with the ops involved.
class ProgramError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A compiled block program: ops in topological order and the counters a block instance copies.
class Program {
 public:
  const std::vector<Op>& ops() const { return ops_; }
  const std::vector<std::string>& tensor_names() const { return tensor_names_; }
  std::size_t size() const { return ops_.size(); }

  /// Successors of `op`, as a contiguous range.
  // data() + offset, not &v[i]: a program with no edges has an empty vector, and indexing it is
  // undefined even for the one-past-the-end pointer.
  const Successor* successors_begin(std::uint32_t op) const {
    return successors_.data() + first_[op];
  }
  const Successor* successors_end(std::uint32_t op) const {
    return successors_.data() + first_[op + 1];
  }

  /// Per op: completions (data + buffer_reuse edges) it waits for before it may issue.
  const std::vector<std::uint16_t>& initial_pending_completions() const { return pending_done_; }
  /// Per op: the subset of those that are buffer_reuse edges.
  const std::vector<std::uint16_t>& initial_pending_buffers() const { return pending_buffer_; }
  /// Per op: predecessors that must have issued first (issue_order edges).
  const std::vector<std::uint16_t>& initial_pending_issues() const { return pending_issue_; }

  /// "load A_3" and the like, for traces and messages.
  std::string label(std::uint32_t op) const;

  /// How long an op holds its unit and when its result is ready, both from its start.
  struct OpTiming {
    Time occupancy;   ///< the unit (DMA queue, compute unit) is busy this long
    Time completion;  ///< the result is ready this long after the start
  };

  /// Whether `op` is a store that no op waits for (only issue-order successors): posted, as a
  /// GPU's warps exit without waiting for their stores to be acknowledged (Core).
  bool posted(std::uint32_t op) const;

  /// The longest path through the program when each op takes `timing(op)` and nothing else
  /// contends: a lower bound on one block's run time. A successor on an issue-order edge starts
  /// when its predecessor's occupancy ends (ops of one queue or unit run in order); on a data or
  /// buffer edge, when its predecessor completes. A posted store ends the path at its occupancy
  /// (its data taken), not at its acknowledgement.
  Time critical_path(const std::function<OpTiming(const Op&)>& timing) const;

 private:
  friend class ProgramBuilder;
  std::vector<Op> ops_;
  std::vector<std::string> tensor_names_;
  std::vector<std::uint32_t> first_;  // CSR: successors of op i are [first_[i], first_[i + 1])
  std::vector<Successor> successors_;
  std::vector<std::uint16_t> pending_done_;
  std::vector<std::uint16_t> pending_buffer_;
  std::vector<std::uint16_t> pending_issue_;
  std::shared_ptr<const ProgramGraph> graph_;  // the Boost.Graph, in topological order
};

/// Builds a Program with Boost.Graph: add ops and edges, then compile().
class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::vector<std::string> tensor_names);
  ~ProgramBuilder();
  ProgramBuilder(const ProgramBuilder&) = delete;
  ProgramBuilder& operator=(const ProgramBuilder&) = delete;

  std::uint32_t add(const Op& op);
  void depend(std::uint32_t from, std::uint32_t to, EdgeKind kind);

  /// Checks the graph is acyclic (ProgramError naming an op on the cycle otherwise), orders the
  /// ops topologically and flattens the graph.
  Program compile();

 private:
  std::unique_ptr<ProgramGraph> graph_;
  std::vector<std::string> tensor_names_;
};

}  // namespace ridgeline
