//! Every bot returns a legal action at every decision, across player counts and token configs.

use agents::Agents;
use env::{Agent, AgentRng};
use games::kessel::Kessel;
use games::kessel::config::TokenAssignment;
use games::kessel::{RuleConfig, State, Token, TokenSet};
use rand::{RngExt, SeedableRng};

fn configs() -> Vec<RuleConfig> {
    let mut v: Vec<RuleConfig> = (2..=8).map(RuleConfig::with_players).collect();
    v.push(RuleConfig { token_assignment: TokenAssignment::None, ..RuleConfig::with_players(4) });
    v.push(RuleConfig { token_assignment: TokenAssignment::Choose, ..RuleConfig::with_players(3) });
    v.push(RuleConfig { tokens_per_player: 16, ..RuleConfig::with_players(4) });
    v.push(RuleConfig { tokens_per_player: 8, starting_chips: 2, ..RuleConfig::with_players(5) });
    let mut fixed = RuleConfig { token_assignment: TokenAssignment::Fixed, ..RuleConfig::with_players(2) };
    fixed.fixed_loadouts[0] = [Token::DirectTransaction, Token::Exhaustion, Token::PrimeSabacc].into_iter().collect();
    fixed.fixed_loadouts[1] = [Token::CookTheBooks, Token::Markdown, Token::MajorFraud].into_iter().collect();
    v.push(fixed);
    let mut odd = RuleConfig::with_players(3);
    odd.impostor = games::kessel::config::ImpostorRule::OneDie;
    odd.enabled_tokens = TokenSet(
        [Token::Embargo, Token::Immunity, Token::TargetAudit, Token::GeneralAudit].into_iter().collect::<TokenSet>().0,
    );
    v.push(odd);
    v
}

fn check(spec: &str, games_per_config: u64, max_decisions: usize) -> usize {
    let factory = Agents::new();
    let mut bot = factory.build::<Kessel>(spec).unwrap();
    let mut checked = 0;
    for (ci, cfg) in configs().into_iter().enumerate() {
        for g in 0..games_per_config {
            let mut st = State::new(cfg, game::derive_seed(ci as u64 * 1000, g)).unwrap();
            st.set_event_logging(false);
            let mut rng = AgentRng::seed_from_u64(g);
            let mut decisions = 0;
            while let Some(seat) = st.current_player() {
                let view = st.view(seat);
                let mask = st.legal_mask();
                let a = bot.act(&view, mask, &mut rng).unwrap();
                assert!(mask.contains(a), "{spec} chose illegal {a} (config {ci}, game {g}) at {:?}", view.decision);
                checked += 1;
                decisions += 1;
                // Mostly follow the bot, sometimes play randomly to reach odd positions.
                let next = if rng.random_range(0..4) == 0 || decisions > max_decisions {
                    Agent::<Kessel>::act(&mut env::RandomAgent, &view, mask, &mut rng).unwrap()
                } else {
                    a
                };
                st.apply(next).unwrap();
            }
        }
    }
    checked
}

#[test]
fn heuristic_bots_only_choose_legal_actions() {
    for spec in ["random", "greedy", "expert"] {
        let n = check(spec, 25, usize::MAX);
        assert!(n > 5_000, "{spec}: {n} decisions");
    }
}

#[test]
fn style_bots_only_choose_legal_actions() {
    for spec in ["tight", "loose", "aggressive", "hoarder", "chipaware", "leader", "handdraft", "gambler", "mirror"] {
        let n = check(spec, 8, usize::MAX);
        assert!(n > 1_500, "{spec}: {n} decisions");
    }
}

#[test]
fn search_bot_only_chooses_legal_actions() {
    let n = check("search:2", 3, 200);
    assert!(n > 500, "{n}");
}

#[test]
fn bots_make_the_obvious_choices() {
    use game::Seat;
    use games::kessel::scenario::Scenario;
    use games::kessel::{Action, Source};
    // Seat 0 holds a Pure Sabacc: greedy and expert stand; and with S3/B5 facing a B3 on the
    // discard pile, greedy and expert take it.
    let json = |hand: [&str; 2], blood_discard: &str| {
        format!(
            r#"{{"config": {{"players": 2, "token_assignment": "none"}}, "round": 1, "turn": 1, "starter": 0, "actor": 0,
               "decision": {{"decision": "act"}},
               "players": [{{"hand": ["{}", "{}"], "stock": 6}}, {{"hand": ["S2", "B6"], "stock": 6}}],
               "sand_discard": ["S4"], "blood_discard": ["{}"]}}"#,
            hand[0], hand[1], blood_discard
        )
    };
    let f = Agents::new();
    for spec in ["greedy", "expert", "search:8"] {
        let st = Scenario::from_json(&json(["SY", "BY"], "B1")).unwrap();
        let mut bot = f.build::<Kessel>(spec).unwrap();
        let mut rng = AgentRng::seed_from_u64(1);
        let a = bot.act(&st.view(Seat(0)), st.legal_mask(), &mut rng).unwrap();
        // Search may rightly draw (and keep its Sylop) to keep the round going while the
        // opponent pays into a losing hand pot; the heuristics stand.
        if spec != "search:8" {
            assert_eq!(a, Action::Stand, "{spec}");
        }
        let st = Scenario::from_json(&json(["S3", "B5"], "B3")).unwrap();
        assert_eq!(
            bot.act(&st.view(Seat(0)), st.legal_mask(), &mut rng).unwrap(),
            Action::Draw(Source::BloodDiscard),
            "{spec}"
        );
    }
}
