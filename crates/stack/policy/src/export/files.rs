//! The file names of a bundle, read by the writer, the loader and the contract.

/// The ONNX model's file name in a bundle.
pub const ONNX_FILE: &str = "policy.onnx";
/// The weights' file name in a bundle.
pub const SAFETENSORS_FILE: &str = "policy.safetensors";
/// The contract's file name in a bundle.
pub const CONTRACT_FILE: &str = "contract.json";
/// The reference vectors' file name in a bundle.
pub const REFERENCE_FILE: &str = "reference.json";
/// The bundle README's file name.
pub const README_FILE: &str = "README.md";
