//! Gymnasium-shaped single-agent wrapper: one learner seat against scripted opponents.
//!
//! The opponents are [`Agent`]s; they act inside `reset` and `step` until it is the learner's
//! decision or the game is over, so the learner sees only its own decisions. Its reward on a
//! step is the sum of what its seat received during that call (non-zero only at the end).

use crate::agent::{Agent, AgentRng};
use crate::env::{EnvConfig, EnvError, SabaccEnv, TimeStep};
use crate::obs::OBS_LEN;
use crate::seed::{derive, splitmix64};
use engine::{ActionMask, MAX_PLAYERS, Seat, SeatSet};
use rand::SeedableRng;

/// Which seat the learner plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnerSeat {
    /// Always this seat.
    Fixed(Seat),
    /// A seat drawn from the reset seed, so seats are covered evenly over many seeds while
    /// `reset(seed)` stays reproducible.
    Rotating,
}

/// Side information returned with every `reset` and `step`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SingleInfo {
    /// The learner's seat in this game.
    pub learner: Seat,
    /// All actions applied in this game so far (learner and opponents).
    pub episode_steps: u32,
    /// Learner decisions so far.
    pub learner_steps: u32,
    /// Game winners (empty until the end).
    pub winners: SeatSet,
    /// Every seat's return so far (its final return once done).
    pub returns: [f32; MAX_PLAYERS],
}

/// What `step` returns, Gymnasium order: observation, mask, reward, terminated, truncated, info.
pub type SingleStep<'a> = (&'a [f32], ActionMask, f32, bool, bool, SingleInfo);

/// One learner against `players - 1` scripted opponents.
pub struct SingleAgentEnv {
    env: SabaccEnv,
    mode: LearnerSeat,
    learner: Seat,
    opponents: Vec<Box<dyn Agent>>,
    rng: AgentRng,
    obs: Vec<f32>,
    learner_steps: u32,
}

impl SingleAgentEnv {
    /// `opponents[o - 1]` plays the seat `o` places clockwise from the learner; there must be
    /// exactly `players - 1` of them.
    pub fn new(config: EnvConfig, mode: LearnerSeat, opponents: Vec<Box<dyn Agent>>) -> Result<Self, EnvError> {
        let env = SabaccEnv::new(config)?;
        let n = config.rules.players as usize;
        if opponents.len() + 1 != n {
            return Err(EnvError::BatchSize { expected: n - 1, got: opponents.len() });
        }
        if let LearnerSeat::Fixed(s) = mode
            && s.index() >= n
        {
            return Err(EnvError::BatchSize { expected: n, got: s.index() + 1 });
        }
        Ok(SingleAgentEnv {
            env,
            mode,
            learner: Seat(0),
            opponents,
            rng: AgentRng::seed_from_u64(0),
            obs: vec![0.0; OBS_LEN],
            learner_steps: 0,
        })
    }

    fn info(&self) -> SingleInfo {
        SingleInfo {
            learner: self.learner,
            episode_steps: self.env.episode_steps(),
            learner_steps: self.learner_steps,
            winners: self.env.winners(),
            returns: self.env.returns(),
        }
    }

    /// Lets the opponents act until the learner's turn or the end; returns the learner's reward
    /// collected meanwhile and the last timestep.
    fn run_opponents(&mut self, mut ts: TimeStep) -> Result<(f32, TimeStep), EnvError> {
        let mut reward = 0.0;
        let n = self.env.num_players();
        while let Some(seat) = ts.actor {
            if seat == self.learner {
                break;
            }
            let o = self.learner.distance_to(seat, n) as usize;
            let agent = &mut self.opponents[o - 1];
            let view = self.env.view(seat);
            let a = agent.act(&view, ts.mask, &mut self.rng).map_err(|error| EnvError::Agent { seat, error })?.index();
            ts = self.env.step(a).map_err(|_| EnvError::OpponentIllegal {
                agent: agent.name().to_string(),
                seat,
                index: a,
            })?;
            reward += ts.rewards[self.learner.index()];
        }
        Ok((reward, ts))
    }

    /// Starts a game from `seed` (deal, learner seat if rotating, opponents' randomness) and
    /// plays opponents up to the learner's first decision. Returns (observation, mask, info).
    pub fn reset(&mut self, seed: u64) -> Result<(&[f32], ActionMask, SingleInfo), EnvError> {
        let n = self.env.num_players() as u64;
        self.learner = match self.mode {
            LearnerSeat::Fixed(s) => s,
            LearnerSeat::Rotating => Seat((splitmix64(derive(seed, 1)) % n) as u8),
        };
        self.rng = AgentRng::seed_from_u64(derive(seed, 2));
        self.learner_steps = 0;
        let ts = self.env.reset(seed);
        let (_, ts) = self.run_opponents(ts)?;
        self.env.observe_into(self.learner, &mut self.obs);
        Ok((&self.obs, ts.mask, self.info()))
    }

    /// Applies the learner's action, then the opponents' until the learner's next decision or
    /// the end. Returns (observation, mask, reward, terminated, truncated, info); at the end the
    /// observation is the learner's final one and the mask is empty.
    pub fn step(&mut self, action: usize) -> Result<SingleStep<'_>, EnvError> {
        if self.env.current_player() != Some(self.learner) {
            return Err(EnvError::GameOver);
        }
        let ts = self.env.step(action)?;
        self.learner_steps += 1;
        let r0 = ts.rewards[self.learner.index()];
        let (r1, ts) = self.run_opponents(ts)?;
        self.env.observe_into(self.learner, &mut self.obs);
        let info = self.info();
        Ok((&self.obs, ts.mask, r0 + r1, ts.terminated, ts.truncated, info))
    }

    /// The learner's seat in the current game.
    pub fn learner(&self) -> Seat {
        self.learner
    }

    /// The underlying multi-agent environment (read-only).
    pub fn inner(&self) -> &SabaccEnv {
        &self.env
    }
}
