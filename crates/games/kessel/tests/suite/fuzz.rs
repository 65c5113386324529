//! Fuzzing with proptest: arbitrary (valid or invalid) configs driven by arbitrary action-index
//! streams, arbitrary `Action` values, and arbitrary mutations of scenario files. The engine must
//! never panic; a refused action must leave the state unchanged; a refused scenario must give a
//! one-line error naming a field.

use kessel::config::{
    CookScope, EmbezzlementSource, FirstStarter, ImpostorRule, InStand, MarkdownSylops, NulhrekTiebreak, RefundSource,
    RoundStarter, TaxTokenChips, TokenAssignment,
};
use kessel::{Action, RuleConfig, Scenario, Source, State, Token, TokenSet};
use proptest::prelude::*;
use serde_json::{Value, json};

fn config_strategy() -> impl Strategy<Value = RuleConfig> {
    (
        (
            prop_oneof![9 => 2u8..=8, 1 => any::<u8>()],
            prop_oneof![9 => 1u16..=12, 1 => any::<u16>()],
            prop_oneof![9 => 1u16..=6, 1 => 0u16..=200],
            any::<u16>(),
            prop_oneof![9 => 0u8..=4, 1 => any::<u8>()],
            0u8..4,
        ),
        (any::<bool>(), 0u8..3, any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        prop::array::uniform8(any::<u16>()),
    )
        .prop_map(|((players, chips, limit, enabled, tpp, assign), a, b, loadouts)| {
            let enabled = if enabled % 3 == 0 { TokenSet::ALL } else { TokenSet(enabled) };
            let token_assignment =
                [TokenAssignment::Random, TokenAssignment::Fixed, TokenAssignment::Choose, TokenAssignment::None]
                    [assign as usize];
            let mut fixed_loadouts = [TokenSet::EMPTY; 8];
            for (i, l) in loadouts.iter().enumerate() {
                // Half the time a loadout that fits the config, otherwise arbitrary bits.
                fixed_loadouts[i] = if l % 16 != 0 {
                    TokenSet(enabled.iter().take(tpp as usize).fold(0, |m, t| m | (1 << t.index())))
                } else {
                    TokenSet(*l)
                };
            }
            RuleConfig {
                players,
                starting_chips: chips,
                credits_per_chip: 15,
                round_limit: limit,
                nulhrek_tiebreak: if a.0 { NulhrekTiebreak::LowerCards } else { NulhrekTiebreak::None },
                impostor: [ImpostorRule::OwnerChooses, ImpostorRule::AutoBest, ImpostorRule::OneDie][a.1 as usize],
                cook_the_books: if a.2 { CookScope::PureLast } else { CookScope::PureFirst },
                markdown_sylops: if a.3 { MarkdownSylops::ZeroPair } else { MarkdownSylops::StaysPure },
                refund_source: if a.4 { RefundSource::HandPot } else { RefundSource::LostChips },
                embezzlement: if a.5 { EmbezzlementSource::HandPot } else { EmbezzlementSource::Stock },
                tax_token_chips: if b.0 { TaxTokenChips::LeaveGame } else { TaxTokenChips::VictimHandPot },
                in_stand: if b.1 { InStand::LastAction } else { InStand::StoodThisTurn },
                early_reveal: b.2,
                round_starter: if b.3 { RoundStarter::Rotates } else { RoundStarter::AlwaysSeat0 },
                first_starter: if b.4 { FirstStarter::Seat0 } else { FirstStarter::Random },
                token_assignment,
                tokens_per_player: tpp,
                enabled_tokens: enabled,
                fixed_loadouts,
            }
        })
}

/// One input of the action stream: usually "the n-th legal action" (so games go deep), sometimes
/// a raw index anywhere in `usize`.
#[derive(Clone, Debug)]
enum Step {
    Legal(usize),
    Raw(usize),
}

fn step_strategy() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => any::<usize>().prop_map(Step::Legal),
        2 => (0usize..64).prop_map(Step::Raw),
        1 => any::<usize>().prop_map(Step::Raw),
    ]
}

