//! `sabacc distil collect`: a search teacher plays every seat of arena games, and each position
//! it searched is kept with the scores it gave each action. The games are the arena's (one game
//! loop, seeded deals, every seating), played in chunks so a long collection can stop and resume.

use super::samples::{Sample, SamplesHeader, SamplesWriter};
use crate::interrupt::StopRequest;
use crate::progress_display::ProgressDisplay;
use agents::{AgentSpec, Agents};
use anyhow::{Context, Result, anyhow, bail};
use env::{Agent, AgentBuilder, AgentError, AgentRng, Game, GameAction, LegalMask};
use eval::arena::{self, ArenaConfig, SeatingPlan};
use game::ActionMask;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What to collect, at a table of game `G`.
pub struct CollectOptions<G: Game> {
    /// The teacher: `search`, `search:N` or `search:N+CHECKPOINT`.
    pub teacher: String,
    /// Seats at the table.
    pub players: u8,
    /// Agents for the other seats, one per seat (empty: the teacher plays every seat). With
    /// opponents, only the teacher's positions are kept: the samples come from the tables the
    /// student will face. An opponent whose spec is the teacher's (`search` and `search:32` are
    /// one spec) is the teacher too, and its positions are kept: `--teacher search --opponents
    /// search,search,CHECKPOINT` records how `search` plays at tables with that checkpoint.
    pub opponents: Vec<String>,
    /// Games to play in all (rounded up to whole chunks).
    pub games: u64,
    /// Games per chunk (rounded up to whole deals); the unit of resuming.
    pub chunk_games: u64,
    /// Base seed; chunk `k` plays the arena's games of seed `derive_seed(seed, k)`.
    pub seed: u64,
    /// The rules (`players` is set from [`CollectOptions::players`]).
    pub rules: G::Rules,
    /// The sample file, created or continued.
    pub out: PathBuf,
    /// Show progress.
    pub progress: bool,
    /// Ctrl-C: finish the chunk in progress, then stop.
    pub stop: Option<StopRequest>,
}

/// What a collection left in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectSummary {
    /// Complete chunks in the file.
    pub chunks: usize,
    /// Chunks this invocation added.
    pub new_chunks: usize,
    /// Samples in the file.
    pub samples: usize,
    /// Games behind them.
    pub games: u64,
    /// Seconds this invocation spent.
    pub seconds: f64,
    /// Whether a stop request ended it before the last chunk.
    pub stopped: bool,
}

/// Builds every seat whose spec is the teacher's as a recording agent, every other spec as usual.
struct Recording {
    registry: Arc<Agents>,
    teacher: AgentSpec,
    sink: Arc<Mutex<Vec<Sample>>>,
}

impl<G: Game> AgentBuilder<G> for Recording {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<G>>, String> {
        // Compare parsed specs, so another spelling of the teacher (`search` for `search:32`) is
        // recorded too.
        let search = self.registry.build::<G>(spec).map_err(|e| e.to_string())?;
        if AgentSpec::parse::<G>(spec).ok().as_ref() != Some(&self.teacher) {
            return Ok(search);
        }
        Ok(Box::new(Recorder { search, sink: Arc::clone(&self.sink) }))
    }
}

/// A search agent that keeps every position it searched, with the scores it gave.
struct Recorder<G: Game> {
    search: Box<dyn Agent<G>>,
    sink: Arc<Mutex<Vec<Sample>>>,
}

impl<G: Game> Agent<G> for Recorder<G> {
    fn name(&self) -> &str {
        self.search.name()
    }

