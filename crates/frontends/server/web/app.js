// The play page: talks to the server's JSON API (docs/api.md) and draws what the player's seat
// may see. Kessel and classic Sabacc have drawings of their own (classic's is in classic.js);
// any other registered game is shown through its text rendering and named actions. No
// framework, no build step. `?fast=1` shows agents' actions without the delay.
"use strict";

const FAST = new URLSearchParams(location.search).has("fast");
const EVENT_DELAY_MS = FAST ? 0 : 180;
const $ = (id) => document.getElementById(id);

let game = null;        // id of the current game
let kind = "kessel";    // which game it is: a registered game's id (`kessel`, `classic`, …)
let token = null;       // this seat's secret: its view, hints and actions need it
let polling = null;     // timer while another person decides
let mySeat = 0;         // the seat this page plays
let seen = 0;           // events already shown
let last = null;        // last response for my seat
let replay = null;      // { steps, step }
const queue = [];       // events waiting to be shown
let draining = false;

// ---- cards, tokens, names ----
function cardName(id) {
  const fam = id < 22 ? "S" : "B";
  const pos = id % 22;
  if (pos < 18) return fam + (Math.floor(pos / 3) + 1);
  return fam + (pos < 21 ? "I" : "Y");
}
function cardLong(id) {
  const fam = id < 22 ? "Sand" : "Blood";
  const pos = id % 22;
  if (pos < 18) return `${fam} ${Math.floor(pos / 3) + 1}`;
  return `${fam} ${pos < 21 ? "Impostor" : "Sylop"}`;
}
function cardEl(id) {
  const s = document.createElement("span");
  if (id === null || id === undefined) {
    s.className = "card back";
    s.textContent = "?";
    s.title = "face down";
  } else {
    s.className = "card " + (id < 22 ? "sand" : "blood");
    s.textContent = cardName(id);
    s.title = cardLong(id);
    s.dataset.card = id;
  }
  return s;
}
function seatsOf(mask) {
  const out = [];
  for (let i = 0; i < 8; i++) if (mask & (1 << i)) out.push(i);
  return out;
}
// A seat as people say it: "You", or who plays it ("Expert", "Level 3", "Champion", "Person")
// and where, never the agent's spec.
function seatName(i) {
  if (i === mySeat) return "You";
  const s = last && last.seats[i];
  return s && s.name ? `${s.name} (seat ${i})` : `Seat ${i}`;
}
function tokenName(t) {
  return String(t).replace(/-/g, " ");
}
const DRAWN = ["kessel", "classic"]; // the games this page draws; others show their text
function actionLabel(name) {
  if (kind === "classic") return classicActionLabel(name, last.view);
  if (!DRAWN.includes(kind)) return name;
  const m = {
    "stand": "Stand",
    "draw:sand-deck": "Draw Sand (deck)",
    "draw:blood-deck": "Draw Blood (deck)",
    "draw:sand-discard": "Take Sand discard",
    "draw:blood-discard": "Take Blood discard",
    "keep:drawn": "Keep the drawn card",
    "keep:held": "Keep your card",
  };
  if (m[name]) return m[name];
  if (name.startsWith("die:")) {
    const k = Number(name.slice(4));
    const dice = last && last.view.decision.dice;
    return dice ? `Take die ${k}: ${dice[k - 1]}` : `Die ${k}`;
  }
  if (name.startsWith("token:")) return "Play " + tokenName(name.slice(6));
  if (name.startsWith("choose:")) return "Choose " + tokenName(name.slice(7));
  if (name.startsWith("target:")) {
    const k = Number(name.slice(8));
    const n = last ? last.view.config.players : 8;
    return "Target " + seatName((mySeat + k) % n);
  }
  return name;
}