fn action_strategy() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::Stand),
        prop::sample::select(Source::ALL.to_vec()).prop_map(Action::Draw),
        Just(Action::KeepDrawn),
        Just(Action::KeepHeld),
        prop::sample::select(Token::ALL.to_vec()).prop_map(Action::PlayToken),
        any::<u8>().prop_map(Action::Target),
        Just(Action::DieFirst),
        Just(Action::DieSecond),
        prop::sample::select(Token::ALL.to_vec()).prop_map(Action::ChooseToken),
    ]
}

/// Applies one raw index: a refusal must leave the state exactly as it was.
fn apply_checked(s: &mut State, index: usize) -> Result<(), TestCaseError> {
    let before = s.clone();
    match s.apply_index(index) {
        Ok(()) => {
            prop_assert!(before.legal_mask().contains_index(index), "accepted illegal index {}", index);
            if let Err(e) = s.check_invariants() {
                return Err(TestCaseError::fail(format!("after index {index}: {e}")));
            }
        }
        Err(_) => {
            prop_assert!(!before.legal_mask().contains_index(index) || before.is_terminal());
            prop_assert!(*s == before, "a refused index {} changed the state", index);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_configs_and_action_streams_never_panic(
        config in config_strategy(),
        seed in any::<u64>(),
        steps in prop::collection::vec(step_strategy(), 0..400),
    ) {
        let Ok(mut s) = State::new(config, seed) else {
            prop_assert!(config.validate().is_err());
            return Ok(());
        };
        for step in steps {
            if s.is_terminal() {
                break;
            }
            let index = match step {
                Step::Legal(n) => {
                    let m = s.legal_mask();
                    m.nth_index(n % m.count()).unwrap()
                }
                Step::Raw(i) => i,
            };
            apply_checked(&mut s, index)?;
        }
        // Views and determinisation of any reachable state never panic either.
        for v in 0..s.num_players() {
            let view = s.view(game::Seat(v));
            let d = s.determinize(game::Seat(v), seed);
            prop_assert_eq!(serde_json::to_string(&d.view(game::Seat(v))).unwrap(), serde_json::to_string(&view).unwrap());
        }
    }

    #[test]
    fn arbitrary_action_values_are_refused_or_applied_never_panic(
        players in 2u8..=8,
        seed in any::<u64>(),
        actions in prop::collection::vec(action_strategy(), 0..300),
        guide in prop::collection::vec(any::<usize>(), 300),
    ) {
        let mut s = State::new(RuleConfig::with_players(players), seed).unwrap();
        for (k, a) in actions.into_iter().enumerate() {
            if s.is_terminal() {
                break;
            }
            let before = s.clone();
            match s.apply(a) {
                Ok(()) => {
                    prop_assert_eq!(Action::from_index(a.index()), Some(a), "accepted a malformed action {:?}", a);
                    prop_assert!(before.legal_mask().contains(a));
                    s.check_invariants().map_err(TestCaseError::fail)?;
                }
                Err(_) => {
                    prop_assert!(s == before, "refused {:?} changed the state", a);
                    // Keep the game moving with a legal action.
                    let m = s.legal_mask();
                    let i = m.nth_index(guide[k] % m.count()).unwrap();
                    s.apply_index(i).unwrap();
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Scenario mutations

fn seed_scenarios() -> Vec<Value> {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut v: Vec<Value> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension().is_some_and(|x| x == "json"))
                .then(|| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        })
        .collect();
    v.sort_by_key(|x| x.to_string());
    v.push(json!({
        "config": {"players": 2, "token_assignment": "none"},
        "actor": 0,
        "players": [{"hand": ["S1", "B1"], "stock": 5, "tokens": ["exhaustion"]}, {"hand": ["S2", "B2"], "stock": 5}],
        "sand_discard": ["S6"], "blood_discard": ["B6"],
        "decision": {"decision": "keep", "drawn": "S3", "source": "sand-deck"}
    }));
    v.push(json!({
        "config": {"players": 3, "token_assignment": "none"},
        "turn": 2, "actor": 2, "all_stood_this_turn": false,
        "players": [
            {"hand": ["S1", "B1"], "stock": 4, "pot": 1, "turns": ["stand", "draw:sand-deck"], "spent": ["embargo"], "round_tokens": ["embargo"]},
            {"hand": ["S2", "B2"], "stock": 5, "turns": ["forced-stand", "stand"]},
            {"hand": ["S3", "B3"], "stock": 4, "pot": 1, "turns": ["draw:blood-discard"], "tokens": ["immunity"]}
        ],
        "effects": {"embargoed": [2]},
        "sand_discard": ["S6"], "blood_discard": ["B6"], "sand_draw": ["S4"]
    }));
    v
}

fn leaf_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec![-1i64, 0, 1, 2, 3, 6, 7, 8, 9, 22, 44, 255, 256, 65535, 65536, i64::MAX, i64::MIN])
            .prop_map(|n| json!(n)),
        prop::sample::select(vec![
            "S1",
            "S6",
            "SI",
            "SY",
            "B1",
            "B4",
            "BI",
            "BY",
            "S0",
            "B7",
            "X1",
            "",
            "embargo",
            "immunity",
            "exhaustion",
            "prime-sabacc",
            "act",
            "keep",
            "target",
            "prime-die",
            "sand-deck",
            "blood-discard",
            "stand",
            "forced-stand",
            "draw:sand-deck",
            "draw:blood-discard",
            "draw",
            "none",
            "random",
            "fixed",
            "choose",
            "lost-chips",
            "stock",
            "\u{0}",
        ])
        .prop_map(|s| json!(s)),
        any::<bool>().prop_map(|b| json!(b)),
        Just(Value::Null),
        Just(json!([])),
        Just(json!({})),
        Just(json!(1.5)),
        Just(json!(["S1", "S1", "S1", "S1"])),
        Just(json!({"decision": "target", "token": "exhaustion"})),
        Just(json!({"decision": "prime-die", "dice": [1, 6]})),
        Just(json!({"decision": "keep", "drawn": "SY", "source": "sand-discard"})),
        Just(json!(["stand", "forced-stand", "draw:sand-deck"])),
        Just(json!([0, 1])),
    ]
}

/// Paths to every node of a JSON value.
fn paths(v: &Value, prefix: &mut Vec<PathPart>, out: &mut Vec<Vec<PathPart>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                prefix.push(PathPart::Key(k.clone()));
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                prefix.push(PathPart::Index(i));
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathPart {
    Key(String),
    Index(usize),
}

fn node<'a>(v: &'a mut Value, path: &[PathPart]) -> &'a mut Value {
    path.iter().fold(v, |v, p| match p {
        PathPart::Key(k) => &mut v[k.as_str()],
        PathPart::Index(i) => &mut v[*i],
    })
}

const FIELDS: &[&str] = &[
    "config",
    "seed",
    "round",
    "turn",
    "starter",
    "actor",
    "decision",
    "token_played",
    "all_stood_this_turn",
    "players",
    "sand_draw",
    "blood_draw",
    "sand_discard",
    "blood_discard",
    "effects",
    "dice",
    "hand",
    "stock",
    "pot",
    "lost",
    "eliminated",
    "tokens",
    "spent",
    "last_action",
    "stood_turn",
    "turns",
    "round_tokens",
    "immune",
    "embargoed",
    "prime",
    "cook_the_books",
    "markdown",
    "free_draw",
    "players",
    "round_limit",
    "unknown_field",
];

/// Mutation kinds: replace a node, delete a key or element, insert a field, duplicate an element.
fn mutate(v: &mut Value, picks: &[(u8, usize, usize)], leaves: &[Value]) {
    for (k, &(kind, a, b)) in picks.iter().enumerate() {
        let mut all = Vec::new();
        paths(v, &mut Vec::new(), &mut all);
        let path = &all[a % all.len()];
        let leaf = leaves[k % leaves.len()].clone();
        match kind % 4 {
            0 => *node(v, path) = leaf,
            1 => {
                if let Some((last, parent)) = path.split_last() {
                    let p = node(v, parent);
                    match (last, p) {
                        (PathPart::Key(key), Value::Object(m)) => {
                            m.remove(key);
                        }
                        (PathPart::Index(i), Value::Array(arr)) => {
                            arr.remove(*i);
                        }
                        _ => {}
                    }
                }
            }
            2 => {
                if let Value::Object(m) = node(v, path) {
                    m.insert(FIELDS[b % FIELDS.len()].to_string(), leaf);
                }
            }
            _ => {
                if let Value::Array(arr) = node(v, path)
                    && !arr.is_empty()
                {
                    let x = arr[b % arr.len()].clone();
                    arr.push(x);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenarios_load_or_fail_with_a_one_line_field_error(
        which in any::<usize>(),
        picks in prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..5),
        leaves in prop::collection::vec(leaf_strategy(), 1..5),
        play in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        let seeds = seed_scenarios();
        let mut v = seeds[which % seeds.len()].clone();
        mutate(&mut v, &picks, &leaves);
        let text = v.to_string();
        match Scenario::from_json(&text) {
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.contains('\n'), "multi-line error: {}", msg);
                prop_assert!(!e.field.is_empty());
                let prefix = format!("{}: ", e.field);
                prop_assert!(msg.starts_with(&prefix), "error {:?} does not start with its field", msg);
            }
            Ok(mut s) => {
                s.check_invariants().map_err(TestCaseError::fail)?;
                for n in play {
                    if s.is_terminal() {
                        break;
                    }
                    let m = s.legal_mask();
                    let i = m.nth_index(n % m.count()).unwrap();
                    apply_checked(&mut s, i)?;
                    apply_checked(&mut s, n % 50)?;
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_to_the_scenario_loader_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = Scenario::from_json(&text) {
            prop_assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn scenario_text_with_random_bytes_never_panics(
        which in any::<usize>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6),
    ) {
        let seeds = seed_scenarios();
        let mut bytes = seeds[which % seeds.len()].to_string().into_bytes();
        for (pos, b) in edits {
            let i = pos % bytes.len();
            bytes[i] = b;
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = Scenario::from_json(&text) {
            prop_assert!(!e.to_string().contains('\n'));
        }
    }
}

#[test]
fn target_actions_outside_1_to_7_are_refused() {
    // Regression: `Target(0)` aliased the mask bit of `Target(1)` (self-targeting) and `Target(8)`
    // the bit of `DieFirst` (an `unreachable!` panic at a Prime Sabacc die).
    let text = json!({
        "config": {"players": 3, "token_assignment": "none"},
        "actor": 0,
        "players": [{"hand": ["S1", "B1"], "stock": 5, "tokens": ["target-tariff", "prime-sabacc"]}, {"hand": ["S2", "B2"], "stock": 5}, {"hand": ["S3", "B3"], "stock": 5}],
        "sand_discard": ["S6"], "blood_discard": ["B6"], "dice": [2, 4]
    })
    .to_string();
    let mut s = Scenario::from_json(&text).unwrap();
    let mut t = s.clone();
    s.apply(Action::PlayToken(Token::TargetTariff)).unwrap();
    let before = s.clone();
    for off in [0u8, 8, 9, 24, 255] {
        assert!(s.apply(Action::Target(off)).is_err(), "Target({off}) accepted");
        assert_eq!(s, before);
    }
    t.apply(Action::PlayToken(Token::PrimeSabacc)).unwrap();
    let before = t.clone();
    for off in [0u8, 8, 9] {
        assert!(t.apply(Action::Target(off)).is_err(), "Target({off}) accepted at a die decision");
        assert_eq!(t, before);
    }
}
