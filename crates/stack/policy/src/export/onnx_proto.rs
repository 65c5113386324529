//! The subset of ONNX's protobuf messages the exporter writes, declared with `prost`'s derive
//! macro (field numbers from the public `onnx.proto` specification).
//!
//! Only what a feed-forward policy graph needs is declared: models, graphs, nodes, attributes,
//! dense tensors and tensor types. Writing the graph ourselves keeps it minimal (no export
//! bloat) and free of any code-generation or native dependency.

/// `TensorProto.DataType.FLOAT`.
pub const FLOAT: i32 = 1;
/// `TensorProto.DataType.INT64`.
pub const INT64: i32 = 7;
/// `TensorProto.DataType.BOOL`.
pub const BOOL: i32 = 9;

/// `AttributeProto.AttributeType.INT`.
pub const ATTR_INT: i32 = 2;

/// A whole model file.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ModelProto {
    /// IR version of the file format.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// Operator sets the graph uses.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
    /// Name of the tool that wrote the file.
    #[prost(string, tag = "2")]
    pub producer_name: String,
    /// Version of that tool.
    #[prost(string, tag = "3")]
    pub producer_version: String,
    /// Reverse-DNS namespace of the model.
    #[prost(string, tag = "4")]
    pub domain: String,
    /// Version of the model itself.
    #[prost(int64, tag = "5")]
    pub model_version: i64,
    /// Human-readable description.
    #[prost(string, tag = "6")]
    pub doc_string: String,
    /// The computation.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Free key/value metadata (the contract's key fields go here).
    #[prost(message, repeated, tag = "14")]
    pub metadata_props: Vec<StringStringEntryProto>,
}

/// An operator set reference (empty domain = the default `ai.onnx` set).
#[derive(Clone, PartialEq, prost::Message)]
pub struct OperatorSetIdProto {
    /// Operator set domain.
    #[prost(string, tag = "1")]
    pub domain: String,
    /// Operator set version.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// One metadata entry.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StringStringEntryProto {
    /// Key.
    #[prost(string, tag = "1")]
    pub key: String,
    /// Value.
    #[prost(string, tag = "2")]
    pub value: String,
}

/// A graph: nodes in topological order, constant initializers, typed inputs and outputs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphProto {
    /// Nodes, topologically sorted.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// Graph name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Constant tensors (the weights).
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// Description.
    #[prost(string, tag = "10")]
    pub doc_string: String,
    /// Graph inputs.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// Graph outputs.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
}

/// One operator application.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeProto {
    /// Input value names.
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// Output value names.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// Node name.
    #[prost(string, tag = "3")]
    pub name: String,
    /// Operator name, e.g. `Gemm`.
    #[prost(string, tag = "4")]
    pub op_type: String,
    /// Operator attributes.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
    /// Operator domain (empty = `ai.onnx`).
    #[prost(string, tag = "7")]
    pub domain: String,
}

/// A named operator attribute (only the scalar kinds used here).
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributeProto {
    /// Attribute name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Which of the value fields is set ([`ATTR_INT`] here).
    #[prost(int32, tag = "20")]
    pub r#type: i32,
    /// Float value.
    #[prost(float, tag = "2")]
    pub f: f32,
    /// Integer value.
    #[prost(int64, tag = "3")]
    pub i: i64,
}

/// A dense tensor; data little-endian in `raw_data`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorProto {
    /// Shape.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// Element type ([`FLOAT`], [`INT64`], ...).
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Name (initializers are referenced by it).
    #[prost(string, tag = "8")]
    pub name: String,
    /// Elements as little-endian bytes.
    #[prost(bytes = "vec", tag = "9")]
    pub raw_data: Vec<u8>,
}

/// A named, typed value (graph input or output).
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueInfoProto {
    /// Value name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its type.
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
    /// Description.
    #[prost(string, tag = "3")]
    pub doc_string: String,
}

/// A value type; only tensor types are used.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TypeProto {
    /// The tensor type (field of the `value` oneof).
    #[prost(message, optional, tag = "1")]
    pub tensor_type: Option<TensorTypeProto>,
}

/// `TypeProto.Tensor`: element type and shape.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorTypeProto {
    /// Element type.
    #[prost(int32, tag = "1")]
    pub elem_type: i32,
    /// Shape (dimensions fixed or symbolic).
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// A tensor shape.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorShapeProto {
    /// Dimensions, outermost first.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<Dimension>,
}

/// One dimension: a fixed size or a symbolic name (e.g. `batch`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Dimension {
    /// Fixed size.
    #[prost(int64, optional, tag = "1")]
    pub dim_value: Option<i64>,
    /// Symbolic name.
    #[prost(string, optional, tag = "2")]
    pub dim_param: Option<String>,
}
