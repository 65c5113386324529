// A person's game, clicked through: start a game against bots, take actions until the game
// ends, check the hint panel, the reveal and the replay, and keep screenshots.
const { test, expect } = require("@playwright/test");

const ART = process.env.ARTEFACTS || "artefacts";

test("a full game against bots with hints, reveal and replay", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/?fast=1");
  await page.selectOption("#players", "3");
  const opponents = page.locator("select.opponent");
  await expect(opponents).toHaveCount(2);
  await opponents.nth(0).selectOption("expert");
  await page.fill("#seed", "11");
  await page.click("#start");
  await expect(page.locator("#table")).toBeVisible();
  await expect(page.locator("#hand .card")).toHaveCount(2);

  // The hint panel: policy probabilities over exactly the legal actions, and a value.
  await page.check("#hint-toggle");
  await expect(page.locator("#hint")).toBeVisible();
  await expect(page.locator("#hint")).toHaveAttribute("data-kind", "policy");
  const buttons = await page.locator("#actions button").count();
  await expect(page.locator("#hint .bar")).toHaveCount(buttons);
  await expect(page.locator("#hint")).toContainText("value estimate");
  await page.screenshot({ path: `${ART}/table-with-hint.png` });
  await page.uncheck("#hint-toggle");

  // Play: always click the first offered action, until the game is over.
  let clicks = 0;
  let sawReveal = false;
  while (await page.locator("#game-over").isHidden()) {
    const first = page.locator("#actions button").first();
    await expect(first).toBeVisible();
    await first.click();
    clicks += 1;
    await expect(page.locator("body")).toHaveAttribute("data-idle", "1");
    if (!sawReveal && (await page.locator("#settlement").isVisible())) {
      sawReveal = true;
      await expect(page.locator("#settlement table tr.winner")).not.toHaveCount(0);
      await expect(page.locator("#settlement")).toContainText(/Sabacc|Nulhrek/);
      await page.screenshot({ path: `${ART}/reveal.png` });
    }
    expect(clicks).toBeLessThan(2000);
  }
  expect(sawReveal).toBe(true);
  await expect(page.locator("#log li")).not.toHaveCount(0);
  await expect(page.locator("#log")).toContainText("Game over");
  await page.screenshot({ path: `${ART}/game-over.png` });

  // Replay: step through, every hand shown, back to the start.
  await page.click("#open-replay");
  await expect(page.locator("#replay")).toBeVisible();
  await expect(page.locator("#replay-step")).toContainText("step 0 of");
  await expect(page.locator("#replay-seats .seat")).toHaveCount(3);
  await expect(page.locator("#replay-seats .seat").first().locator(".card")).toHaveCount(2);
  await page.click("#replay-next");
  await expect(page.locator("#replay-step")).toContainText("step 1 of");
  await page.click("#replay-last");
  await expect(page.locator("#replay-next-action")).toHaveText("The end");
  await page.screenshot({ path: `${ART}/replay.png` });
  const download = await page.locator("#replay-download").getAttribute("href");
  const replay = await (await page.request.get(download)).json();
  expect(replay.actions.length).toBeGreaterThan(clicks - 1);
  expect(errors).toEqual([]);
});

test("illegal moves are not offered and errors are shown, not thrown", async ({ page }) => {
  await page.goto("/?fast=1");
  await page.click("#start");
  await expect(page.locator("#actions button").first()).toBeVisible();
  const offered = await page.locator("#actions button").evaluateAll((bs) => bs.map((b) => b.dataset.action));
  const view = await page.evaluate(async () => {
    const id = document.body.dataset.game;
    // The page's own seat secret (a script-level variable of app.js).
    const r = await fetch(`/api/games/${id}?seat=0`, { headers: { Authorization: `Bearer ${token}` } });
    return r.json();
  });
  expect(offered).toEqual(view.legal.map((a) => a.name));
  await page.setViewportSize({ width: 1100, height: 700 });
  await page.screenshot({ path: `${ART}/table.png` });
});

