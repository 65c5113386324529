//! Gymnasium-shaped single-agent wrapper: one learner seat against scripted opponents.
//!
//! The opponents are [`Agent`]s; they act inside `reset` and `step` until it is the learner's
//! decision or the game is over, so the learner sees only its own decisions. Its reward on a
//! step is the sum of what its seat received during that call (non-zero only at the end). The
//! game runs on the one game loop ([`crate::Driver`]), like every other game in the project.

use crate::driver::{Controller, Driver, DriverError, GameStart, Pending, StepEvent};
use crate::env::{Env, EnvError, GameConfig};
use crate::seed::{derive, splitmix64};
use game::{Agent, AgentRng};
use game::{Game, GameAction};
use game::{MAX_PLAYERS, Seat, SeatSet};
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
pub type SingleStep<'a, G> = (&'a [f32], <G as Game>::Mask, f32, bool, bool, SingleInfo);

/// The driver's controller for the wrapper's one game: the learner's queued action, the
/// opponents, and the learner's reward collected while stepping.
struct Seats<G: Game> {
    start: Option<GameStart<G>>,
    learner: Seat,
    players: u8,
    queued: Option<usize>,
    opponents: Vec<Box<dyn Agent<G>>>,
    rng: AgentRng,
    /// The learner's reward on its own step (what `step` reports first).
    learner_reward: f32,
    /// The learner's reward summed over the opponents' steps since.
    opponents_reward: f32,
}

impl<G: Game> Seats<G> {
    /// Which of `opponents` plays `seat` (never the learner's).
    fn opponent(&self, seat: Seat) -> usize {
        self.learner.distance_to(seat, self.players) as usize - 1
    }

    /// The driver's error as the wrapper reports it: an illegal learner action as the env's
    /// `IllegalAction`, an illegal opponent action naming the opponent.
    fn refused(&self, e: DriverError<EnvError>) -> EnvError {
        match e {
            DriverError::Illegal { seat, error, .. } if seat != self.learner => {
                let index = match &error {
                    EnvError::IllegalAction { index, .. } => *index,
                    _ => usize::MAX,
                };
                EnvError::OpponentIllegal { agent: self.opponents[self.opponent(seat)].name().to_string(), seat, index }
            }
            DriverError::Config { error, .. } | DriverError::Illegal { error, .. } | DriverError::Controller(error) => {
                error
            }
        }
    }
}

impl<G: Game> Controller<G> for Seats<G> {
    type Error = EnvError;

    fn next_game(&mut self, _row: usize) -> Result<Option<GameStart<G>>, EnvError> {
        Ok(self.start.take())
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), EnvError> {
        let p = &pending[0];
        let seat = p.actor;
        actions[0] = if seat == self.learner {
            self.queued.take().expect("the learner's decision is stepped only with its action queued")
        } else {
            let o = self.opponent(seat);
            self.opponents[o]
                .act(&p.view(), p.mask, &mut self.rng)
                .map_err(|error| EnvError::Agent { seat, error })?
                .index()
        };
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_, G>) -> Result<(), EnvError> {
        let r = e.rewards[self.learner.index()];
        if e.seat == self.learner {
            self.learner_reward = r;
        } else {
            self.opponents_reward += r;
        }
        Ok(())
    }
}

/// One learner against `players - 1` scripted opponents, played by the one game loop
/// ([`Driver`], one row): the learner's action is queued and the driver asks the opponents in
/// turn, so legality and the order of events are checked in one place.
pub struct SingleAgentEnv<G: Game> {
    driver: Driver<G>,
    seats: Seats<G>,
    config: GameConfig<G>,
    mode: LearnerSeat,
    obs: Vec<f32>,
    learner_steps: u32,
}

