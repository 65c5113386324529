//! A connection that closes itself after a time with nothing sent either way. HTTP/1's header
//! timeout bounds a request that has begun; this bounds everything else a connection can wait
//! on: a keep-alive connection that never sends its next request, a body trickled a byte at a
//! time, a client that stops reading its answer. Each of those would otherwise hold a file
//! descriptor and a task for as long as the client likes.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// `S` with an idle timeout: any read or write that moves bytes restarts the clock; a read or
/// write still waiting when it runs out fails with [`io::ErrorKind::TimedOut`].
pub struct IdleTimeout<S> {
    inner: S,
    timeout: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl<S> IdleTimeout<S> {
    /// `inner`, closed after `timeout` without traffic.
    pub fn new(inner: S, timeout: Duration) -> IdleTimeout<S> {
        IdleTimeout { inner, timeout, deadline: Box::pin(tokio::time::sleep(timeout)) }
    }

    fn moved(&mut self) {
        self.deadline.as_mut().reset(Instant::now() + self.timeout);
    }

    /// `Pending` while there is time left; the timeout error once it has run out.
    fn waiting(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("nothing sent or read for {} s", self.timeout.as_secs_f64()),
            )),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for IdleTimeout<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.waiting(cx).map(Err),
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for IdleTimeout<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, data) {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.waiting(cx).map(Err),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.inner).poll_flush(cx) {
            Poll::Pending => self.waiting(cx).map(Err),
            done => done,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test(start_paused = true)]
    async fn a_silent_peer_times_out_and_traffic_restarts_the_clock() {
        let (near, mut far) = tokio::io::duplex(64);
        let mut conn = IdleTimeout::new(near, Duration::from_secs(10));
        let mut buf = [0u8; 8];
        // Bytes 9 s apart keep the connection open: each restarts the clock.
        for _ in 0..3 {
            tokio::time::advance(Duration::from_secs(9)).await;
            far.write_all(b"x").await.unwrap();
            assert_eq!(conn.read(&mut buf).await.unwrap(), 1);
        }
        // Then silence: the read waits 10 s and fails.
        let started = Instant::now();
        let e = conn.read(&mut buf).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(10));
    }
}