test("the first visit offers one start and the rules", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/?fast=1");
  await expect(page.locator("#welcome")).toBeVisible();
  await expect(page.locator("#table")).toBeHidden();
  // The table the button deals: the server's default opponents, one seat each.
  const opponents = await page.locator("select.opponent").evaluateAll((ss) => ss.map((s) => s.value));
  await expect(page.locator("#welcome-players")).toHaveText(String(opponents.length + 1));
  // Agents are named for people, not by their specs.
  await expect(page.locator("#welcome-opponents")).toContainText("Expert");
  await expect(page.locator("#welcome-opponents")).not.toContainText("checkpoints/");
  // The rules: a summary on the page, open on the first visit, and a link to the full text.
  await expect(page.locator("#how-to-play")).toHaveAttribute("open", "");
  await expect(page.locator("#how-to-play")).toContainText("Sabacc");
  await expect(page.locator("#full-rules")).toHaveAttribute("href", /docs\/rules\.md$/);
  await page.screenshot({ path: `${ART}/first-visit.png` });

  await page.click("#deal");
  await expect(page.locator("#table")).toBeVisible();
  await expect(page.locator("#hand .card")).toHaveCount(2);
  await expect(page.locator("#welcome")).toBeHidden();
  await expect(page.locator("#how-to-play")).not.toHaveAttribute("open", "");
  // The rules stay one click away.
  await page.click("#rules-link");
  await expect(page.locator("#how-to-play")).toHaveAttribute("open", "");
  expect(errors).toEqual([]);
});

test("a classic Sabacc game to its end: bets, a call, the reveal", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/?fast=1");
  await page.selectOption("#game", "classic");
  await expect(page.locator("#title")).toHaveText("Classic Sabacc");
  await expect(page.locator("#rules-classic")).toBeVisible();
  await expect(page.locator("#length-label")).toBeVisible();
  await page.selectOption("#players", "2");
  await page.locator("select.opponent").first().selectOption("expert");
  await page.fill("#seed", "5");
  await page.click("#start");
  await expect(page.locator("#table")).toBeVisible();
  await expect(page.locator("body")).toHaveAttribute("data-kind", "classic");
  await expect(page.locator("#middle-classic")).toBeVisible();
  await expect(page.locator("#middle")).toBeHidden();
  await expect(page.locator("#hand .card")).toHaveCount(2);

  // The hint: the classic champion's probabilities over exactly the legal actions.
  await page.check("#hint-toggle");
  await expect(page.locator("#hint")).toHaveAttribute("data-kind", "policy");
  await expect(page.locator("#hint .bar")).toHaveCount(await page.locator("#actions button").count());
  await page.screenshot({ path: `${ART}/classic-table-with-hint.png` });
  await page.uncheck("#hint-toggle");

  // Play: call when offered, bet when offered, else match or stay, else the first action.
  const prefer = [/^call$/, /^bet:/, /^match$/, /^stay$/, /^check$/, /^pass$/];
  const taken = new Set();
  let sawReveal = false;
  let clicks = 0;
  while (await page.locator("#game-over").isHidden()) {
    await expect(page.locator("#actions button").first()).toBeVisible();
    // Another seat's cards are never drawn face up while the game is played.
    await expect(page.locator("#seats .seat:not(.me) .card:not(.back)")).toHaveCount(0);
    const offered = await page.locator("#actions button").evaluateAll((bs) => bs.map((b) => b.dataset.action));
    const pick = prefer.map((re) => offered.find((a) => re.test(a))).find((a) => a) || offered[0];
    taken.add(pick.split(":")[0]);
    await page.click(`#actions button[data-action="${pick}"]`);
    clicks += 1;
    await expect(page.locator("body")).toHaveAttribute("data-idle", "1");
    if (!sawReveal && (await page.locator("#settlement").isVisible()) && (await page.locator("#settlement").textContent()).includes("called")) {
      sawReveal = true;
      await expect(page.locator("#settlement table tr")).not.toHaveCount(0);
      await page.screenshot({ path: `${ART}/classic-reveal.png` });
    }
    expect(clicks).toBeLessThan(1500);
  }
  expect(taken.has("bet")).toBe(true);
  expect(taken.has("call") || taken.has("fold")).toBe(true);
  expect(sawReveal).toBe(true);
  await expect(page.locator("#log")).toContainText(/Game over|hand limit/);
  await page.screenshot({ path: `${ART}/classic-game-over.png` });

  // The replay of a classic game shows every seat's hand.
  await page.click("#open-replay");
  await expect(page.locator("#replay-seats .seat")).toHaveCount(2);
  await page.click("#replay-last");
  await expect(page.locator("#replay-next-action")).toHaveText("The end");
  expect(errors).toEqual([]);
});

