// The demo: a person (seat 0) plays Kessel or classic Sabacc against a difficulty level's bundle,
// everything in the page: the engine and encoder (the WebAssembly package) and the network
// (onnxruntime-web through the policy runner). URL parameters preset the form and pace the bots:
// ?game=classic&level=3&seats=2&seed=7&delay=0 (delay: milliseconds before each bot move).
import init, { Game, gameInfo } from './kit/sabacc_kit.js';
import { Policy, seededRandom } from './kit/policy.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const delay = Number(params.get('delay') ?? 400);
const HUMAN = 0;

const state = {
  bundles: [],
  policies: new Map(),
  game: null,
  policy: null,
  random: Math.random,
  /** Milliseconds of every bot move: observation, network and pick (the page's own benchmark). */
  moveTimes: [],
  playing: false,
};
// For tests and the curious: the game in progress and the bot's move times.
window.kitDemo = state;

function setStatus(kind, text) {
  $('status').dataset.state = kind;
  $('status').textContent = text;
}

function log(text) {
  const li = document.createElement('li');
  li.textContent = text;
  $('log').append(li);
  li.scrollIntoView({ block: 'nearest' });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function policyFor(entry) {
  if (!state.policies.has(entry.path)) {
    state.policies.set(entry.path, await Policy.load(entry.path, gameInfo(entry.game)));
  }
  return state.policies.get(entry.path);
}

function fillLevels() {
  const game = $('game').value;
  const levels = state.bundles.filter((b) => b.game === game);
  $('level').replaceChildren(...levels.map((b) => new Option(`level ${b.level}`, String(b.level))));
  $('level').value = params.get('level') ?? '3';
  if (!$('level').value) $('level').selectedIndex = 0;
}

function showTable() {
  const game = state.game;
  $('table').textContent = game.render(HUMAN);
  const buttons = [];
  if (!game.isOver() && game.currentPlayer() === HUMAN) {
    for (const { index, name } of game.legal()) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = name;
      b.dataset.action = String(index);
      b.addEventListener('click', () => humanMove(index, name));
      buttons.push(b);
    }
  }
  $('actions').replaceChildren(...buttons);
}

function finish() {
  const game = state.game;
  const o = game.outcome();
  let text;
  if (o.truncated) text = `No winner: the game was cut off after ${o.progress} ${o.progressUnit}.`;
  else if (o.winners.includes(HUMAN)) text = `You won after ${o.progress} ${o.progressUnit}.`;
  else text = `Seat ${o.winners.join(' and ')} won after ${o.progress} ${o.progressUnit}.`;
  log(text);
  setStatus('over', `Game over. ${text}`);
}

/** Bots play until it is the person's turn or the game is over. */
async function botsPlay() {
  const game = state.game;
  while (!game.isOver() && game.currentPlayer() !== HUMAN) {
    const seat = game.currentPlayer();
    setStatus('waiting', `Seat ${seat} (${describe(state.policy)}) is thinking…`);
    if (delay > 0) await sleep(delay);
    const t0 = performance.now();
    const { action, mistake } = await state.policy.actDetailed(game, { random: state.random });
    state.moveTimes.push(performance.now() - t0);
    log(`seat ${seat}: ${game.actionName(action)}${mistake ? ' (a random move)' : ''}`);
    game.apply(action);
    showTable();
  }
  if (game.isOver()) finish();
  else setStatus('your-turn', 'Your turn: choose an action.');
}

function humanMove(index, name) {
  if (!state.playing || state.game.currentPlayer() !== HUMAN) return;
  log(`you: ${name}`);
  state.game.apply(index);
  showTable();
  botsPlay().catch(fail);
}

function describe(policy) {
  const level = policy.level;
  const rating = policy.contract.level?.rating?.rating;
  return level ? `level ${level.number}, ${level.name}${rating ? `, rated ${Math.round(rating)}` : ''}` : 'policy';
}

async function start(event) {
  event?.preventDefault();
  const entry = state.bundles.find((b) => b.game === $('game').value && String(b.level) === $('level').value);
  const seats = Number($('seats').value);
  const seed = BigInt($('seed').value || '0');
  setStatus('loading', `Loading ${entry.game} level ${entry.level}…`);
  state.policy = await policyFor(entry);
  state.game?.free();
  // The rules the level was trained under, at the chosen table size.
  state.game = new Game(entry.game, state.policy.contract.game.config.rules, seats, seed);
  state.random = seededRandom(seed);
  state.playing = true;
  $('log').replaceChildren();
  log(`${gameInfo(entry.game).name}, ${seats} seats, seed ${seed}: you are seat ${HUMAN}; the others play ${describe(state.policy)}.`);
  showTable();
  await botsPlay();
}

function fail(e) {
  console.error(e);
  setStatus('error', `Error: ${e.message}`);
}

async function main() {
  await init();
  state.bundles = await (await fetch('bundles/index.json')).json();
  const games = [...new Set(state.bundles.map((b) => b.game))];
  $('game').replaceChildren(...games.map((g) => new Option(gameInfo(g).name, g)));
  $('game').value = params.get('game') ?? games[0];
  fillLevels();
  if (params.has('seats')) $('seats').value = params.get('seats');
  if (params.has('seed')) $('seed').value = params.get('seed');
  $('game').addEventListener('change', fillLevels);
  $('setup').addEventListener('submit', (e) => start(e).catch(fail));
  $('start').disabled = false;
  setStatus('ready', 'Choose a game and a level, then start.');
}

main().catch(fail);