    fn act(&mut self, view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError> {
        let (action, scores) = self.search.decide(view, legal, rng)?;
        if !scores.is_empty() {
            let mut values = vec![0.0f32; G::SPEC.num_actions];
            let mut searched = WordMask::EMPTY;
            for &(a, v) in &scores {
                values[a.index()] = v as f32;
                searched.set_index(a.index());
            }
            let mut words = [0u64; 1];
            legal.write_words(&mut words);
            let mut obs = vec![0.0; G::SPEC.obs_len];
            G::encode(view, &mut obs);
            let sample = Sample { obs, legal: WordMask::from_bits(words[0]), searched, played: action.index(), values };
            self.sink.lock().unwrap_or_else(|e| e.into_inner()).push(sample);
        }
        Ok(action)
    }
}

/// A one-word mask of any game's actions, as the sample file stores it.
type WordMask = ActionMask<()>;

/// Plays the chunks not yet in the file and appends their samples.
pub fn collect<G: Game>(opts: &CollectOptions<G>, registry: Arc<Agents>) -> Result<CollectSummary> {
    let teacher = AgentSpec::parse::<G>(&opts.teacher).map_err(|e| anyhow!("--teacher: {e}"))?;
    if !matches!(teacher, AgentSpec::Bot { name: "search", .. } | AgentSpec::GuidedSearch { .. }) {
        bail!("--teacher must be a search agent (search, search:N or search:N+CHECKPOINT), got `{teacher}`");
    }
    registry.validate::<G>(&opts.teacher).map_err(|e| anyhow!("--teacher: {e}"))?;
    if G::SPEC.mask_words() > 1 {
        bail!("{} has {} actions; sample files hold masks of at most 64", G::NAME, G::SPEC.num_actions);
    }
    if opts.games == 0 || opts.chunk_games == 0 {
        bail!("--games and --chunk-games must be at least 1");
    }
    if !opts.opponents.is_empty() && opts.opponents.len() + 1 != opts.players as usize {
        bail!(
            "--opponents names {} agents for a table of {} seats; give one per seat besides the teacher's ({})",
            opts.opponents.len(),
            opts.players,
            opts.players - 1
        );
    }
    for o in &opts.opponents {
        registry.validate::<G>(o).map_err(|e| anyhow!("--opponents: {e}"))?;
    }
    let mut rules = opts.rules;
    G::set_players(&mut rules, opts.players);
    G::new_state(&rules, 0).map_err(|e| anyhow!("rules: {e}"))?;
    let chunk_games = arena::games_played(opts.chunk_games, opts.players, SeatingPlan::Every);
    let total_chunks = opts.games.div_ceil(chunk_games) as usize;
    let header =
        SamplesHeader::new(G::SPEC, &teacher.to_string(), &opts.opponents, opts.players, opts.seed, chunk_games);
    let (mut writer, existing) = SamplesWriter::open(&opts.out, header)?;
    let mut samples: usize = existing.iter().map(Vec::len).sum();
    let done = writer.chunks();
    let sink = Arc::new(Mutex::new(Vec::new()));
    let builder = Recording { registry, teacher: teacher.clone(), sink: Arc::clone(&sink) };
    let display = Mutex::new(
        ProgressDisplay::new(opts.progress, total_chunks as u64 * chunk_games, done as u64 * chunk_games)
            .with_unit("game"),
    );
    let played = std::sync::atomic::AtomicU64::new(done as u64 * chunk_games);
    let started = Instant::now();
    let mut stopped = false;
    for chunk in done..total_chunks {
        if opts.stop.as_ref().is_some_and(|s| s.asked().is_some()) {
            stopped = true;
            break;
        }
        let cfg = ArenaConfig::<G> {
            agents: std::iter::once(teacher.to_string()).chain(opts.opponents.iter().cloned()).collect(),
            players: opts.players,
            games: chunk_games,
            seed: game::derive_seed(opts.seed, chunk as u64),
            rules,
            seating: SeatingPlan::Every,
        };
        let tick = || {
            let n = played.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            let mut d = display.lock().unwrap_or_else(|e| e.into_inner());
            d.update(n, format!("{samples} samples"));
        };
        arena::run::<G>(&cfg, &builder, &tick).with_context(|| format!("chunk {chunk}"))?;
        let mut got = std::mem::take(&mut *sink.lock().unwrap_or_else(|e| e.into_inner()));
        // Worker threads finish in any order: sort, so the file does not depend on `--threads`.
        got.sort_by_cached_key(sample_key);
        writer.append(&got)?;
        samples += got.len();
    }
    display.lock().unwrap_or_else(|e| e.into_inner()).finish();
    let chunks = writer.chunks();
    Ok(CollectSummary {
        chunks,
        new_chunks: chunks - done,
        samples,
        games: chunks as u64 * chunk_games,
        seconds: started.elapsed().as_secs_f64(),
        stopped,
    })
}

/// Every stored field, so equal keys mean equal samples and the order never depends on threads.
fn sample_key(s: &Sample) -> (Vec<u32>, u64, u64, usize, Vec<u32>) {
    let bits = |xs: &[f32]| xs.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    (bits(&s.obs), s.legal.bits(), s.searched.bits(), s.played, bits(&s.values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::kessel::{Kessel, RuleConfig};

    fn opts(out: PathBuf, games: u64) -> CollectOptions<Kessel> {
        CollectOptions {
            teacher: "search:2".into(),
            players: 2,
            opponents: Vec::new(),
            games,
            chunk_games: 4,
            seed: 5,
            rules: RuleConfig::with_players(2),
            out,
            progress: false,
            stop: None,
        }
    }

    #[test]
    fn a_collection_in_two_invocations_equals_one_and_keeps_only_searched_positions() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Arc::new(Agents::new());
        let whole = dir.path().join("whole.samples");
        let s = collect(&opts(whole.clone(), 12), Arc::clone(&registry)).unwrap();
        assert_eq!((s.chunks, s.games, s.stopped), (3, 12, false));
        assert!(s.samples > 12, "{s:?}");
        let split = dir.path().join("split.samples");
        let first = collect(&opts(split.clone(), 4), Arc::clone(&registry)).unwrap();
        assert_eq!(first.chunks, 1);
        let second = collect(&opts(split.clone(), 12), registry).unwrap();
        assert_eq!((second.chunks, second.new_chunks), (3, 2));
        assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&split).unwrap());
        for sample in super::super::samples::read(&whole, Kessel::SPEC).unwrap().samples() {
            assert!(sample.searched.count() >= 2, "a forced move was recorded");
            assert_eq!(sample.searched.bits() & !sample.legal.bits(), 0);
            for a in sample.searched.indices() {
                assert!((0.0..=1.0).contains(&sample.values[a]), "score {} out of [0, 1]", sample.values[a]);
            }
        }
    }

