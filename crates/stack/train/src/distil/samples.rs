//! The sample file of `sabacc distil collect`: what a search teacher scored at each position it
//! searched. Collection is long, so the file grows in whole chunks of games and a stopped
//! collection resumes after its last complete chunk; a torn chunk at the end (a killed process)
//! is cut off, never read.
//!
//! Layout: one line of JSON ([`SamplesHeader`]), then chunks. A chunk is the magic `CHNK`, its
//! index and its sample count (`u32` little-endian each), then the samples: the observation
//! (`obs_len` `f32`s), the legal and the searched action masks (`u64` each), the action the
//! teacher played (`u32`), and its mean score of each action (`num_actions` `f32`s, 0 where not
//! searched). The observation is
//! stored, not the position, so a file is tied to one observation version (checked on reading).

use env::EnvSpec;

/// A one-word mask of any game's actions (the file holds games of up to 64 actions).
pub type WordMask = game::ActionMask<()>;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

const FORMAT: &str = "sabacc-distil-samples";
const VERSION: u32 = 2;
const MAGIC: [u8; 4] = *b"CHNK";

/// What a sample file holds and how it was made; a resumed collection must match it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplesHeader {
    /// Always `sabacc-distil-samples`.
    pub format: String,
    /// Layout version.
    pub version: u32,
    /// The teacher's agent spec.
    pub teacher: String,
    /// Seats at the table.
    pub players: u8,
    /// The other seats' agents (empty: the teacher plays every seat).
    #[serde(default)]
    pub opponents: Vec<String>,
    /// Base seed of the games.
    pub seed: u64,
    /// Games per chunk.
    pub chunk_games: u64,
    /// The environment the observations are of (files written before there was a choice of
    /// game hold Kessel Sabacc's).
    #[serde(default = "default_env_id", skip_serializing_if = "is_default_env_id")]
    pub env_id: String,
    /// Observation layout version of the stored observations.
    pub obs_version: u32,
    /// Floats per observation.
    pub obs_len: usize,
    /// Actions per mask and per score row.
    pub num_actions: usize,
}

fn default_env_id() -> String {
    games::GameId::default().spec().id.to_string()
}

/// Kessel's files leave the id out and so read as they always have.
fn is_default_env_id(id: &str) -> bool {
    id == games::GameId::default().spec().id
}

impl SamplesHeader {
    /// A header for the observation layout of environment `spec`.
    pub fn new(
        spec: EnvSpec,
        teacher: &str,
        opponents: &[String],
        players: u8,
        seed: u64,
        chunk_games: u64,
    ) -> SamplesHeader {
        SamplesHeader {
            env_id: spec.id.to_string(),
            format: FORMAT.into(),
            version: VERSION,
            teacher: teacher.into(),
            players,
            opponents: opponents.to_vec(),
            seed,
            chunk_games,
            obs_version: spec.obs_version,
            obs_len: spec.obs_len,
            num_actions: spec.num_actions,
        }
    }

    /// The environment spec the header's observations are of, for reading its file back.
    pub fn spec(&self) -> EnvSpec {
        games::GameId::from_env_id(&self.env_id).map_or(
            EnvSpec {
                game: "",
                id: "",
                obs_version: self.obs_version,
                obs_len: self.obs_len,
                num_actions: self.num_actions,
                max_players: game::MAX_PLAYERS,
            },
            |g| g.spec(),
        )
    }

    fn record_bytes(&self) -> usize {
        4 * self.obs_len + 20 + 4 * self.num_actions
    }
}

/// One searched position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The searching seat's observation.
    pub obs: Vec<f32>,
    /// The legal actions.
    pub legal: WordMask,
    /// The actions the teacher searched (a subset of `legal`: guided search prunes).
    pub searched: WordMask,
    /// The index of the action the teacher played (one of `searched`). Stored, not recomputed
    /// from `values`: the search breaks near-ties on its exact totals, which the rounded means
    /// cannot reproduce.
    pub played: usize,
    /// Mean round-end score of each searched action (0 elsewhere), in action-index order.
    pub values: Vec<f32>,
}

/// Why a sample file cannot be used.
#[derive(Debug, Error)]
pub enum SamplesError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Not a sample file of this layout, or damaged before its last chunk.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A resumed collection asked for other settings than the file was made with.
    #[error(
        "{path} was collected with other settings ({field}: the file has {found}, this command asks for {asked}); \
         use another --out file, or repeat the original settings to continue it"
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The differing setting.
        field: &'static str,
        /// The file's value.
        found: String,
        /// The requested value.
        asked: String,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SamplesError + '_ {
    move |source| SamplesError::Io { path: path.to_path_buf(), source }
}