// ---- events ----
function describe(e) {
  const s = (i) => seatName(i);
  if (kind === "classic") return classicDescribe(e, s, last.view.config);
  if (!DRAWN.includes(kind)) return genericDescribe(e, s);
  switch (e.event) {
    case "token-picked": return `${s(e.seat)} picked a token`;
    case "round-started": return `Round ${e.round} begins; ${s(e.starter)} starts`;
    case "dealt": return null;
    case "discard-started": return `${cardLong(e.card)} turned face up`;
    case "draw-pile-rebuilt": return `The ${e.family} draw pile was rebuilt (${e.cards} cards)`;
    case "token-played": return `${s(e.seat)} plays ${tokenName(e.token)}`;
    case "token-targeted": return `${s(e.seat)} targets ${s(e.target)} with ${tokenName(e.token)}`;
    case "dice-rolled": return `${s(e.seat)} rolls ${e.dice.filter((d) => d > 0).join(" and ")}`;
    case "prime-set": return `${s(e.seat)} sets Prime Sabacc to ${e.value}`;
    case "embargoed": return `${s(e.target)} is embargoed by ${s(e.seat)}`;
    case "stood": return `${s(e.seat)} stands${e.forced ? " (forced)" : ""}`;
    case "drew": return `${s(e.seat)} draws from the ${e.source.replace("-", " ")}` + (e.card !== null && e.card !== undefined ? `: ${cardLong(e.card)}` : "");
    case "discarded": return `${s(e.seat)} discards ${cardLong(e.card)}`;
    case "exhausted": return `${s(e.seat)} exhausts ${s(e.target)}: a new hand`;
    case "hands-swapped": return `${s(e.seat)} swaps hands with ${s(e.target)}`;
    case "revealed": return `${s(e.seat)} reveals ${cardLong(e.sand)} and ${cardLong(e.blood)}`;
    case "impostor-value": return `${e.seat === mySeat ? "Your" : s(e.seat) + "'s"} ${e.family} Impostor is worth ${e.value}`;
    case "chips": {
      const parts = [];
      if (e.stock) parts.push(`stock ${e.stock > 0 ? "+" : ""}${e.stock}`);
      if (e.pot) parts.push(`pot ${e.pot > 0 ? "+" : ""}${e.pot}`);
      return `${s(e.seat)}: ${parts.join(", ")} (${e.reason.replace("-", " ")})`;
    }
    case "round-won": return `Round ${e.round} won by ${seatsOf(e.winners).map(s).join(", ")}`;
    case "eliminated": return `${s(e.seat)} is out of chips and leaves the game`;
    case "game-over": return `Game over: ${seatsOf(e.winners).map(s).join(", ")} won`;
    case "truncated": return `The round limit (${e.round}) ended the game`;
    default: return JSON.stringify(e);
  }
}
// An event of a game without a drawing: its name, then its fields (seats by name).
function genericDescribe(e, s) {
  const name = e.event || e.kind || e.type;
  const parts = [];
  for (const [k, v] of Object.entries(e)) {
    if (v === name) continue;
    const one = (x) => (x === null ? "?" : typeof x === "object" ? JSON.stringify(x) : String(x));
    const shown = (k === "seat" || k === "winner") && typeof v === "number" ? s(v) : Array.isArray(v) ? v.map(one).join(" / ") : one(v);
    parts.push(`${k.replace(/_/g, " ")} ${shown}`);
  }
  return (name ? String(name).replace(/[-_]/g, " ") : "event") + (parts.length ? ": " + parts.join(", ") : "");
}
function enqueue(events) {
  for (const e of events) queue.push(e);
  if (!draining) drain();
}
async function drain() {
  draining = true;
  while (queue.length) {
    const e = queue.shift();
    // The player's own seat reads "You": "You stand", not "You stands".
    const text = (describe(e) || "")
      .replace(/\bYou is\b/g, "You are")
      .replace(/\bYou has\b/g, "You have")
      .replace(/\bYou (\w+?)(ch|sh|ss|x)es\b/g, "You $1$2")
      .replace(/\bYou (\w+?)s\b/g, "You $1");
    if (text) {
      const li = document.createElement("li");
      li.textContent = text;
      if (e.seat === mySeat) li.className = "mine";
      $("log").appendChild(li);
      li.scrollIntoView({ block: "nearest" });
      if (EVENT_DELAY_MS && e.seat !== mySeat) await new Promise((r) => setTimeout(r, EVENT_DELAY_MS));
    }
  }
  draining = false;
  document.body.dataset.idle = "1";
}

// ---- API ----
async function api(method, path, body) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const j = await r.json();
  if (!r.ok) throw new Error(j.message || r.statusText);
  return j;
}
function showError(e) {
  $("status").textContent = "Error: " + e.message;
}

