//! Difficulty levels: `level:1` (beginner) to `level:5` (the champion), and the one knob behind
//! them, deliberate mistakes (`mistakes:P+SPEC`).
//!
//! Every level is the game's shipped champion ([`game::Game::LEVELS_CHECKPOINT`], Kessel's
//! `checkpoints/champion@argmax`) playing a uniformly random legal action at a fixed share of its
//! decisions and its own choice at the others. One knob keeps the levels comparable: the same
//! judgement, only less reliably applied; the shares were chosen so the levels sit roughly equal
//! rating steps apart on the ladder's scale (`ladder/GAME.json`, docs/ladder.md), where every
//! level's rating and its interval are recorded.

use game::{Agent, AgentError, AgentRng, Game, GameAction, LegalMask, RandomAgent};
use rand::RngExt;
use std::path::{Path, PathBuf};

/// One difficulty level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// 1 (weakest) to 5.
    pub number: u8,
    /// Its name for front-ends.
    pub name: &'static str,
    /// Share of decisions, in percent, taken uniformly at random among the legal actions.
    pub mistakes: u8,
    /// How it plays, in one line.
    pub description: &'static str,
}

/// The levels, weakest first. Their ratings are in each game's ladder file; the test
/// `the_committed_ladder_rates_the_levels_in_order_at_even_steps` checks that file against them.
pub const LEVELS: [Level; 5] = [
    Level {
        number: 1,
        name: "beginner",
        mistakes: 80,
        description: "beginner: the champion with 80 % of its decisions random; aimless, an easy first opponent",
    },
    Level {
        number: 2,
        name: "casual",
        mistakes: 60,
        description: "casual: the champion with 60 % of its decisions random; good moves among many careless ones",
    },
    Level {
        number: 3,
        name: "intermediate",
        mistakes: 40,
        description: "intermediate: the champion with 40 % of its decisions random; often sound, easily punished",
    },
    Level {
        number: 4,
        name: "advanced",
        mistakes: 20,
        description: "advanced: the champion with 20 % of its decisions random; mostly sound, with occasional slips",
    },
    Level {
        number: 5,
        name: "champion",
        mistakes: 0,
        description: "champion: the game's shipped champion @argmax, the strongest shipped network",
    },
];

/// The level numbered `n`, if there is one.
pub fn level(n: u8) -> Option<&'static Level> {
    LEVELS.iter().find(|l| l.number == n)
}

/// Where game `G`'s levels' checkpoint is, found as every shipped file is ([`crate::shipped`]);
/// why not, naming the places searched, when the game has none or it is nowhere.
pub fn level_checkpoint<G: Game>() -> Result<PathBuf, String> {
    let rel = G::LEVELS_CHECKPOINT.ok_or_else(|| format!("{} has no difficulty levels", G::NAME))?;
    crate::shipped::find(Path::new(rel)).filter(|p| p.join(policy::METADATA_FILE).is_file()).ok_or_else(|| {
        crate::shipped::missing(Path::new(rel), "the difficulty levels", "choose another agent").to_string()
    })
}

/// An agent that plays `inner`'s choice, except that at `percent` % of its decisions (drawn from
/// the seat's own random stream, after `inner` has chosen) it plays a uniformly random legal
/// action instead. `inner` decides every position, so its random stream and any batching are
/// those it would have alone.
pub struct Erring<G: Game> {
    inner: Box<dyn Agent<G>>,
    chance: f64,
    name: String,
}

impl<G: Game> Erring<G> {
    /// `inner` with `percent` % random decisions (0–100), reported as `name`.
    pub fn new(inner: Box<dyn Agent<G>>, percent: u8, name: String) -> Erring<G> {
        Erring { inner, chance: f64::from(percent.min(100)) / 100.0, name }
    }

    fn maybe_err(&self, chosen: G::Action, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError> {
        if self.chance <= 0.0 || rng.random::<f64>() >= self.chance {
            return Ok(chosen);
        }
        RandomAgent::pick(legal, rng)
            .and_then(G::Action::from_index)
            .ok_or_else(|| AgentError::new(self.name.clone(), "no legal action was offered"))
    }
}

impl<G: Game> Agent<G> for Erring<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError> {
        let chosen = self.inner.act(view, legal, rng)?;
        self.maybe_err(chosen, legal, rng)
    }

    /// The inner agent's distribution mixed with the uniform one at the mistake rate.
    fn distribution(&mut self, view: &G::View, legal: G::Mask) -> Option<Result<Vec<f64>, AgentError>> {
        let n = legal.count();
        let inner = match self.inner.distribution(view, legal)? {
            Ok(d) => d,
            Err(e) => return Some(Err(e)),
        };
        let c = self.chance;
        Some(Ok(inner
            .iter()
            .enumerate()
            .map(|(i, p)| (1.0 - c) * p + if legal.contains_index(i) { c / n.max(1) as f64 } else { 0.0 })
            .collect()))
    }