    #[test]
    fn with_opponents_only_the_teachers_positions_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Arc::new(Agents::new());
        let mut o = opts(dir.path().join("self.samples"), 8);
        let alone = collect(&o, Arc::clone(&registry)).unwrap();
        o.out = dir.path().join("vs.samples");
        o.opponents = vec!["expert".into()];
        let vs = collect(&o, Arc::clone(&registry)).unwrap();
        // The same deals and seatings: the teacher plays one seat instead of two.
        assert!(vs.samples * 3 < alone.samples * 2, "{} vs {}", vs.samples, alone.samples);
        assert!(vs.samples > 0);
        o.out = dir.path().join("bad.samples");
        o.opponents = vec!["expert".into(), "expert".into()];
        let err = collect(&o, Arc::clone(&registry)).err().unwrap().to_string();
        assert!(err.contains("names 2 agents for a table of 2 seats"), "{err}");
        o.opponents = vec!["wizard".into()];
        let err = collect(&o, registry).err().unwrap().to_string();
        assert!(err.contains("--opponents") && err.contains("wizard"), "{err}");
        assert!(!dir.path().join("bad.samples").exists());
    }

    #[test]
    fn an_opponent_with_the_teachers_spec_is_recorded_too() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Arc::new(Agents::new());
        let mut o = opts(dir.path().join("one.samples"), 8);
        o.players = 3;
        o.rules = RuleConfig::with_players(3);
        o.opponents = vec!["expert".into(), "expert".into()];
        let one = collect(&o, Arc::clone(&registry)).unwrap();
        // Another spelling of the teacher (`search:2`) in one opponent seat: two seats recorded.
        o.teacher = "search:2".into();
        o.opponents = vec!["expert".into(), "search:02".into()];
        o.out = dir.path().join("two.samples");
        let two = collect(&o, registry).unwrap();
        assert_eq!(one.games, two.games);
        assert!(one.samples > 0);
        assert!(two.samples * 2 > one.samples * 3, "{} vs {}", two.samples, one.samples);
    }

    #[test]
    fn a_teacher_that_does_not_search_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = opts(dir.path().join("x.samples"), 4);
        o.teacher = "expert".into();
        let err = collect(&o, Arc::new(Agents::new())).err().unwrap().to_string();
        assert!(err.contains("must be a search agent"), "{err}");
        assert!(!dir.path().join("x.samples").exists());
    }
}
