// ONNX models read into graph workloads (sim/onnx): small models built here with ONNX's protobuf
// classes and written to a scratch folder, imported, and each kernel's workload loaded as a
// workload file is (on the H100 preset) against figures by hand; and bad input, reported at the
// key at fault.
#include "sim/config/onnx_import.hpp"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "sim/config/run_config.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

// A model put together node by node; dimensions of -1 are dynamic, named "batch".
class ModelBuilder {
 public:
  explicit ModelBuilder(std::int64_t opset = 17) {
    model_.set_ir_version(8);
    onnx::OperatorSetIdProto* set = model_.add_opset_import();
    set->set_domain("");
    set->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  ModelBuilder& input(const std::string& name, const std::vector<std::int64_t>& dims) {
    describe(*model_.mutable_graph()->add_input(), name, dims);
    return *this;
  }
  /// A weight: its shape only (the importer reads no values).
  ModelBuilder& weight(const std::string& name, const std::vector<std::int64_t>& dims) {
    onnx::TensorProto* tensor = model_.mutable_graph()->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(onnx::TensorProto::FLOAT);
    for (std::int64_t dim : dims) tensor->add_dims(dim);
    return *this;
  }
  /// A 0-D INT64 initializer: an index.
  ModelBuilder& index(const std::string& name, std::int64_t value) {
    onnx::TensorProto* tensor = model_.mutable_graph()->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(onnx::TensorProto::INT64);
    tensor->add_int64_data(value);
    return *this;
  }
  /// A 1-D INT64 initializer: a Reshape's target, axes.
  ModelBuilder& sizes(const std::string& name, const std::vector<std::int64_t>& values) {
    onnx::TensorProto* tensor = model_.mutable_graph()->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(onnx::TensorProto::INT64);
    tensor->add_dims(static_cast<std::int64_t>(values.size()));
    for (std::int64_t value : values) tensor->add_int64_data(value);
    return *this;
  }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "") {
    onnx::NodeProto* node = model_.mutable_graph()->add_node();
    node->set_op_type(op);
    node->set_name(name);
    for (const std::string& input : inputs) node->add_input(input);
    for (const std::string& output : outputs) node->add_output(output);
    return *node;
  }
  /// A Constant node writing `output`: its value, to fill in.
  onnx::TensorProto& constant(const std::string& output) {
    onnx::AttributeProto* value = node("Constant", {}, {output}).add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    return *value->mutable_t();
  }
  ModelBuilder& output(const std::string& name) {
    model_.mutable_graph()->add_output()->set_name(name);
    return *this;
  }
  void write(const std::string& path) const {
    std::ofstream file(path, std::ios::binary);
    ASSERT_TRUE(model_.SerializeToOstream(&file));
  }

 private:
  static void describe(onnx::ValueInfoProto& value, const std::string& name,
                       const std::vector<std::int64_t>& dims) {
    value.set_name(name);
    onnx::TypeProto_Tensor* tensor = value.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (std::int64_t dim : dims) {
      onnx::TensorShapeProto_Dimension* d = tensor->mutable_shape()->add_dim();
      if (dim < 0) {
        d->set_dim_param("batch");
      } else {
        d->set_dim_value(dim);
      }
    }
  }

  onnx::ModelProto model_;
};

void set_int(onnx::NodeProto& node, const std::string& name, std::int64_t value) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INT);
  attribute->set_i(value);
}

void set_ints(onnx::NodeProto& node, const std::string& name,
              const std::vector<std::int64_t>& values) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INTS);
  for (std::int64_t value : values) attribute->add_ints(value);
}

void set_string(onnx::NodeProto& node, const std::string& name, const std::string& value) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::STRING);
  attribute->set_s(value);
}

std::vector<std::string> names(const YAML::Node& list) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item.as<std::string>());
  return out;
}

std::vector<std::uint64_t> dims(const YAML::Node& list) {
  std::vector<std::uint64_t> out;
  for (const auto& item : list) out.push_back(item.as<std::uint64_t>());
  return out;
}

// A kernel's workload loaded as `ridgeline run` loads a workload file, on the H100 preset:
// every rule checked, `tile: auto` resolved, the analytical model's figures.
RunConfig load_kernel(const YAML::Node& kernel) {
  YAML::Node document;
  document["workload"] = kernel["workload"];
  return load_config(
      ConfigInput{test::config_path("hardware/h100-sxm5-80gb.yaml"), std::nullopt},
      ConfigInput{"<kernel " + kernel["name"].as<std::string>() + ">", YAML::Dump(document)}, {});
}