impl<G: Game> SingleAgentEnv<G> {
    /// `opponents[o - 1]` plays the seat `o` places clockwise from the learner; there must be
    /// exactly `players - 1` of them.
    pub fn new(config: GameConfig<G>, mode: LearnerSeat, opponents: Vec<Box<dyn Agent<G>>>) -> Result<Self, EnvError> {
        let mut seats = Seats {
            start: Some(GameStart::deal(config, 0)),
            learner: Seat(0),
            players: config.players(),
            queued: None,
            opponents,
            rng: AgentRng::seed_from_u64(0),
            learner_reward: 0.0,
            opponents_reward: 0.0,
        };
        // The game of seed 0 is dealt at once, as `SabaccEnv::new` does, so `inner` always has one.
        let mut driver = Driver::new(1);
        driver.start(&mut seats).map_err(|e| seats.refused(e))?;
        let n = config.players() as usize;
        if seats.opponents.len() + 1 != n {
            return Err(EnvError::BatchSize { expected: n - 1, got: seats.opponents.len() });
        }
        if let LearnerSeat::Fixed(s) = mode
            && s.index() >= n
        {
            return Err(EnvError::BatchSize { expected: n, got: s.index() + 1 });
        }
        Ok(SingleAgentEnv { driver, seats, config, mode, obs: vec![0.0; G::SPEC.obs_len], learner_steps: 0 })
    }

    fn env(&self) -> &Env<G> {
        self.driver.env(0).expect("a game is dealt in new")
    }

    fn info(&self) -> SingleInfo {
        let env = self.env();
        SingleInfo {
            learner: self.seats.learner,
            episode_steps: env.episode_steps(),
            learner_steps: self.learner_steps,
            winners: env.winners(),
            returns: env.returns(),
        }
    }

    /// Lets the opponents act until the learner's turn or the end.
    fn run_opponents(&mut self) -> Result<(), EnvError> {
        while let Some(seat) = self.env().current_player() {
            if seat == self.seats.learner {
                break;
            }
            self.driver.step(&mut self.seats).map_err(|e| self.seats.refused(e))?;
        }
        Ok(())
    }

    /// Writes the learner's observation and returns its mask and the game's end flags.
    fn observe(&mut self) -> (G::Mask, bool, bool) {
        let env = self.driver.env(0).expect("a game is dealt in new");
        env.observe_into(self.seats.learner, &mut self.obs);
        let truncated = G::is_truncated(env.state());
        (env.legal_mask(), env.is_done() && !truncated, truncated)
    }

    /// Starts a game from `seed` (deal, learner seat if rotating, opponents' randomness) and
    /// plays opponents up to the learner's first decision. Returns (observation, mask, info).
    pub fn reset(&mut self, seed: u64) -> Result<(&[f32], G::Mask, SingleInfo), EnvError> {
        let n = self.config.players() as u64;
        self.seats.learner = match self.mode {
            LearnerSeat::Fixed(s) => s,
            LearnerSeat::Rotating => Seat((splitmix64(derive(seed, 1)) % n) as u8),
        };
        self.seats.rng = AgentRng::seed_from_u64(derive(seed, 2));
        self.learner_steps = 0;
        self.driver.abandon_all();
        self.seats.start = Some(GameStart::deal(self.config, seed));
        self.driver.start(&mut self.seats).map_err(|e| self.seats.refused(e))?;
        self.run_opponents()?;
        let (mask, _, _) = self.observe();
        Ok((&self.obs, mask, self.info()))
    }

    /// Applies the learner's action, then the opponents' until the learner's next decision or
    /// the end. Returns (observation, mask, reward, terminated, truncated, info); at the end the
    /// observation is the learner's final one and the mask is empty.
    pub fn step(&mut self, action: usize) -> Result<SingleStep<'_, G>, EnvError> {
        if self.env().current_player() != Some(self.seats.learner) {
            return Err(EnvError::GameOver);
        }
        self.seats.queued = Some(action);
        self.seats.learner_reward = 0.0;
        self.seats.opponents_reward = 0.0;
        let stepped = self.driver.step(&mut self.seats);
        self.seats.queued = None;
        stepped.map_err(|e| self.seats.refused(e))?;
        self.learner_steps += 1;
        self.run_opponents()?;
        let reward = self.seats.learner_reward + self.seats.opponents_reward;
        let (mask, terminated, truncated) = self.observe();
        let info = self.info();
        Ok((&self.obs, mask, reward, terminated, truncated, info))
    }

    /// The learner's seat in the current game.
    pub fn learner(&self) -> Seat {
        self.seats.learner
    }

    /// The underlying multi-agent environment (read-only).
    pub fn inner(&self) -> &Env<G> {
        self.env()
    }
}