fn format_err(path: &Path, message: impl Into<String>) -> SamplesError {
    SamplesError::Format { path: path.to_path_buf(), message: message.into() }
}

/// A sample file's header, its complete chunks and the byte length they end at.
pub struct SamplesFile {
    /// The header.
    pub header: SamplesHeader,
    /// Samples of each complete chunk, in chunk order.
    pub chunks: Vec<Vec<Sample>>,
    /// Where the last complete chunk ends (a torn tail starts here).
    end: u64,
}

impl SamplesFile {
    /// All samples, in chunk order.
    pub fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.chunks.iter().flatten()
    }
}

/// Reads a sample file, ignoring a torn chunk at its end.
pub fn read(path: &Path, spec: EnvSpec) -> Result<SamplesFile, SamplesError> {
    let file = File::open(path).map_err(io(path))?;
    let mut r = BufReader::new(file);
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        if r.read(&mut byte).map_err(io(path))? == 0 {
            return Err(format_err(path, "not a sample file: no header line"));
        }
        if byte[0] == b'\n' {
            break;
        }
        line.push(byte[0]);
        if line.len() > 64 * 1024 {
            return Err(format_err(path, "not a sample file: the header line is too long"));
        }
    }
    let header: SamplesHeader = serde_json::from_slice(&line)
        .map_err(|e| format_err(path, format!("not a sample file: its header does not parse ({e})")))?;
    if header.format != FORMAT || header.version != VERSION {
        return Err(format_err(
            path,
            format!(
                "format {} version {}; this build reads {FORMAT} version {VERSION} (collect again)",
                header.format, header.version
            ),
        ));
    }
    if header.env_id != spec.id {
        return Err(format_err(path, format!("samples of `{}`, read for `{}`", header.env_id, spec.id)));
    }
    if (header.obs_version, header.obs_len, header.num_actions) != (spec.obs_version, spec.obs_len, spec.num_actions) {
        return Err(format_err(
            path,
            format!(
                "observations of layout v{} ({} floats, {} actions); this build encodes v{} ({}, {}): collect again",
                header.obs_version,
                header.obs_len,
                header.num_actions,
                spec.obs_version,
                spec.obs_len,
                spec.num_actions
            ),
        ));
    }
    let mut end = line.len() as u64 + 1;
    let mut chunks = Vec::new();
    let record = header.record_bytes();
    loop {
        let mut head = [0u8; 12];
        match read_full(&mut r, &mut head).map_err(io(path))? {
            0 => break,
            n if n < head.len() => break,
            _ => {}
        }
        if head[..4] != MAGIC {
            return Err(format_err(path, format!("damaged: no chunk starts at byte {end}")));
        }
        let index = u32::from_le_bytes(head[4..8].try_into().expect("4 bytes")) as usize;
        let count = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes")) as usize;
        if index != chunks.len() {
            return Err(format_err(path, format!("damaged: chunk {index} where chunk {} belongs", chunks.len())));
        }
        let mut body = vec![0u8; count * record];
        if read_full(&mut r, &mut body).map_err(io(path))? < body.len() {
            break;
        }
        chunks.push(
            body.chunks_exact(record)
                .map(|b| decode(&header, b))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|m| format_err(path, format!("damaged chunk {index}: {m}")))?,
        );
        end += (head.len() + body.len()) as u64;
    }
    Ok(SamplesFile { header, chunks, end })
}

fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