// Each kernel binds one graph tensor to each of its kind's inputs and outputs, and every binding
// of a graph tensor has its element count; the graph's inputs are what no kernel writes.
void expect_bindings_agree(const YAML::Node& graph) {
  std::map<std::string, std::uint64_t> elements;
  std::set<std::string> written;
  auto bind = [&](const std::string& name, const TensorRef& tensor) {
    const auto [known, fresh] = elements.emplace(name, tensor.shape.elements());
    EXPECT_EQ(known->second, tensor.shape.elements()) << name << " bound as " << tensor.name;
  };
  for (const YAML::Node& kernel : graph["kernels"]) {
    const RunConfig config = load_kernel(kernel);
    std::vector<TensorRef> inputs, outputs;
    for (const TensorRef& tensor : workload_tensors(config.workload)) {
      if (tensor.role == TensorRole::input) inputs.push_back(tensor);
      if (tensor.role == TensorRole::output) outputs.push_back(tensor);
    }
    const std::vector<std::string> reads = names(kernel["reads"]);
    const std::vector<std::string> writes = names(kernel["writes"]);
    ASSERT_EQ(reads.size(), inputs.size()) << kernel["name"];
    ASSERT_EQ(writes.size(), outputs.size()) << kernel["name"];
    for (std::size_t i = 0; i < reads.size(); ++i) bind(reads[i], inputs[i]);
    for (std::size_t i = 0; i < writes.size(); ++i) {
      bind(writes[i], outputs[i]);
      written.insert(writes[i]);
    }
  }
  for (const std::string& input : names(graph["inputs"])) {
    EXPECT_EQ(written.count(input), 0u) << input;
    EXPECT_EQ(elements.count(input), 1u) << input << " is read by no kernel";
  }
}

// Q of a tiled GEMM of the analytical model (docs/CONFIG.md, gemm): A once for each block
// column, B once for each block row, C once, and split-K's partial sums written and read.
std::uint64_t tiled_gemm_bytes(const GemmSpec& g) {
  const std::uint64_t e = element_bytes(g.dtype), a = element_bytes(g.accumulator);
  auto blocks = [](std::uint64_t size, std::uint64_t tile) { return (size + tile - 1) / tile; };
  const std::uint64_t splits =
      g.decomposition.kind == GemmDecomposition::split_k ? g.decomposition.splits : 1;
  // A cluster's blocks multicast their tiles: a 1 x 2 cluster reads each tile of A once for its
  // two blocks, a 2 x 1 cluster each tile of B.
  return blocks(g.n, g.tile.n) / g.cluster.n * g.m * g.k * e +
         blocks(g.m, g.tile.m) / g.cluster.m * g.k * g.n * e + g.m * g.n * e +
         2 * (splits - 1) * g.m * g.n * a;
}

class OnnxImportTest : public ::testing::Test {
 protected:
  // Writes the model as model.onnx and, beside it, a workload file naming it by a relative path,
  // with `keys` (lines) after `dtype: bf16`; imports it.
  OnnxImport import(const ModelBuilder& model, const std::string& keys = "",
                    bool skip_unsupported = false) {
    model.write(dir_.path("model.onnx"));
    write_workload("path: model.onnx\ndtype: bf16\n" + keys);
    return import_onnx(load_document(dir_.path("workload.yaml"), "workload", {}), skip_unsupported);
  }
  // The error import() throws.
  ConfigError error_of(const ModelBuilder& model, const std::string& keys = "") {
    try {
      import(model, keys);
    } catch (const ConfigError& error) {
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << "one line";
      return error;
    }
    ADD_FAILURE() << "no error";
    return ConfigError({}, "", "", "");
  }
  // workload.yaml: `kind: onnx` and `keys`, a line each.
  void write_workload(const std::string& keys) {
    std::ofstream file(dir_.path("workload.yaml"));
    file << "workload:\n  kind: onnx\n";
    std::istringstream lines(keys);
    for (std::string line; std::getline(lines, line);) file << "  " << line << "\n";
  }

  test::ScratchDirectory dir_{"onnx"};
};

// x [batch, 512] -> MatMul w1 [512, 256] -> Relu -> MatMul w2 [256, 128].
ModelBuilder two_layer_mlp() {
  ModelBuilder model;
  model.input("x", {-1, 512}).weight("w1", {512, 256}).weight("w2", {256, 128});
  model.node("MatMul", {"x", "w1"}, {"h"}, "fc1");
  model.node("Relu", {"h"}, {"a"}, "relu1");
  model.node("MatMul", {"a", "w2"}, {"y"}, "fc2");
  model.output("y");
  return model;
}

