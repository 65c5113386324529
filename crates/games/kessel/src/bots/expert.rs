//! `expert`: a card-counting, chip-weighing heuristic player.
//!
//! Strategy:
//! - **Card counting.** From its view it places every card it can see (both discard piles, its
//!   own hand, opponents' cards it knows after a draw from a discard pile, a Direct Transaction or
//!   the reveal, a card drawn face up) and counts, per family and kind, the cards it cannot place.
//!   An unknown opponent hand is modelled as a random pair from those hidden cards; an opponent
//!   that stands is assumed to favour Sabaccs (hands are re-weighted towards them).
//! - **Hand value.** For a hand it computes the distribution of its rank key at the reveal under
//!   the ranking in force (Impostor dice included, the best die taken), its chance `p` to win
//!   (tie or beat every active opponent, opponents treated independently), and its expected tax
//!   if it loses. Its value in chips is `-(1 - p) · (hand pot + tax)`.
//! - **Stand or draw.** For each draw source it computes the expected value after the draw and
//!   the best keep (a face-up card exactly; a draw pile as an average over the hidden kinds of
//!   that family), charging the chip it costs; it takes the best of Stand and the draws. It never
//!   spends its last chip on a draw unless the hand is hopeless and the gain is clear.
//! - **Keep** the card that gives the better hand value; **dice**: the Impostor value that makes
//!   the best hand under the ranking in force (`crate::ranking::best_choice`), the Prime Sabacc
//!   value that maximises its own chance to win.
//! - **Tokens**, each when it pays:
//!   Free Draw when it is going to draw; Refund / Extra Refund when the chips it would recover
//!   (weighted by the chance of losing them) are worth it, and always before its last action of
//!   a round with chips at risk; Embezzlement when opponents' hand pots hold chips (late in the
//!   round); Tariffs at once (Target Tariff on an opponent it can knock out, else the richest);
//!   Audits against opponents in stand; Prime Sabacc, Cook the Books, Markdown and Major Fraud
//!   when they raise its own chance to win by a clear margin (evaluated exactly under the new
//!   ranking; Prime over all 36 dice outcomes), preferably when it stands or in the last turn;
//!   Embargo when it stands on a good hand and the next player has not stood; Immunity when it
//!   holds a strong hand or is short of chips and opponents still hold tokens; Exhaustion on a
//!   standing or known-strong opponent when its own hand is behind; Direct Transaction when its
//!   hand is hopeless and an opponent's (known or standing) hand is better.
//! - Token choice at setup (K2.1 `choose`): the token research's draft for the table size
//!   ([`super::draft`]).

use super::draft;
use super::hand::{Counting, Evaluator, Hist, KeyDist, beat_dist, kind_of, opponents};
use super::odds::fixed_mods;
use super::style::{Style, StyleBot, aim, only_action};
use super::targets::{first_target, knocks_out};
use crate::{
    Action, ActionMask, Card, CardKind, LastAction, PlayerView, RankingMods, RuleConfig, Source, Token, TokenSet,
};
use game::Seat;
use std::sync::Arc;

/// The expert bot (see the module documentation).
pub type ExpertAgent = StyleBot<Expert>;

/// The expert style (see the module documentation).
pub struct Expert {
    eval: Evaluator,
    /// The hidden-hand histograms of the decision being made, by mods and kind: one decision
    /// asks for the same ones many times (every hand it weighs, every token it considers), and
    /// each is a sum over up to 64 kind pairs. Cleared with every new decision's table.
    hists: Vec<(RankingMods, HistKind, Arc<Hist>)>,
}

/// Which hidden-hand histogram.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HistKind {
    /// A random pair of the hidden cards.
    Plain,
    /// The same, re-weighted towards Sabaccs (an opponent in stand).
    Stander,
}

impl Default for Expert {
    fn default() -> Self {
        Expert { eval: Evaluator::new(RuleConfig::default()), hists: Vec::new() }
    }
}

