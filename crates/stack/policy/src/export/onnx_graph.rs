//! Builds `policy.onnx` from the layer table and the PyTorch-layout weights.
//!
//! The graph is the smallest one computing the contract: per layer one `Gemm` (`transB = 1`, so
//! the initializers are the very `[out, in]` matrices of `policy.safetensors`) and one `Relu` or
//! `Tanh`; then `Cast(mask → bool)`, `Where(legal, raw_logits, MASKED_LOGIT)`, `Softmax` and a
//! `Squeeze` of the value column. The batch dimension is symbolic (`batch`).

use prost::Message;

use super::contract::{Contract, LayerSpec, ONNX_IR_VERSION, ONNX_OPSET};
use super::onnx_proto::*;
use super::weights::Weights;

fn dim_fixed(n: usize) -> Dimension {
    Dimension { dim_value: Some(n as i64), dim_param: None }
}

fn dim_batch() -> Dimension {
    Dimension { dim_value: None, dim_param: Some("batch".into()) }
}

fn value_info(name: &str, elem_type: i32, dims: Vec<Dimension>, doc: &str) -> ValueInfoProto {
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorTypeProto { elem_type, shape: Some(TensorShapeProto { dim: dims }) }),
        }),
        doc_string: doc.into(),
    }
}

fn node(op: &str, name: &str, inputs: &[&str], output: &str, attribute: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        name: name.into(),
        op_type: op.into(),
        attribute,
        domain: String::new(),
    }
}

fn attr_int(name: &str, i: i64) -> AttributeProto {
    AttributeProto { name: name.into(), r#type: ATTR_INT, f: 0.0, i }
}

fn f32_tensor(name: &str, dims: &[usize], data: &[f32]) -> TensorProto {
    TensorProto {
        dims: dims.iter().map(|&d| d as i64).collect(),
        data_type: FLOAT,
        name: name.into(),
        raw_data: data.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

/// Appends the nodes of `layers` reading `input`; returns the name of the last output.
/// Layers already emitted (a shared trunk) are not repeated.
fn emit_path(layers: &[LayerSpec], input: &str, nodes: &mut Vec<NodeProto>) -> String {
    let mut x = input.to_string();
    for l in layers {
        let out = format!("{}.out", l.name);
        if !nodes.iter().any(|n| n.output.first() == Some(&out)) {
            let w = format!("{}.weight", l.name);
            let b = format!("{}.bias", l.name);
            let (gemm_out, act) = match l.activation.as_str() {
                "relu" => (format!("{}.linear", l.name), Some("Relu")),
                "tanh" => (format!("{}.linear", l.name), Some("Tanh")),
                _ => (out.clone(), None),
            };
            nodes.push(node(
                "Gemm",
                &format!("{}.gemm", l.name),
                &[&x, &w, &b],
                &gemm_out,
                vec![attr_int("transB", 1)],
            ));
            if let Some(op) = act {
                nodes.push(node(op, &format!("{}.act", l.name), &[&gemm_out], &out, Vec::new()));
            }
        }
        x = out;
    }
    x
}

/// The serialized ONNX model for `contract`'s network with `weights`, carrying `metadata`.
pub fn model_bytes(contract: &Contract, weights: &Weights, metadata: Vec<(String, String)>) -> Vec<u8> {
    let net = &contract.network;
    let obs_len = contract.observation.length;
    let num_actions = contract.actions.count;
    let mut nodes = Vec::new();
    let raw_logits = emit_path(&net.actor, "obs", &mut nodes);
    let value_col = emit_path(&net.critic, "obs", &mut nodes);
    nodes.push(node("Cast", "mask.cast", &["mask"], "legal", vec![attr_int("to", BOOL as i64)]));
    nodes.push(node("Where", "mask.where", &["legal", &raw_logits, "masked_logit"], "logits", Vec::new()));
    nodes.push(node("Softmax", "probs.softmax", &["logits"], "probs", vec![attr_int("axis", -1)]));
    nodes.push(node("Squeeze", "value.squeeze", &[&value_col, "value_axis"], "value", Vec::new()));

    let mut initializer: Vec<TensorProto> = Vec::new();
    for l in net.distinct_layers() {
        for suffix in ["weight", "bias"] {
            let name = format!("{}.{suffix}", l.name);
            let t = weights.get(&name).expect("weights checked against the layer table");
            initializer.push(f32_tensor(&name, &t.shape, &t.data));
        }
    }
    initializer.push(f32_tensor("masked_logit", &[], &[contract.masking.masked_logit]));
    initializer.push(TensorProto {
        dims: vec![1],
        data_type: INT64,
        name: "value_axis".into(),
        raw_data: 1i64.to_le_bytes().to_vec(),
    });

    let graph = GraphProto {
        node: nodes,
        name: "sabacc_policy".into(),
        initializer,
        doc_string: "Kessel Sabacc actor-critic: masked logits, probabilities and value".into(),
        input: vec![
            value_info("obs", FLOAT, vec![dim_batch(), dim_fixed(obs_len)], "observation rows"),
            value_info("mask", FLOAT, vec![dim_batch(), dim_fixed(num_actions)], "1 = legal action, 0 = illegal"),
        ],
        output: vec![
            value_info("logits", FLOAT, vec![dim_batch(), dim_fixed(num_actions)], "masked logits"),
            value_info("probs", FLOAT, vec![dim_batch(), dim_fixed(num_actions)], "action probabilities"),
            value_info("value", FLOAT, vec![dim_batch()], "state value"),
        ],
    };
    let model = ModelProto {
        ir_version: ONNX_IR_VERSION,
        opset_import: vec![OperatorSetIdProto { domain: String::new(), version: ONNX_OPSET }],
        producer_name: contract.exporter.name.clone(),
        producer_version: contract.exporter.version.clone(),
        domain: "sabacc".into(),
        model_version: contract.contract_version as i64,
        doc_string: "Kessel Sabacc policy; see contract.json in the same bundle".into(),
        graph: Some(graph),
        metadata_props: metadata.into_iter().map(|(key, value)| StringStringEntryProto { key, value }).collect(),
    };
    model.encode_to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_trunk_layers_are_emitted_once() {
        let layer =
            |name: &str, act: &str| LayerSpec { name: name.into(), inputs: 2, outputs: 2, activation: act.into() };
        let trunk = vec![layer("actor_trunk.0", "relu")];
        let mut nodes = Vec::new();
        let a = emit_path(&[trunk.clone(), vec![layer("policy_head", "none")]].concat(), "obs", &mut nodes);
        let v = emit_path(&[trunk, vec![layer("value_head", "none")]].concat(), "obs", &mut nodes);
        assert_eq!((a.as_str(), v.as_str()), ("policy_head.out", "value_head.out"));
        let ops: Vec<&str> = nodes.iter().map(|n| n.op_type.as_str()).collect();
        assert_eq!(ops, ["Gemm", "Relu", "Gemm", "Gemm"]);
        assert_eq!(nodes[3].input[0], "actor_trunk.0.out");
    }

    #[test]
    fn dimensions_round_trip_through_protobuf() {
        let v = value_info("x", FLOAT, vec![dim_batch(), dim_fixed(7)], "");
        let back = ValueInfoProto::decode(v.encode_to_vec().as_slice()).unwrap();
        assert_eq!(back, v);
        let dims = back.r#type.unwrap().tensor_type.unwrap().shape.unwrap().dim;
        assert_eq!(dims[0].dim_param.as_deref(), Some("batch"));
        assert_eq!(dims[1].dim_value, Some(7));
    }
}
