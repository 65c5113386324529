// A person's full game in the static demo, clicked through in Chromium, for each game the demo
// offers: the bots are a level's bundle run by onnxruntime-web, the rules and observations come
// from the WebAssembly package, and the only requests are for files of dist/ (no server API).
import { test, expect } from '@playwright/test';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const ART = process.env.ARTEFACTS || 'artefacts';

/** Percentile `p` (0..1) of `xs`. */
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

for (const [game, level, seats] of [['kessel', 3, 2], ['classic', 2, 2]]) {
  test(`a full ${game} game against level ${level}, static files only`, async ({ page, baseURL }) => {
    const requests = [];
    const errors = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

    await page.goto(`/index.html?game=${game}&level=${level}&seats=${seats}&seed=3&delay=0`);
    await expect(page.locator('#status')).toHaveAttribute('data-state', 'ready');
    await page.click('#start');

    // Play: click one of the offered actions (a fixed pseudo-random choice) until the game ends.
    let clicks = 0;
    let x = 12345;
    for (;;) {
      await expect(page.locator('#status')).toHaveAttribute('data-state', /your-turn|over|error/);
      const kind = await page.locator('#status').getAttribute('data-state');
      if (kind !== 'your-turn') break;
      const buttons = page.locator('#actions button');
      const n = await buttons.count();
      expect(n).toBeGreaterThan(0);
      x = (x * 1103515245 + 12345) % 2147483648;
      await buttons.nth(x % n).click();
      clicks += 1;
      expect(clicks).toBeLessThan(3000);
    }
    await expect(page.locator('#status')).toHaveAttribute('data-state', 'over');
    await expect(page.locator('#status')).toContainText(/won|No winner/);
    await page.screenshot({ path: `${ART}/demo-${game}-over.png` });
    expect(errors).toEqual([]);
    expect(clicks).toBeGreaterThan(0);

    // Nothing but dist/'s own files was asked for.
    const origin = new URL(baseURL).origin;
    for (const url of requests) {
      const u = new URL(url);
      expect(u.origin, url).toBe(origin);
      const file = join(dist, decodeURIComponent(u.pathname));
      expect(existsSync(file) && statSync(file).isFile(), `${url} is not a file of dist/`).toBe(true);
    }
    expect(requests.some((u) => u.endsWith('.onnx'))).toBe(true);
    expect(requests.some((u) => u.endsWith('sabacc_kit_bg.wasm'))).toBe(true);

    // Measurements (printed, not asserted): one AI move (observation + network + pick) over 300
    // moves of bot-against-bot games after a warm-up, and observations per second.
    const times = await page.evaluate(async () => {
      const { game, policy } = window.kitDemo;
      const rules = game.rules();
      const out = [];
      let g = game.clone();
      for (let i = 0; out.length < 300; i++) {
        if (g.isOver()) {
          const next = new g.constructor(g.gameId, rules, null, i);
          g.free();
          g = next;
        }
        const t0 = performance.now();
        const action = await policy.act(g);
        if (i >= 20) out.push(performance.now() - t0);
        g.apply(action);
      }
      return out;
    });
    // Observations per second, each in a new array (`observation`) and into one buffer
    // (`observeInto`, what the policy runner does).
    const [perSecond, intoPerSecond, warmedUp] = await page.evaluate(() => {
      const g = window.kitDemo.game.clone();
      const seat = 0;
      const buffer = new Float32Array(g.observation(seat).length);
      const rate = (encode) => {
        let n = 0;
        const t0 = performance.now();
        while (performance.now() - t0 < 300) {
          for (let i = 0; i < 100; i++) encode();
          n += 100;
        }
        return n / ((performance.now() - t0) / 1000);
      };
      return [rate(() => g.observation(seat)), rate(() => g.observeInto(seat, buffer)), window.kitDemo.policy.warmedUp];
    });
    console.log(`${game}: ${clicks} moves of yours; AI move (${times.length} timed) p50 ${pct(times, 0.5).toFixed(2)} ms, p99 ${pct(times, 0.99).toFixed(2)} ms (after a warm-up of ${warmedUp.runs} runs in ${Math.round(warmedUp.ms)} ms at load); observations/s in WebAssembly ${Math.round(perSecond)} (new arrays), ${Math.round(intoPerSecond)} (one buffer); ${requests.length} requests, all static files`);
  });
}