/// The per-decision picture: counting plus per-opponent models under one set of mods.
struct Table<'a> {
    view: &'a PlayerView,
    cfg: RuleConfig,
    count: Counting,
}

/// An opponent's hand model under some mods.
enum OppModel {
    Known(KeyDist),
    Partial(Vec<(f32, KeyDist)>),
    Unknown(Arc<Hist>),
}

impl Expert {
    /// The table of one decision: the view and what it counts. Starts the decision's memo of
    /// histograms afresh.
    fn table<'a>(&mut self, view: &'a PlayerView) -> Table<'a> {
        self.hists.clear();
        Table { view, cfg: view.config, count: Counting::from_view(view) }
    }

    /// The decision's hidden-hand histogram of `kind` under `mods`, computed once.
    fn hist(&mut self, t: &Table, mods: RankingMods, kind: HistKind) -> Arc<Hist> {
        if let Some((_, _, h)) = self.hists.iter().find(|(m, k, _)| *m == mods && *k == kind) {
            return h.clone();
        }
        let h = Arc::new(match kind {
            HistKind::Plain => self.eval.pool_hist(&t.cfg, mods, &t.count.hidden),
            HistKind::Stander => self.stander_hist(t, mods),
        });
        self.hists.push((mods, kind, h.clone()));
        h
    }

    fn models(&mut self, t: &Table, mods: RankingMods, swap_with: Option<(Seat, [CardKind; 2])>) -> Vec<OppModel> {
        let v = t.view;
        let mut out = Vec::new();
        for o in opponents(v) {
            if let Some((s, hand)) = swap_with
                && s == o
            {
                out.push(OppModel::Known(self.eval.dist(&t.cfg, mods, hand[0], hand[1]).clone()));
                continue;
            }
            let k = t.count.known[o.index()];
            match (k[0], k[1]) {
                (Some(a), Some(b)) => {
                    out.push(OppModel::Known(self.eval.dist(&t.cfg, mods, a.kind(), b.kind()).clone()))
                }
                (Some(c), None) | (None, Some(c)) => {
                    let f = c.family().index();
                    let of = 1 - f;
                    let tot: f32 = t.count.hidden[of].iter().map(|&x| x as f32).sum();
                    let mut parts = Vec::new();
                    for kk in 0..8 {
                        let n = t.count.hidden[of][kk];
                        if n == 0 {
                            continue;
                        }
                        let (s, b) = if f == 0 { (c.kind(), kind_of(kk)) } else { (kind_of(kk), c.kind()) };
                        parts.push((n as f32 / tot.max(1.0), self.eval.dist(&t.cfg, mods, s, b).clone()));
                    }
                    out.push(OppModel::Partial(parts));
                }
                (None, None) => {
                    let stood = v.seats[o.index()].last_action == LastAction::Stand;
                    let kind = if stood { HistKind::Stander } else { HistKind::Plain };
                    out.push(OppModel::Unknown(self.hist(t, mods, kind)));
                }
            }
        }
        out
    }

    /// Hidden-hand histogram re-weighted towards Sabaccs (for opponents in stand); read through
    /// [`Expert::hist`].
    fn stander_hist(&mut self, t: &Table, mods: RankingMods) -> Hist {
        let c = &t.count.hidden;
        let mut h = Hist::default();
        let mut total = 0.0;
        let dists = self.eval.dists(&t.cfg, mods);
        for s in 0..8 {
            for b in 0..8 {
                let w0 = c[0][s] as f32 * c[1][b] as f32;
                if w0 == 0.0 {
                    continue;
                }
                let d = &dists[s * 8 + b];
                let w = w0 * (0.3 + 0.7 * d.sabacc);
                total += w;
                for &(k, p) in &d.keys {
                    h.p[k as usize] += w * p;
                }
            }
        }
        if total > 0.0 {
            for x in h.p.iter_mut() {
                *x /= total;
            }
        }
        let mut acc = 0.0;
        for k in (0..super::hand::NKEYS).rev() {
            acc += h.p[k];
            h.ge[k] = acc;
        }
        h
    }

    fn pwin(models: &[OppModel], my: &KeyDist) -> f32 {
        let mut p = 1.0;
        for m in models {
            p *= match m {
                OppModel::Known(d) => beat_dist(my, d),
                OppModel::Partial(parts) => parts.iter().map(|(w, d)| w * beat_dist(my, d)).sum(),
                OppModel::Unknown(h) => h.beat(my),
            };
        }
        p
    }

    /// Chance to win and expected loss-tax of a hand under mods.
    fn hand_eval(&mut self, t: &Table, mods: RankingMods, hand: [CardKind; 2]) -> (f32, f32) {
        let models = self.models(t, mods, None);
        let my = self.eval.dist(&t.cfg, mods, hand[0], hand[1]);
        (Self::pwin(&models, my), my.tax)
    }

    /// Value in chips of holding `hand` at the reveal with `pot` invested.
    fn value(p: f32, tax: f32, pot: f32, stock: f32) -> f32 {
        -(1.0 - p) * (pot + tax.min(stock.max(0.0) + 0.5))
    }

    /// Best Stand/Draw move and its value, with the draw costing `cost` chips.
    fn best_move(&mut self, t: &Table, legal: ActionMask, cost: f32) -> (Action, f32, f32) {
        let v = t.view;
        let me = &v.seats[v.viewer.index()];
        let mods = v.effects.mods;
        let pot = me.pot.0 as f32;
        let stock = me.stock.0 as f32;
        let hand = [v.hand[0].kind(), v.hand[1].kind()];
        let models = self.models(t, mods, None);
        let my = self.eval.dist(&t.cfg, mods, hand[0], hand[1]).clone();
        let p0 = Self::pwin(&models, &my);
        let stand_v = Self::value(p0, my.tax, pot, stock);
        let mut best = (Action::Stand, stand_v);
        // Later turns leave room to improve: a small bonus for drawing early with a weak hand.
        let turns_left = 3u8.saturating_sub(v.turn) as f32;
        for src in Source::ALL {
            let a = Action::Draw(src);
            if !legal.contains(a) {
                continue;
            }
            let f = src.family().index();
            let new_pot = pot + cost;
            let new_stock = stock - cost;
            let keep_held = Self::value(p0, my.tax, new_pot, new_stock);
            let ev = if src.is_deck() {
                let expected = t.count.expect_draw(f, |kind| {
                    let mut h = hand;
                    h[f] = kind;
                    let d = self.eval.dist(&t.cfg, mods, h[0], h[1]);
                    let p = Self::pwin(&models, d);
                    Self::value(p, d.tax, new_pot, new_stock).max(keep_held)
                });
                let Some(ev) = expected else { continue };
                ev
            } else {
                let Some(top) = v.discard[f].top() else { continue };
                let mut h = hand;
                h[f] = top.kind();
                let d = self.eval.dist(&t.cfg, mods, h[0], h[1]);
                let p = Self::pwin(&models, d);
                Self::value(p, d.tax, new_pot, new_stock).max(keep_held)
            };
            let bonus = if src.is_deck() { 0.08 * turns_left * (1.0 - p0) } else { 0.0 };
            let mut score = ev + bonus;
            if cost > 0.0 && stock <= 1.0 {
                // The last chip: keep it unless the draw is clearly better.
                score -= 0.6;
            }
            if score > best.1 + 1e-4 {
                best = (a, score);
            }
        }
        (best.0, best.1, p0)
    }

    fn act_decision(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let cfg = view.config;
        let t = self.table(view);
        let me = &view.seats[view.viewer.index()];
        let cost = if view.effects.free_draw { 0.0 } else { 1.0 };
        let (mv, mv_value, p0) = self.best_move(&t, legal, cost);
        if view.token_played {
            return mv;
        }
        let mods = view.effects.mods;
        let hand = [view.hand[0].kind(), view.hand[1].kind()];
        let standing = mv == Action::Stand;
        let last_turn = view.turn >= 3;
        let opps: Vec<Seat> = opponents(view).collect();
        let exposed: Vec<Seat> = opps.iter().copied().filter(|o| !view.seats[o.index()].immune).collect();
        let mut best: Option<(Action, f32)> = None;
        let consider = |a: Action, gain: f32, best: &mut Option<(Action, f32)>| {
            if legal.contains(a) && gain > best.map_or(0.0, |b| b.1) {
                *best = Some((a, gain));
            }
        };
        for tok in view.own_tokens.iter() {
            let a = Action::PlayToken(tok);
            if !legal.contains(a) {
                continue;
            }
            let gain = match tok {
                Token::FreeDraw => {
                    let mut m2 = legal;
                    for s in Source::ALL {
                        if view.discard[s.family().index()].is_empty() && !s.is_deck() {
                            continue;
                        }
                        m2.set(Action::Draw(s));
                    }
                    let (m, val, _) = self.best_move(&t, legal_draws(view, m2), 0.0);
                    if matches!(m, Action::Draw(_)) && (matches!(mv, Action::Draw(_)) || val > mv_value + 0.3) {
                        1.0
                    } else {
                        0.0
                    }
                }
                Token::Refund | Token::ExtraRefund => {
                    let n = if tok == Token::Refund { 2.0 } else { 3.0 };
                    let back = (me.pot.0 as f32).min(n);
                    let at_risk = back * (1.0 - p0);
                    let full = back >= n || (last_turn && back >= 1.0);
                    if full && at_risk >= 0.5 { at_risk } else { 0.0 }
                }
                Token::Embezzlement => {
                    let k = exposed.iter().filter(|o| view.seats[o.index()].pot.0 > 0).count() as f32;
                    if k >= 2.0 || (k >= 1.0 && (last_turn || p0 > 0.5)) { 0.5 * k + p0 * k } else { 0.0 }
                }
                Token::GeneralTariff => {
                    let k = exposed.iter().filter(|o| view.seats[o.index()].stock.0 > 0).count() as f32;
                    if k >= 1.0 { 0.8 * k } else { 0.0 }
                }
                Token::TargetTariff => 1.5,
                Token::GeneralAudit => {
                    let k: f32 = exposed
                        .iter()
                        .filter(|o| view.seats[o.index()].last_action == LastAction::Stand)
                        .map(|o| (view.seats[o.index()].stock.0 as f32).min(2.0))
                        .sum();
                    if k >= 1.0 { 0.8 * k } else { 0.0 }
                }
                Token::TargetAudit => 2.0,
                Token::PrimeSabacc => {
                    let mut pv = [0.0f32; 7];
                    for (vv, slot) in pv.iter_mut().enumerate().skip(1) {
                        *slot = self.hand_eval(&t, RankingMods { prime: Some(vv as u8), ..mods }, hand).0;
                    }
                    let mut e = 0.0;
                    for d1 in 1..=6 {
                        for d2 in 1..=6 {
                            e += pv[d1].max(pv[d2]) / 36.0;
                        }
                    }
                    fix_gain(e - p0, standing || last_turn)
                }
                Token::CookTheBooks | Token::Markdown | Token::MajorFraud => {
                    let p = self.hand_eval(&t, fixed_mods(tok, mods), hand).0;
                    fix_gain(p - p0, standing || last_turn)
                }
                Token::Embargo => {
                    let n = cfg.players;
                    let next = (1..n).map(|o| view.viewer.offset(o, n)).find(|s| !view.seats[s.index()].eliminated);
                    match next {
                        Some(s) if standing && p0 >= 0.45 && view.seats[s.index()].last_action != LastAction::Stand => {
                            0.6
                        }
                        _ => 0.0,
                    }
                }
                Token::Immunity => {
                    let threats: u32 = exposed.iter().map(|o| view.seats[o.index()].unplayed as u32).sum();
                    if threats > 0 && (p0 >= 0.6 || me.stock.0 <= 2) && (standing || me.pot.0 > 0) { 0.7 } else { 0.0 }
                }
                Token::Exhaustion => {
                    if p0 < 0.5 {
                        self.exhaustion_target(&t, legal_targets_all(view)).map_or(0.0, |(_, g)| g)
                    } else {
                        0.0
                    }
                }
                Token::DirectTransaction => {
                    if p0 < 0.35 {
                        self.dt_target(&t, legal_targets_all(view), p0).map_or(0.0, |(_, g)| g)
                    } else {
                        0.0
                    }
                }
            };
            consider(a, gain, &mut best);
        }
        match best {
            Some((a, g)) if g >= 0.1 => a,
            _ => mv,
        }
    }

    /// The Exhaustion target and the gain in win chance it promises.
    fn exhaustion_target(&mut self, t: &Table, targets: Vec<Seat>) -> Option<(Seat, f32)> {
        let v = t.view;
        let mods = v.effects.mods;
        let hand = [v.hand[0].kind(), v.hand[1].kind()];
        let my = self.eval.dist(&t.cfg, mods, hand[0], hand[1]).clone();
        let fresh = self.hist(t, mods, HistKind::Plain).beat(&my);
        let mut best: Option<(Seat, f32)> = None;
        for o in targets {
            let k = t.count.known[o.index()];
            let now = match (k[0], k[1]) {
                (Some(a), Some(b)) => beat_dist(&my, self.eval.dist(&t.cfg, mods, a.kind(), b.kind())),
                _ if v.seats[o.index()].last_action == LastAction::Stand => {
                    self.hist(t, mods, HistKind::Stander).beat(&my)
                }
                _ => fresh,
            };
            let g = fresh - now;
            if g > best.map_or(0.15, |b| b.1) {
                best = Some((o, g));
            }
        }
        best
    }

    /// The Direct Transaction target and the gain in win chance it promises.
    fn dt_target(&mut self, t: &Table, targets: Vec<Seat>, p0: f32) -> Option<(Seat, f32)> {
        let v = t.view;
        let mods = v.effects.mods;
        let hand = [v.hand[0].kind(), v.hand[1].kind()];
        let mut best: Option<(Seat, f32)> = None;
        for o in targets {
            let k = t.count.known[o.index()];
            let p_new = match (k[0], k[1]) {
                (Some(a), Some(b)) => {
                    let models = self.models(t, mods, Some((o, hand)));
                    let d = self.eval.dist(&t.cfg, mods, a.kind(), b.kind());
                    Self::pwin(&models, d)
                }
                _ if v.seats[o.index()].last_action == LastAction::Stand => {
                    // Expected over the stander's likely hands (as fixed keys), against the
                    // others and our old hand, which the target then holds.
                    let h = self.hist(t, mods, HistKind::Stander);
                    let models = self.models(t, mods, Some((o, hand)));
                    let mut mean_q = 0.0;
                    for (kk, &pp) in h.p.iter().enumerate() {
                        if pp > 0.0 {
                            let d = KeyDist { keys: vec![(kk as u16, 1.0)], tax: 0.0, sabacc: 0.0 };
                            mean_q += pp * Self::pwin(&models, &d);
                        }
                    }
                    mean_q
                }
                _ => continue,
            };
            let g = p_new - p0;
            if g > best.map_or(0.15, |b| b.1) {
                best = Some((o, g));
            }
        }
        best
    }

    fn target_decision(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        let n = view.config.players;
        let targets: Vec<(u8, Seat)> =
            (1..n).filter(|&o| legal.contains(Action::Target(o))).map(|o| (o, view.viewer.offset(o, n))).collect();
        let by_seat = |s: Seat| targets.iter().find(|(_, t)| *t == s).map(|(o, _)| Action::Target(*o));
        let t = self.table(view);
        let pick = match token {
            // Knock out someone who cannot recover, else hit the richest.
            Token::TargetTariff | Token::TargetAudit => targets
                .iter()
                .filter(|(_, s)| knocks_out(view, token, *s))
                .max_by_key(|(_, s)| view.seats[s.index()].stock.0)
                .map(|(o, _)| Action::Target(*o)),
            Token::Exhaustion => {
                let seats = targets.iter().map(|x| x.1).collect();
                self.exhaustion_target(&t, seats).and_then(|(s, _)| by_seat(s))
            }
            Token::DirectTransaction => {
                let hand = [view.hand[0].kind(), view.hand[1].kind()];
                let (p0, _) = self.hand_eval(&t, view.effects.mods, hand);
                let seats = targets.iter().map(|x| x.1).collect();
                self.dt_target(&t, seats, p0 - 1.0).and_then(|(s, _)| by_seat(s))
            }
            _ => return first_target(legal),
        };
        aim(view, legal, pick)
    }
}