// Every JSON answer the page receives from the API, for checking what it was sent.
function recordApi(page) {
  const seen = [];
  page.on("response", async (r) => {
    if (!r.url().includes("/api/")) return;
    try {
      seen.push({ url: r.url(), status: r.status(), body: await r.json() });
    } catch (e) {
      // a body that is not JSON is checked by the server's own tests
    }
  });
  return seen;
}

// Checks that `answers` (received by the page playing `seat` of a classic game) never carried
// another seat's hidden cards: every game answer is that seat's view or a spectator's, and no
// event shows another seat's drawn, dropped or shifted card.
function checkOwnViewOnly(answers, seat, other) {
  let views = 0;
  for (const { url, body } of answers) {
    if (url.includes("/replay")) continue; // a finished game's replay shows every hand (documented)
    if (body.view) {
      expect(body.seat).toBe(seat);
      expect(body.view.viewer).toBe(seat);
      views += 1;
    }
    expect(body.views).toBeUndefined();
    expect(body.final_hands).toBeUndefined();
    for (const e of body.events || []) {
      if (["drew", "dropped", "shift-cards"].includes(e.event) && e.seat === other) {
        expect(e.card ?? null).toBeNull();
        expect(e.lost ?? null).toBeNull();
        expect(e.got ?? null).toBeNull();
      }
    }
    if (body.tokens && url.endsWith("/api/games")) continue; // the creator's own answer
    expect(body.tokens).toBeUndefined();
  }
  return views;
}

