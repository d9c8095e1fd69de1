//! Starts a real `tidemark` broker for a test, stops it (by its PID) when
//! dropped. The binary is `$TIDEMARK_BIN`, else the workspace's
//! `target/release/tidemark`; without one the test is skipped with a note.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tidemark_client::{Client, Config};

pub fn binary() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("TIDEMARK_BIN") {
        let p = PathBuf::from(p);
        return p.exists().then_some(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/tidemark");
    p.exists().then_some(p)
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub struct Broker {
    child: Child,
    pub port: u16,
    /// Extra listener ports (SASL, SSL), when configured.
    pub ports: Vec<u16>,
    pub dir: tempfile::TempDir,
}

pub struct Opts {
    pub settings: Vec<(String, String)>,
    pub env: Vec<(String, String)>,
    /// `listeners` value with `{0}`, `{1}`... replaced by fresh ports; the
    /// first must be a PLAINTEXT one (used to wait for readiness).
    pub listeners: Option<(String, usize)>,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            settings: vec![("num.partitions".into(), "1".into())],
            env: Vec::new(),
            listeners: None,
        }
    }
}

/// Starts a broker. A missing binary fails the test (`./test.sh` builds
/// it first), rather than letting it pass without checking anything.
///
/// Ports come from `free_port`, which releases them before the broker
/// binds; another test's broker can take one in between. A broker that
/// exits before it is ready is therefore started again on fresh ports (at
/// most `START_ATTEMPTS` times), and its stderr is in the panic message.
pub fn start(opts: Opts) -> Option<Broker> {
    const START_ATTEMPTS: usize = 3;
    let mut last_stderr = String::new();
    for _ in 0..START_ATTEMPTS {
        match start_once(&opts) {
            Ok(b) => return Some(b),
            Err(stderr) => last_stderr = stderr,
        }
    }
    panic!(
        "broker exited before it was ready, {START_ATTEMPTS} times; last stderr:\n{last_stderr}"
    );
}

/// One attempt: Ok once a client connects, Err(stderr) if the broker
/// exited first; panics if it neither exits nor gets ready in 20 s.
fn start_once(opts: &Opts) -> Result<Broker, String> {
    let Some(bin) = binary() else {
        panic!("no tidemark binary: set TIDEMARK_BIN or build target/release/tidemark");
    };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let stderr_path = dir.path().join("broker.stderr");
    let data_dir = dir.path().join("data");
    let mut cmd = Command::new(bin);
    cmd.arg("--data-dir")
        .arg(&data_dir)
        .arg("--cores")
        .arg("1")
        // No admin HTTP server: these tests do not use it, and its default
        // port (9644) would be shared by every broker the tests start.
        .arg("--admin-addr")
        .arg("");
    let mut ports = Vec::new();
    match &opts.listeners {
        None => {
            cmd.arg("--kafka-addr").arg(format!("127.0.0.1:{port}"));
        }
        Some((pattern, n)) => {
            let mut l = pattern.replace("{0}", &port.to_string());
            for i in 1..*n {
                let p = free_port();
                ports.push(p);
                l = l.replace(&format!("{{{i}}}"), &p.to_string());
            }
            cmd.arg("--set").arg(format!("listeners={l}"));
        }
    }
    for (k, v) in &opts.settings {
        cmd.arg("--set").arg(format!("{k}={v}"));
    }
    for (k, v) in &opts.env {
        cmd.env(k, v);
    }
    cmd.env("TIDEMARK_LOG", "warn");
    cmd.stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap());
    let child = cmd.spawn().expect("starting tidemark");
    let mut b = Broker {
        child,
        port,
        ports,
        dir,
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut cfg = Config::new([b.addr()]);
        cfg.request_timeout_ms = 2000;
        cfg.retries = 0;
        if Client::connect(cfg).is_ok() {
            return Ok(b);
        }
        if let Ok(Some(_)) = b.child.try_wait() {
            return Err(std::fs::read_to_string(&stderr_path).unwrap_or_default());
        }
        assert!(
            Instant::now() < deadline,
            "broker not ready within 20 s; stderr:\n{}",
            std::fs::read_to_string(&stderr_path).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Broker {
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub fn config(&self) -> Config {
        let mut cfg = Config::new([self.addr()]);
        cfg.request_timeout_ms = 10_000;
        cfg
    }

    pub fn client(&self) -> Client {
        Client::connect(self.config()).expect("connect")
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `f` until it returns Some, for at most `timeout`.
pub fn wait_for<T>(timeout: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts an `n`-broker cluster (node ids 1..=n, each its own controller
/// voter); a missing binary fails the test. Waits until a client sees
/// every broker.
pub fn start_cluster(n: usize, settings: &[(&str, &str)]) -> Option<Vec<Broker>> {
    let Some(bin) = binary() else {
        panic!("no tidemark binary: set TIDEMARK_BIN or build target/release/tidemark");
    };
    let rpc: Vec<u16> = (0..n).map(|_| free_port()).collect();
    let seeds = rpc
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}@127.0.0.1:{p}", i + 1))
        .collect::<Vec<_>>()
        .join(",");
    let mut brokers = Vec::new();
    for (i, rpc_port) in rpc.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let mut cmd = Command::new(&bin);
        cmd.arg("--data-dir")
            .arg(dir.path())
            .arg("--cores")
            .arg("1")
            .arg("--node-id")
            .arg((i + 1).to_string())
            .arg("--kafka-addr")
            .arg(format!("127.0.0.1:{port}"))
            .arg("--rpc-addr")
            .arg(format!("127.0.0.1:{rpc_port}"))
            .arg("--seeds")
            .arg(&seeds)
            // No admin HTTP server (see `start_once`).
            .arg("--admin-addr")
            .arg("");
        for (k, v) in settings {
            cmd.arg("--set").arg(format!("{k}={v}"));
        }
        cmd.env("TIDEMARK_LOG", "warn");
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        let child = cmd.spawn().expect("starting tidemark");
        brokers.push(Broker {
            child,
            port,
            ports: Vec::new(),
            dir,
        });
    }
    let ready = wait_for(Duration::from_secs(30), || {
        let mut cfg = Config::new(brokers.iter().map(Broker::addr));
        cfg.request_timeout_ms = 2000;
        cfg.retries = 0;
        let c = Client::connect(cfg).ok()?;
        (c.brokers().len() == n && c.controller_id().is_some()).then_some(())
    });
    assert!(ready.is_some(), "cluster of {n} not ready within 30 s");
    Some(brokers)
}

impl Broker {
    /// Kills the broker (SIGKILL by PID) and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
