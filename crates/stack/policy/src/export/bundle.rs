//! Loading a bundle back into Rust: `policy.safetensors` read by burn into the same
//! [`ActorCritic`] the checkpoint held, checked against `contract.json` and this build.
//!
//! A bundle is then an agent like a checkpoint ([`load_bundle_agent`]), so arenas and
//! front-ends can play exported policies.

use std::fs;
use std::path::{Path, PathBuf};

use burn::tensor::Device;

use super::contract::{CONTRACT_VERSION, Contract, MIN_CONTRACT_VERSION};
use super::error::ExportError;
use super::files::{CONTRACT_FILE, SAFETENSORS_FILE};
use super::outputs::{PolicyOutputs, policy_outputs};
use super::weights::load_safetensors;
use super::writer::sha256_hex;
use crate::agent::PolicyAgent;
use crate::checkpoint::ExpectedSpec;
use crate::inference::{ActionSelection, Policy};
use game::Game;

/// A loaded export bundle: its contract and the policy its weights make.
#[derive(Clone, Debug)]
pub struct Bundle {
    dir: PathBuf,
    contract: Contract,
    policy: Policy,
}

/// True if `dir` looks like an export bundle (has `contract.json`), for agent-spec parsers.
pub fn is_bundle(dir: &Path) -> bool {
    dir.join(CONTRACT_FILE).is_file()
}

fn spec_err(dir: &Path, field: &'static str, found: impl ToString, expected: impl ToString) -> ExportError {
    ExportError::BundleSpec { path: dir.to_path_buf(), field, found: found.to_string(), expected: expected.to_string() }
}

/// Reads and checks `contract.json` of `dir` against this build's observation and actions of
/// the game it names (`env_id`).
pub fn read_contract(dir: &Path) -> Result<Contract, ExportError> {
    let path = dir.join(CONTRACT_FILE);
    if !dir.is_dir() {
        return Err(ExportError::Bundle { path: dir.to_path_buf(), message: "no such folder".into() });
    }
    let bytes = fs::read(&path).map_err(|e| ExportError::Bundle {
        path: dir.to_path_buf(),
        message: format!("not an export bundle: cannot read {CONTRACT_FILE} ({e})"),
    })?;
    let contract: Contract = serde_json::from_slice(&bytes)
        .map_err(|e| ExportError::Bundle { path: path.clone(), message: format!("invalid contract: {e}") })?;
    if !(MIN_CONTRACT_VERSION..=CONTRACT_VERSION).contains(&contract.contract_version) {
        return Err(spec_err(
            dir,
            "contract_version",
            contract.contract_version,
            format!("{MIN_CONTRACT_VERSION} to {CONTRACT_VERSION}"),
        ));
    }
    if let Some(level) = &contract.level
        && !(0.0..=1.0).contains(&level.mistake_rate)
    {
        return Err(spec_err(dir, "level.mistake_rate", level.mistake_rate, "a probability from 0 to 1"));
    }
    let game = games::GameId::from_env_id(&contract.env_id).ok_or_else(|| {
        let known: Vec<&str> = games::GameId::all().map(|g| g.spec().id).collect();
        spec_err(dir, "env_id", &contract.env_id, known.join(" or "))
    })?;
    let spec = ExpectedSpec::from(game.spec());
    if contract.observation.spec_version != spec.obs_spec_version {
        return Err(spec_err(
            dir,
            "observation.spec_version",
            contract.observation.spec_version,
            spec.obs_spec_version,
        ));
    }
    if contract.observation.length != spec.obs_dim {
        return Err(spec_err(dir, "observation.length", contract.observation.length, spec.obs_dim));
    }
    if contract.actions.count != spec.num_actions {
        return Err(spec_err(dir, "actions.count", contract.actions.count, spec.num_actions));
    }
    let net = &contract.network.config;
    if net.obs_dim != spec.obs_dim || net.num_actions != spec.num_actions {
        return Err(spec_err(
            dir,
            "network.config (obs_dim, num_actions)",
            format!("({}, {})", net.obs_dim, net.num_actions),
            format!("({}, {})", spec.obs_dim, spec.num_actions),
        ));
    }
    net.validate()?;
    Ok(contract)
}

impl Bundle {
    /// Loads the bundle folder `dir` for inference on `device`.
    pub fn load(dir: impl AsRef<Path>, device: &Device) -> Result<Bundle, ExportError> {
        let dir = dir.as_ref();
        let contract = read_contract(dir)?;
        let weights = dir.join(SAFETENSORS_FILE);
        let bytes = fs::read(&weights).map_err(|e| ExportError::BundleWeights {
            path: weights.clone(),
            message: format!("cannot read it ({e}); bundles exported with --format onnx cannot be loaded in Rust"),
        })?;
        let expected = contract.files.get(SAFETENSORS_FILE).ok_or_else(|| ExportError::Bundle {
            path: dir.join(CONTRACT_FILE),
            message: format!("files has no checksum for {SAFETENSORS_FILE}"),
        })?;
        let found = sha256_hex(&bytes);
        if &found != expected {
            return Err(ExportError::BundleChecksum { path: weights, expected: expected.clone(), found });
        }
        let device = device.clone().without_autodiff();
        let model = load_safetensors(&weights, &contract.network, &device)?;
        Ok(Bundle { dir: dir.to_path_buf(), contract, policy: Policy::new(&model, &device) })
    }

    /// The bundle's contract.
    pub fn contract(&self) -> &Contract {
        &self.contract
    }

    /// The policy made from the bundle's weights.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The ONNX graph's computation: masked logits, probabilities and values of `rows` rows
    /// (`mask`: `true` = legal). Wrong lengths, non-finite observations and rows without a
    /// legal action are errors.
    pub fn forward(&self, obs: &[f32], mask: &[bool], rows: usize) -> Result<PolicyOutputs, ExportError> {
        policy_outputs(&self.policy, obs, mask, rows)
    }

    /// The bundle as an agent of game `G` named after its folder, sampling from its policy
    /// (use [`PolicyAgent::with_selection`] for argmax play); a bundle of another game is
    /// refused naming both.
    pub fn into_agent<G: Game>(self) -> Result<PolicyAgent<G>, ExportError> {
        if self.contract.env_id != G::SPEC.id {
            return Err(ExportError::Bundle {
                path: self.dir.clone(),
                message: format!(
                    "the bundle plays {}, but this table plays {}: a network only plays the game it was trained on",
                    self.contract.env_id,
                    G::SPEC.id
                ),
            });
        }
        let name = self.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "export".into());
        Ok(PolicyAgent::new(name, self.policy, ActionSelection::Sample))
    }
}

/// Loads the bundle folder `dir` as an agent of game `G` (sampling, like a loaded checkpoint);
/// all an agent-spec parser needs to accept exported bundles. A bundle of another game is refused.
pub fn load_bundle_agent<G: Game>(dir: impl AsRef<Path>, device: &Device) -> Result<PolicyAgent<G>, ExportError> {
    Bundle::load(dir, device)?.into_agent::<G>()
}