test("two people at one classic table, each in their own page, never see each other's cards", async ({ browser }) => {
  const errors = [];
  const a = await browser.newPage();
  a.on("pageerror", (e) => errors.push(String(e)));
  const seenA = recordApi(a);
  await a.goto("/?fast=1");
  await a.selectOption("#game", "classic");
  await a.selectOption("#players", "3");
  const opponents = a.locator("select.opponent");
  await opponents.nth(0).selectOption("human");
  await opponents.nth(1).selectOption("expert");
  await a.click("#start");
  await expect(a.locator("#join-links")).toBeVisible();
  const link = await a.locator('#join-links a[data-seat="1"]').getAttribute("href");
  expect(link).toMatch(/[?&]game=g[0-9a-f]{32}&seat=1#token=[0-9a-f]{32}$/);

  const b = await browser.newPage();
  b.on("pageerror", (e) => errors.push(String(e)));
  const seenB = recordApi(b);
  await b.goto(link.replace("?", "?fast=1&"));
  await expect(b.locator("#table")).toBeVisible();
  await expect(b.locator("#hand .card")).toHaveCount(2);
  // The joining page is the classic game's: its title and rules, and the seats by name.
  await expect(b.locator("#title")).toHaveText(/classic/i);
  await expect(b.locator("#rules-classic")).not.toHaveAttribute("hidden", "");
  await expect(b.locator("#rules-kessel")).toHaveAttribute("hidden", "");
  await expect(b.locator("#seats")).toContainText("Expert (seat 2)");
  await expect(b.locator("#seats")).not.toContainText("classic:expert");
  await a.screenshot({ path: `${ART}/two-people-a.png` });
  await b.screenshot({ path: `${ART}/two-people-b.png` });

  // Whoever is offered actions clicks one (call first, so that hands end), until both pages
  // show the end; each page learns of the other's moves by asking for its own view.
  const prefer = [/^call$/, /^bet:/, /^match$/, /^stay$/, /^check$/, /^pass$/];
  let clicks = 0;
  while ((await a.locator("#game-over").isHidden()) || (await b.locator("#game-over").isHidden())) {
    let clicked = false;
    for (const p of [a, b]) {
      const buttons = p.locator("#actions button:not([disabled])");
      if ((await buttons.count()) === 0) continue;
      const offered = await buttons.evaluateAll((bs) => bs.map((x) => x.dataset.action));
      const pick = prefer.map((re) => offered.find((x) => re.test(x))).find((x) => x) || offered[0];
      await p.click(`#actions button[data-action="${pick}"]`);
      await expect(p.locator("body")).toHaveAttribute("data-idle", "1");
      clicks += 1;
      clicked = true;
    }
    if (!clicked) await a.waitForTimeout(100);
    expect(clicks).toBeLessThan(1500);
  }
  await expect(a.locator("#log")).toContainText(/Game over|hand limit/);
  await expect(b.locator("#log")).toContainText(/Game over|hand limit/);
  expect(checkOwnViewOnly(seenA, 0, 1)).toBeGreaterThan(2);
  expect(checkOwnViewOnly(seenB, 1, 0)).toBeGreaterThan(2);

  // Without its seat's secret, the other seat's view is refused or only watched.
  const probe = await b.evaluate(async (id) => {
    const wrong = await fetch(`/api/games/${id}?seat=0`, { headers: { Authorization: `Bearer ${token}` } });
    const none = await (await fetch(`/api/games/${id}?seat=0`)).json();
    return { wrong: wrong.status, spectator: none.spectator === true && none.view === undefined };
  }, link.match(/game=([^&]+)/)[1]);
  expect(probe).toEqual({ wrong: 403, spectator: true });
  expect(errors).toEqual([]);
});

test("a game without a drawing (Leduc hold'em) is played through its text and named actions", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/?fast=1");
  await page.selectOption("#game", "leduc");
  await expect(page.locator("#rules-other")).toBeVisible();
  // Heads-up only: the table size offers 2 and nothing else.
  await expect(page.locator("#players option")).toHaveCount(1);
  await expect(page.locator("select.opponent")).toHaveCount(1);
  await page.locator("select.opponent").first().selectOption("cfr");
  await page.fill("#seed", "3");
  await page.click("#start");
  await expect(page.locator("body")).toHaveAttribute("data-kind", "leduc");
  await expect(page.locator("#text-view")).toBeVisible();
  await expect(page.locator("#text-view")).toContainText("(you)");
  await expect(page.locator("#middle")).toBeHidden();
  await expect(page.locator("#me")).toBeHidden();
  await page.screenshot({ path: `${ART}/leduc-table.png` });
  let clicks = 0;
  while (await page.locator("#game-over").isHidden()) {
    const offered = await page.locator("#actions button").evaluateAll((bs) => bs.map((b) => b.dataset.action));
    expect(offered.every((a) => ["fold", "call", "raise"].includes(a))).toBe(true);
    await page.click(`#actions button[data-action="${offered.includes("call") ? "call" : offered[0]}"]`);
    clicks += 1;
    await expect(page.locator("body")).toHaveAttribute("data-idle", "1");
    expect(clicks).toBeLessThan(20);
  }
  await expect(page.locator("#log")).toContainText("result");
  await page.click("#open-replay");
  await expect(page.locator("#replay-seats .seat")).toHaveCount(2);
  await expect(page.locator("#replay-seats pre").first()).toContainText("(you)");
  expect(errors).toEqual([]);
});

test("a join link that leads nowhere says so and offers a new game", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`/?fast=1&game=g${"0".repeat(32)}&seat=1#token=${"a".repeat(32)}`);
  await expect(page.locator("#join-error")).toBeVisible();
  await expect(page.locator("#join-error")).toContainText("does not lead to a game");
  await expect(page.locator("#join-error")).toContainText("no game");
  await expect(page.locator("#welcome")).toBeVisible();
  await expect(page.locator("#start")).toBeEnabled();
  // An incomplete link too.
  await page.goto("/?fast=1#token=abc");
  await expect(page.locator("#join-error")).toContainText("incomplete");
  expect(errors).toEqual([]);
});
