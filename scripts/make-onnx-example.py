#!/usr/bin/env python3
"""Writes configs/workloads/models/mlp-block.onnx: the MLP block of mlp-block.yaml as an ONNX
model (LayerNormalization, MatMul, Relu, MatMul, residual Add) whose weights are
inputs with fixed shapes, not initializers, so that the file holds no data and stays small.
Needs python3-onnx (Debian). Run from the repository root."""
import onnx
from onnx import TensorProto, helper

TOKENS, WIDTH, FFN = 512, 1024, 4096


def tensor(name, *dims):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT16, list(dims))


def main():
    nodes = [
        helper.make_node("LayerNormalization", ["x", "norm_scale", "norm_bias"], ["xn"],
                         name="norm", axis=-1),
        helper.make_node("MatMul", ["xn", "up_weight"], ["up"], name="up_proj"),
        # Relu stands for the activation: Gelu is an operator from opset 20 on, newer than
        # Debian's ONNX 1.12.
        helper.make_node("Relu", ["up"], ["act"], name="act"),
        helper.make_node("MatMul", ["act", "down_weight"], ["down"], name="down_proj"),
        helper.make_node("Add", ["down", "x"], ["y"], name="residual"),
    ]
    graph = helper.make_graph(
        nodes, "mlp_block",
        [tensor("x", TOKENS, WIDTH), tensor("norm_scale", WIDTH), tensor("norm_bias", WIDTH),
         tensor("up_weight", WIDTH, FFN), tensor("down_weight", FFN, WIDTH)],
        [tensor("y", TOKENS, WIDTH)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="ridgeline scripts/make-onnx-example.py")
    onnx.checker.check_model(model)
    onnx.save(model, "configs/workloads/models/mlp-block.onnx")


if __name__ == "__main__":
    main()
