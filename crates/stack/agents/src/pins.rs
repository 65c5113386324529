//! Ratings pinned to weights. A ladder rates agents by spec, but a spec such as `level:3` or
//! `checkpoints/champion@argmax` names a folder, and a folder's weights can change (a new
//! champion is shipped at the same path). The ladder therefore records the SHA-256 of the
//! weights of every checkpoint its agents play when it is built ([`pins`]), and whoever uses
//! its ratings checks them against the weights found today ([`check`]): a rating never
//! silently moves to a network that did not earn it.
//!
//! Exported bundles are not pinned: a bundle is a copy whose folder the user names and owns.

use crate::{AgentSpec, shipped};
use eval::ladder::{Ladder, Network};
use game::Game;
use std::path::{Path, PathBuf};

/// Why a ladder's pins cannot be made or do not hold.
#[derive(Debug, thiserror::Error)]
pub enum PinError {
    /// A spec does not parse.
    #[error(transparent)]
    Spec(#[from] crate::SpecError),
    /// A pinned checkpoint is found nowhere.
    #[error(
        "the checkpoint `{folder}` is found neither under the current folder nor under SABACC_HOME \
         (or the repository this program was built from); run from the repository or set SABACC_HOME"
    )]
    Missing {
        /// The folder as the agents name it.
        folder: String,
    },
    /// A pinned checkpoint's weights cannot be read.
    #[error("cannot read the weights of `{folder}`: {message}")]
    Unreadable {
        /// The folder as the agents name it.
        folder: String,
        /// Why.
        message: String,
    },
    /// A pinned checkpoint's weights are not those the ladder rated.
    #[error(
        "the ladder rated {agents} with the weights of `{folder}` that had SHA-256 {pinned}, and they are now \
         {found}: those ratings do not hold for this network. Rebuild the ladder with the command it records \
         (`sabacc ladder show` prints it), or put the rated weights back"
    )]
    Changed {
        /// The folder as the agents name it.
        folder: String,
        /// The agents that play it, as a list of specs for the message.
        agents: String,
        /// The first 12 hex digits of the pinned checksum.
        pinned: String,
        /// The first 12 hex digits of today's.
        found: String,
    },
}

/// The checkpoint folders `spec` plays at a table of game `G`, as the spec names them (a level's
/// is [`Game::LEVELS_CHECKPOINT`]); none for bots, exported bundles and tables.
pub fn checkpoint_folders<G: Game>(spec: &AgentSpec) -> Vec<PathBuf> {
    match spec {
        AgentSpec::Bot { .. } | AgentSpec::Bundle { .. } | AgentSpec::Table { .. } => Vec::new(),
        AgentSpec::Checkpoint { path, .. } | AgentSpec::GuidedSearch { path, .. } => vec![path.clone()],
        AgentSpec::Level(_) => G::LEVELS_CHECKPOINT.map(PathBuf::from).into_iter().collect(),
        AgentSpec::Erring { inner, .. } => checkpoint_folders::<G>(inner),
    }
}

/// Every checkpoint folder `specs` play, once each, with the SHA-256 of its weights today.
pub fn pins<G: Game>(specs: &[String]) -> Result<Vec<Network>, PinError> {
    let mut out: Vec<Network> = Vec::new();
    for spec in specs {
        for folder in checkpoint_folders::<G>(&AgentSpec::parse::<G>(spec)?) {
            let folder = folder.display().to_string();
            if out.iter().any(|n| n.folder == folder) {
                continue;
            }
            let model_sha256 = weights_sha256(&folder)?;
            out.push(Network { folder, model_sha256 });
        }
    }
    Ok(out)
}

/// Checks every pin of `ladder` against the weights found today.
pub fn check<G: Game>(ladder: &Ladder) -> Result<(), PinError> {
    for n in &ladder.networks {
        let found = weights_sha256(&n.folder)?;
        if !found.eq_ignore_ascii_case(&n.model_sha256) {
            let agents: Vec<String> = ladder
                .agents
                .iter()
                .filter(|e| {
                    AgentSpec::parse::<G>(&e.spec)
                        .map(|s| checkpoint_folders::<G>(&s).iter().any(|f| f.display().to_string() == n.folder))
                        .unwrap_or(false)
                })
                .map(|e| format!("`{}`", e.spec))
                .collect();
            return Err(PinError::Changed {
                folder: n.folder.clone(),
                agents: if agents.is_empty() { "its agents".to_string() } else { agents.join(", ") },
                pinned: n.model_sha256.chars().take(12).collect(),
                found: found.chars().take(12).collect(),
            });
        }
    }
    Ok(())
}

