// Parity of the WebAssembly package with the Rust environment, float for float: for every bundle
// named on the command line, each game of its reference.json is replayed in WebAssembly from its
// seed and rules. The recording policy's sampled moves are not in the file, so the replay searches
// them: a branch lives only while the acting seat's observation and mask equal the recorded row's
// bit for bit. On the path found, every recorded row and every recorded state must match: the
// state's views (the encoder's input) identify it, and then every seat's observation must equal
// the Rust encoder's, every float's bits, the engine's whole state its recorded `state_json`
// text, and the legal actions the recorded ones.
//
//   node tests/parity.mjs [--every-game] BUNDLE_DIR...
//
// --every-game: also fail unless the bundles cover every registered game.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, Game, gameIds, gameInfo } from '../pkg/sabacc_kit.js';

initSync({ module: readFileSync(new URL('../pkg/sabacc_kit_bg.wasm', import.meta.url)) });

/** Nodes a replay may visit before it is declared lost (a real replay needs a few thousand). */
const NODE_LIMIT = 2_000_000;

/** reference.json with its 64-bit seeds kept exact (as text) rather than rounded to doubles. */
function readReference(dir) {
  const text = readFileSync(join(dir, 'reference.json'), 'utf8')
    .replace(/("game_seed"\s*:\s*)\[([^\]]*)\]/, (_, key, list) => `${key}[${list.replace(/\d+/g, '"$&"')}]`)
    .replace(/("game_seed"\s*:\s*)(\d+)/g, '$1"$2"');
  return JSON.parse(text);
}

/** The float32 bit patterns of `values` (numbers written from float32 round-trip exactly). */
function bits(values) {
  return new Uint32Array(Float32Array.from(values, Math.fround).buffer);
}

function sameBits(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** JSON values compared structurally (object key order aside). */
function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
}

function firstDifference(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `index ${i}: ${new Float32Array(a.buffer)[i]} vs ${new Float32Array(b.buffer)[i]}`;
  }
  return 'lengths differ';
}

/** Checks one bundle; returns what was compared. Throws on the first difference. */
function checkBundle(dir) {
  const contract = JSON.parse(readFileSync(join(dir, 'contract.json'), 'utf8'));
  const reference = readReference(dir);
  const info = gameInfo(contract.env_id);
  if (contract.observation.length !== info.obsLength || contract.actions.count !== info.numActions) {
    throw new Error(`${dir}: the contract's sizes are not ${info.id}'s`);
  }
  const config = contract.game.config;
  const rows = reference.rows;
  // Rows and states by game, in the order the games were played.
  const games = new Map();
  const gameOf = (seed) => {
    if (!games.has(seed)) games.set(seed, { seed, rows: [], states: [] });
    return games.get(seed);
  };
  rows.game_seed.forEach((seed, i) => gameOf(seed).rows.push({
    obs: bits(rows.obs[i]),
    mask: bits(rows.mask[i]),
  }));
  for (const s of reference.states) gameOf(s.game_seed).states.push(s);

  let nodes = 0, statesChecked = 0, seatsChecked = 0;
  for (const g of games.values()) {
    // Rows are every second decision from the deal (0, 2, 4, …), so row k is decision 2k.
    const last = Math.max(2 * (g.rows.length - 1), ...g.states.map((s) => s.decision));
    const statesAt = new Map(g.states.map((s) => [s.decision, s]));
    const start = new Game(info.id, config.rules, null, BigInt(g.seed));
    start.setEventLogging(config.event_log);
    const search = (game, decision) => {
      if (++nodes > NODE_LIMIT) throw new Error(`${dir}: game ${g.seed}: no replay found within ${NODE_LIMIT} positions`);
      if (decision % 2 === 0 && decision / 2 < g.rows.length) {
        const row = g.rows[decision / 2];
        const actor = game.currentPlayer();
        if (actor === undefined) return false;
        if (!sameBits(bits(game.mask()), row.mask) || !sameBits(bits(game.observation(actor)), row.obs)) return false;
      }
      const state = statesAt.get(decision);
      if (state !== undefined) {
        const seats = state.seats.map((s) => game.view(s.seat));
        if (!state.seats.every((s, i) => sameJson(seats[i], s.view))) return false;
        // The views are the recorded ones: this is the recorded state. Now the encoder must agree.
        for (const s of state.seats) {
          const ours = bits(game.observation(s.seat));
          const theirs = bits(s.obs);
          if (!sameBits(ours, theirs)) {
            throw new Error(`${dir}: game ${g.seed}, decision ${decision}, seat ${s.seat}: observation differs at ${firstDifference(ours, theirs)}`);
          }
          // The buffer-filling calls a front-end uses every move give the same floats.
          const into = new Float32Array(info.obsLength).fill(NaN);
          game.observeInto(s.seat, into);
          if (!sameBits(bits(into), ours)) throw new Error(`${dir}: game ${g.seed}, decision ${decision}, seat ${s.seat}: observeInto differs from observation`);
          const maskInto = new Float32Array(info.numActions).fill(NaN);
          game.maskInto(maskInto, s.seat);
          if (!sameBits(bits(maskInto), bits(game.mask(s.seat)))) throw new Error(`${dir}: game ${g.seed}, decision ${decision}, seat ${s.seat}: maskInto differs from mask`);
        }
        if (game.stateJson() !== state.state_json) {
          throw new Error(`${dir}: game ${g.seed}, decision ${decision}: the engine's state differs from the recorded state_json`);
        }
        const legal = Array.from(game.legalActions());
        if (!sameJson(legal, state.legal) || (game.currentPlayer() ?? null) !== state.actor) {
          throw new Error(`${dir}: game ${g.seed}, decision ${decision}: legal actions ${legal} vs ${state.legal}`);
        }
      }
      if (decision === last) return true;
      for (const a of game.legalActions()) {
        const next = game.clone();
        next.apply(a);
        const found = search(next, decision + 1);
        next.free();
        if (found) return true;
      }
      return false;
    };
    if (!search(start, 0)) throw new Error(`${dir}: game ${g.seed}: no line of play reproduces the recorded rows (was the bundle exported by another build of the engine?)`);
    start.free();
    statesChecked += g.states.length;
    seatsChecked += g.states.reduce((n, s) => n + s.seats.length, 0);
  }
  return { game: info.id, games: games.size, rows: rows.count, states: statesChecked, seats: seatsChecked, nodes };
}

const everyGame = process.argv.includes('--every-game');
const dirs = process.argv.slice(2).filter((a) => a !== '--every-game');
if (dirs.length === 0) {
  console.error('usage: node tests/parity.mjs [--every-game] BUNDLE_DIR...');
  process.exit(2);
}
let failed = 0;
const covered = new Set();
for (const dir of dirs) {
  const t0 = performance.now();
  try {
    const r = checkBundle(dir);
    covered.add(r.game);
    const ms = Math.round(performance.now() - t0);
    console.log(`parity ${r.game} (${dir}): ${r.rows} rows of ${r.games} games and ${r.states} states (${r.seats} seat observations, the whole engine state) equal bit for bit; ${r.nodes} positions searched, ${ms} ms`);
  } catch (e) {
    failed++;
    console.error(`PARITY FAILED: ${e.message}`);
  }
}
const missing = gameIds().filter((g) => !covered.has(g));
if (everyGame && missing.length > 0) {
  failed++;
  console.error(`PARITY FAILED: no bundle of ${missing.join(', ')} was checked`);
}
if (failed > 0) process.exit(1);
