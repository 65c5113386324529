//! The network's parameters in PyTorch's layout: read out of an [`ActorCritic`], written as
//! `policy.safetensors`, and read back into an [`ActorCritic`].
//!
//! burn-store's PyTorch adapters do the layout change (burn keeps `Linear` weights as
//! `[in, out]`, PyTorch as `[out, in]`), so names and shapes are those a `torch.nn` module with
//! fields `actor_trunk` (`ModuleList` of `Linear`), `critic_trunk`, `policy_head` and
//! `value_head` expects from `load_state_dict(strict=True)`.

use std::collections::BTreeMap;
use std::path::Path;

use burn::store::{BurnToPyTorchAdapter, ModuleSnapshot, PyTorchToBurnAdapter, SafetensorsStore};
use burn::tensor::Device;

use super::contract::Network;
use super::error::ExportError;
use crate::model::ActorCritic;

/// One parameter tensor, row-major `f32`.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedTensor {
    /// Shape (`[out, in]` for weights, `[out]` for biases).
    pub shape: Vec<usize>,
    /// Elements, row-major.
    pub data: Vec<f32>,
}

/// All parameters by name (`actor_trunk.0.weight`, ..., `value_head.bias`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Weights(BTreeMap<String, NamedTensor>);

impl Weights {
    /// Reads every parameter of `model` in PyTorch layout.
    pub fn from_model(model: &ActorCritic) -> Result<Weights, ExportError> {
        let mut out = BTreeMap::new();
        for t in model.collect(None, Some(Box::new(BurnToPyTorchAdapter)), true) {
            let bytes = t.to_bytes().map_err(|e| ExportError::Weights(format!("reading {}: {e:?}", t.name)))?;
            let data: Vec<f32> = bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            let shape: Vec<usize> = t.shape.to_vec();
            if data.len() != shape.iter().product::<usize>() {
                return Err(ExportError::Weights(format!("{} is not float32 ({} bytes)", t.name, bytes.len())));
            }
            out.insert(t.name.clone(), NamedTensor { shape, data });
        }
        Ok(Weights(out))
    }

    /// The tensor named `name`.
    pub fn get(&self, name: &str) -> Option<&NamedTensor> {
        self.0.get(name)
    }

    /// Checks that the names and shapes are exactly those of `network`'s layer table.
    pub fn check_against(&self, network: &Network) -> Result<(), ExportError> {
        let mut expected = BTreeMap::new();
        for l in network.distinct_layers() {
            expected.insert(format!("{}.weight", l.name), vec![l.outputs, l.inputs]);
            expected.insert(format!("{}.bias", l.name), vec![l.outputs]);
        }
        for (name, shape) in &expected {
            match self.0.get(name) {
                None => return Err(ExportError::Weights(format!("parameter {name} is missing"))),
                Some(t) if &t.shape != shape => {
                    return Err(ExportError::Weights(format!(
                        "parameter {name} has shape {:?}, expected {shape:?}",
                        t.shape
                    )));
                }
                Some(_) => {}
            }
        }
        if let Some(extra) = self.0.keys().find(|k| !expected.contains_key(*k)) {
            return Err(ExportError::Weights(format!("unexpected parameter {extra}")));
        }
        Ok(())
    }
}

/// `policy.safetensors` for `model`, in PyTorch layout, with `metadata` in the header.
pub fn safetensors_bytes(model: &ActorCritic, metadata: &[(String, String)]) -> Result<Vec<u8>, ExportError> {
    let mut store = SafetensorsStore::from_bytes(None).with_to_adapter(BurnToPyTorchAdapter).skip_enum_variants(true);
    for (k, v) in metadata {
        store = store.metadata(k.clone(), v.clone());
    }
    model.save_into(&mut store).map_err(|e| ExportError::Weights(format!("writing safetensors: {e}")))?;
    store.get_bytes().map_err(|e| ExportError::Weights(format!("writing safetensors: {e}")))
}

/// Builds the network of `network.config` on `device` and loads `path` into it, refusing
/// missing, unexpected or mis-shaped tensors.
pub fn load_safetensors(path: &Path, network: &Network, device: &Device) -> Result<ActorCritic, ExportError> {
    let bad = |message: String| ExportError::BundleWeights { path: path.to_path_buf(), message };
    let mut model = ActorCritic::new(&network.config, device)?;
    let mut store = SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .skip_enum_variants(true)
        .allow_partial(false)
        .validate(true);
    let result = model.load_from(&mut store).map_err(|e| bad(e.to_string()))?;
    if let Some((name, _)) = result.missing.first() {
        return Err(bad(format!("parameter {name} is missing")));
    }
    if let Some(name) = result.unused.first() {
        return Err(bad(format!("unexpected parameter {name}")));
    }
    if let Some(e) = result.errors.first() {
        return Err(bad(format!("{e:?}")));
    }
    Ok(model)
}
