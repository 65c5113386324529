// The policy runner (src/policy.js) in Node with onnxruntime-web: for every bundle named on the
// command line, the network's outputs on the reference rows equal the Rust policy's within the
// bundle's tolerance (identical argmax, exactly zero probability on illegal actions); contracts
// that do not fit the game and a model that does not match its contract are refused; the pick
// rules (argmax, sample, a level's mistake rate) keep to legal actions.
//
//   node tests/runner.mjs BUNDLE_DIR...
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { initSync, Game, gameIds, gameInfo } from '../pkg/sabacc_kit.js';
import { Policy, checkContract, contractProblems, pickAction, seededRandom } from '../src/policy.js';

initSync({ module: readFileSync(new URL('../pkg/sabacc_kit_bg.wasm', import.meta.url)) });

const close = (a, b, tol) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

async function checkBundle(dir) {
  const contract = JSON.parse(readFileSync(join(dir, 'contract.json'), 'utf8'));
  const reference = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8'));
  const model = readFileSync(join(dir, 'policy.onnx'));
  const info = gameInfo(contract.env_id);
  const policy = await Policy.load({ contract, model }, info);

  const { rows, tolerance } = reference;
  for (let i = 0; i < rows.count; i++) {
    const out = await policy.evaluate(rows.obs[i], rows.mask[i]);
    for (let a = 0; a < info.numActions; a++) {
      assert.ok(close(out.probs[a], rows.probs[i][a], tolerance.logits), `${dir} row ${i}: probs[${a}]`);
      assert.ok(close(out.logits[a], rows.logits[i][a], tolerance.logits), `${dir} row ${i}: logits[${a}]`);
      if (rows.mask[i][a] === 0) assert.equal(out.probs[a], 0, `${dir} row ${i}: illegal action ${a} has probability`);
    }
    assert.ok(close(out.value, rows.value[i], tolerance.value), `${dir} row ${i}: value`);
    assert.equal(pickAction(out.probs, rows.mask[i]).action, rows.argmax[i], `${dir} row ${i}: argmax`);
  }

  // Refusals: every other game, and this contract with one field changed.
  for (const other of gameIds().filter((g) => g !== info.id)) {
    assert.throws(() => checkContract(contract, gameInfo(other)), /env_id/);
  }
  const changed = (edit) => {
    const c = structuredClone(contract);
    edit(c);
    return c;
  };
  const bad = [
    [changed((c) => { c.contract_version = 3; }), /contract_version 3/],
    [changed((c) => { c.observation.length += 1; }), /observation.length/],
    [changed((c) => { c.observation.spec_version += 1; }), /observation.spec_version/],
    [changed((c) => { c.actions.count -= 1; }), /actions.count/],
    [changed((c) => { c.actions.names = [...c.actions.names].reverse(); }), /actions.names/],
    [changed((c) => { c.level = { selection: 'softmax-temperature', mistake_rate: 0.2 }; }), /level.selection/],
  ];
  for (const [c, why] of bad) {
    await assert.rejects(Policy.load({ contract: c, model }, info), why);
  }
  const tampered = Uint8Array.from(model);
  tampered[tampered.length - 1] ^= 1;
  await assert.rejects(Policy.load({ contract, model: tampered }, info), /SHA-256/);
  assert.deepEqual(contractProblems(contract, info), []);

  // Warming up runs the network and leaves its answers as they were (checked above after the
  // default warm-up at load; here after none and after more).
  const cold = await Policy.load({ contract, model }, info, { warmUp: { runs: 0 } });
  assert.equal(await cold.warmUp({ runs: 5 }), 5);
  assert.equal(await cold.warmUp({ runs: 1000, ms: 0 }), 0, 'a warm-up stops at its time limit');
  const again = await cold.evaluate(rows.obs[0], rows.mask[0]);
  assert.deepEqual(Array.from(again.probs), Array.from((await policy.evaluate(rows.obs[0], rows.mask[0])).probs));
  await cold.release();

  // A game played to its end by the bundle at every seat, by its own rule.
  const game = new Game(info.id, contract.game.config.rules, null, 11);
  assert.throws(() => game.observeInto(0, new Float32Array(3)), /the observation buffer holds 3 floats/);
  assert.throws(() => game.maskInto(new Float32Array(info.numActions + 1)), /the mask buffer holds/);
  const random = seededRandom(11);
  let moves = 0;
  while (!game.isOver()) {
    game.apply(await policy.act(game, { random }));
    moves++;
  }
  game.free();
  await policy.release();
  return { game: info.id, rows: rows.count, moves, level: contract.level?.number };
}

function checkPickRules() {
  const probs = Float32Array.from([0.1, 0.5, 0.2, 0.2]);
  const mask = Float32Array.from([1, 0, 1, 1]);
  assert.equal(pickAction(probs, mask).action, 2, 'argmax over legal actions, ties to the lowest index');
  const random = seededRandom(5);
  let mistakes = 0;
  for (let i = 0; i < 4000; i++) {
    const s = pickAction(probs, mask, { selection: 'sample', random });
    assert.notEqual(s.action, 1, 'a sample is legal');
    const l = pickAction(probs, mask, { mistakeRate: 0.6, random });
    assert.notEqual(l.action, 1, "a level's random move is legal");
    if (l.mistake) mistakes++;
    assert.equal(pickAction(probs, mask, { mistakeRate: 0, random }).mistake, false);
  }
  assert.ok(Math.abs(mistakes / 4000 - 0.6) < 0.03, `mistake rate 0.6 played ${mistakes / 4000}`);
  assert.throws(() => pickAction(probs, new Float32Array(4)), /no legal action/);
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node tests/runner.mjs BUNDLE_DIR...');
  process.exit(2);
}
checkPickRules();
let failed = 0;
for (const dir of dirs) {
  try {
    const r = await checkBundle(dir);
    console.log(`runner ${r.game} (${dir}${r.level ? `, level ${r.level}` : ''}): ${r.rows} reference rows within tolerance, argmax identical; bad contracts and a changed model refused; a ${r.moves}-move game played`);
  } catch (e) {
    failed++;
    console.error(`RUNNER FAILED (${dir}): ${e.message}`);
  }
}
if (failed > 0) process.exit(1);