fn decode(h: &SamplesHeader, b: &[u8]) -> Result<Sample, String> {
    let f = |k: usize| f32::from_le_bytes(b[4 * k..4 * k + 4].try_into().expect("4 bytes"));
    let obs: Vec<f32> = (0..h.obs_len).map(f).collect();
    let at = 4 * h.obs_len;
    let legal = WordMask::from_bits(u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes")));
    let searched = WordMask::from_bits(u64::from_le_bytes(b[at + 8..at + 16].try_into().expect("8 bytes")));
    let played = u32::from_le_bytes(b[at + 16..at + 20].try_into().expect("4 bytes")) as usize;
    let values: Vec<f32> = (0..h.num_actions).map(|k| f(h.obs_len + 5 + k)).collect();
    if obs.iter().chain(&values).any(|x| !x.is_finite()) {
        return Err("a value is not finite".into());
    }
    if searched.is_empty() || searched.bits() & !legal.bits() != 0 || legal.bits() >> h.num_actions != 0 {
        return Err("its searched actions are empty or not all legal".into());
    }
    if played >= h.num_actions || !searched.contains_index(played) {
        return Err(format!("its played action {played} was not searched"));
    }
    Ok(Sample { obs, legal, searched, played, values })
}

fn encode(h: &SamplesHeader, s: &Sample, out: &mut Vec<u8>) {
    debug_assert_eq!((s.obs.len(), s.values.len()), (h.obs_len, h.num_actions));
    for x in &s.obs {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&s.legal.bits().to_le_bytes());
    out.extend_from_slice(&s.searched.bits().to_le_bytes());
    out.extend_from_slice(&(s.played as u32).to_le_bytes());
    for x in &s.values {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// Appends chunks to a sample file.
pub struct SamplesWriter {
    path: PathBuf,
    header: SamplesHeader,
    out: BufWriter<File>,
    next: usize,
}

impl SamplesWriter {
    /// Opens `path` to collect under `header`: a new file, or an existing one with the same
    /// header, continued after its last complete chunk. Returns the writer and the samples
    /// already there.
    pub fn open(path: &Path, header: SamplesHeader) -> Result<(SamplesWriter, Vec<Vec<Sample>>), SamplesError> {
        if path.exists() {
            let existing = read(path, header.spec())?;
            check_same(path, &existing.header, &header)?;
            let file = OpenOptions::new().write(true).open(path).map_err(io(path))?;
            file.set_len(existing.end).map_err(io(path))?;
            let mut out = BufWriter::new(file);
            out.seek(SeekFrom::End(0)).map_err(io(path))?;
            let next = existing.chunks.len();
            return Ok((SamplesWriter { path: path.to_path_buf(), header, out, next }, existing.chunks));
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        let file = File::create(path).map_err(io(path))?;
        let mut out = BufWriter::new(file);
        let line = serde_json::to_string(&header).expect("a header serialises");
        writeln!(out, "{line}").map_err(io(path))?;
        out.flush().map_err(io(path))?;
        Ok((SamplesWriter { path: path.to_path_buf(), header, out, next: 0 }, Vec::new()))
    }

    /// Chunks already in the file.
    pub fn chunks(&self) -> usize {
        self.next
    }

    /// Appends one chunk and flushes it to the file.
    pub fn append(&mut self, samples: &[Sample]) -> Result<(), SamplesError> {
        let mut buf = Vec::with_capacity(12 + samples.len() * self.header.record_bytes());
        buf.extend_from_slice(&MAGIC);
        buf.extend_from_slice(&(self.next as u32).to_le_bytes());
        buf.extend_from_slice(&(samples.len() as u32).to_le_bytes());
        for s in samples {
            encode(&self.header, s, &mut buf);
        }
        self.out.write_all(&buf).map_err(io(&self.path))?;
        self.out.flush().map_err(io(&self.path))?;
        self.out.get_ref().sync_data().map_err(io(&self.path))?;
        self.next += 1;
        Ok(())
    }
}

fn check_same(path: &Path, found: &SamplesHeader, asked: &SamplesHeader) -> Result<(), SamplesError> {
    let differs = |field: &'static str, f: String, a: String| {
        (f != a).then(|| SamplesError::Mismatch { path: path.to_path_buf(), field, found: f, asked: a })
    };
    let first = differs("teacher", found.teacher.clone(), asked.teacher.clone())
        .or_else(|| differs("players", found.players.to_string(), asked.players.to_string()))
        .or_else(|| differs("opponents", found.opponents.join(","), asked.opponents.join(",")))
        .or_else(|| differs("seed", found.seed.to_string(), asked.seed.to_string()))
        .or_else(|| differs("chunk games", found.chunk_games.to_string(), asked.chunk_games.to_string()));
    first.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use env::Game;

    const KESSEL: EnvSpec = games::kessel::Kessel::SPEC;

    fn sample(k: f32) -> Sample {
        let spec = games::kessel::Kessel::SPEC;
        let mut values = vec![0.0; spec.num_actions];
        values[3] = 0.25 + k;
        values[5] = 0.5;
        Sample {
            obs: (0..spec.obs_len).map(|i| i as f32 * 0.5 + k).collect(),
            legal: WordMask::from_bits(0b111000),
            searched: WordMask::from_bits(0b101000),
            played: 5,
            values,
        }
    }

    #[test]
    fn chunks_round_trip_and_a_resume_continues_after_the_last_whole_chunk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.samples");
        let header = SamplesHeader::new(KESSEL, "search:8", &[], 4, 7, 24);
        let (mut w, old) = SamplesWriter::open(&path, header.clone()).unwrap();
        assert!(old.is_empty());
        w.append(&[sample(0.0), sample(0.125)]).unwrap();
        w.append(&[]).unwrap();
        w.append(&[sample(0.25)]).unwrap();
        drop(w);
        // A killed process leaves half a chunk behind: it is cut off on reading and on resuming.
        let whole = std::fs::metadata(&path).unwrap().len();
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"CHNK\x03\x00\x00\x00\x02\x00\x00\x00partial").unwrap();
        drop(f);
        let read_back = read(&path, KESSEL).unwrap();
        assert_eq!(read_back.chunks, vec![vec![sample(0.0), sample(0.125)], vec![], vec![sample(0.25)]]);
        let (mut w, old) = SamplesWriter::open(&path, header.clone()).unwrap();
        assert_eq!((old.len(), w.chunks()), (3, 3));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole);
        w.append(&[sample(0.5)]).unwrap();
        drop(w);
        let all: Vec<Sample> = read(&path, KESSEL).unwrap().samples().cloned().collect();
        assert_eq!(all, vec![sample(0.0), sample(0.125), sample(0.25), sample(0.5)]);
    }

    #[test]
    fn a_resume_with_other_settings_is_refused_and_names_the_setting() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.samples");
        SamplesWriter::open(&path, SamplesHeader::new(KESSEL, "search:8", &[], 4, 7, 24)).unwrap();
        let err = SamplesWriter::open(&path, SamplesHeader::new(KESSEL, "search:8", &[], 2, 7, 24)).err().unwrap();
        assert!(err.to_string().contains("players: the file has 4, this command asks for 2"), "{err}");
    }

    #[test]
    fn damaged_or_foreign_files_are_errors_not_panics() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.samples");
        let header = SamplesHeader::new(KESSEL, "search:8", &[], 2, 1, 2);
        let (mut w, _) = SamplesWriter::open(&path, header).unwrap();
        w.append(&[sample(0.0)]).unwrap();
        drop(w);
        let good = std::fs::read(&path).unwrap();
        let header_end = good.iter().position(|&b| b == b'\n').unwrap() + 1;
        // Every single-byte corruption and every truncation reads as an error or as fewer
        // chunks, never as a panic.
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..300 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mut bytes = good.clone();
            let at = (rng >> 33) as usize % bytes.len();
            bytes[at] ^= 1 << ((rng >> 20) % 8);
            std::fs::write(&path, &bytes).unwrap();
            let _ = read(&path, KESSEL);
            std::fs::write(&path, &good[..at]).unwrap();
            if let Ok(f) = read(&path, KESSEL) {
                assert!(f.chunks.is_empty(), "a truncated file kept a torn chunk");
            }
        }
        std::fs::write(&path, b"{\"format\":\"something else\"}\n").unwrap();
        assert!(read(&path, KESSEL).is_err());
        std::fs::write(&path, &good[header_end..]).unwrap();
        assert!(read(&path, KESSEL).err().unwrap().to_string().contains("not a sample file"));
        let mut bad = good.clone();
        bad[header_end] = b'X';
        std::fs::write(&path, &bad).unwrap();
        assert!(read(&path, KESSEL).err().unwrap().to_string().contains("no chunk starts"));
        // A file of the first layout (no played action) is refused with what to do.
        let old = String::from_utf8(good[..header_end].to_vec()).unwrap().replace("\"version\":2", "\"version\":1");
        std::fs::write(&path, [old.as_bytes(), &good[header_end..]].concat()).unwrap();
        let e = read(&path, KESSEL).err().unwrap().to_string();
        assert!(e.contains("version 1; this build reads sabacc-distil-samples version 2 (collect again)"), "{e}");
        // A played action the teacher never searched is a damaged record, not a target.
        let record = header_end + 12;
        let played_at = record + 4 * KESSEL.obs_len + 16;
        assert_eq!(good[played_at], 5);
        let mut bad = good.clone();
        bad[played_at] = 4;
        std::fs::write(&path, &bad).unwrap();
        assert!(read(&path, KESSEL).err().unwrap().to_string().contains("played action 4 was not searched"));
    }
}
