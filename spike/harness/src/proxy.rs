//! A fault proxy: a loopback HTTP/1.1 proxy between a writer and a catalog server that, told a
//! [`Fault`], applies it once to the next commit request (`POST .../namespaces/{ns}/tables/{t}`)
//! and forwards everything else untouched; or applies faults drawn at random to a share of all
//! commit requests (`stress`). It makes the network's failures deterministic: a
//! commit the server applied whose answer never reached the writer, and a commit that never
//! reached the server, each on the one request a test chooses. It can also stop listening and
//! come back on the same port: the server down, as the writer sees it.
//!
//! Test code. One upstream connection per request (`Connection: close` both ways), so that a
//! request and its answer are always whole and never share a connection with another.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::task::JoinSet;

use crate::rng::XorShift;

/// What the proxy does to the next commit request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fault {
    /// Forwards the commit, lets the server answer, then resets the writer's connection before
    /// any of the answer reaches it.
    ResetAfterForward,
    /// Forwards the commit, then answers `504 Gateway Timeout` in the server's place.
    GatewayTimeoutAfterForward,
    /// Holds the commit until the writer has given up waiting (its client timed out and closed
    /// the connection), then forwards it: the server applies a commit its writer no longer waits for.
    ForwardAfterWriterGaveUp,
    /// Answers `503 Service Unavailable` without forwarding: nothing reaches the server.
    RefuseUnforwarded,
    /// Forwards the commit without its `Idempotency-Key`, then resets the writer's connection as
    /// [`Fault::ResetAfterForward`] does: the server applied the commit but stored no answer for
    /// the key, so a resend with that key executes as a new request, and fails its requirements
    /// on the writer's own commit. It makes deterministic what a held request and its resend
    /// meet in a server that stores a key's answer only after the commit (Rustberg), a key store
    /// lost in a restart, or a resend routed to a replica that does not share the store. To a
    /// writer that sends no key it is `ResetAfterForward`.
    UnrecordedAfterForward,
    /// Forwards the commit, loses the answer, forwards it again (as a gateway that retries a
    /// request whose answer it lost), and answers with the second answer: the server applied
    /// the first delivery, so the second fails its requirements (`409`), and the writer is told
    /// its commit conflicted.
    DeliveredTwice,
}

impl Fault {
    pub const ALL: [Fault; 6] = [
        Fault::ResetAfterForward,
        Fault::GatewayTimeoutAfterForward,
        Fault::ForwardAfterWriterGaveUp,
        Fault::RefuseUnforwarded,
        Fault::UnrecordedAfterForward,
        Fault::DeliveredTwice,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fault::ResetAfterForward => "reset-after-forward",
            Fault::GatewayTimeoutAfterForward => "504-after-forward",
            Fault::ForwardAfterWriterGaveUp => "forward-after-timeout",
            Fault::RefuseUnforwarded => "503-unforwarded",
            Fault::UnrecordedAfterForward => "unrecorded-after-forward",
            Fault::DeliveredTwice => "delivered-twice",
        }
    }

    /// Whether the commit request reaches the server.
    pub fn forwards(self) -> bool {
        self != Fault::RefuseUnforwarded
    }
}

impl Serialize for Fault {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// What crossed the proxy untouched: every request it forwarded without a fault and the answer,
/// HTTP heads and bodies as they came (TCP framing not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wire {
    pub requests: u64,
    pub request_bytes: u64,
    pub response_bytes: u64,
}

/// What happened to the commit request a fault was applied to.
#[derive(Clone, Debug, Serialize)]
pub struct FaultReport {
    pub fault: Fault,
    /// The server's status for each delivery of the commit, in order (200: applied); empty if
    /// it never reached the server.
    pub server_status: Vec<u16>,
}

impl FaultReport {
    /// Whether the server applied a delivery of the commit.
    pub fn applied(&self) -> bool {
        self.server_status.contains(&200)
    }
}

