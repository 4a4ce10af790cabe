//! Connections: at most [`Limits::connections`] served at once, each given
//! [`Limits::header_read`] to send each request's head — so that connections left open
//! without a request (a browser's idle ones, or someone's on purpose) go, and a server
//! never runs out of file descriptors or slots for the next person.

use crate::replay::ReplayLimits;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The server's bounds on connections and on the records sent to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most time a connection may take to send a request's line and headers, counted from
    /// when the server waits for them: a connection idle between requests, or one that
    /// never finishes its request, is closed after this.
    pub header_read: Duration,
    /// Most connections served at once; more wait, in the system's queue, for one to
    /// close (a page keeps a few; a table of five people needs about thirty).
    pub connections: usize,
    /// Records sent from pages to replay.
    pub replays: ReplayLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { header_read: Duration::from_secs(10), connections: 64, replays: ReplayLimits::default() }
    }
}

/// Accepts connections on `listener` and serves `router` on each, within `limits`, until
/// the process ends.
pub async fn serve(listener: TcpListener, router: axum::Router, limits: Limits) {
    let slots = Arc::new(Semaphore::new(limits.connections.max(1)));
    loop {
        // A slot first: past the cap, connections wait in the system's queue, not here.
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else { return };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted:
                // try again shortly rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(router.clone());
        let header_read = limits.header_read;
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(header_read);
            // A connection's error (a timeout, a reset) ends that connection only.
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
            drop(slot);
        });
    }
}