// ---- the table ----
function render(resp) {
  last = resp;
  mySeat = resp.seat;
  kind = resp.kind || "kessel";
  document.body.dataset.idle = "0";
  document.body.dataset.kind = kind;
  $("table").hidden = false;
  const classic = kind === "classic";
  const drawn = DRAWN.includes(kind);
  $("middle").hidden = kind !== "kessel";
  $("middle-classic").hidden = !classic;
  $("tokens-box").hidden = kind !== "kessel";
  $("me").hidden = !drawn;
  $("seats").hidden = !drawn;
  $("settlement").hidden = true;
  $("text-view").hidden = drawn;
  if (!drawn) {
    renderText(resp);
  } else if (classic) {
    $("status").textContent = classicStatus(resp, seatName);
    renderClassicTable(resp.view, seatName);
    renderClassicResult(resp.view, seatName);
  } else {
    renderKessel(resp);
  }

  const actions = $("actions");
  actions.innerHTML = "";
  for (const a of resp.legal) {
    const b = document.createElement("button");
    b.textContent = actionLabel(a.name);
    b.dataset.action = a.name;
    b.addEventListener("click", () => act(a.name));
    actions.appendChild(b);
  }
  if (resp.status === "agent-failed") {
    // The game stopped for good where an agent failed; say so instead of waiting forever.
    const f = resp.failure;
    $("status").textContent = `The game stopped: agent ${f.agent} at seat ${f.seat} failed (${f.message}). Start a new game.`;
  }
  const over = $("game-over");
  if (resp.status === "agent-failed") {
    over.hidden = false;
    over.textContent = "An agent failed; this game cannot go on.";
  } else if (resp.status !== "playing") {
    over.hidden = false;
    const o = resp.outcome;
    const text = o === "won" ? "You won the game!" : o === "lost" ? "You lost this game." : typeof o === "object" && o["shared-win"] ? `You share the win with ${o["shared-win"].of - 1} other(s).` : "No winner.";
    over.innerHTML = "";
    over.append(text + " ");
    const b = document.createElement("button");
    b.id = "open-replay";
    b.textContent = "Replay this game";
    b.addEventListener("click", () => openReplay(0));
    over.appendChild(b);
  } else {
    over.hidden = true;
  }
  enqueue(resp.events.slice(Math.max(0, seen - resp.events_from)));
  seen = resp.events_from + resp.events.length;
  refreshHint();
  schedulePoll(resp);
}

// While another person at the table decides, ask for this seat's view now and then.
function schedulePoll(resp) {
  clearTimeout(polling);
  if (resp.status !== "playing" || resp.legal.length || !resp.human_turn) return;
  const id = game;
  polling = setTimeout(async () => {
    if (id !== game) return;
    try {
      render(await api("GET", `/api/games/${id}?seat=${mySeat}&since=${seen}`));
    } catch (e) {
      showError(e);
    }
  }, FAST ? 150 : 800);
}

// The links that seat the other people of a table; shown to whoever created it.
function showJoinLinks(tokens, me) {
  const box = $("join-links");
  box.innerHTML = "";
  const others = (tokens || []).filter((t) => t.seat !== me);
  box.hidden = !others.length;
  if (!others.length) return;
  const title = document.createElement("div");
  title.className = "small";
  title.textContent = "Send each person their own link (it carries their seat's secret; anyone with it plays that seat):";
  box.appendChild(title);
  for (const t of others) {
    const a = document.createElement("a");
    a.href = location.origin + t.join;
    a.textContent = `Seat ${t.seat}`;
    a.dataset.seat = t.seat;
    a.target = "_blank";
    box.appendChild(a);
  }
}

// A game without a drawing: its own text rendering of this seat's view, and whose turn it is.
function renderText(resp) {
  $("text-view").textContent = resp.text || "";
  let status;
  if (resp.status === "playing") {
    status = resp.legal.length ? "Your decision" : resp.actor !== null && resp.actor !== undefined ? `${seatName(resp.actor)} to play` : "Waiting";
  } else {
    status = resp.status === "truncated" ? "The game was stopped by its limit" : "The game is over";
  }
  $("status").textContent = status;
}

