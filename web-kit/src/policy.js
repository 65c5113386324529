// The policy runner: loads an exported bundle (contract.json + policy.onnx, docs/export.md) with
// onnxruntime-web, refuses one whose contract does not fit the game, and picks actions from the
// observation and mask the WebAssembly package makes (docs/frontends.md).
//
//   import init, { Game, gameInfo } from 'sabacc-web-kit';
//   import { Policy } from 'sabacc-web-kit/policy';
//   await init();
//   const policy = await Policy.load('bundles/kessel-level-3/', gameInfo('kessel'));
//   const action = await policy.act(game);     // the level's rule, or argmax for a plain bundle
//   game.apply(action);
import * as ort from 'onnxruntime-web';

/** The contract versions this runner reads (docs/export.md, "contract.json"). */
export const CONTRACT_VERSIONS = [1, 2];

/** How a bundle's network picks: its most probable legal action, a sample, or a level's rule. */
export const SELECTIONS = ['argmax', 'sample', 'level'];

/**
 * Why `contract` does not fit the game `info` (a `gameInfo(id)` result): a list of sentences,
 * empty when it fits.
 */
export function contractProblems(contract, info) {
  const problems = [];
  const expect = (what, got, want) => {
    if (got !== want) problems.push(`${what} is ${JSON.stringify(got)}, the game's is ${JSON.stringify(want)}`);
  };
  if (!CONTRACT_VERSIONS.includes(contract?.contract_version)) {
    problems.push(`contract_version ${JSON.stringify(contract?.contract_version)} is not one this runner reads (${CONTRACT_VERSIONS.join(', ')})`);
    return problems;
  }
  expect('env_id', contract.env_id, info.envId);
  expect('observation.spec_version', contract.observation?.spec_version, info.obsVersion);
  expect('observation.length', contract.observation?.length, info.obsLength);
  expect('observation.dtype', contract.observation?.dtype, 'float32');
  expect('actions.count', contract.actions?.count, info.numActions);
  const names = contract.actions?.names;
  if (!Array.isArray(names) || names.length !== info.actionNames.length || names.some((n, i) => n !== info.actionNames[i])) {
    problems.push("actions.names are not the game's action names in index order");
  }
  expect('masking.input', contract.masking?.input, 'mask');
  const level = contract.level;
  if (level !== undefined && level !== null) {
    if (!['argmax', 'sample'].includes(level.selection)) {
      problems.push(`level.selection ${JSON.stringify(level.selection)} is not argmax or sample`);
    }
    if (typeof level.mistake_rate !== 'number' || !(level.mistake_rate >= 0 && level.mistake_rate <= 1)) {
      problems.push(`level.mistake_rate ${JSON.stringify(level.mistake_rate)} is not a probability`);
    }
  }
  return problems;
}

/** Throws an `Error` naming every way `contract` does not fit the game `info`. */
export function checkContract(contract, info) {
  const problems = contractProblems(contract, info);
  if (problems.length > 0) {
    throw new Error(`the bundle does not fit ${info.id}: ${problems.join('; ')}`);
  }
}

/**
 * A small seeded generator of uniform numbers in [0, 1) (xorshift32), for reproducible play;
 * `Math.random` is the default everywhere.
 */
