//! The accept loop: HTTP/1 connections served with the limits a public server needs and
//! `axum::serve` does not set. A connection past the server's cap or its client's is answered
//! at once (503 or 429, with a JSON message) and closed; each one admitted gets a header timeout
//! (hyper's), an idle timeout ([`crate::idle`]) and the router, which adds the body timeout
//! and the limits per request. Stopping lets the requests in flight finish.

use crate::app::AppState;
use crate::idle::IdleTimeout;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How long a refused connection's request is read (so the answer is not lost to a reset)
/// before the answer is written and the connection closed.
const REFUSAL_READ: Duration = Duration::from_millis(200);
/// How long requests in flight may take to finish once the server is told to stop.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Open connections, in all and by client.
#[derive(Default)]
struct Open {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// The open-connection counts, shared by the loop and every connection's [`Admitted`].
#[derive(Clone, Default)]
struct Counts(Arc<Mutex<Open>>);

/// One admitted connection: counted until dropped.
struct Admitted {
    counts: Counts,
    client: IpAddr,
}

/// Why a connection was refused.
enum Refusal {
    ServerFull(usize),
    ClientFull(usize),
}

impl Counts {
    /// Counts a new connection from `client`, or says which cap it would pass.
    fn admit(&self, client: IpAddr, cap: usize, per_client: usize) -> Result<Admitted, Refusal> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if open.total >= cap {
            return Err(Refusal::ServerFull(cap));
        }
        let mine = open.by_client.entry(client).or_insert(0);
        if *mine >= per_client {
            return Err(Refusal::ClientFull(per_client));
        }
        *mine += 1;
        open.total += 1;
        Ok(Admitted { counts: self.clone(), client })
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.counts.0.lock().unwrap_or_else(|e| e.into_inner());
        open.total -= 1;
        if let Some(n) = open.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.by_client.remove(&self.client);
            }
        }
    }
}

impl Refusal {
    /// The whole HTTP answer: status, `Retry-After`, and the JSON body every error has.
    fn answer(&self) -> Vec<u8> {
        let (status, kind, message) = match self {
            Refusal::ServerFull(cap) => (
                "503 Service Unavailable",
                "too-many-connections",
                format!("the server has {cap} connections open (its cap); try again shortly"),
            ),
            Refusal::ClientFull(cap) => (
                "429 Too Many Requests",
                "too-many-client-connections",
                format!(
                    "this address has {cap} connections open (the limit per client); close some, or reuse one (keep-alive)"
                ),
            ),
        };
        let body = serde_json::json!({ "error": kind, "message": message }).to_string();
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }
}

/// Answers a refused connection and closes it, within a bounded time.
async fn refuse(mut stream: TcpStream, refusal: Refusal) {
    let mut request = [0u8; 2048];
    let _ = tokio::time::timeout(REFUSAL_READ, stream.read(&mut request)).await;
    let _ = tokio::time::timeout(REFUSAL_READ, stream.write_all(&refusal.answer())).await;
    let _ = stream.shutdown().await;
}

/// Serves `app` on `listener` until `shutdown` completes (see the module documentation).
pub async fn accept_loop(
    listener: TcpListener,
    app: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let settings = app.settings().clone();
    let router = crate::routes::router(app);
    let counts = Counts::default();
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(settings.header_timeout).keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                // Out of file descriptors and the like: wait a little rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let admitted = match counts.admit(peer.ip(), settings.max_connections, settings.max_connections_per_client) {
            Ok(a) => a,
            Err(refusal) => {
                tokio::spawn(refuse(stream, refusal));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(IdleTimeout::new(stream, settings.connection_idle_timeout));
        let service = Connection { router: router.clone(), peer };
        let conn = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            let _ = conn.await;
            drop(admitted);
        });
    }
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
    Ok(())
}

/// The router for one connection: every request learns its peer's address, which the limits
/// per client key on.
#[derive(Clone)]
struct Connection {
    router: axum::Router,
    peer: SocketAddr,
}

impl hyper::service::Service<hyper::Request<Incoming>> for Connection {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = axum::routing::future::RouteFuture<std::convert::Infallible>;

    fn call(&self, mut request: hyper::Request<Incoming>) -> Self::Future {
        request.extensions_mut().insert(axum::extract::ConnectInfo(self.peer));
        let mut router = self.router.clone();
        tower_service::Service::call(&mut router, request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_capped_in_all_and_per_client_and_freed_when_closed() {
        let counts = Counts::default();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = counts.admit(a, 3, 2).ok().expect("room");
        let _second = counts.admit(a, 3, 2).ok().expect("room");
        assert!(matches!(counts.admit(a, 3, 2), Err(Refusal::ClientFull(2))));
        let _third = counts.admit(b, 3, 2).ok().expect("another client has its own share");
        assert!(matches!(counts.admit(b, 3, 2), Err(Refusal::ServerFull(3))));
        drop(first);
        counts.admit(a, 3, 2).ok().expect("a closed connection frees its place");
        let answer = String::from_utf8(Refusal::ClientFull(2).answer()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 429 "), "{answer}");
        let body = answer.split("\r\n\r\n").nth(1).unwrap();
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"], "too-many-client-connections");
        assert!(answer.contains(&format!("content-length: {}\r\n", body.len())));
    }
}