// Kessel Sabacc's table: seats with chips and tokens, the discard piles, the hand, the reveal.
function renderKessel(resp) {
  const v = resp.view;
  const n = v.config.players;
  const actor = v.actor;
  $("hand-total").textContent = "";
  let status;
  if (resp.status === "playing") {
    status = `Round ${v.round}, turn ${v.turn} — ` + (actor === mySeat ? "your decision" : `${seatName(actor)} to play`);
  } else {
    status = resp.status === "truncated" ? "The game was stopped by the round limit" : "The game is over";
  }
  $("status").textContent = status;

  const seats = $("seats");
  seats.innerHTML = "";
  let pot = 0;
  for (let i = 0; i < n; i++) {
    const sv = v.seats[i];
    pot += sv.pot;
    const d = document.createElement("div");
    d.className = "seat" + (i === actor ? " turn" : "") + (sv.eliminated ? " out" : "") + (i === mySeat ? " me" : "");
    d.dataset.seat = i;
    d.innerHTML = `<div class="name"></div><div class="small chips"></div><div class="hand"></div><div class="small info"></div>`;
    d.querySelector(".name").textContent = seatName(i) + (i === v.starter ? " ★" : "");
    d.querySelector(".chips").textContent = `stock ${sv.stock} · pot ${sv.pot} · lost ${sv.lost}`;
    if (!sv.eliminated) for (const c of sv.known_hand) d.querySelector(".hand").appendChild(cardEl(c));
    const info = [];
    if (sv.last_action !== "none") info.push(sv.last_action === "stand" ? "stood" : "drew");
    if (sv.unplayed) info.push(`${sv.unplayed} token${sv.unplayed > 1 ? "s" : ""} held`);
    if (sv.spent.length) info.push("played: " + sv.spent.map(tokenName).join(", "));
    if (sv.immune) info.push("immune");
    d.querySelector(".info").textContent = info.join(" · ");
    seats.appendChild(d);
  }
  $("pot").textContent = pot;
  for (const [f, name] of [[0, "sand"], [1, "blood"]]) {
    const pile = v.discard[f];
    const el = $(`${name}-discard`);
    el.innerHTML = "";
    el.appendChild(pile.length ? cardEl(pile[pile.length - 1]) : document.createTextNode("empty"));
    $(`${name}-draw`).textContent = `draw pile: ${v.draw_sizes[f]} cards`;
  }
  const hand = $("hand");
  hand.innerHTML = "";
  if (v.round > 0) for (const c of v.hand) hand.appendChild(cardEl(c));
  if (v.decision.decision === "keep" && v.decision.drawn !== null && actor === mySeat) {
    const drawn = document.createElement("span");
    drawn.className = "small";
    drawn.textContent = " drawn: ";
    hand.appendChild(drawn);
    hand.appendChild(cardEl(v.decision.drawn));
  }
  $("tokens").textContent = v.own_tokens.length ? "" : "none";
  for (const t of v.own_tokens) {
    const s = document.createElement("span");
    s.className = "token";
    s.textContent = tokenName(t);
    $("tokens").appendChild(s);
  }

  renderSettlement(v);
}

function classText(c) {
  if (c === "pure-sabacc") return "Pure Sabacc (two Sylops): the best hand";
  if (c === "zero-pair") return "Zero pair (two Sylops under Markdown): the last Sabacc";
  if (c.sabacc !== undefined) return `Sabacc of ${c.sabacc}s (a pair beats every Nulhrek; lower pairs rank higher unless Cook the Books or Prime Sabacc)`;
  if (c.nulhrek) return `Nulhrek, difference ${c.nulhrek.diff} (smaller differences rank higher; tax ${c.nulhrek.diff})`;
  return JSON.stringify(c);
}
function renderSettlement(v) {
  const s = v.last_settlement;
  const box = $("settlement");
  if (!s) { box.hidden = true; return; }
  box.hidden = false;
  const mods = [];
  if (s.mods.cook_the_books) mods.push("Cook the Books");
  if (s.mods.markdown) mods.push("Markdown");
  if (s.mods.major_fraud) mods.push("Major Fraud");
  if (s.mods.prime !== null && s.mods.prime !== undefined) mods.push(`Prime Sabacc ${s.mods.prime}`);
  let html = `<h2>Reveal of round ${s.round}</h2>` + (mods.length ? `<div class="small">In force: ${mods.join(", ")}</div>` : "");
  html += `<table><tr><th>seat</th><th>hand</th><th>ranking</th><th>pot back</th><th>pot lost</th><th>tax</th><th>stock after</th></tr>`;
  s.seats.forEach((r, i) => {
    if (!r) return;
    html += `<tr class="${r.winner ? "winner" : ""}"><td>${seatName(i)}${r.winner ? " (winner)" : ""}</td>` +
      `<td>${cardLong(r.hand[0])}, ${cardLong(r.hand[1])}</td><td>${classText(r.class)}</td>` +
      `<td>${r.pot_returned}</td><td>${r.pot_lost}</td><td>${r.tax}</td><td>${r.stock_after}${r.eliminated ? " (out)" : ""}</td></tr>`;
  });
  html += "</table>";
  box.innerHTML = html;
}

