//! The one game loop: rows exhaust, an illegal choice stops the loop with an error naming the row
//! and seat and applies nothing, the records equal those of single games, and an agent that
//! fails is reported, not replaced.

use env::{
    Agent, AgentError, AgentRng, AgentTable, Controller, Driver, DriverError, Finished, GameStart, Pending,
    RandomAgent, StepEvent, play_game,
};
use game::Seat;
use games::kessel::Kessel;
use games::kessel::{Action, ActionMask, PlayerView};

/// Plays `games` games with random agents in `rows` rows and records every game's actions.
struct Recorder {
    config: env::GameConfig<Kessel>,
    next: u64,
    games: u64,
    table: AgentTable<Kessel>,
    row_game: Vec<u64>,
    actions: Vec<Vec<(Seat, Action)>>,
    started: u64,
    finished: u64,
    /// Game index whose first decision gets an illegal answer, if any.
    sabotage: Option<u64>,
}

impl Recorder {
    fn new(games: u64, rows: usize, sabotage: Option<u64>) -> Recorder {
        let agents: Vec<Box<dyn Agent<Kessel>>> =
            (0..4).map(|_| Box::new(RandomAgent) as Box<dyn Agent<Kessel>>).collect();
        Recorder {
            config: env::GameConfig::<Kessel>::with_players(4),
            next: 0,
            games,
            table: AgentTable::new(agents, rows),
            row_game: vec![0; rows],
            actions: vec![Vec::new(); games as usize],
            started: 0,
            finished: 0,
            sabotage,
        }
    }
}

impl Controller<Kessel> for Recorder {
    type Error = AgentError;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<Kessel>>, AgentError> {
        if self.next >= self.games {
            return Ok(None);
        }
        let g = self.next;
        self.next += 1;
        self.row_game[row] = g;
        // The seeds `play_game` uses, so the two loops can be compared.
        let seeds: Vec<u64> = (0..4).map(|i| env::seed::derive(1000 + g, 100 + i)).collect();
        self.table.seat(row, &[0, 1, 2, 3], &seeds);
        Ok(Some(GameStart::deal(self.config, 1000 + g)))
    }

    fn started(&mut self, _row: usize, _state: &games::kessel::State) -> Result<(), AgentError> {
        self.started += 1;
        Ok(())
    }

    fn decide(&mut self, pending: &[Pending<'_, Kessel>], actions: &mut [usize]) -> Result<(), AgentError> {
        self.table.decide(pending, actions).map_err(|e| e.error)?;
        for (p, a) in pending.iter().zip(actions.iter_mut()) {
            if Some(self.row_game[p.row]) == self.sabotage && self.actions[self.row_game[p.row] as usize].is_empty() {
                // The first index the mask does not hold.
                *a = (0..48).find(|&i| !p.mask.contains_index(i)).expect("some action is illegal");
            }
        }
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_, Kessel>) -> Result<(), AgentError> {
        self.actions[self.row_game[e.row] as usize].push((e.seat, e.action));
        Ok(())
    }

    fn finished(&mut self, _f: &Finished<'_, Kessel>) -> Result<(), AgentError> {
        self.finished += 1;
        Ok(())
    }
}

#[test]
fn every_row_exhausts_and_each_game_matches_a_single_game() {
    for rows in [1, 3, 8] {
        let mut rec = Recorder::new(7, rows, None);
        Driver::new(rows).run(&mut rec).unwrap();
        assert_eq!((rec.started, rec.finished), (7, 7), "rows {rows}");
        for g in 0..7u64 {
            let mut agents: Vec<Box<dyn Agent<Kessel>>> =
                (0..4).map(|_| Box::new(RandomAgent) as Box<dyn Agent<Kessel>>).collect();
            let single = play_game(&env::GameConfig::<Kessel>::with_players(4), &mut agents, 1000 + g).unwrap();
            assert_eq!(rec.actions[g as usize], single.actions, "game {g} with {rows} rows");
        }
    }
}

#[test]
fn an_illegal_choice_is_an_error_naming_row_and_seat_and_applies_nothing() {
    let rows = 4;
    let mut rec = Recorder::new(6, rows, Some(2));
    let mut driver = Driver::new(rows);
    let err = driver.run(&mut rec).unwrap_err();
    match err {
        DriverError::Illegal { row, seat, .. } => {
            assert_eq!(row, 2, "game 2 starts in row 2");
            assert_eq!(Some(seat), driver.state(row).and_then(|s| s.current_player()));
        }
        other => panic!("expected an illegal-action error, got {other}"),
    }
    // Nothing of the refused step was applied, in any row: every game is still at its deal.
    assert!(rec.actions.iter().all(|a| a.is_empty()));
    for row in 0..rows {
        assert_eq!(driver.state(row).map(|s| s.round()), Some(1));
    }
}

/// An agent that cannot decide.
struct Broken;

impl Agent<Kessel> for Broken {
    fn name(&self) -> &str {
        "broken"
    }
    fn act(&mut self, _view: &PlayerView, _legal: ActionMask, _rng: &mut AgentRng) -> Result<Action, AgentError> {
        Err(AgentError::new("broken", "inference failed"))
    }
}

#[test]
fn a_failing_agent_is_reported_with_its_seat_not_replaced() {
    let mut agents: Vec<Box<dyn Agent<Kessel>>> =
        vec![Box::new(RandomAgent), Box::new(RandomAgent), Box::new(Broken), Box::new(RandomAgent)];
    let err = play_game(&env::GameConfig::<Kessel>::with_players(4), &mut agents, 5).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("broken") && text.contains("inference failed"), "{text}");
    assert_eq!(agents.len(), 4, "the agents are handed back");
}
