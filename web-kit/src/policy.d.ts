// Types of the policy runner (policy.js).
import type { InferenceSession } from 'onnxruntime-web';
import type { Game, GameInfo } from '../pkg/sabacc_kit.js';

/** The contract versions this runner reads. */
export const CONTRACT_VERSIONS: number[];
/** How a bundle's network picks. */
export type Selection = 'argmax' | 'sample' | 'level';
export const SELECTIONS: Selection[];

/** A bundle's contract.json (docs/export.md); only the fields the runner reads are typed. */
export interface Contract {
  contract_version: number;
  env_id: string;
  game: { name: string; config: { rules: Record<string, unknown>; reward: string; event_log: boolean } };
  observation: { spec_version: number; length: number; dtype: string; [field: string]: unknown };
  actions: { count: number; names: string[] };
  masking: { input: string; [field: string]: unknown };
  onnx?: { file: string; [field: string]: unknown };
  files?: Record<string, string>;
  level?: {
    number: number;
    spec: string;
    name: string;
    description: string;
    selection: 'argmax' | 'sample';
    mistake_rate: number;
    rule: string;
    rating?: { rating: number; low: number; high: number; [field: string]: unknown };
  };
  [field: string]: unknown;
}

/** Why `contract` does not fit the game `info`; empty when it fits. */
export function contractProblems(contract: Contract, info: GameInfo): string[];
/** Throws an `Error` naming every way `contract` does not fit the game `info`. */
export function checkContract(contract: Contract, info: GameInfo): void;
/** A seeded generator of uniform numbers in [0, 1). */
export function seededRandom(seed: number | bigint): () => number;
/** The legal actions of a mask (non-zero entries), increasing. */
export function legalActions(mask: ArrayLike<number>): number[];

export interface PickOptions {
  selection?: 'argmax' | 'sample';
  /** With this probability, a uniformly random legal action instead (a level's rule). */
  mistakeRate?: number;
  random?: () => number;
}
/** One action from `probs` and `mask`. */
export function pickAction(probs: ArrayLike<number>, mask: ArrayLike<number>, options?: PickOptions): { action: number; mistake: boolean };

/** Network runs on load so the browser optimises onnxruntime-web's code before the game: at most `runs`, for at most `ms`. */
export interface WarmUp {
  runs?: number;
  ms?: number;
}
/** `Policy.load`'s warm-up when none is given. */
export const DEFAULT_WARM_UP: { runs: number; ms: number };

export interface LoadOptions {
  fetch?: typeof globalThis.fetch;
  sessionOptions?: InferenceSession.SessionOptions;
  /** Default `DEFAULT_WARM_UP`; `{ runs: 0 }` for none. */
  warmUp?: WarmUp;
}

export interface ActOptions {
  /** Default: `level` for a level's bundle, `argmax` otherwise. */
  selection?: Selection;
  random?: () => number;
}

/** One bundle's network in an onnxruntime-web session, with its contract. */
export class Policy {
  readonly contract: Contract;
  readonly info: GameInfo;
  readonly session: InferenceSession;
  /** The level's rule, or `null` for a plain bundle. */
  readonly level: { number: number; name: string; selection: 'argmax' | 'sample'; mistakeRate: number } | null;
  /** Loads a bundle folder (URL) or `{ contract, model }` for the game `info`; refuses a contract that does not fit. */
  static load(source: string | URL | { contract: Contract; model: ArrayBuffer | Uint8Array }, info: GameInfo, options?: LoadOptions): Promise<Policy>;
  /** The warm-up runs made so far and the milliseconds they took. */
  readonly warmedUp: { runs: number; ms: number };
  /** Runs the network on a neutral input up to `runs` times for at most `ms` milliseconds; returns the runs made. */
  warmUp(options?: WarmUp): Promise<number>;
  /** The network's outputs for one observation and mask. */
  evaluate(obs: ArrayLike<number>, mask: ArrayLike<number>): Promise<{ logits: Float32Array; probs: Float32Array; value: number }>;
  /** The action for the seat to act in `game`. */
  act(game: Game, options?: ActOptions): Promise<number>;
  /** As `act`, with the probabilities, the value and whether a level's random move was played. */
  actDetailed(game: Game, options?: ActOptions): Promise<{ action: number; mistake: boolean; probs: Float32Array; value: number }>;
  /** Frees the session. */
  release(): Promise<void>;
}