async function act(name) {
  document.body.dataset.idle = "0";
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  try {
    render(await api("POST", `/api/games/${game}/action`, { seat: mySeat, action: name }));
  } catch (e) {
    showError(e);
    for (const b of $("actions").querySelectorAll("button")) b.disabled = false;
  }
}

// ---- hints ----
async function refreshHint() {
  const box = $("hint");
  if (!$("hint-toggle").checked || !last || !last.legal.length) { box.hidden = true; return; }
  box.hidden = false;
  box.textContent = "Thinking…";
  try {
    const h = await api("POST", `/api/games/${game}/ask`, { seat: mySeat });
    box.innerHTML = "";
    const title = document.createElement("div");
    title.className = "small";
    box.appendChild(title);
    if (h.kind === "policy") {
      title.textContent = `${h.agent}: probability of each legal action; value estimate ${h.value.toFixed(3)} (its expected reward from here)`;
      for (const a of h.actions) box.appendChild(bar(actionLabel(a.name), a.probability, (a.probability * 100).toFixed(1) + "%"));
    } else if (h.kind === "search") {
      title.textContent = `${h.agent}: mean round-end score of each legal action over sampled worlds`;
      for (const a of h.actions) box.appendChild(bar(actionLabel(a.name), a.value, a.value.toFixed(3)));
    } else {
      title.textContent = `${h.agent} would choose: ${actionLabel(h.choice.name)}`;
    }
    box.dataset.kind = h.kind;
  } catch (e) {
    box.textContent = "No hint: " + e.message;
  }
}
function bar(label, x, text) {
  const d = document.createElement("div");
  d.className = "bar";
  d.innerHTML = `<span class="lab"></span><span class="fill"></span><span class="val"></span>`;
  d.querySelector(".lab").textContent = label;
  d.querySelector(".fill").style.width = Math.max(1, Math.round(Math.max(0, x) * 200)) + "px";
  d.querySelector(".val").textContent = text;
  return d;
}