#[derive(Default)]
struct State {
    planned: Mutex<Option<Fault>>,
    random: Mutex<Option<RandomFaults>>,
    reports: Mutex<Vec<FaultReport>>,
    reported: Notify,
    /// Faults applied at random.
    applied: Mutex<BTreeMap<Fault, usize>>,
    /// Commit requests received, faulted or not.
    commits: Mutex<usize>,
    wire: Mutex<Wire>,
}

/// Faults applied at random to commit requests (`stress`).
struct RandomFaults {
    rate: f64,
    faults: Vec<Fault>,
    rng: XorShift,
}

impl State {
    /// The fault for the next commit request: the one injected, else one drawn at random.
    fn next_fault(&self) -> Option<(Fault, bool)> {
        if let Some(fault) = self.planned.lock().expect("not poisoned").take() {
            return Some((fault, true));
        }
        let mut random = self.random.lock().expect("not poisoned");
        let random = random.as_mut()?;
        if !random.rng.chance(random.rate) {
            return None;
        }
        let fault = random.faults[random.rng.below(random.faults.len() as u64) as usize];
        *self.applied.lock().expect("not poisoned").entry(fault).or_default() += 1;
        Some((fault, false))
    }
}

pub struct FaultProxy {
    addr: SocketAddr,
    upstream: String,
    state: Arc<State>,
    tasks: Mutex<JoinSet<()>>,
}

/// How long `fired` waits for a fault to complete before calling the test broken: a safety net
/// against a hang, not an ordering device.
const FAULT_DEADLINE: Duration = Duration::from_secs(120);

