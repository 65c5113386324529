//! Connections that hold the server without asking it anything: half-sent headers, bodies that
//! never finish, idle keep-alive connections and too many connections at once. Each is closed
//! or answered within its limit, and honest requests keep being served meanwhile.

use crate::common;

use serde_json::{Value, json};
use server::Settings;
use server::client::Client;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const SHORT: Duration = Duration::from_millis(400);

fn settings() -> Settings {
    Settings {
        header_timeout: SHORT,
        body_timeout: SHORT,
        connection_idle_timeout: Duration::from_millis(800),
        ..common::settings()
    }
}

/// Everything the server sends until it closes the connection (or `within` passes, which fails
/// the test: the connection was held open).
fn read_until_closed(stream: &mut TcpStream, within: Duration) -> String {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("the server held the connection open past {within:?}: {e}"),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// The JSON body of a raw HTTP answer.
fn body_of(answer: &str) -> Value {
    serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap_or_default()).unwrap_or(Value::Null)
}

#[test]
fn half_sent_headers_are_cut_off_at_the_header_timeout() {
    let running = common::start(settings());
    let mut slow = TcpStream::connect(running.addr()).unwrap();
    slow.write_all(b"GET /api/agents HTTP/1.1\r\nhost: x\r\n").unwrap();
    let started = Instant::now();
    read_until_closed(&mut slow, Duration::from_secs(5));
    assert!(started.elapsed() >= SHORT / 2, "closed before the timeout: {:?}", started.elapsed());
    // A connection that never sends a byte is cut off the same way.
    let mut silent = TcpStream::connect(running.addr()).unwrap();
    read_until_closed(&mut silent, Duration::from_secs(5));
}

#[test]
fn a_body_that_never_finishes_is_answered_408() {
    let running = common::start(settings());
    let mut slow = TcpStream::connect(running.addr()).unwrap();
    slow.write_all(b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"seats\"")
        .unwrap();
    let answer = read_until_closed(&mut slow, Duration::from_secs(5));
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert_eq!(body_of(&answer)["error"], "body-timeout", "{answer}");
    assert!(body_of(&answer)["message"].as_str().unwrap().contains("0.4 s"), "{answer}");
}

#[test]
fn an_idle_keep_alive_connection_is_closed() {
    let running = common::start(settings());
    let mut conn = TcpStream::connect(running.addr()).unwrap();
    conn.write_all(b"GET /api/agents HTTP/1.1\r\nhost: x\r\n\r\n").unwrap();
    // The answer comes, then nothing more is asked: the connection goes at the idle timeout.
    let started = Instant::now();
    let answer = read_until_closed(&mut conn, Duration::from_secs(5));
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(started.elapsed() >= Duration::from_millis(300), "closed at once: {:?}", started.elapsed());
}

#[test]
fn connections_past_a_clients_share_are_refused_with_429_and_others_are_served() {
    let running = common::start(Settings {
        max_connections_per_client: 4,
        connection_idle_timeout: Duration::from_secs(30),
        header_timeout: Duration::from_secs(30),
        ..common::settings()
    });
    // Four connections that say nothing hold this address's share…
    let held: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(running.addr()).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(100));
    // …so a fifth is answered 429 with a message and closed.
    let mut fifth = TcpStream::connect(running.addr()).unwrap();
    fifth.write_all(b"GET /api/agents HTTP/1.1\r\nhost: x\r\n\r\n").unwrap();
    let answer = read_until_closed(&mut fifth, Duration::from_secs(5));
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert_eq!(body_of(&answer)["error"], "too-many-client-connections", "{answer}");
    // Closing them frees the share.
    drop(held);
    std::thread::sleep(Duration::from_millis(200));
    let r = Client::new(running.addr()).get("/api/agents").unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
}

#[test]
fn the_servers_connection_cap_answers_503() {
    let running = common::start(Settings { max_connections: 2, header_timeout: Duration::from_secs(30), ..settings() });
    let _held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(running.addr()).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut third = TcpStream::connect(running.addr()).unwrap();
    third.write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n").unwrap();
    let answer = read_until_closed(&mut third, Duration::from_secs(5));
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert_eq!(body_of(&answer)["error"], "too-many-connections", "{answer}");
}

#[test]
fn a_request_that_runs_out_of_time_answers_with_the_game_and_the_agents_go_on_later() {
    // No time at all: the agents of a table of agents alone do not move in the creating request,
    // which still answers with the game at once.
    let running = common::start(Settings { request_time: Duration::ZERO, ..common::settings() });
    let mut client = Client::new(running.addr());
    let created = common::create(&mut client, json!({ "seats": ["expert", "expert"] }));
    assert_eq!(created["status"], "playing", "{created}");
    let id = created["game"].as_str().unwrap();
    let r = client.get(&format!("/api/games/{id}")).unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["status"], "playing");

    // With time, the same table plays to its end in the creating request.
    let running = common::start(common::settings());
    let mut client = Client::new(running.addr());
    let created = common::create(&mut client, json!({ "seats": ["expert", "expert"] }));
    assert_ne!(created["status"], "playing", "{created}");
}

#[test]
fn a_client_that_hangs_up_stops_its_agents_work() {
    // Four searching agents take over a second to play a game; the client asks for one and
    // leaves at once.
    let running = common::start(Settings { request_time: Duration::from_secs(120), ..common::settings() });
    let body = json!({ "seats": ["search:64", "search:64", "search:64", "search:64"] }).to_string();
    let mut conn = TcpStream::connect(running.addr()).unwrap();
    write!(
        conn,
        "POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    drop(conn);
    let started = Instant::now();
    while running.app().abandoned_requests() == 0 {
        assert!(started.elapsed() < Duration::from_secs(30), "the agents played on for nobody");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(running.app().games_held(), 0, "the abandoned game was kept");
}