// ---- replay ----
async function openReplay(step) {
  try {
    const r = await api("GET", `/api/games/${game}/replay/${step}`);
    replay = { steps: r.steps, step: r.step };
    $("table").hidden = true;
    $("replay").hidden = false;
    $("replay-download").href = `/api/games/${game}/replay`;
    $("replay-download").download = `${game}.json`;
    $("replay-step").textContent = `step ${r.step} of ${r.steps}`;
    $("replay-next-action").textContent = r.next ? `Next: ${seatName(r.next.seat)} — ${r.next.action}` : "The end";
    const seats = $("replay-seats");
    seats.innerHTML = "";
    const classic = r.kind === "classic";
    if (!DRAWN.includes(r.kind)) {
      (r.texts || []).forEach((t, i) => {
        const d = document.createElement("div");
        d.className = "seat" + (r.next && r.next.seat === i ? " turn" : "");
        d.innerHTML = `<div class="name"></div><pre class="small"></pre>`;
        d.querySelector(".name").textContent = seatName(i);
        d.querySelector("pre").textContent = t;
        seats.appendChild(d);
      });
      $("replay-piles").innerHTML = "";
      return;
    }
    r.views.forEach((v, i) => {
      const sv = v.seats[i];
      const d = document.createElement("div");
      d.className = "seat" + (r.next && r.next.seat === i ? " turn" : "") + (sv.eliminated || (classic && !sv.in_game) ? " out" : "");
      d.innerHTML = `<div class="name"></div><div class="small"></div><div class="hand"></div>`;
      if (classic) {
        classicReplaySeat(v, i, d, seatName);
        seats.appendChild(d);
        return;
      }
      d.querySelector(".name").textContent = seatName(i);
      d.querySelector(".small").textContent = `stock ${sv.stock} · pot ${sv.pot} · tokens ${v.own_tokens.map(tokenName).join(", ") || "none"}`;
      if (!sv.eliminated && v.round > 0) for (const c of v.hand) d.querySelector(".hand").appendChild(cardEl(c));
      seats.appendChild(d);
    });
    const v0 = r.views[0];
    const piles = $("replay-piles");
    if (classic) {
      piles.innerHTML = `<div class="small">Hand ${v0.hand_no}, round ${v0.round}. Hand pot ${v0.hand_pot}, sabacc pot ${v0.sabacc_pot}.</div>`;
      return;
    }
    piles.innerHTML = `<div class="small">Round ${v0.round}, turn ${v0.turn}. Discard tops:</div>`;
    for (const f of [0, 1]) {
      const p = v0.discard[f];
      if (p.length) piles.appendChild(cardEl(p[p.length - 1]));
    }
  } catch (e) {
    showError(e);
  }
}
$("replay-first").addEventListener("click", () => openReplay(0));
$("replay-prev").addEventListener("click", () => openReplay(Math.max(0, replay.step - 1)));
$("replay-next").addEventListener("click", () => openReplay(Math.min(replay.steps, replay.step + 1)));
$("replay-last").addEventListener("click", () => openReplay(replay.steps));
$("replay-close").addEventListener("click", () => { $("replay").hidden = true; $("table").hidden = false; });

