//! A minimal TensorBoard event-file writer (scalars only) and a verifying reader.
//!
//! # Why this crate exists
//!
//! The training code needs to log scalar curves (losses, returns, entropy...) that TensorBoard
//! can display. The obvious dependency, `tensorboard-rs`, has been unmaintained since 2022, has
//! `unimplemented!()` methods, and pulls in `protobuf` 2.28, which is affected by
//! RUSTSEC-2024-0437. We only need scalar summaries, which take a few dozen lines: three tiny
//! protobuf messages encoded with `prost`'s derive macro (no `protoc`, no build script) and the
//! TFRecord framing, checksummed with CRC-32C from the well-kept `crc` crate.
//!
//! # File format
//!
//! An event file is a sequence of TFRecords. Each record is:
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | payload length `n`, `u64` little-endian |
//! | 4 | [masked](masked_crc32c) CRC-32C of the 8 length bytes, `u32` little-endian |
//! | `n` | payload: one protobuf-encoded `tensorflow.Event` |
//! | 4 | masked CRC-32C of the payload, `u32` little-endian |
//!
//! The first event carries `file_version = "brain.Event:2"`; every later event written here
//! carries one `Summary` with one scalar `Value`.
//!
//! ```no_run
//! let mut w = tblog::EventWriter::new("runs/exp1").unwrap();
//! w.add_scalar("loss/policy", 0.25, 1).unwrap();
//! w.flush().unwrap();
//! let scalars = tblog::read_scalars(w.path()).unwrap();
//! assert_eq!(scalars[0], ("loss/policy".to_string(), 1, 0.25));
//! ```

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crc::{CRC_32_ISCSI, Crc};
use prost::Message;

/// The `file_version` string TensorBoard expects in the first event of a file.
pub const FILE_VERSION: &str = "brain.Event:2";

/// Hostname-like suffix of the event file names, fixed so file names stay deterministic.
pub const FILE_SUFFIX: &str = "sabacc";

/// Constant added when masking CRCs (TFRecord convention).
const MASK_DELTA: u32 = 0xa282_ead8;

/// CRC-32C (Castagnoli, a.k.a. iSCSI) as used by TFRecord framing.
const CASTAGNOLI: Crc<u32> = Crc::<u32>::new(&CRC_32_ISCSI);

/// Errors from writing or reading event files.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file system failed (create, write, flush, read).
    #[error("event file I/O error on {path}: {source}")]
    Io {
        /// File or directory involved.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: io::Error,
    },
    /// The file ends in the middle of a record (e.g. the writer crashed mid-write).
    #[error("truncated record at byte offset {offset}: needed {needed} more bytes")]
    Truncated {
        /// Byte offset of the start of the incomplete record.
        offset: u64,
        /// How many bytes were missing.
        needed: u64,
    },
    /// The checksum of a record's length header does not match.
    #[error("length CRC mismatch in record at byte offset {offset}: stored {stored:#010x}, computed {computed:#010x}")]
    LengthCrc {
        /// Byte offset of the record.
        offset: u64,
        /// Masked CRC stored in the file.
        stored: u32,
        /// Masked CRC computed from the bytes read.
        computed: u32,
    },
    /// The checksum of a record's payload does not match.
    #[error("data CRC mismatch in record at byte offset {offset}: stored {stored:#010x}, computed {computed:#010x}")]
    DataCrc {
        /// Byte offset of the record.
        offset: u64,
        /// Masked CRC stored in the file.
        stored: u32,
        /// Masked CRC computed from the bytes read.
        computed: u32,
    },
    /// A record's payload length is implausibly large (corrupt header that passed its CRC).
    #[error("record at byte offset {offset} declares an implausible length {length}")]
    Length {
        /// Byte offset of the record.
        offset: u64,
        /// Declared payload length.
        length: u64,
    },
    /// A record's payload is not a valid `Event` protobuf.
    #[error("record at byte offset {offset} is not a valid Event: {source}")]
    Decode {
        /// Byte offset of the record.
        offset: u64,
        /// Underlying decode error.
        #[source]
        source: prost::DecodeError,
    },
}

