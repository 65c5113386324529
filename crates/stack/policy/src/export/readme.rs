//! The bundle's `README.md`: how to call the policy from Python (onnxruntime) and PyTorch.

use super::contract::Contract;
use super::formats::Formats;

/// The README text for `contract`'s bundle.
pub fn text(c: &Contract, formats: Formats) -> String {
    let net = &c.network.config;
    let hidden: Vec<String> = net.hidden.iter().map(|h| h.to_string()).collect();
    let act = match net.activation {
        crate::config::Activation::Relu => "ReLU",
        crate::config::Activation::Tanh => "Tanh",
    };
    let mut s = format!(
        "# Kessel Sabacc policy `{name}`\n\n\
         Exported by `sabacc export` {ver} from checkpoint `{name}` (training step {step}, \
         model.bpk SHA-256 `{sha}`). Contract version {cv}: see `contract.json` and the project's \
         `docs/export.md`.\n\n\
         - Input `obs`: float32 `[batch, {obs}]`, observation spec version {osv} (segment table in \
         `contract.json`).\n\
         - Input `mask`: float32 `[batch, {a}]`, 1 = legal, 0 = illegal; every row needs a legal action.\n\
         - Outputs: `logits` (masked, illegal = {ml:e}), `probs` (exactly 0 on illegal actions), `value`.\n\
         - Action names: `contract.json` → `actions.names`.\n\
         - Network: {trunks} of {hidden} with {act}, a policy head ({a} logits) and a value head.\n\n",
        name = c.source.checkpoint,
        ver = c.exporter.version,
        step = c.source.training_step,
        sha = c.source.model_sha256,
        cv = c.contract_version,
        obs = c.observation.length,
        osv = c.observation.spec_version,
        a = c.actions.count,
        ml = c.masking.masked_logit,
        trunks = if net.shared_trunk { "one shared trunk" } else { "separate actor and critic trunks" },
        hidden = hidden.join(" → "),
    );
    if let Some(l) = &c.level {
        let r = &l.rating;
        s.push_str(&format!(
            "## Difficulty level {n}: {name}\n\n\
             This bundle is `{spec}` ({desc}). Rated **{rating:.0}** [95 %: {low:.0}, {high:.0}] on the project's \
             ladder ({anchors}; {games} seat-games; `{file}`, SHA-256 `{sha}`).\n\n\
             The network is the same as in any bundle of this checkpoint; the level is how it is played, and a \
             front-end must apply it (`contract.json` → `level`):\n\n\
             - `selection`: `{sel}` (the most probable legal action, ties to the lowest index), not sampling;\n\
             - `mistake_rate`: **{rate}**: at each decision, with this probability play a uniformly random legal \
             action instead (it may coincide with the network's choice).\n\n\
             ```python\n\
             import json, random\n\
             level = json.load(open(\"contract.json\"))[\"level\"]\n\
             def act(probs, mask, rng=random.Random(7)):  # one row of each\n\
             \x20   if rng.random() < level[\"mistake_rate\"]:\n\
             \x20       return rng.choice([a for a, m in enumerate(mask) if m != 0])\n\
             \x20   return int(probs.argmax())\n\
             ```\n\n\
             The outputs in `reference.json` are the network's alone (no random moves), so the parity checks are those \
             of every bundle.\n\n",
            n = l.number,
            name = l.name,
            spec = l.spec,
            desc = l.description,
            rating = r.rating,
            low = r.low,
            high = r.high,
            anchors = r.anchors.join(", "),
            games = r.games,
            file = r.ladder_file,
            sha = r.ladder_sha256,
            sel = l.selection,
            rate = l.mistake_rate,
        ));
    }
    if formats.onnx {
        s.push_str(
            "## Python with onnxruntime (numpy only)\n\n```python\n\
             import json, numpy as np, onnxruntime as ort\n\
             sess = ort.InferenceSession(\"policy.onnx\", providers=[\"CPUExecutionProvider\"])\n\
             ref = json.load(open(\"reference.json\"))\n\
             obs = np.asarray(ref[\"rows\"][\"obs\"][:4], dtype=np.float32)\n\
             mask = np.asarray(ref[\"rows\"][\"mask\"][:4], dtype=np.float32)\n\
             logits, probs, value = sess.run(None, {\"obs\": obs, \"mask\": mask})\n\
             action = probs.argmax(axis=1)            # greedy; or sample from probs\n\
             names = json.load(open(\"contract.json\"))[\"actions\"][\"names\"]\n\
             print([names[a] for a in action], value)\n```\n\n",
        );
    }
    if formats.safetensors {
        let trunk = |field: &str| {
            let mut dims = vec![net.obs_dim];
            dims.extend(&net.hidden);
            let layers: Vec<String> = dims.windows(2).map(|w| format!("nn.Linear({}, {})", w[0], w[1])).collect();
            format!("        self.{field} = nn.ModuleList([{}])\n", layers.join(", "))
        };
        let critic = if net.shared_trunk {
            "        self.critic_trunk = nn.ModuleList()  # shared: the critic reuses actor_trunk\n".to_string()
        } else {
            trunk("critic_trunk")
        };
        let critic_src = if net.shared_trunk { "self.actor_trunk" } else { "self.critic_trunk" };
        let last = net.hidden.last().copied().unwrap_or(net.obs_dim);
        let f = if act == "ReLU" { "torch.relu" } else { "torch.tanh" };
        s.push_str(&format!(
            "## PyTorch\n\n`policy.safetensors` holds the weights in PyTorch layout (`[out, in]`), named for \
             this module, which loads them with `load_state_dict(strict=True)`:\n\n```python\n\
             import torch, torch.nn as nn\n\
             from safetensors.torch import load_file\n\n\
             class ActorCritic(nn.Module):\n\
             \x20   def __init__(self):\n\
             \x20       super().__init__()\n\
             {actor}{critic}\
             \x20       self.policy_head = nn.Linear({last}, {a})\n\
             \x20       self.value_head = nn.Linear({last}, 1)\n\n\
             \x20   def trunk(self, layers, x):\n\
             \x20       for layer in layers:\n\
             \x20           x = {f}(layer(x))\n\
             \x20       return x\n\n\
             \x20   def forward(self, obs, mask):\n\
             \x20       logits = self.policy_head(self.trunk(self.actor_trunk, obs))\n\
             \x20       logits = torch.where(mask != 0, logits, torch.full_like(logits, {ml:e}))\n\
             \x20       value = self.value_head(self.trunk({critic_src}, obs)).squeeze(-1)\n\
             \x20       return logits, torch.softmax(logits, dim=-1), value\n\n\
             net = ActorCritic()\n\
             net.load_state_dict(load_file(\"policy.safetensors\"), strict=True)\n```\n\n",
            actor = trunk("actor_trunk"),
            critic = critic,
            last = last,
            a = c.actions.count,
            ml = c.masking.masked_logit,
        ));
    }
    s.push_str(
        "## Checking a front-end\n\n`reference.json` holds observation/mask rows from seeded games with the logits, \
         probabilities and values the Rust policy computed (`rows`), and full game states with each seat's view \
         and observation (`states`), for checking a re-implemented observation encoder. Outputs should match \
         within `tolerance` (|diff| ≤ tolerance · max(1, |reference|)), with the same argmax and probabilities exactly 0 on illegal actions.\n",
    );
    s
}
