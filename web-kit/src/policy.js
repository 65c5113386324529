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

/**
 * The network runs `Policy.load` makes before it returns: at most `runs`, for at most `ms`
 * milliseconds. The browser optimises onnxruntime-web's WebAssembly only once it has run a
 * while, and until then one move in fifty took 4–9 ms instead of 0.3 ms (BENCHMARKS.md, "The
 * front-end kit"); warming up at load moves that cost off the game.
 */
export const DEFAULT_WARM_UP = { runs: 2000, ms: 1500 };

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
    // One pair of input tensors for every call, which the kit writes into (`observeInto`,
    // `maskInto`): no new arrays per move. The network therefore runs one call at a time
    // (`#exclusive`). The outputs are onnxruntime-web's own (it does not fill tensors given to
    // it for outputs on the CPU).
    const { obsLength, numActions } = info;
    const tensor = (length, dims) => new ort.Tensor('float32', new Float32Array(length), dims);
    this.inputs = { obs: tensor(obsLength, [1, obsLength]), mask: tensor(numActions, [1, numActions]) };
    this.queue = Promise.resolve();
    /** The warm-up runs made so far and the milliseconds they took (`warmUp`). */
    this.warmedUp = { runs: 0, ms: 0 };
  }

  /** Runs `task` after every call before it has finished, so the shared tensors are never used twice at once. */
  #exclusive(task) {
    const run = this.queue.then(task);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Runs the network on the inputs' present contents. */
  async #run() {
    const out = await this.session.run(this.inputs);
    return { logits: out.logits.data, probs: out.probs.data, value: out.value.data[0] };
  }

  /**
   * Loads a bundle for the game `info` (`gameInfo(id)`). `source` is the bundle folder's URL
   * (`contract.json` and `policy.onnx` are fetched from it) or `{ contract, model }` (the parsed
   * contract and the ONNX bytes). The contract is checked before the model is fetched; the model's
   * SHA-256 is checked against the contract's `files` where WebCrypto is available. `options`:
   * `fetch` (default `globalThis.fetch`), `sessionOptions` (onnxruntime-web's; default: the wasm
   * backend), `warmUp` (`{ runs, ms }`, default `DEFAULT_WARM_UP`; `{ runs: 0 }` for none: see
   * `warmUp`).
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
    const policy = new Policy(contract, info, session);
    await policy.warmUp(options.warmUp ?? DEFAULT_WARM_UP);
    return policy;
  }

  /**
   * Runs the network on a neutral input (no observation, every action legal) up to `runs` times
   * for at most `ms` milliseconds, so that the browser has optimised its code before the first
   * move that counts (`DEFAULT_WARM_UP`). Returns the runs made.
   */
  async warmUp({ runs = 0, ms = Infinity } = {}) {
    return this.#exclusive(async () => {
      this.inputs.obs.data.fill(0);
      this.inputs.mask.data.fill(1);
      const start = performance.now();
      let done = 0;
      while (done < runs && performance.now() - start < ms) {
        await this.session.run(this.inputs);
        done += 1;
      }
      this.warmedUp = { runs: this.warmedUp.runs + done, ms: this.warmedUp.ms + (performance.now() - start) };
      return done;
    });
  }

  /** The network's outputs for one observation and mask: `{ logits, probs, value }`. */
  async evaluate(obs, mask) {
    const { obsLength, numActions } = this.info;
    if (obs.length !== obsLength) throw new Error(`the observation has ${obs.length} floats, the policy takes ${obsLength}`);
    if (mask.length !== numActions) throw new Error(`the mask has ${mask.length} entries, the policy takes ${numActions}`);
    return this.#exclusive(async () => {
      this.inputs.obs.data.set(obs);
      this.inputs.mask.data.set(mask);
      return this.#run();
    });
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
    const mode = selection ?? (this.level ? 'level' : 'argmax');
    if (!SELECTIONS.includes(mode)) throw new Error(`selection must be one of ${SELECTIONS.join(', ')}, got ${JSON.stringify(mode)}`);
    if (mode === 'level' && !this.level) throw new Error('selection `level` needs a level bundle (contract.json has no level section)');
    return this.#exclusive(async () => {
      const seat = game.currentPlayer();
      if (seat === undefined) throw new Error('the game is over; there is no seat to act');
      // The kit writes the observation and the mask straight into the network's input tensors.
      const mask = this.inputs.mask.data;
      game.observeInto(seat, this.inputs.obs.data);
      game.maskInto(mask);
      const { probs, value } = await this.#run();
      const pick = mode === 'level'
        ? pickAction(probs, mask, { selection: this.level.selection, mistakeRate: this.level.mistakeRate, random })
        : pickAction(probs, mask, { selection: mode, random });
      return { ...pick, probs, value };
    });
  }

  /** Frees the session. */
  async release() {
    await this.session.release();
  }
}