    fn act_batch(
        &mut self,
        views: &[G::View],
        legal: &[G::Mask],
        rngs: &mut [AgentRng],
        out: &mut Vec<G::Action>,
    ) -> Result<(), AgentError> {
        self.inner.act_batch(views, legal, rngs, out)?;
        for ((a, &m), r) in out.iter_mut().zip(legal).zip(rngs.iter_mut()) {
            *a = self.maybe_err(*a, m, r)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::kessel::Kessel;
    use games::kessel::bots::ExpertAgent;
    use rand::SeedableRng;

    #[test]
    fn levels_are_numbered_in_order_and_err_less_as_they_rise() {
        for (i, l) in LEVELS.iter().enumerate() {
            assert_eq!(l.number as usize, i + 1);
            assert!(l.description.starts_with(l.name), "{}", l.description);
            if i > 0 {
                assert!(l.mistakes < LEVELS[i - 1].mistakes, "level {} errs no less than the one below", l.number);
            }
        }
        assert_eq!(LEVELS[4].mistakes, 0, "the top level is the champion itself");
        assert!(level(0).is_none() && level(6).is_none() && level(3).is_some());
    }

    #[test]
    fn level_and_mistake_specs_parse_round_trip_and_refuse_bad_values() {
        use crate::{AgentSpec, SpecError};
        for s in ["level:1", "level:5", "mistakes:20+expert", "mistakes:0+search:8", "mistakes:100+mistakes:5+greedy"] {
            assert_eq!(AgentSpec::parse::<Kessel>(s).unwrap().to_string(), s);
        }
        for bad in ["level:0", "level:6", "level:", "level:x", "level:-1"] {
            assert_eq!(
                AgentSpec::parse::<Kessel>(bad),
                Err(SpecError::BadLevel {
                    spec: bad.into(),
                    why: "the levels are level:1 (beginner) to level:5 (the champion)".into()
                }),
                "{bad}"
            );
        }
        for (bad, why) in [
            ("mistakes:20", "no agent"),
            ("mistakes:101+expert", "`101` is not a whole percentage"),
            ("mistakes:-5+expert", "`-5` is not"),
            ("mistakes:x+expert", "`x` is not"),
            ("mistakes:20+experts", "unknown agent `experts`"),
        ] {
            let e = AgentSpec::parse::<Kessel>(bad).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains("mistakes:P+SPEC"), "{bad}: {e}");
        }
        let e = crate::Agents::new().build::<Kessel>("level:9").err().unwrap().to_string();
        assert!(e.contains("level:1") && e.contains("level:5"), "{e}");
    }

    #[test]
    fn every_level_is_listed_and_builds() {
        let listed = crate::Agents::list::<Kessel>(&[]);
        let agents = crate::Agents::new();
        for l in &LEVELS {
            let spec = format!("level:{}", l.number);
            let hit = listed.iter().find(|x| x.spec == spec).unwrap_or_else(|| panic!("{spec} is not listed"));
            assert!(hit.description.contains(l.name), "{}", hit.description);
            assert_eq!(agents.build::<Kessel>(&spec).unwrap().name(), spec);
        }
    }

    /// Every game with levels ships a ladder that rates them in order, beginner above `random`,
    /// at steps within half of their mean size of one another.
    #[test]
    fn the_committed_ladder_rates_the_levels_in_order_at_even_steps() {
        let with_levels: Vec<games::GameId> =
            games::GameId::all().filter(|g| g.game_type().levels_checkpoint().is_some()).collect();
        assert!(with_levels.len() >= 2, "Kessel and classic Sabacc have levels: {with_levels:?}");
        for game in with_levels {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join(eval::ladder::shipped(game.name()));
            let ladder = eval::ladder::Ladder::read(&path).unwrap_or_else(|e| panic!("{}: {e}", game.name()));
            assert_eq!(ladder.game, game.name());
            let rating =
                |s: &str| ladder.rating(s).unwrap_or_else(|| panic!("{s} is not on the {} ladder", game.name()));
            let r: Vec<f64> = LEVELS.iter().map(|l| rating(&format!("level:{}", l.number))).collect();
            assert!(r[0] > rating("random"), "{}: the beginner must beat random: {r:?}", game.name());
            let steps: Vec<f64> = r.windows(2).map(|w| w[1] - w[0]).collect();
            let mean = steps.iter().sum::<f64>() / steps.len() as f64;
            assert!(mean > 50.0, "{}: levels too close together: {steps:?}", game.name());
            for s in &steps {
                assert!((s - mean).abs() <= 0.5 * mean, "{}: uneven steps {steps:?}", game.name());
            }
        }
    }

    /// With no mistakes the wrapper plays exactly as its agent; with all decisions random it
    /// plays legal moves that often differ from the agent's.
    #[test]
    fn erring_agents_play_their_agent_or_a_random_legal_action() {
        let mut env = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(4)).unwrap();
        let mut never = Erring::<games::kessel::Kessel>::new(Box::new(ExpertAgent::new()), 0, "e0".into());
        let mut always = Erring::<games::kessel::Kessel>::new(Box::new(ExpertAgent::new()), 100, "e100".into());
        let mut expert = ExpertAgent::new();
        let mut differ = 0;
        let mut choices = 0;
        for seed in 0..200 {
            env.reset(seed);
            let seat = env.current_player().unwrap();
            let (view, legal) = (env.view(seat), env.legal_mask());
            let mut rng = AgentRng::seed_from_u64(seed);
            let want = expert.act(&view, legal, &mut rng.clone()).unwrap();
            assert_eq!(never.act(&view, legal, &mut rng.clone()).unwrap(), want);
            let got = always.act(&view, legal, &mut rng).unwrap();
            assert!(legal.contains(got));
            if legal.count() > 1 {
                choices += 1;
                differ += usize::from(got != want);
            }
        }
        assert!(choices > 50 && differ * 3 > choices, "{differ} of {choices} random choices differed");
    }
}