/// Gain of a Fix token: worth playing when it clearly raises the chance to win.
fn fix_gain(delta: f32, good_time: bool) -> f32 {
    if delta >= 0.25 || (good_time && delta >= 0.08) { 0.5 + delta } else { 0.0 }
}

fn legal_draws(view: &PlayerView, m: ActionMask) -> ActionMask {
    let mut out = ActionMask::default();
    out.set(Action::Stand);
    if view.effects.embargoed.contains(view.viewer) {
        return out;
    }
    for s in Source::ALL {
        let f = s.family().index();
        let ok = if s.is_deck() {
            view.draw_sizes[f] > 0 || view.discard[f].len() >= 2
        } else {
            !view.discard[f].is_empty()
        };
        if ok && m.contains(Action::Draw(s)) {
            out.set(Action::Draw(s));
        }
    }
    out
}

/// Opponents a targeted token could hit (active, not Immune).
fn legal_targets_all(view: &PlayerView) -> Vec<Seat> {
    opponents(view).filter(|o| !view.seats[o.index()].immune).collect()
}

impl Expert {
    /// The expert's action as if it held none of the tokens in `withheld`: the card play of the
    /// styles that decide about those tokens themselves.
    pub fn act_withholding(&mut self, view: &PlayerView, legal: ActionMask, withheld: TokenSet) -> Action {
        if withheld.is_empty() {
            return self.act(view, legal);
        }
        let mut v = view.clone();
        v.own_tokens = TokenSet(view.own_tokens.0 & !withheld.0);
        let mut m = ActionMask::default();
        for a in legal.actions() {
            if !matches!(a, Action::PlayToken(t) if withheld.contains(t)) {
                m.set(a);
            }
        }
        only_action(m).unwrap_or_else(|| self.act(&v, m))
    }
}