/// Result alias for this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Protobuf messages, a subset of TensorFlow's `event.proto` / `summary.proto`.
///
/// Field numbers match TensorFlow's so TensorBoard can read the files. Fields that are part of
/// a `oneof` upstream are modelled as `optional` here: the wire encoding is identical, and it
/// guarantees that a value of `0.0` is still written (a plain proto3 scalar equal to its default
/// would be omitted, and TensorBoard would then see no value at all).
pub mod proto {
    /// `tensorflow.Event`: one record of an event file.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Event {
        /// Seconds since the Unix epoch when the event was written.
        #[prost(double, tag = "1")]
        pub wall_time: f64,
        /// Global training step the event refers to.
        #[prost(int64, tag = "2")]
        pub step: i64,
        /// Only in the first event of a file: the format version (`brain.Event:2`).
        #[prost(string, optional, tag = "3")]
        pub file_version: Option<String>,
        /// A batch of summary values.
        #[prost(message, optional, tag = "5")]
        pub summary: Option<Summary>,
    }

    /// `tensorflow.Summary`: a list of tagged values.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Summary {
        /// The values of this summary.
        #[prost(message, repeated, tag = "1")]
        pub value: Vec<Value>,
    }

    /// `tensorflow.Summary.Value`: one tagged value (only scalars are supported here).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Value {
        /// Name of the curve, e.g. `loss/value`.
        #[prost(string, tag = "1")]
        pub tag: String,
        /// The scalar value.
        #[prost(float, optional, tag = "2")]
        pub simple_value: Option<f32>,
    }
}

/// CRC-32C (Castagnoli) of `data`, as used by TFRecord framing.
pub fn crc32c(data: &[u8]) -> u32 {
    CASTAGNOLI.checksum(data)
}

/// Masks a CRC the way TFRecord does, so that CRCs of data containing CRCs stay well-behaved.
pub fn mask_crc(crc: u32) -> u32 {
    crc.rotate_right(15).wrapping_add(MASK_DELTA)
}

/// Masked CRC-32C of `data`: what TFRecord stores after the length and after the payload.
pub fn masked_crc32c(data: &[u8]) -> u32 {
    mask_crc(crc32c(data))
}

/// Frames one payload as a TFRecord (length, length CRC, data, data CRC).
pub fn encode_record(data: &[u8]) -> Vec<u8> {
    let len = (data.len() as u64).to_le_bytes();
    let mut out = Vec::with_capacity(data.len() + 16);
    out.extend_from_slice(&len);
    out.extend_from_slice(&masked_crc32c(&len).to_le_bytes());
    out.extend_from_slice(data);
    out.extend_from_slice(&masked_crc32c(data).to_le_bytes());
    out
}

fn now_secs() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// Writes scalar summaries to a TensorBoard event file in a log directory.
///
/// Data is buffered; call [`EventWriter::flush`] to make it visible to TensorBoard (it is also
/// flushed, best effort, when the writer is dropped).
pub struct EventWriter {
    path: PathBuf,
    out: BufWriter<File>,
}

impl EventWriter {
    /// Creates `log_dir` if needed and a new event file
    /// `events.out.tfevents.<unix_secs>.sabacc` in it (with a `.N` suffix if that name is
    /// taken), then writes the file-version record.
    pub fn new(log_dir: impl AsRef<Path>) -> Result<Self> {
        let dir = log_dir.as_ref();
        std::fs::create_dir_all(dir).map_err(|source| Error::Io { path: dir.to_path_buf(), source })?;
        let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let base = format!("events.out.tfevents.{secs}.{FILE_SUFFIX}");
        let mut n = 0u32;
        let (path, file) = loop {
            let name = if n == 0 { base.clone() } else { format!("{base}.{n}") };
            let path = dir.join(name);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(f) => break (path, f),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 10_000 => n += 1,
                Err(source) => return Err(Error::Io { path, source }),
            }
        };
        let mut writer = Self { path, out: BufWriter::new(file) };
        writer.write_event(&proto::Event {
            wall_time: now_secs(),
            step: 0,
            file_version: Some(FILE_VERSION.to_string()),
            summary: None,
        })?;
        writer.flush()?;
        Ok(writer)
    }

    /// Path of the event file being written (what [`read_scalars`] takes).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one scalar point `value` at `step` to the curve named `tag`.
    pub fn add_scalar(&mut self, tag: &str, value: f32, step: i64) -> Result<()> {
        self.write_event(&proto::Event {
            wall_time: now_secs(),
            step,
            file_version: None,
            summary: Some(proto::Summary {
                value: vec![proto::Value { tag: tag.to_string(), simple_value: Some(value) }],
            }),
        })
    }

    /// Appends an arbitrary event (escape hatch for callers needing custom wall times).
    pub fn write_event(&mut self, event: &proto::Event) -> Result<()> {
        let record = encode_record(&event.encode_to_vec());
        self.out.write_all(&record).map_err(|source| Error::Io { path: self.path.clone(), source })
    }

    /// Pushes buffered records to the operating system so TensorBoard sees them.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(|source| Error::Io { path: self.path.clone(), source })
    }
}