impl FaultProxy {
    /// Listens on a free loopback port and forwards to `upstream` (`http://host:port`).
    pub async fn start(upstream: &str) -> std::io::Result<Self> {
        let upstream = upstream.trim_start_matches("http://").trim_end_matches('/').to_string();
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let proxy =
            Self { addr: listener.local_addr()?, upstream, state: Arc::default(), tasks: Mutex::new(JoinSet::new()) };
        proxy.serve(listener);
        Ok(proxy)
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Applies `fault` to the next commit request, once.
    pub fn inject(&self, fault: Fault) {
        *self.state.planned.lock().expect("not poisoned") = Some(fault);
    }

    /// Waits until the injected fault has been applied, and says what the server answered.
    pub async fn fired(&self) -> std::io::Result<FaultReport> {
        let wait = async {
            loop {
                let reported = self.state.reported.notified();
                if let Some(report) = self.state.reports.lock().expect("not poisoned").pop() {
                    return report;
                }
                reported.await;
            }
        };
        tokio::time::timeout(FAULT_DEADLINE, wait)
            .await
            .map_err(|_| std::io::Error::other("the injected fault was never applied"))
    }

    /// From now on, applies one of `faults`, drawn at random, to each commit request with
    /// probability `rate`.
    pub fn at_random(&self, rate: f64, faults: &[Fault], seed: u64) {
        *self.state.random.lock().expect("not poisoned") =
            Some(RandomFaults { rate, faults: faults.to_vec(), rng: XorShift::new(seed) });
    }

    /// The faults applied at random so far.
    pub fn applied(&self) -> BTreeMap<Fault, usize> {
        self.state.applied.lock().expect("not poisoned").clone()
    }

    /// How many commit requests the proxy has received, faulted or not: a writer's resends
    /// included.
    pub fn commits(&self) -> usize {
        *self.state.commits.lock().expect("not poisoned")
    }

    /// What crossed the proxy untouched since the last call, and zeroes it.
    pub fn take_wire(&self) -> Wire {
        std::mem::take(&mut *self.state.wire.lock().expect("not poisoned"))
    }

    /// Stops listening and drops every connection: to a writer, the server is down.
    pub fn stop(&self) {
        self.tasks.lock().expect("not poisoned").abort_all();
    }

    /// Listens again on the same port.
    pub async fn restart(&self) -> std::io::Result<()> {
        self.serve(TcpListener::bind(self.addr).await?);
        Ok(())
    }

    fn serve(&self, listener: TcpListener) {
        let (state, upstream) = (Arc::clone(&self.state), self.upstream.clone());
        let mut tasks = self.tasks.lock().expect("not poisoned");
        // Connections live in the same set as the listener, so `stop` ends them all.
        let connections = Arc::new(Mutex::new(JoinSet::new()));
        let accepted = Arc::clone(&connections);
        tasks.spawn(async move {
            let _connections = ConnectionsGuard(accepted.clone());
            while let Ok((client, _)) = listener.accept().await {
                let (state, upstream) = (Arc::clone(&state), upstream.clone());
                accepted.lock().expect("not poisoned").spawn(async move {
                    let _ = serve_connection(client, &upstream, &state).await;
                });
            }
        });
    }
}

/// Aborts a listener's connections when the listener's task ends or is aborted.
struct ConnectionsGuard(Arc<Mutex<JoinSet<()>>>);

impl Drop for ConnectionsGuard {
    fn drop(&mut self) {
        if let Ok(mut set) = self.0.lock() {
            set.abort_all();
        }
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One request, as read off a connection.
struct Request {
    method: String,
    path: String,
    head: Vec<String>,
    body: Vec<u8>,
    /// Bytes read off the writer's connection for it.
    received: usize,
}

impl Request {
    /// `POST .../namespaces/{ns}/tables/{table}`: the REST catalog's commit.
    fn is_commit(&self) -> bool {
        let segments: Vec<&str> = self.path.split('?').next().unwrap_or_default().split('/').collect();
        self.method == "POST"
            && segments.len() >= 4
            && segments[segments.len() - 2] == "tables"
            && segments[segments.len() - 4] == "namespaces"
    }

    /// The request without its `Idempotency-Key` header.
    fn without_key(mut self) -> Self {
        self.head.retain(|line| !line.to_ascii_lowercase().starts_with("idempotency-key:"));
        self
    }

    /// The request for `upstream`, on a connection of its own.
    fn forwarded(&self, upstream: &str) -> Vec<u8> {
        let mut out = format!("{} {} HTTP/1.1\r\nhost: {upstream}\r\nconnection: close\r\n", self.method, self.path);
        for line in &self.head {
            let name = line.split(':').next().unwrap_or_default().to_ascii_lowercase();
            if name != "host" && name != "connection" {
                out.push_str(line);
                out.push_str("\r\n");
            }
        }
        out.push_str("\r\n");
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }
}

async fn read_request(client: &mut TcpStream) -> std::io::Result<Option<Request>> {
    let mut buf = Vec::new();
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let mut chunk = [0u8; 8192];
        let n = client.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n").map(str::to_string);
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let (method, path) = (parts.next().unwrap_or_default().to_string(), parts.next().unwrap_or_default().to_string());
    let head: Vec<String> = lines.collect();
    let length: usize = head
        .iter()
        .find_map(|l| l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length")))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let mut chunk = vec![0u8; length - body.len()];
        let n = client.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let received = head_end + 4 + body.len();
    Ok(Some(Request { method, path, head, body, received }))
}

/// Sends `request` upstream and reads the whole answer: its status, its size as the server sent
/// it, and its bytes, with the connection marked to close.
async fn forward(request: &Request, upstream: &str) -> std::io::Result<(u16, usize, Vec<u8>)> {
    let mut server = TcpStream::connect(upstream).await?;
    server.write_all(&request.forwarded(upstream)).await?;
    let mut answer = Vec::new();
    server.read_to_end(&mut answer).await?;
    let status = String::from_utf8_lossy(answer.get(..12).unwrap_or_default())
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, answer.len(), closing(answer)))
}

/// The answer with `connection: close`, so that the writer's client does not reuse a connection
/// this proxy is about to close.
fn closing(answer: Vec<u8>) -> Vec<u8> {
    let Some(end) = answer.windows(4).position(|w| w == b"\r\n\r\n") else { return answer };
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let mut out: Vec<&str> =
        head.split("\r\n").filter(|l| !l.to_ascii_lowercase().starts_with("connection:")).collect();
    out.push("connection: close");
    let mut bytes = out.join("\r\n").into_bytes();
    bytes.extend_from_slice(&answer[end..]);
    bytes
}

fn status_only(code: u16, reason: &str) -> Vec<u8> {
    let body = format!(
        r#"{{"error":{{"message":"{reason} (barrier fault proxy)","type":"ServiceUnavailableException","code":{code}}}}}"#
    );
    format!(
        "HTTP/1.1 {code} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

async fn serve_connection(mut client: TcpStream, upstream: &str, state: &State) -> std::io::Result<()> {
    let Some(request) = read_request(&mut client).await? else { return Ok(()) };
    let commit = request.is_commit();
    if commit {
        *state.commits.lock().expect("not poisoned") += 1;
    }
    let fault = if commit { state.next_fault() } else { None };
    let Some((fault, injected)) = fault else {
        let (_, sent, answer) = forward(&request, upstream).await?;
        {
            let mut wire = state.wire.lock().expect("not poisoned");
            wire.requests += 1;
            wire.request_bytes += request.received as u64;
            wire.response_bytes += sent as u64;
        }
        return client.write_all(&answer).await;
    };
    let request = if fault == Fault::UnrecordedAfterForward { request.without_key() } else { request };
    if fault == Fault::ForwardAfterWriterGaveUp {
        // The writer's client closes the connection when its timeout expires.
        let mut rest = [0u8; 1024];
        while matches!(client.read(&mut rest).await, Ok(n) if n > 0) {}
    }
    let mut server_status = vec![];
    let mut answer = vec![];
    let deliveries = match fault {
        Fault::RefuseUnforwarded => 0,
        Fault::DeliveredTwice => 2,
        _ => 1,
    };
    for _ in 0..deliveries {
        let (status, _, bytes) = forward(&request, upstream).await?;
        server_status.push(status);
        answer = bytes;
    }
    let result = match fault {
        Fault::ResetAfterForward | Fault::UnrecordedAfterForward => {
            // An RST, not an orderly close: linger 0, then drop.
            client.set_zero_linger()?;
            drop(client);
            Ok(())
        }
        Fault::GatewayTimeoutAfterForward => client.write_all(&status_only(504, "Gateway Timeout")).await,
        Fault::ForwardAfterWriterGaveUp => Ok(()),
        Fault::RefuseUnforwarded => client.write_all(&status_only(503, "Service Unavailable")).await,
        Fault::DeliveredTwice => client.write_all(&answer).await,
    };
    if injected {
        state.reports.lock().expect("not poisoned").push(FaultReport { fault, server_status });
        state.reported.notify_waiters();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, path: &str) -> Request {
        Request { method: method.into(), path: path.into(), head: vec![], body: vec![], received: 0 }
    }

    #[test]
    fn only_a_post_to_one_table_is_a_commit() {
        assert!(request("POST", "/v1/warehouse/namespaces/ns/tables/events").is_commit());
        assert!(!request("GET", "/v1/warehouse/namespaces/ns/tables/events").is_commit());
        // Creating a table posts to the collection, not to a table.
        assert!(!request("POST", "/v1/warehouse/namespaces/ns/tables").is_commit());
        assert!(!request("POST", "/v1/oauth/tokens").is_commit());
    }

    #[test]
    fn an_unrecorded_forward_drops_only_the_key() {
        let mut keyed = request("POST", "/v1/namespaces/ns/tables/t");
        keyed.head = vec!["Idempotency-Key: 0190".into(), "content-type: application/json".into()];
        let sent = String::from_utf8(keyed.without_key().forwarded("server:1")).unwrap();
        assert!(!sent.to_ascii_lowercase().contains("idempotency-key"));
        assert!(sent.contains("content-type: application/json"));
    }

    #[test]
    fn answers_are_marked_to_close() {
        let answer = b"HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}".to_vec();
        let closed = String::from_utf8(closing(answer)).unwrap();
        assert_eq!(closed, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nconnection: close\r\n\r\n{}");
    }
}