impl Style for Expert {
    const SETUP: &'static [Token] = &draft::DRAFT_PREFERENCE;

    fn setup(&self, view: &PlayerView) -> &'static [Token] {
        draft::preference(view.config.players)
    }

    fn name(&self) -> &str {
        "expert"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        let t = self.table(view);
        let hand = [view.hand[0].kind(), view.hand[1].kind()];
        let mods = view.effects.mods;
        let p1 = self.hand_eval(&t, RankingMods { prime: Some(dice[0]), ..mods }, hand).0;
        let p2 = self.hand_eval(&t, RankingMods { prime: Some(dice[1]), ..mods }, hand).0;
        if p2 > p1 { Action::DieSecond } else { Action::DieFirst }
    }

    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        self.target_decision(view, token, legal)
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        let t = self.table(view);
        let f = source.family().index();
        let mods = view.effects.mods;
        let me = &view.seats[view.viewer.index()];
        let (pot, stock) = (me.pot.0 as f32, me.stock.0 as f32);
        let held = [view.hand[0].kind(), view.hand[1].kind()];
        let mut with = held;
        with[f] = drawn.kind();
        let (ph, th) = self.hand_eval(&t, mods, held);
        let (pd, td) = self.hand_eval(&t, mods, with);
        let vh = Self::value(ph, th, pot, stock);
        let vd = Self::value(pd, td, pot, stock);
        if vd > vh + 1e-6 { Action::KeepDrawn } else { Action::KeepHeld }
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        self.act_decision(view, legal)
    }
}