impl Drop for EventWriter {
    fn drop(&mut self) {
        // Best effort: errors cannot be reported from drop; call `flush` to observe them.
        let _ = self.out.flush();
    }
}

/// Upper bound on a record's payload, to reject corrupt lengths before allocating.
const MAX_RECORD_LEN: u64 = 1 << 30;

/// Reads every record payload of an event file, verifying both CRCs of each record.
pub fn read_records(path: impl AsRef<Path>) -> Result<Vec<Vec<u8>>> {
    let path = path.as_ref();
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
    parse_records(&bytes)
}

/// Splits an in-memory event file into record payloads, verifying both CRCs of each record.
pub fn parse_records(bytes: &[u8]) -> Result<Vec<Vec<u8>>> {
    let mut records = Vec::new();
    let mut pos = 0usize;
    let total = bytes.len();
    while pos < total {
        let offset = pos as u64;
        let take = |from: usize, n: usize| -> Result<&[u8]> {
            bytes
                .get(from..from + n)
                .ok_or_else(|| Error::Truncated { offset, needed: (from + n).saturating_sub(total) as u64 })
        };
        let len_bytes = take(pos, 8)?;
        let stored = u32::from_le_bytes(take(pos + 8, 4)?.try_into().expect("4 bytes"));
        let computed = masked_crc32c(len_bytes);
        if stored != computed {
            return Err(Error::LengthCrc { offset, stored, computed });
        }
        let length = u64::from_le_bytes(len_bytes.try_into().expect("8 bytes"));
        if length > MAX_RECORD_LEN {
            return Err(Error::Length { offset, length });
        }
        let n = length as usize;
        let data = take(pos + 12, n)?;
        let stored = u32::from_le_bytes(take(pos + 12 + n, 4)?.try_into().expect("4 bytes"));
        let computed = masked_crc32c(data);
        if stored != computed {
            return Err(Error::DataCrc { offset, stored, computed });
        }
        records.push(data.to_vec());
        pos += 16 + n;
    }
    Ok(records)
}

/// Reads and decodes every event of an event file (CRCs verified).
pub fn read_events(path: impl AsRef<Path>) -> Result<Vec<proto::Event>> {
    let mut offset = 0u64;
    read_records(path)?
        .into_iter()
        .map(|data| {
            let at = offset;
            offset += data.len() as u64 + 16;
            proto::Event::decode(data.as_slice()).map_err(|source| Error::Decode { offset: at, source })
        })
        .collect()
}

/// Reads every scalar of an event file as `(tag, step, value)`, in file order.
///
/// Verifies every record's CRCs; events without scalar values (such as the file-version
/// record) are skipped.
pub fn read_scalars(path: impl AsRef<Path>) -> Result<Vec<(String, i64, f32)>> {
    let mut out = Vec::new();
    for event in read_events(path)? {
        if let Some(summary) = event.summary {
            for value in summary.value {
                if let Some(v) = value.simple_value {
                    out.push((value.tag, event.step, v));
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_known_vector() {
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(crc32c(b""), 0);
    }

    #[test]
    // The test spells out the TFRecord definition literally, on purpose.
    #[allow(clippy::manual_rotate)]
    fn masking_matches_definition() {
        for crc in [0u32, 1, 0xE306_9283, 0xFFFF_FFFF, 0x8000_0000, 0x1234_5678] {
            let expected = ((crc >> 15) | (crc << 17)).wrapping_add(0xa282_ead8);
            assert_eq!(mask_crc(crc), expected, "crc {crc:#x}");
        }
        // Hand-computed: rotr(0xE3069283, 15) = 0x2507C60D; + 0xA282EAD8 = 0xC78AB0E5.
        assert_eq!(mask_crc(0xE306_9283), 0xC78A_B0E5);
        assert_eq!(mask_crc(0), 0xa282_ead8);
    }

    #[test]
    fn record_framing_layout() {
        let rec = encode_record(b"abc");
        assert_eq!(rec.len(), 3 + 16);
        assert_eq!(&rec[..8], &3u64.to_le_bytes());
        assert_eq!(&rec[12..15], b"abc");
        assert_eq!(parse_records(&rec).unwrap(), vec![b"abc".to_vec()]);
    }

    #[test]
    fn scalar_event_encodes_zero_value() {
        // A zero scalar must still be on the wire (oneof semantics upstream).
        let v = proto::Value { tag: "t".into(), simple_value: Some(0.0) };
        let bytes = v.encode_to_vec();
        // tag field (0x0a len 1 't') + float field 2 (0x15 + 4 bytes).
        assert_eq!(bytes, vec![0x0a, 0x01, b't', 0x15, 0, 0, 0, 0]);
    }
}