TEST_F(OnnxImportTest, TwoLayerMlpIsTwoGemmsAndAnActivation) {
  const OnnxImport imported = import(two_layer_mlp(), "shapes: {x: [8, 512]}\n");
  const YAML::Node& graph = imported.graph;
  EXPECT_TRUE(imported.skipped.empty());
  EXPECT_EQ(graph["kind"].as<std::string>(), "graph");
  EXPECT_EQ(names(graph["inputs"]), (std::vector<std::string>{"x", "w1", "w2"}));
  ASSERT_EQ(graph["kernels"].size(), 3u);

  const YAML::Node fc1 = graph["kernels"][0];
  EXPECT_EQ(fc1["name"].as<std::string>(), "fc1");
  EXPECT_EQ(names(fc1["reads"]), (std::vector<std::string>{"x", "w1"}));
  EXPECT_EQ(names(fc1["writes"]), (std::vector<std::string>{"h"}));
  EXPECT_EQ(fc1["workload"]["kind"].as<std::string>(), "gemm");
  EXPECT_EQ(fc1["workload"]["tile"].as<std::string>(), "auto");
  const RunConfig first = load_kernel(fc1);
  const auto& gemm = std::get<GemmSpec>(first.workload);
  EXPECT_EQ(gemm.m, 8u);
  EXPECT_EQ(gemm.n, 256u);
  EXPECT_EQ(gemm.k, 512u);
  EXPECT_EQ(gemm.dtype, DataType::bf16);
  EXPECT_EQ(first.analysis.flops, 2u * 8 * 512 * 256);
  EXPECT_EQ(first.analysis.hbm_bytes(), tiled_gemm_bytes(gemm));

  const YAML::Node relu = graph["kernels"][1];
  EXPECT_EQ(relu["name"].as<std::string>(), "relu1");
  EXPECT_EQ(relu["workload"]["operation"].as<std::string>(), "relu");
  EXPECT_EQ(dims(relu["workload"]["inputs"][0]), (std::vector<std::uint64_t>{8, 256}));
  const RunConfig activation = load_kernel(relu);
  EXPECT_EQ(activation.analysis.flops, 8u * 256);                // max(x, 0) an element
  EXPECT_EQ(activation.analysis.hbm_bytes(), 2u * 8 * 256 * 2);  // read once, written once

  const RunConfig second = load_kernel(graph["kernels"][2]);
  EXPECT_EQ(second.analysis.flops, 2u * 8 * 256 * 128);
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, GemmWithABiasIsAGemmAndAnAdd) {
  // y = x w^T + b: x [8, 512], w [256, 512] (transB), b [256].
  ModelBuilder model;
  model.input("x", {8, 512}).weight("w", {256, 512}).weight("b", {256});
  set_int(model.node("Gemm", {"x", "w", "b"}, {"y"}, "proj"), "transB", 1);
  model.output("y");
  const YAML::Node graph = import(model).graph;
  ASSERT_EQ(graph["kernels"].size(), 2u);
  const YAML::Node product = graph["kernels"][0];
  const YAML::Node bias = graph["kernels"][1];
  EXPECT_EQ(product["name"].as<std::string>(), "proj");
  EXPECT_EQ(names(product["writes"]), (std::vector<std::string>{"y_product"}));
  EXPECT_EQ(product["workload"]["n"].as<std::uint64_t>(), 256u);
  EXPECT_EQ(product["workload"]["k"].as<std::uint64_t>(), 512u);
  EXPECT_EQ(load_kernel(product).analysis.flops, 2u * 8 * 256 * 512);
  EXPECT_EQ(bias["name"].as<std::string>(), "proj_bias");
  EXPECT_EQ(names(bias["reads"]), (std::vector<std::string>{"y_product", "b"}));
  EXPECT_EQ(names(bias["writes"]), (std::vector<std::string>{"y"}));
  EXPECT_EQ(bias["workload"]["operation"].as<std::string>(), "add");
  const RunConfig add = load_kernel(bias);
  EXPECT_EQ(add.analysis.flops, 8u * 256);
  // One block of 2048 outputs: the product once, the bias's 256 elements once, y once.
  EXPECT_EQ(add.analysis.hbm_bytes(), (2048u + 256 + 2048) * 2);
  EXPECT_EQ(names(graph["inputs"]), (std::vector<std::string>{"x", "w", "b"}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, BatchedMatMulSharesAWeightOrPairsItsOperands) {
  // [4, 8, 64] x [64, 32]: four GEMMs reading one B; [2, 4, 16, 64] x [2, 4, 64, 16]: eight
  // pairs (attention's scores, a GEMM a head).
  ModelBuilder model;
  model.input("x", {4, 8, 64}).weight("w", {64, 32});
  model.input("q", {2, 4, 16, 64}).input("k", {2, 4, 64, 16});
  model.node("MatMul", {"x", "w"}, {"y"}, "shared");
  model.node("MatMul", {"q", "k"}, {"s"}, "paired");
  model.output("y").output("s");
  const YAML::Node graph = import(model).graph;
  const YAML::Node shared = graph["kernels"][0]["workload"];
  EXPECT_EQ(shared["batch"].as<std::uint64_t>(), 4u);
  EXPECT_EQ(shared["batch_stride"]["b"].as<std::uint64_t>(), 0u);
  EXPECT_EQ(load_kernel(graph["kernels"][0]).analysis.flops, 2u * 4 * 8 * 32 * 64);
  const YAML::Node paired = graph["kernels"][1]["workload"];
  EXPECT_EQ(paired["batch"].as<std::uint64_t>(), 8u);
  EXPECT_FALSE(paired["batch_stride"]);
  EXPECT_EQ(load_kernel(graph["kernels"][1]).analysis.flops, 2u * 8 * 16 * 16 * 64);
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, AConvIsAConvKernelAndItsBiasAnAdd) {
  // x [2, 64, 14, 14] (NCHW) by w [128, 64, 3, 3], padding 1 all round, a bias b [128].
  ModelBuilder model;
  model.input("x", {2, 64, 14, 14}).weight("w", {128, 64, 3, 3}).weight("b", {128});
  onnx::NodeProto& node = model.node("Conv", {"x", "w", "b"}, {"y"}, "conv1");
  set_ints(node, "kernel_shape", {3, 3});
  set_ints(node, "pads", {1, 1, 1, 1});
  set_ints(node, "strides", {1, 1});
  model.output("y");
  const YAML::Node graph = import(model).graph;
  ASSERT_EQ(graph["kernels"].size(), 2u);
  const YAML::Node product = graph["kernels"][0];
  EXPECT_EQ(names(product["reads"]), (std::vector<std::string>{"x", "w"}));
  EXPECT_EQ(names(product["writes"]), (std::vector<std::string>{"y_product"}));
  const YAML::Node w = product["workload"];
  EXPECT_EQ(w["kind"].as<std::string>(), "conv");
  EXPECT_EQ(w["channels"].as<std::uint64_t>(), 64u);
  EXPECT_EQ(w["height"].as<std::uint64_t>(), 14u);
  EXPECT_EQ(w["filters"].as<std::uint64_t>(), 128u);
  EXPECT_EQ(w["kernel"]["r"].as<std::uint64_t>(), 3u);
  EXPECT_EQ(w["padding"].as<std::uint64_t>(), 1u);
  EXPECT_EQ(w["tile"].as<std::string>(), "auto");  // chosen for the machine, as a GEMM's
  const RunConfig config = load_kernel(product);
  const auto& spec = std::get<ConvSpec>(config.workload);
  ASSERT_TRUE(spec.choice.has_value());
  ASSERT_EQ(spec.tile.m % 14, 0u);  // whole output rows
  ASSERT_EQ(128 % spec.tile.n, 0u);
  EXPECT_EQ(config.analysis.flops, 2u * (2 * 14 * 14) * 128 * (64 * 9));
  // x's im2col elements inside the input (40 of the 42 output rows and columns of the three
  // taps) once a block column, the weights once a row tile of each image, y once.
  const std::uint64_t block_columns = 128 / spec.tile.n;
  const std::uint64_t row_tiles = (14 + spec.tile.m / 14 - 1) / (spec.tile.m / 14);
  EXPECT_EQ(
      config.analysis.hbm_bytes(),
      (block_columns * 2 * 64 * 40 * 40 + 2 * row_tiles * 128 * 64 * 9 + 2 * 14 * 14 * 128) * 2);
  const YAML::Node bias = graph["kernels"][1];
  EXPECT_EQ(bias["name"].as<std::string>(), "conv1_bias");
  EXPECT_EQ(dims(bias["workload"]["inputs"][0]), (std::vector<std::uint64_t>{2, 14, 14, 128}));
  EXPECT_EQ(names(bias["writes"]), (std::vector<std::string>{"y"}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, ShapeOperatorsAreNamesForTheirInputsData) {
  // MatMul -> Reshape to [batch, 4, 64] (a target computed from the input's own dimensions, as
  // exporters write it) -> Flatten -> Identity -> Relu: the Relu reads the MatMul's output. The
  // target's Shape, Gather, Unsqueeze, Concat and their constants run no kernel and are no graph
  // inputs.
  ModelBuilder model(13);
  model.input("x", {-1, 512}).weight("w", {512, 256}).index("zero", 0).sizes("axes", {0});
  model.sizes("rest", {4, 64});
  model.node("MatMul", {"x", "w"}, {"h"}, "fc");
  model.node("Shape", {"x"}, {"x_shape"});
  model.node("Gather", {"x_shape", "zero"}, {"batch"});
  model.node("Unsqueeze", {"batch", "axes"}, {"batch_1d"});
  set_int(model.node("Concat", {"batch_1d", "rest"}, {"target"}), "axis", 0);
  model.node("Reshape", {"h", "target"}, {"r"});
  model.node("Flatten", {"r"}, {"f"});
  model.node("Identity", {"f"}, {"i"});
  model.node("Relu", {"i"}, {"y"}, "act");
  model.output("y");
  const YAML::Node graph = import(model, "shapes: {x: [8, 512]}\n").graph;
  ASSERT_EQ(graph["kernels"].size(), 2u);
  EXPECT_EQ(names(graph["kernels"][1]["reads"]), (std::vector<std::string>{"h"}));
  EXPECT_EQ(names(graph["inputs"]), (std::vector<std::string>{"x", "w"}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, SoftmaxAndLayerNormalizationAreRowReductions) {
  ModelBuilder model;
  model.input("x", {8, 512}).weight("scale", {512}).weight("bias", {512});
  model.node("LayerNormalization", {"x", "scale", "bias"}, {"n"}, "ln");
  model.node("Softmax", {"n"}, {"y"}, "probs");
  model.output("y");
  const YAML::Node graph = import(model).graph;
  ASSERT_EQ(graph["kernels"].size(), 2u);
  const YAML::Node ln = graph["kernels"][0];
  EXPECT_EQ(names(ln["reads"]), (std::vector<std::string>{"x", "scale", "bias"}));
  EXPECT_EQ(ln["workload"]["operation"].as<std::string>(), "layer_norm");
  const RunConfig norm = load_kernel(ln);
  EXPECT_EQ(norm.analysis.flops, 8u * ((6 + 2) * 512 + 4));
  // x read once (the row kept on chip), y written, weight and bias read by each of 8 blocks.
  EXPECT_EQ(norm.analysis.hbm_bytes(), 2u * 8 * 512 * 2 + 8 * 2 * 512 * 2);
  const RunConfig probs = load_kernel(graph["kernels"][1]);
  EXPECT_EQ(std::get<RowReductionSpec>(probs.workload).shape, (TensorShape{{8, 512}}));
  EXPECT_EQ(probs.analysis.flops, 8u * (5 * 512 + 1));
  EXPECT_EQ(probs.analysis.hbm_bytes(), 2u * 8 * 512 * 2);
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, AGatherOfRowsIsAnEmbeddingLookup) {
  // Token ids [2, 16] into a [1000, 64] table: 32 rows of 64 picked, written as [2, 16, 64].
  ModelBuilder model;
  model.input("ids", {2, 16}).weight("embedding", {1000, 64});
  model.node("Gather", {"embedding", "ids"}, {"x"}, "embed");
  model.output("x");
  const YAML::Node graph = import(model).graph;
  ASSERT_EQ(graph["kernels"].size(), 1u);
  const YAML::Node embed = graph["kernels"][0];
  EXPECT_EQ(names(embed["reads"]), (std::vector<std::string>{"embedding", "ids"}));
  const RunConfig lookup = load_kernel(embed);
  const auto& spec = std::get<GatherSpec>(lookup.workload);
  EXPECT_EQ(spec.table_rows, 1000u);
  EXPECT_EQ(spec.columns, 64u);
  EXPECT_EQ(spec.indices, 32u);
  EXPECT_EQ(lookup.analysis.flops, 0u);
  // 32 int32 ids and 32 rows of 64 BF16 read, 32 rows written.
  EXPECT_EQ(lookup.analysis.hbm_bytes(), 32u * 4 + 2 * 32 * 64 * 2);
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, AGatherAlongAnotherAxisIsNamed) {
  ModelBuilder model;
  model.input("x", {8, 512}).input("ids", {4});
  onnx::NodeProto& node = model.node("Gather", {"x", "ids"}, {"y"}, "columns");
  onnx::AttributeProto* axis = node.add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(1);
  model.output("y");
  const ConfigError error = error_of(model);
  EXPECT_NE(std::string(error.what()).find("gather picks rows (axis 0) only"), std::string::npos)
      << error.what();
}

TEST_F(OnnxImportTest, SoftmaxBeforeOpset13FlattensItsInputIntoRows) {
  ModelBuilder model(11);
  model.input("x", {2, 4, 128});
  model.node("Softmax", {"x"}, {"y"});  // axis 1 by default: rows of 4 x 128
  model.output("y");
  const YAML::Node graph = import(model).graph;
  EXPECT_EQ(dims(graph["kernels"][0]["workload"]["shape"]), (std::vector<std::uint64_t>{2, 512}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, ElementwiseOperatorsMapToTheirOperations) {
  // Gelu is opset 20's, newer than the ONNX library's shape inference: the tensors after it
  // still get their shapes.
  ModelBuilder model(20);
  model.input("x", {4, 256}).weight("c", {256});
  model.node("Sigmoid", {"x"}, {"s"});
  model.node("Tanh", {"s"}, {"t"});
  model.node("Exp", {"t"}, {"e"});
  set_string(model.node("Gelu", {"e"}, {"g1"}), "approximate", "tanh");
  model.node("Gelu", {"g1"}, {"g2"});
  model.node("Sub", {"g2", "x"}, {"d"});
  model.node("Div", {"d", "c"}, {"q"});
  model.node("Max", {"q", "x"}, {"m"});
  model.node("Min", {"m", "x"}, {"n"});
  model.node("Mul", {"n", "n"}, {"y"});
  model.output("y");
  const YAML::Node graph = import(model).graph;
  std::vector<std::string> operations;
  for (const YAML::Node& kernel : graph["kernels"]) {
    operations.push_back(kernel["workload"]["operation"].as<std::string>());
  }
  EXPECT_EQ(operations, (std::vector<std::string>{"sigmoid", "tanh", "exp", "gelu", "gelu_erf",
                                                  "sub", "div", "max", "min", "mul"}));
  EXPECT_EQ(names(graph["kernels"][0]["reads"]), (std::vector<std::string>{"x"}));
  EXPECT_EQ(names(graph["kernels"][9]["reads"]), (std::vector<std::string>{"n", "n"}));
  EXPECT_EQ(load_kernel(graph["kernels"][3]).analysis.flops, 9u * 1024);  // tanh's form
  EXPECT_EQ(load_kernel(graph["kernels"][4]).analysis.flops, 5u * 1024);  // erf's
  EXPECT_EQ(names(graph["inputs"]), (std::vector<std::string>{"x", "c"}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, ABroadcastThatCutsTheDefaultBlockGetsASmallerOne) {
  // 256 x 8 outputs a block would cut a bias of 768 and a scale spread over rows of 100 into
  // uneven runs: 192 x 8 = 1536 (two biases) and 250 x 8 = 2000 (twenty rows) do not.
  ModelBuilder model;
  model.input("x", {4, 768}).weight("b", {768}).input("z", {64, 100}).weight("s", {64, 1});
  model.node("Add", {"x", "b"}, {"y"});
  model.node("Mul", {"z", "s"}, {"w"});
  model.output("y").output("w");
  const YAML::Node graph = import(model).graph;
  const YAML::Node bias = graph["kernels"][0]["workload"];
  EXPECT_EQ(bias["threads"].as<std::uint64_t>(), 192u);
  EXPECT_EQ(bias["elements_per_thread"].as<std::uint64_t>(), 8u);
  const YAML::Node scale = graph["kernels"][1]["workload"];
  EXPECT_EQ(scale["threads"].as<std::uint64_t>(), 250u);
  EXPECT_EQ(scale["elements_per_thread"].as<std::uint64_t>(), 8u);
  expect_bindings_agree(graph);  // each loads: the blocks cut no run
}

TEST_F(OnnxImportTest, AReshapeToAConstantNodesTargetIsANameToo) {
  ModelBuilder model;
  model.input("x", {8, 256});
  onnx::TensorProto& target = model.constant("target");
  target.set_data_type(onnx::TensorProto::INT64);
  target.add_dims(2);
  target.add_int64_data(2);
  target.add_int64_data(-1);
  model.node("Reshape", {"x", "target"}, {"r"});
  model.node("Softmax", {"r"}, {"y"});
  model.output("y");
  const YAML::Node graph = import(model).graph;
  ASSERT_EQ(graph["kernels"].size(), 1u);
  EXPECT_EQ(names(graph["kernels"][0]["reads"]), (std::vector<std::string>{"x"}));
  EXPECT_EQ(dims(graph["kernels"][0]["workload"]["shape"]), (std::vector<std::uint64_t>{2, 1024}));
  EXPECT_EQ(names(graph["inputs"]), (std::vector<std::string>{"x"}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, FiveDimensionsFoldTheirLeadingOnesIntoOne) {
  // [2, 3, 4, 5, 6] + [6]: the first two dimensions, which the bias broadcasts along, as one.
  ModelBuilder model;
  model.input("x", {2, 3, 4, 5, 6}).weight("b", {6});
  model.node("Add", {"x", "b"}, {"y"});
  model.output("y");
  const YAML::Node graph = import(model).graph;
  const YAML::Node inputs = graph["kernels"][0]["workload"]["inputs"];
  EXPECT_EQ(dims(inputs[0]), (std::vector<std::uint64_t>{6, 4, 5, 6}));
  EXPECT_EQ(dims(inputs[1]), (std::vector<std::uint64_t>{1, 1, 1, 6}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, AConstantAKernelReadsIsAGraphInput) {
  ModelBuilder model;
  model.input("x", {4, 256});
  onnx::TensorProto& half = model.constant("half");
  half.set_data_type(onnx::TensorProto::FLOAT);
  half.add_float_data(0.5f);  // a scalar
  model.node("Mul", {"x", "half"}, {"y"});
  model.output("y");
  const YAML::Node graph = import(model).graph;
  EXPECT_EQ(names(graph["inputs"]), (std::vector<std::string>{"x", "half"}));
  EXPECT_EQ(dims(graph["kernels"][0]["workload"]["inputs"][1]), (std::vector<std::uint64_t>{1}));
  expect_bindings_agree(graph);
}

TEST_F(OnnxImportTest, KernelsAreNamedAfterTheirNodesUniquely) {
  ModelBuilder model;
  model.input("x", {4, 256});
  model.node("Relu", {"x"}, {"a"});
  model.node("Relu", {"a"}, {"b"}, "act");
  model.node("Relu", {"b"}, {"c"}, "act");
  model.node("Relu", {"c"}, {"y"});
  model.output("y");
  const YAML::Node graph = import(model).graph;
  std::vector<std::string> kernels;
  for (const YAML::Node& kernel : graph["kernels"])
    kernels.push_back(kernel["name"].as<std::string>());
  EXPECT_EQ(kernels, (std::vector<std::string>{"Relu_0", "act", "act_2", "Relu_3"}));
}

TEST_F(OnnxImportTest, SkippingANodeMakesItsOutputAGraphInput) {
  ModelBuilder model;
  model.input("x", {8, 64}).weight("w", {8, 16});
  model.node("Transpose", {"x"}, {"xt"});
  model.node("MatMul", {"xt", "w"}, {"y"}, "fc");
  model.output("y");
  const OnnxImport imported = import(model, "", /*skip_unsupported=*/true);
  ASSERT_EQ(imported.skipped.size(), 1u);
  EXPECT_EQ(
      imported.skipped[0].rfind("node 'Transpose_0' (op Transpose): a transpose moves data", 0), 0u)
      << imported.skipped[0];
  EXPECT_EQ(names(imported.graph["inputs"]), (std::vector<std::string>{"xt", "w"}));
  ASSERT_EQ(imported.graph["kernels"].size(), 1u);
  EXPECT_EQ(imported.graph["kernels"][0]["workload"]["m"].as<std::uint64_t>(), 64u);
  expect_bindings_agree(imported.graph);
}

// --- bad input ---

void expect_message(const ConfigError& error, const std::string& key_path,
                    const std::vector<std::string>& parts) {
  EXPECT_EQ(error.key_path(), key_path) << error.what();
  for (const std::string& part : parts) {
    EXPECT_NE(std::string(error.what()).find(part), std::string::npos) << error.what();
  }
}

TEST_F(OnnxImportTest, AnOperatorNotMappedNamesTheNodeAndItsOperator) {
  ModelBuilder model;  // depthwise: a group a channel
  model.input("x", {1, 8, 32, 32}).weight("k", {8, 1, 3, 3});
  set_int(model.node("Conv", {"x", "k"}, {"y"}, "conv1"), "group", 8);
  model.output("y");
  expect_message(error_of(model), "workload.path",
                 {"workload.yaml:3:9:", "cannot map node 'conv1' (op Conv)",
                  "it is a grouped convolution (8 groups); conv computes one group",
                  "--skip-unsupported reports it instead"});

  ModelBuilder erf;
  erf.input("x", {4, 256});
  erf.node("Erf", {"x"}, {"y"});
  erf.output("y");
  expect_message(error_of(erf), "workload.path", {"node 'Erf_0' (op Erf)", "gelu_erf"});

  ModelBuilder unknown;
  unknown.input("x", {4, 256});
  unknown.node("Frobnicate", {"x"}, {"y"}, "f");
  unknown.output("y");
  expect_message(error_of(unknown), "workload.path",
                 {"node 'f' (op Frobnicate)", "no workload kind computes it"});
}

TEST_F(OnnxImportTest, AConvOfAnotherFormSaysWhyItIsNotMapped) {
  const auto conv_node = [](const std::function<void(onnx::NodeProto&)>& attributes) {
    ModelBuilder model;
    model.input("x", {1, 16, 8, 8}).weight("w", {32, 16, 3, 3});
    attributes(model.node("Conv", {"x", "w"}, {"y"}, "c"));
    model.output("y");
    return model;
  };
  expect_message(error_of(conv_node([](onnx::NodeProto& n) {
                   set_ints(n, "dilations", {2, 2});
                 })),
                 "workload.path", {"node 'c' (op Conv)", "it is dilated ([2, 2])"});
  expect_message(error_of(conv_node([](onnx::NodeProto& n) {
                   set_ints(n, "strides", {1, 2});
                 })),
                 "workload.path", {"its strides differ along the height and the width (1 and 2)"});
  // SAME_UPPER at stride 2: ceil(8 / 2) = 4 outputs need 3 x 2 + 3 - 8 = 1 row of padding, at
  // the bottom.
  expect_message(error_of(conv_node([](onnx::NodeProto& n) {
                   set_string(n, "auto_pad", "SAME_UPPER");
                   set_ints(n, "strides", {2, 2});
                 })),
                 "workload.path", {"its padding (0, 0, 1, 1) is not the same on every side"});
  const YAML::Node same = import(conv_node([](onnx::NodeProto& n) {
                            set_string(n, "auto_pad", "SAME_LOWER");
                            set_ints(n, "kernel_shape", {3, 3});
                          })).graph;  // stride 1: 2 rows, one each side
  EXPECT_EQ(same["kernels"][0]["workload"]["padding"].as<std::uint64_t>(), 1u);
}

TEST_F(OnnxImportTest, ALayerNormalizationWithoutABiasIsNotMapped) {
  ModelBuilder model;
  model.input("x", {8, 512}).weight("scale", {512});
  model.node("LayerNormalization", {"x", "scale"}, {"y"}, "ln");
  model.output("y");
  expect_message(error_of(model), "workload.path",
                 {"node 'ln' (op LayerNormalization)", "it has no bias B"});
}

TEST_F(OnnxImportTest, AKernelThatBreaksItsKindsRuleIsNotMapped) {
  ModelBuilder model;  // K = 2^25, above gemm's 2^24
  model.input("x", {1, 1 << 25}).weight("w", {1 << 25, 1});
  model.node("MatMul", {"x", "w"}, {"y"}, "huge");
  model.output("y");
  expect_message(error_of(model), "workload.path",
                 {"node 'huge' (op MatMul): its gemm kernel would break a rule of the kind: "
                  "workload.k: must be at most 16777216"});
}

TEST_F(OnnxImportTest, AModelWithoutAKernelIsRefused) {
  ModelBuilder model;
  model.input("x", {4, 256});
  model.node("Identity", {"x"}, {"y"});
  model.output("y");
  expect_message(error_of(model), "workload.path", {"holds no node that maps to a kernel"});
}

TEST_F(OnnxImportTest, ASoftmaxOverAnotherAxisThanTheLastNamesIt) {
  ModelBuilder model;
  model.input("x", {8, 512});
  set_int(model.node("Softmax", {"x"}, {"y"}, "sm"), "axis", 0);
  model.output("y");
  expect_message(error_of(model), "workload.path",
                 {"node 'sm' (op Softmax)", "over axis 0 of [8, 512]", "the last axis (1) only"});
}

TEST_F(OnnxImportTest, ADynamicInputNeedsItsSizes) {
  expect_message(
      error_of(two_layer_mlp()), "workload.shapes",
      {"workload.yaml:2:3:", "the model's input 'x' has dynamic dimensions, [batch, 512]",
       "shapes: {x: [1, 512]}"});
  ModelBuilder two = two_layer_mlp();
  two.input("mask", {-1, 256});
  expect_message(error_of(two, "shapes: {x: [8, 512]}\n"), "workload.shapes",
                 {"input 'mask' has dynamic dimensions"});
}

TEST_F(OnnxImportTest, SizesMustBeForAnInputAndAgreeWithItsFixedOnes) {
  expect_message(error_of(two_layer_mlp(), "shapes: {x: [8, 512], z: [1]}\n"), "workload.shapes.z",
                 {"the model has no input 'z'", "its inputs: x"});
  expect_message(error_of(two_layer_mlp(), "shapes: {x: [8, 512], w1: [512, 256]}\n"),
                 "workload.shapes.w1", {"no input 'w1' (it is a weight"});
  expect_message(error_of(two_layer_mlp(), "shapes: {x: [8, 256]}\n"), "workload.shapes.x[1]",
                 {"dimension 1 of the model's input 'x' [batch, 512] is fixed at 512", "give 512"});
  expect_message(error_of(two_layer_mlp(), "shapes: {x: [8]}\n"), "workload.shapes.x",
                 {"has 2 dimensions, [batch, 512], not 1"});
}

TEST_F(OnnxImportTest, AMissingOrMalformedFileIsReportedAtItsPath) {
  write_workload("path: no/such.onnx\ndtype: bf16\n");
  try {
    import_onnx(load_document(dir_.path("workload.yaml"), "workload", {}), false);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& error) {
    expect_message(error, "workload.path",
                   {"cannot open the ONNX model '" + dir_.path("no/such.onnx") + "'"});
  }
  std::ofstream(dir_.path("model.onnx")) << "hardware:\n  not: a model\n";
  write_workload("path: model.onnx\ndtype: bf16\n");
  try {
    import_onnx(load_document(dir_.path("workload.yaml"), "workload", {}), false);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& error) {
    expect_message(error, "workload.path", {"is not an ONNX model"});
  }
}

TEST_F(OnnxImportTest, UnknownKeysAndDataTypesAreRefused) {
  expect_message(error_of(two_layer_mlp(), "shape: {x: [8, 512]}\n"), "workload.shape",
                 {"unknown key 'shape'", "did you mean 'shapes'?"});
  write_workload("path: model.onnx\ndtype: bf17\n");
  EXPECT_THROW(import_onnx(load_document(dir_.path("workload.yaml"), "workload", {}), false),
               ConfigError);
}

}  // namespace
}  // namespace ridgeline