/// SHA-256 of the weights of `folder`, found as shipped files are.
fn weights_sha256(folder: &str) -> Result<String, PinError> {
    let dir = shipped::find(Path::new(folder)).ok_or_else(|| PinError::Missing { folder: folder.to_string() })?;
    policy::sha256_file(&dir.join(policy::MODEL_FILE))
        .map_err(|e| PinError::Unreadable { folder: folder.to_string(), message: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::kessel::Kessel;

    fn spec(s: &str) -> AgentSpec {
        AgentSpec::parse::<Kessel>(s).unwrap()
    }

    /// A folder that parses as a checkpoint (its files' contents are never read here but the
    /// weights' bytes, which are hashed).
    fn checkpoint(dir: &Path, weights: &[u8]) -> String {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(policy::METADATA_FILE), b"{}").unwrap();
        std::fs::write(dir.join(policy::MODEL_FILE), weights).unwrap();
        dir.display().to_string()
    }

    #[test]
    fn every_spec_names_the_checkpoints_it_plays() {
        let dir = tempfile::tempdir().unwrap();
        let x = checkpoint(&dir.path().join("x"), b"w");
        assert!(checkpoint_folders::<Kessel>(&spec("expert")).is_empty());
        assert!(checkpoint_folders::<Kessel>(&spec("search:8")).is_empty());
        assert_eq!(checkpoint_folders::<Kessel>(&spec("level:2")), vec![PathBuf::from("checkpoints/champion")]);
        for s in [format!("{x}@argmax"), x.clone(), format!("search:4+{x}"), format!("mistakes:30+{x}@sample")] {
            assert_eq!(checkpoint_folders::<Kessel>(&spec(&s)), vec![PathBuf::from(&x)], "{s}");
        }
    }

    /// A copied checkpoint is pinned once however many specs play it; changing its weights
    /// makes the check fail with a message naming the folder, the agents and what to do; a
    /// folder that has gone is an error naming it.
    #[test]
    fn pins_hold_until_the_weights_change() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("net");
        let folder = checkpoint(&ckpt, b"weights one");
        let specs = vec![format!("{folder}@argmax"), format!("mistakes:20+{folder}@argmax"), "expert".to_string()];
        let networks = pins::<Kessel>(&specs).unwrap();
        assert_eq!(networks.len(), 1);
        assert_eq!(networks[0].folder, folder);
        assert_eq!(networks[0].model_sha256, policy::sha256_file(&ckpt.join(policy::MODEL_FILE)).unwrap());

        let mut ladder: Ladder = serde_json::from_str(LADDER).unwrap();
        ladder.agents[0].spec = specs[0].clone();
        ladder.networks = networks;
        check::<Kessel>(&ladder).unwrap();

        std::fs::write(ckpt.join(policy::MODEL_FILE), b"weights two").unwrap();
        let e = check::<Kessel>(&ladder).unwrap_err().to_string();
        for want in [folder.as_str(), specs[0].as_str(), "do not hold", "Rebuild the ladder", "ladder show"] {
            assert!(e.contains(want), "wanted `{want}` in: {e}");
        }
        std::fs::remove_dir_all(&ckpt).unwrap();
        let e = check::<Kessel>(&ladder).unwrap_err().to_string();
        assert!(e.contains(&folder) && e.contains("SABACC_HOME"), "{e}");
    }

    /// The shipped ladder rated the levels with the weights shipped today: it pins the levels'
    /// checkpoint, and the pin holds. A new champion without a rebuilt ladder fails here.
    #[test]
    fn the_committed_ladder_rated_the_shipped_champion() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join(eval::ladder::shipped("kessel"));
        let ladder = eval::ladder::Ladder::read(&path).unwrap();
        assert!(
            ladder.networks.iter().any(|n| n.folder == "checkpoints/champion"),
            "ladder/kessel.json does not pin {}: {:?}",
            "checkpoints/champion",
            ladder.networks
        );
        check::<Kessel>(&ladder).unwrap();
    }

    /// The smallest ladder the checks read: one anchor.
    const LADDER: &str = r#"{
        "format": 1, "game": "kessel", "model": "m", "command": "c",
        "anchors": [{"spec": "expert", "rating": 1500.0}],
        "agents": [
            {"spec": "x", "rating": 1400.0, "low": 1390.0, "high": 1410.0, "games": 10},
            {"spec": "expert", "rating": 1500.0, "low": 1500.0, "high": 1500.0, "games": 10}
        ],
        "matchups": [], "held_out": [],
        "rate": {"opponents": ["expert"], "players": [2], "games": 10}
    }"#;
}
