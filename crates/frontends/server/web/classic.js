// Classic Sabacc on the play page: card names, action labels, event lines and the table, drawn
// from the seat's view (docs/rules-classic.md, "The player view"). app.js calls these when a
// game's `kind` is `classic`; everything shared (the API, the log, hints, replays) stays there.
"use strict";

const CLASSIC_SUITS = ["Sabres", "Staves", "Flasks", "Coins"];
const CLASSIC_SUIT_SHORT = ["Sa", "St", "Fl", "Co"];
const CLASSIC_FACES = ["The Idiot", "Queen of Air and Darkness", "Endurance", "Balance", "Demise", "Moderation", "The Evil One", "The Star"];
const CLASSIC_FACE_SHORT = ["Idiot", "Queen", "Endur.", "Balance", "Demise", "Moder.", "Evil", "Star"];
const CLASSIC_RANKS = { 12: "Commander", 13: "Mistress", 14: "Master", 15: "Ace" };

// A card's value under the game's face values (card ids: docs/rules-classic.md, C1.1).
function classicValue(id, config) {
  return id < 60 ? (id % 15) + 1 : config.face_values[Math.floor((id - 60) / 2)];
}
function classicShort(id, config) {
  if (id < 60) return CLASSIC_SUIT_SHORT[Math.floor(id / 15)] + ((id % 15) + 1);
  const f = Math.floor((id - 60) / 2);
  return `${CLASSIC_FACE_SHORT[f]} ${config.face_values[f]}`;
}
function classicLong(id, config) {
  if (id === null || id === undefined) return "a face-down card";
  if (id < 60) {
    const rank = (id % 15) + 1;
    return `${CLASSIC_RANKS[rank] || rank} of ${CLASSIC_SUITS[Math.floor(id / 15)]} (${rank})`;
  }
  const f = Math.floor((id - 60) / 2);
  return `${CLASSIC_FACES[f]} (${config.face_values[f]})`;
}
function classicCardEl(id, config) {
  const s = document.createElement("span");
  if (id === null || id === undefined) {
    s.className = "card back";
    s.textContent = "?";
    s.title = "face down";
    return s;
  }
  s.className = "card classic " + (id < 60 ? "suit-" + Math.floor(id / 15) : "face");
  s.textContent = classicShort(id, config);
  s.title = classicLong(id, config);
  s.dataset.card = id;
  return s;
}
function classicTotal(hand, config) {
  return hand.reduce((t, c) => t + classicValue(c, config), 0);
}

// A button's text for an action name (`bet:2`, `drop:0`, …).
function classicActionLabel(name, view) {
  const fixed = {
    "check": "Check",
    "fold": "Fold",
    "stay": "Stay in",
    "call": "Call the hand",
    "decline-call": "Don't call",
    "pass": "Take no card",
    "draw": "Draw a card",
    "exchange": "Draw, then drop one",
  };
  if (fixed[name]) return fixed[name];
  if (name === "match") {
    const me = view.seats[view.viewer];
    const owe = Math.max(0, view.betting.to_match - me.contributed);
    return `Match (${owe} credit${owe === 1 ? "" : "s"})`;
  }
  if (name.startsWith("bet:")) return `Bet ${name.slice(4)}`;
  if (name.startsWith("raise:")) return `Raise ${name.slice(6)}`;
  if (name.startsWith("drop:")) {
    const i = Number(name.slice(5));
    const c = view.hand[i];
    return c === undefined ? `Drop card ${i + 1}` : `Drop ${classicLong(c, view.config)}`;
  }
  return name;
}

function classicPending(p) {
  return { bet: "bet, check or fold", answer: "answer the bet", call: "call the hand or not", draw: "draw or not", drop: "drop a card" }[p] || p;
}

// One line of the log for an event, `null` to leave it out.
function classicDescribe(e, s, config) {
  switch (e.event) {
    case "hand-started": return `Hand ${e.hand} begins; ${s(e.dealer)} deals`;
    case "left": return `${s(e.seat)} has no credits left and leaves the game`;
    case "ante": return null;
    case "dealt": return null;
    case "turn-started": return null;
    case "checked": return `${s(e.seat)} checks`;
    case "bet": return `${s(e.seat)} bets ${e.amount}`;
    case "matched": return `${s(e.seat)} matches (${e.paid})`;
    case "raised": return `${s(e.seat)} raises by ${e.by} to ${e.to}`;
    case "stayed": return `${s(e.seat)} stays in`;
    case "folded": return `${s(e.seat)} folds` + (e.paid ? ` (${e.paid} to the sabacc pot)` : "");
    case "die-rolled": return `${s(e.seat)} rolls ${e.value}` + (e.value <= 3 ? ": a shift!" : "");
    case "shifted": return null;
    case "shift-cards": return e.lost !== null && e.lost !== undefined ? `${s(e.seat)} lost ${classicLong(e.lost, config)} and got ${classicLong(e.got, config)}` : null;
    case "called": return `${s(e.seat)} calls the hand`;
    case "declined-call": return null;
    case "auto-called": return `Nobody called by round ${e.round}: the hand is called`;
    case "passed": return `${s(e.seat)} takes no card`;
    case "drew": return `${s(e.seat)} ${e.exchange ? "exchanges" : "draws"}` + (e.card !== null && e.card !== undefined ? `: ${classicLong(e.card, config)}` : "");
    case "dropped": return `${s(e.seat)} drops ${e.card !== null && e.card !== undefined ? classicLong(e.card, config) : "a card"}`;
    case "revealed": return `${s(e.seat)} shows ${e.hand.map((c) => classicLong(c, config)).join(", ")}: ${e.total}` + (e.class === "bombed" ? " (bombed out)" : e.class === "normal" ? "" : ` (${e.class.replace(/-/g, " ")})`);
    case "demise-card": return `Sudden demise: ${s(e.seat)} gets ${classicLong(e.card, config)}, now ${e.total}`;
    case "pot-won": return `${s(e.seat)} wins ${e.amount} from the ${e.pot} pot`;
    case "hand-pot-to-sabacc": return `Every hand bombed: ${e.amount} go to the sabacc pot`;
    case "hand-pot-carried": return `Every hand bombed: the hand pot (${e.amount}) stays`;
    case "penalty": return `${s(e.seat)} pays a penalty of ${e.paid}` + (e.paid < e.owed ? ` (owed ${e.owed})` : "");
    case "hand-ended": return null;
    case "game-over": return `Game over: ${seatsOf(e.winners).map(s).join(", ")} won`;
    case "truncated": return `The hand limit ended the game after hand ${e.hand}`;
    default: return JSON.stringify(e);
  }
}

