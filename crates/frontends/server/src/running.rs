//! Serving the router: in the caller's runtime ([`serve`]) or on threads of its own
//! ([`Running`]).

use crate::app::AppState;
use std::net::SocketAddr;

/// Serves `app` on `listener` until `shutdown` completes, with the server's limits on
/// connections (caps, header and idle timeouts); idle games are dropped every few seconds
/// meanwhile.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = {
        let app = app.clone();
        let every = (app.settings().idle_timeout / 4)
            .clamp(std::time::Duration::from_millis(50), std::time::Duration::from_secs(30));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                app.store().sweep();
            }
        })
    };
    let result = crate::connections::accept_loop(listener, app, shutdown).await;
    sweeper.abort();
    result
}

/// A server running on its own threads (for tests, the load bench and `sabacc play`); dropping
/// it stops the server.
pub struct Running {
    addr: SocketAddr,
    app: AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Running {
    /// Binds `addr` (port 0: any free port) and serves `app` in the background.
    pub fn start(addr: &str, app: AppState) -> std::io::Result<Running> {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(addr))
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        let bound = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = app.clone();
        let thread = std::thread::Builder::new().name("sabacc-server".into()).spawn(move || {
            runtime.block_on(serve(listener, served, async move {
                let _ = stopped.await;
            }))
        })?;
        Ok(Running { addr: bound, app, stop: Some(stop), thread: Some(thread) })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The shared state (for tests).
    pub fn app(&self) -> &AppState {
        &self.app
    }

    /// Serves until the process is interrupted (Ctrl-C), then stops.
    pub fn wait_for_ctrl_c(mut self) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        runtime.block_on(tokio::signal::ctrl_c())?;
        self.stop_now()
    }

    fn stop_now(&mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(std::io::Error::other("the server thread panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop_now();
    }
}
