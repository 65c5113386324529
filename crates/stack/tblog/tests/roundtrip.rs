//! End-to-end tests: write an event file, read it back, detect corruption.

use tblog::{Error, EventWriter, FILE_VERSION, read_events, read_scalars};

fn write_sample(dir: &std::path::Path) -> (std::path::PathBuf, Vec<(String, i64, f32)>) {
    let expected = vec![
        ("loss/policy".to_string(), 0, 0.0f32),
        ("loss/policy".to_string(), 1, -1.5),
        ("charts/return".to_string(), 1, 3.25),
        ("loss/policy".to_string(), 2, f32::MAX),
        ("tiny".to_string(), i64::MAX, 1e-30),
    ];
    let mut w = EventWriter::new(dir).unwrap();
    for (tag, step, v) in &expected {
        w.add_scalar(tag, *v, *step).unwrap();
    }
    w.flush().unwrap();
    (w.path().to_path_buf(), expected)
}

#[test]
fn scalars_round_trip_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let (path, expected) = write_sample(dir.path());
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("events.out.tfevents."), "{name}");
    assert!(name.ends_with(".sabacc"), "{name}");
    assert_eq!(read_scalars(&path).unwrap(), expected);

    let events = read_events(&path).unwrap();
    assert_eq!(events.len(), expected.len() + 1);
    assert_eq!(events[0].file_version.as_deref(), Some(FILE_VERSION));
    assert!(events[0].summary.is_none());
    assert!(events.iter().all(|e| e.wall_time > 1.0e9));
}

#[test]
fn drop_flushes() {
    let dir = tempfile::tempdir().unwrap();
    let path = {
        let mut w = EventWriter::new(dir.path().join("nested/run")).unwrap();
        w.add_scalar("a", 1.0, 7).unwrap();
        w.path().to_path_buf()
    };
    assert_eq!(read_scalars(&path).unwrap(), vec![("a".to_string(), 7, 1.0)]);
}

#[test]
fn two_writers_same_dir_get_distinct_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = EventWriter::new(dir.path()).unwrap();
    let b = EventWriter::new(dir.path()).unwrap();
    assert_ne!(a.path(), b.path());
}

#[test]
fn corrupt_payload_byte_is_a_data_crc_error() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_sample(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    // Flip one byte inside the last record's payload (4 bytes before the final CRC).
    let i = bytes.len() - 6;
    bytes[i] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    match read_scalars(&path) {
        Err(Error::DataCrc { .. }) => {}
        other => panic!("expected DataCrc error, got {other:?}"),
    }
}

#[test]
fn corrupt_length_byte_is_a_length_crc_error() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_sample(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[0] ^= 0x01; // first record's length
    std::fs::write(&path, &bytes).unwrap();
    match read_scalars(&path) {
        Err(Error::LengthCrc { offset: 0, .. }) => {}
        other => panic!("expected LengthCrc error, got {other:?}"),
    }
}

#[test]
fn truncated_file_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_sample(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    match read_scalars(&path) {
        Err(Error::Truncated { needed: 3, .. }) => {}
        other => panic!("expected Truncated error, got {other:?}"),
    }
}

#[test]
fn missing_file_is_io_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(read_scalars(dir.path().join("nope")), Err(Error::Io { .. })));
}