// ---- new game ----
let opponents = ["expert"];
let allAgents = [];
let agentList = [];     // the chosen game's agents with their descriptions (a level's rating)
let games = [];         // what /api/agents says of each game: agents, default opponents, hint
function opponentSelects() {
  const n = Number($("players").value);
  const box = $("opponents");
  const previous = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  for (let i = 1; i < n; i++) {
    const l = document.createElement("label");
    l.textContent = `Seat ${i} `;
    const s = document.createElement("select");
    s.className = "opponent";
    const specs = [...new Set([...opponents, ...allAgents.filter((a) => a !== "search:N"), "human"])];
    if (!specs.includes(previous[i - 1])) previous[i - 1] = undefined;
    for (const spec of specs) {
      const o = document.createElement("option");
      o.value = spec;
      o.textContent = nameOf(spec);
      const listed = agentList.find((a) => a.spec === spec);
      o.title = listed ? `${listed.description} (${spec})` : spec;
      s.appendChild(o);
    }
    s.value = previous[i - 1] || opponents[(i - 1) % opponents.length];
    l.appendChild(s);
    box.appendChild(l);
  }
}
// The chosen game's agents, default opponents, hint, title and rules summary.
function chooseGame() {
  const g = games.find((x) => x.name === $("game").value) || games[0];
  opponents = g.opponents;
  agentList = g.agents;
  allAgents = g.agents.map((x) => x.spec);
  hintAgent = g.hint;
  hintName = g.hint_name || null;
  names = {};
  for (const a of g.agents) if (a.name) names[a.spec] = a.name;
  (g.opponents || []).forEach((spec, i) => { if (g.opponent_names && g.opponent_names[i]) names[spec] = g.opponent_names[i]; });
  const classic = g.name === "classic";
  const other = !DRAWN.includes(g.name);
  $("title").textContent = g.title.charAt(0).toUpperCase() + g.title.slice(1);
  document.title = $("title").textContent;
  $("length-label").hidden = !classic;
  $("rules-kessel").hidden = g.name !== "kessel";
  $("rules-classic").hidden = !classic;
  $("rules-other").hidden = !other;
  if (other) $("full-rules-other").href = `https://github.com/kessel-sabacc/kessel-rl/blob/main/docs/rules-${g.name}.md`;
  playerChoices(g);
  $("hint-toggle").parentElement.title = g.hint ? "" : `start the server with --hint ${g.name}:SPEC to enable hints`;
  $("opponents").innerHTML = "";
  opponentSelects();
  welcome();
}
// The table sizes the chosen game allows (its `seats` range), keeping the choice when it fits.
let defaultPlayers = 4;
function playerChoices(g) {
  const [lo, hi] = g.seats || [2, 8];
  const before = Number($("players").value) || defaultPlayers;
  $("players").innerHTML = "";
  for (let n = lo; n <= hi; n++) {
    const o = document.createElement("option");
    o.value = o.textContent = n;
    $("players").appendChild(o);
  }
  $("players").value = String(Math.min(hi, Math.max(lo, before)));
}
async function init() {
  const a = await api("GET", "/api/agents");
  games = a.games || [{ name: "kessel", title: "Kessel Sabacc", agents: a.agents, opponents: a.opponents, hint: a.hint }];
  for (const g of games) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.title.charAt(0).toUpperCase() + g.title.slice(1);
    $("game").appendChild(o);
  }
  $("game").value = a.game || "kessel";
  defaultPlayers = a.players;
  chooseGame();
}
// The first view: who sits at the table the form describes, one button to start, the rules
// below. Agents are shown by their names for people (`checkpoints/champion@argmax` is
// "Champion"), which the server gives beside each spec.
let hintAgent = null;
let hintName = null;
let names = {};
const nameOf = (spec) => names[spec] || (spec === "human" ? "Person" : spec);
function welcome() {
  const seats = [...document.querySelectorAll("select.opponent")].map((s) => s.value);
  $("welcome-players").textContent = String(seats.length + 1);
  $("welcome-opponents").textContent = seats.map(nameOf).join(", ");
  $("welcome-hint").textContent = hintAgent ? `During the game, “Show hint” shows what ${hintName || nameOf(hintAgent)} advises.` : "";
}
$("new-game").addEventListener("change", welcome);
$("deal").addEventListener("click", () => $("new-game").requestSubmit());
$("rules-link").addEventListener("click", () => { $("how-to-play").open = true; });
$("players").addEventListener("change", opponentSelects);
$("game").addEventListener("change", chooseGame);
$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const seats = ["human", ...[...document.querySelectorAll("select.opponent")].map((s) => s.value)];
  const body = { game: $("game").value, seats };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if (body.game === "classic" && $("length").value !== "full") {
    body.rules = { hand_limit: Number($("length").value), hand_limit_end: "most-credits" };
  }
  $("log").innerHTML = "";
  queue.length = 0;
  seen = 0;
  $("replay").hidden = true;
  try {
    token = null;
    const r = await api("POST", "/api/games", body);
    game = r.game;
    const mine = (r.tokens || []).find((t) => t.seat === r.seat);
    token = mine ? mine.token : null;
    showJoinLinks(r.tokens, r.seat);
    document.body.dataset.game = game;
    $("welcome").hidden = true;
    $("how-to-play").open = false;
    render(r);
  } catch (e) {
    $("table").hidden = false;
    showError(e);
  }
});
$("hint-toggle").addEventListener("change", refreshHint);

// A join link (`/?game=ID&seat=N#token=T`) seats this page at a game someone else created:
// the page becomes that game's (title, rules, form). A link that leads nowhere (mistyped,
// or its game over and dropped) says so where the welcome was, with the form to start anew.
async function joinFromLink() {
  const q = new URLSearchParams(location.search);
  const t = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!q.has("game") && !t) return false;
  let resp;
  try {
    if (!q.has("game") || !t || !/^\d+$/.test(q.get("seat") || "")) {
      throw new Error("the link is incomplete: it needs ?game=ID&seat=N#token=SECRET, as the game's creator received it");
    }
    token = t;
    resp = await api("GET", `/api/games/${encodeURIComponent(q.get("game"))}?seat=${Number(q.get("seat"))}`);
  } catch (e) {
    token = null;
    const box = $("join-error");
    box.textContent = `This join link does not lead to a game you can play: ${e.message}. Ask for a new link, or start a game of your own below.`;
    box.hidden = false;
    return false;
  }
  game = q.get("game");
  document.body.dataset.game = game;
  if (games.some((g) => g.name === resp.kind)) {
    $("game").value = resp.kind;
    chooseGame();
  }
  $("welcome").hidden = true;
  $("how-to-play").open = false;
  render(resp);
  return true;
}
init()
  .then(joinFromLink)
  .catch(showError);
