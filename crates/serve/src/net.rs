//! Connections: at most [`Limits::connections`] served at once, each given
//! [`Limits::header_read`] to send each request's head and [`Limits::answer_write`] to take
//! each part of an answer — so that connections left open without a request (a browser's
//! idle ones, or someone's on purpose) or that never read their answers go, and a server
//! never runs out of file descriptors or slots for the next person. A connection's slot is
//! given back whenever it ends (normally, by an error or by either timeout).

use crate::replay::ReplayLimits;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

/// The server's bounds on connections and on the records sent to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most time a connection may take to send a request's line and headers, counted from
    /// when the server waits for them: a connection idle between requests, or one that
    /// never finishes its request, is closed after this.
    pub header_read: Duration,
    /// Most time an answer may wait for its client to read it: a client that sends
    /// requests but never reads their answers (so that the server can neither write nor,
    /// HTTP/1 answering in order, read) is closed after this.
    pub answer_write: Duration,
    /// Most connections served at once; more wait, in the system's queue, for one to
    /// close (a page keeps a few; a table of five people needs about thirty).
    pub connections: usize,
    /// Records sent from pages to replay.
    pub replays: ReplayLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_read: Duration::from_secs(10),
            answer_write: Duration::from_secs(30),
            connections: 64,
            replays: ReplayLimits::default(),
        }
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
        let mut stream = TimeoutStream::new(stream);
        stream.set_write_timeout(Some(limits.answer_write));
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(header_read);
            // A connection's error (a timeout, a reset) ends that connection only.
            let _ = http.serve_connection(TokioIo::new(Box::pin(stream)), service).await;
            drop(slot);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::{SocketAddr, TcpStream};
    use std::time::Instant;

    /// Serves a one-route router within `limits` on a thread of its own; its address.
    fn serving(limits: Limits) -> SocketAddr {
        let router = axum::Router::new().route("/", axum::routing::get(|| async { "ok" }));
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build();
            let Ok(runtime) = runtime else { return };
            runtime.block_on(async move {
                let Ok(listener) = TcpListener::bind("127.0.0.1:0").await else { return };
                let Ok(addr) = listener.local_addr() else { return };
                let _ = tx.send(addr);
                serve(listener, router, limits).await;
            });
        });
        rx.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|e| panic!("the server did not start: {e}"))
    }

    fn connect(addr: SocketAddr) -> TcpStream {
        let c = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect: {e}"));
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap_or_else(|e| panic!("{e}"));
        c
    }

    /// A whole request on a new connection, closed after the answer: its status line.
    fn served(addr: SocketAddr) -> String {
        let mut c = connect(addr);
        let head = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        c.write_all(head.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        let mut text = String::new();
        c.read_to_string(&mut text).unwrap_or_else(|e| panic!("not answered (a slot was never given back?): {e}"));
        text.lines().next().unwrap_or_default().to_string()
    }

    /// Reads until the answer to one request has come (its body is `ok`).
    fn answered(c: &mut TcpStream) {
        let mut got = Vec::new();
        let mut buf = [0u8; 512];
        while !got.ends_with(b"ok") {
            let n = c.read(&mut buf).unwrap_or_else(|e| panic!("not answered (a slot was never given back?): {e}"));
            assert!(n > 0, "closed before the answer: {}", String::from_utf8_lossy(&got));
            got.extend_from_slice(&buf[..n]);
        }
    }

    /// A client that sends requests and never reads the answers: once the answers fill the
    /// socket's buffers the server can neither write nor (HTTP/1 answers in order) read;
    /// the connection must still end, giving its slot back.
    #[test]
    fn a_client_that_never_reads_its_answers_loses_its_slot() {
        let limits = Limits {
            header_read: Duration::from_millis(300),
            answer_write: Duration::from_millis(500),
            connections: 1,
            ..Limits::default()
        };
        let addr = serving(limits);
        let c = connect(addr);
        let mut w = c.try_clone().unwrap_or_else(|e| panic!("{e}"));
        let head = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        let writer = std::thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                if w.write_all(head.repeat(1000).as_bytes()).is_err() {
                    return;
                }
            }
        });
        std::thread::sleep(Duration::from_secs(1));
        let start = Instant::now();
        assert!(served(addr).starts_with("HTTP/1.1 200"));
        assert!(start.elapsed() < Duration::from_secs(10), "served after {:?}", start.elapsed());
        drop(c);
        let _ = writer.join();
    }

    /// Every way a connection ends gives its slot back: many short connections one after
    /// another, ten times the bound of each kind, are all served, and so is the next one.
    #[test]
    fn a_slot_is_given_back_however_a_connection_ends() {
        let limits = Limits { header_read: Duration::from_millis(300), connections: 2, ..Limits::default() };
        let addr = serving(limits);
        // Normally: the request says `Connection: close`.
        for _ in 0..20 {
            assert!(served(addr).starts_with("HTTP/1.1 200"));
        }
        // Kept alive, then closed by the client after its answer.
        for _ in 0..20 {
            let mut c = connect(addr);
            c.write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            answered(&mut c);
        }
        // By error: a head that is not HTTP (the server answers 400 and closes), and a
        // connection the client resets halfway through a head.
        for _ in 0..20 {
            let mut c = connect(addr);
            c.write_all(b"NOT HTTP AT ALL\r\n\r\n").unwrap_or_else(|e| panic!("{e}"));
            let mut rest = Vec::new();
            let _ = c.read_to_end(&mut rest);
        }
        for _ in 0..20 {
            let mut c = connect(addr);
            c.write_all(b"GET / HTTP/1.1\r\nHo").unwrap_or_else(|e| panic!("{e}"));
            drop(c);
        }
        // By timeout: connections that send nothing, or half a head, and wait; five times
        // the bound at once, then five times more one after another.
        let waiting: Vec<TcpStream> = (0..10).map(|_| connect(addr)).collect();
        for _ in 0..10 {
            let mut c = connect(addr);
            c.write_all(b"GET / HTTP/1.1\r\n").unwrap_or_else(|e| panic!("{e}"));
            let mut rest = Vec::new();
            let start = Instant::now();
            let _ = c.read_to_end(&mut rest);
            assert!(start.elapsed() < Duration::from_secs(5), "a half head was kept {:?}", start.elapsed());
        }
        drop(waiting);
        // After all of them, the next person is served at once.
        let start = Instant::now();
        assert!(served(addr).starts_with("HTTP/1.1 200"));
        assert!(start.elapsed() < Duration::from_secs(2), "served after {:?}", start.elapsed());
    }
}