function classicStatus(resp, seatName) {
  const v = resp.view;
  if (resp.status === "playing") {
    return `Hand ${v.hand_no}, round ${v.round} — ` + (v.actor === mySeat ? `your decision: ${classicPending(v.pending)}` : `${seatName(v.actor)} to play`);
  }
  return resp.status === "truncated" ? "The hand limit stopped the game" : "The game is over";
}

// The table for a classic view: seats, pots, the seat's own hand.
function renderClassicTable(v, seatName) {
  const n = v.config.players;
  const seats = $("seats");
  seats.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const sv = v.seats[i];
    const d = document.createElement("div");
    d.className = "seat" + (i === v.actor ? " turn" : "") + (!sv.in_game || sv.folded ? " out" : "") + (i === mySeat ? " me" : "");
    d.dataset.seat = i;
    d.innerHTML = `<div class="name"></div><div class="small chips"></div><div class="hand"></div><div class="small info"></div>`;
    d.querySelector(".name").textContent = seatName(i) + (i === v.dealer ? " (dealer)" : "");
    d.querySelector(".chips").textContent = `credits ${sv.credits}` + (sv.contributed ? ` · in this betting ${sv.contributed}` : "");
    for (let k = 0; k < sv.hand_len; k++) d.querySelector(".hand").appendChild(classicCardEl(i === mySeat ? v.hand[k] : null, v.config));
    d.querySelector(".info").textContent = !sv.in_game ? "out of the game" : sv.folded ? "folded" : "";
    seats.appendChild(d);
  }
  $("hand-pot").textContent = v.hand_pot;
  $("sabacc-pot").textContent = v.sabacc_pot;
  $("deck").textContent = v.deck_len;
  $("die").textContent = v.die === null || v.die === undefined ? "–" : v.die;
  const b = v.betting;
  $("betting").textContent = b.to_match ? `to match: ${b.to_match} (raises ${b.raises})` : "no bet stands";
  if (v.calls_open) $("betting").textContent += " · calls open";
  const hand = $("hand");
  hand.innerHTML = "";
  for (const c of v.hand) hand.appendChild(classicCardEl(c, v.config));
  $("hand-total").textContent = v.hand.length ? `— total ${classicTotal(v.hand, v.config)}` : "";
}

// The last finished hand: who showed what, and who won which pot.
function renderClassicResult(v, seatName) {
  const r = v.last_result;
  const box = $("settlement");
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  const how = r.end.by === "folds" ? `everyone else folded; ${seatName(r.end.winner)} takes the hand pot` : r.end.by === "called" ? `${seatName(r.end.caller)} called` : "called at the last round";
  let html = `<h2>Hand ${r.hand}: ${how}</h2>`;
  html += `<table><tr><th>seat</th><th>hand</th><th>total</th><th>hand pot won</th><th>sabacc pot won</th><th>penalty</th></tr>`;
  r.seats.forEach((s, i) => {
    if (!s) return;
    const won = s.hand_pot_won + s.sabacc_pot_won > 0;
    const cards = s.folded ? "folded" : s.hand.length ? s.hand.map((c) => classicLong(c, v.config)).join(", ") : "not shown";
    let total = s.hand.length ? String(s.total) : "";
    if (s.class !== "normal" && s.hand.length) total += ` (${s.class.replace(/-/g, " ")})`;
    if (s.demise_card !== null && s.demise_card !== undefined) total += `; demise ${classicLong(s.demise_card, v.config)} → ${s.demise_total}`;
    html += `<tr class="${won ? "winner" : ""}"><td>${seatName(i)}${won ? " (winner)" : ""}</td><td>${cards}</td><td>${total}</td>` +
      `<td>${s.hand_pot_won}</td><td>${s.sabacc_pot_won}</td><td>${s.penalty_paid}</td></tr>`;
  });
  html += "</table>";
  box.innerHTML = html;
}

// One seat of a replay step.
function classicReplaySeat(v, i, d, seatName) {
  const sv = v.seats[i];
  d.querySelector(".name").textContent = seatName(i);
  d.querySelector(".small").textContent = `credits ${sv.credits}` + (sv.folded ? " · folded" : "") + (v.hand.length ? ` · total ${classicTotal(v.hand, v.config)}` : "");
  for (const c of v.hand) d.querySelector(".hand").appendChild(classicCardEl(c, v.config));
}