export function seededRandom(seed) {
  let x = (Number(BigInt.asUintN(32, BigInt(seed))) || 0x9e3779b9) >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

/** The legal actions of a mask (non-zero entries), increasing. */
export function legalActions(mask) {
  const legal = [];
  for (let a = 0; a < mask.length; a++) if (mask[a] !== 0) legal.push(a);
  return legal;
}

/**
 * One action from `probs` and `mask`:
 * - `argmax`: the most probable legal action (ties: the lowest index), as `sabacc` plays it;
 * - `sample`: a legal action drawn with its probability;
 * - `mistakeRate` (a level's rule): with that probability, drawn afresh each call, a uniformly
 *   random legal action instead of the selection's choice.
 * `random` returns uniform numbers in [0, 1). Returns `{ action, mistake }`.
 */
export function pickAction(probs, mask, { selection = 'argmax', mistakeRate = 0, random = Math.random } = {}) {
  const legal = legalActions(mask);
  if (legal.length === 0) throw new Error('no legal action: the mask is all zeros');
  if (mistakeRate > 0 && random() < mistakeRate) {
    return { action: legal[Math.min(legal.length - 1, Math.floor(random() * legal.length))], mistake: true };
  }
  if (selection === 'sample') {
    let u = random() * legal.reduce((s, a) => s + probs[a], 0);
    for (const a of legal) {
      u -= probs[a];
      if (u < 0) return { action: a, mistake: false };
    }
    return { action: legal[legal.length - 1], mistake: false };
  }
  if (selection !== 'argmax') throw new Error(`selection must be argmax or sample, got ${JSON.stringify(selection)}`);
  let best = legal[0];
  for (const a of legal) if (probs[a] > probs[best]) best = a;
  return { action: best, mistake: false };
}

async function fetchOk(url, what, fetchImpl) {
  const response = await fetchImpl(url);
  if (!response.ok) throw new Error(`cannot load the bundle's ${what} from ${url}: HTTP ${response.status}`);
  return response;
}

async function sha256Hex(bytes) {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One bundle's network in an onnxruntime-web session, with the contract it came with. */
export class Policy {
  constructor(contract, info, session) {
    this.contract = contract;
    this.info = info;
    this.session = session;
    /** The level's rule (`{ number, name, selection, mistakeRate }`), or `null` for a plain bundle. */
    this.level = contract.level
      ? { number: contract.level.number, name: contract.level.name, selection: contract.level.selection, mistakeRate: contract.level.mistake_rate }
      : null;
  }

  /**
   * Loads a bundle for the game `info` (`gameInfo(id)`). `source` is the bundle folder's URL
   * (`contract.json` and `policy.onnx` are fetched from it) or `{ contract, model }` (the parsed
   * contract and the ONNX bytes). The contract is checked before the model is fetched; the model's
   * SHA-256 is checked against the contract's `files` where WebCrypto is available. `options`:
   * `fetch` (default `globalThis.fetch`), `sessionOptions` (onnxruntime-web's; default: the wasm
   * backend).
   */
  static async load(source, info, options = {}) {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    let contract, model;
    if (typeof source === 'string' || source instanceof URL) {
      let base = String(source);
      if (!base.endsWith('/')) base += '/';
      const baseUrl = new URL(base, globalThis.location?.href);
      contract = await (await fetchOk(new URL('contract.json', baseUrl), 'contract.json', fetchImpl)).json();
      checkContract(contract, info);
      model = new Uint8Array(await (await fetchOk(new URL(contract.onnx?.file ?? 'policy.onnx', baseUrl), 'policy.onnx', fetchImpl)).arrayBuffer());
    } else {
      ({ contract, model } = source);
      checkContract(contract, info);
      model = model instanceof Uint8Array ? model : new Uint8Array(model);
    }
    const want = contract.files?.[contract.onnx?.file ?? 'policy.onnx'];
    if (want && globalThis.crypto?.subtle) {
      const got = await sha256Hex(model);
      if (got !== want) throw new Error(`policy.onnx does not match its contract: SHA-256 ${got}, the contract says ${want}`);
    }
    const session = await ort.InferenceSession.create(model, options.sessionOptions ?? { executionProviders: ['wasm'] });
    return new Policy(contract, info, session);
  }

  /** The network's outputs for one observation and mask: `{ logits, probs, value }`. */
  async evaluate(obs, mask) {
    const { obsLength, numActions } = this.info;
    if (obs.length !== obsLength) throw new Error(`the observation has ${obs.length} floats, the policy takes ${obsLength}`);
    if (mask.length !== numActions) throw new Error(`the mask has ${mask.length} entries, the policy takes ${numActions}`);
    const out = await this.session.run({
      obs: new ort.Tensor('float32', Float32Array.from(obs), [1, obsLength]),
      mask: new ort.Tensor('float32', Float32Array.from(mask), [1, numActions]),
    });
    return { logits: out.logits.data, probs: out.probs.data, value: out.value.data[0] };
  }

  /**
   * The action for the seat to act in `game` (a kit `Game`). `options.selection`: `level` (the
   * default for a level's bundle: its selection and mistake rate), `argmax` (the default
   * otherwise) or `sample`; `options.random`: uniform numbers in [0, 1) (default `Math.random`).
   * Returns the action index; `actDetailed` also returns the probabilities and whether the
   * level's random move was played.
   */
  async act(game, options = {}) {
    return (await this.actDetailed(game, options)).action;
  }

  /** As `act`, returning `{ action, mistake, probs, value }`. */
  async actDetailed(game, { selection, random = Math.random } = {}) {
    const seat = game.currentPlayer();
    if (seat === undefined) throw new Error('the game is over; there is no seat to act');
    const mask = game.mask();
    const { probs, value } = await this.evaluate(game.observation(seat), mask);
    const mode = selection ?? (this.level ? 'level' : 'argmax');
    if (!SELECTIONS.includes(mode)) throw new Error(`selection must be one of ${SELECTIONS.join(', ')}, got ${JSON.stringify(mode)}`);
    if (mode === 'level' && !this.level) throw new Error('selection `level` needs a level bundle (contract.json has no level section)');
    const pick = mode === 'level'
      ? pickAction(probs, mask, { selection: this.level.selection, mistakeRate: this.level.mistakeRate, random })
      : pickAction(probs, mask, { selection: mode, random });
    return { ...pick, probs, value };
  }

  /** Frees the session. */
  async release() {
    await this.session.release();
  }
}
