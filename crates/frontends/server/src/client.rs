//! A minimal blocking HTTP/1.1 client for this API (JSON in, JSON out, one kept-alive
//! connection), for the API tests, the load bench and scripts that need no HTTP library.
//! It speaks only what the server answers: `Content-Length` bodies, no chunking, no TLS.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::Duration;

/// One response.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The HTTP status code.
    pub status: u16,
    /// The body as text.
    pub text: String,
}

impl Reply {
    /// The body parsed as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

/// A connection to the server, reopened when the server closes it.
pub struct Client {
    addr: SocketAddr,
    conn: Option<BufReader<TcpStream>>,
    token: Option<String>,
    local: Option<IpAddr>,
}

impl Client {
    /// A client of the server at `addr` (connects on first use).
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, conn: None, token: None, local: None }
    }

    /// The same client connecting from the local address `ip` (on loopback any of
    /// `127.0.0.0/8`): the server's limits per client tell such clients apart, which lets one
    /// machine play many clients (the soak's players and attackers).
    pub fn from_ip(mut self, ip: IpAddr) -> Client {
        self.local = Some(ip);
        self
    }

    /// Sends `token` (a seat's secret) as `Authorization: Bearer` with every later request;
    /// `None` sends none (a spectator).
    pub fn set_token(&mut self, token: Option<&str>) {
        self.token = token.map(str::to_string);
    }

    /// `GET path`.
    pub fn get(&mut self, path: &str) -> std::io::Result<Reply> {
        self.send("GET", path, None)
    }

    /// `POST path` with a JSON body.
    pub fn post(&mut self, path: &str, body: &Value) -> std::io::Result<Reply> {
        self.send("POST", path, Some(body.to_string().as_bytes()))
    }

    /// `POST path` with raw bytes (for malformed-input tests).
    pub fn post_raw(&mut self, path: &str, body: &[u8]) -> std::io::Result<Reply> {
        self.send("POST", path, Some(body))
    }

    /// Sends one request, retrying once on a fresh connection if a kept-alive one was closed.
    pub fn send(&mut self, method: &str, path: &str, body: Option<&[u8]>) -> std::io::Result<Reply> {
        let reused = self.conn.is_some();
        match self.try_send(method, path, body) {
            Ok(r) => Ok(r),
            Err(_) if reused => {
                self.conn = None;
                self.try_send(method, path, body)
            }
            Err(e) => Err(e),
        }
    }

    fn try_send(&mut self, method: &str, path: &str, body: Option<&[u8]>) -> std::io::Result<Reply> {
        if self.conn.is_none() {
            let stream = connect(self.addr, self.local)?;
            stream.set_nodelay(true)?;
            stream.set_read_timeout(Some(Duration::from_secs(120)))?;
            self.conn = Some(BufReader::new(stream));
        }
        let conn = self.conn.as_mut().expect("connected above");
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if let Some(t) = &self.token {
            head.push_str(&format!("Authorization: Bearer {t}\r\n"));
        }
        if let Some(b) = body {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", b.len()));
        }
        head.push_str("\r\n");
        let stream = conn.get_mut();
        stream.write_all(head.as_bytes())?;
        if let Some(b) = body {
            stream.write_all(b)?;
        }
        stream.flush()?;
        let mut line = String::new();
        if conn.read_line(&mut line)? == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "connection closed"));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line `{}`", line.trim())))?;
        let mut length = 0usize;
        let mut close = false;
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let h = line.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((name, value)) = h.split_once(':') {
                let name = name.trim().to_ascii_lowercase();
                if name == "content-length" {
                    length = value.trim().parse().map_err(|_| std::io::Error::other("bad content-length"))?;
                } else if name == "connection" && value.trim().eq_ignore_ascii_case("close") {
                    close = true;
                }
            }
        }
        let mut buf = vec![0u8; length];
        conn.read_exact(&mut buf)?;
        if close {
            self.conn = None;
        }
        Ok(Reply { status, text: String::from_utf8_lossy(&buf).into_owned() })
    }
}

/// A connection to `addr`, from the local address `local` when one is given.
pub fn connect(addr: SocketAddr, local: Option<IpAddr>) -> std::io::Result<TcpStream> {
    let Some(ip) = local else { return TcpStream::connect(addr) };
    let socket = socket2::Socket::new(socket2::Domain::for_address(addr), socket2::Type::STREAM, None)?;
    socket.bind(&SocketAddr::new(ip, 0).into())?;
    socket.connect(&addr.into())?;
    Ok(socket.into())
}
