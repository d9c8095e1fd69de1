//! Start-up and shutdown: open the metadata, start one shard per core,
//! open each shard's partitions, bind the listeners, and on SIGTERM or
//! Ctrl-C stop accepting, let in-flight requests finish, flush, close.

use std::net::TcpListener as StdListener;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::time::Duration;

use tracing::{error, info, warn};

use crate::BrokerContext;
use crate::config::BrokerConfig;
use crate::metadata::{ClusterMetadata, MetadataStore};
use crate::shard::{Job, Shard, owner_shard};

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot create data folder {path}: {source}")]
    DataDir {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Metadata(#[from] crate::metadata::MetadataError),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: String,
        source: std::io::Error,
    },
    #[error("shard {shard} failed to start: {message}")]
    Shard { shard: usize, message: String },
    #[error("an SSL listener cannot start: {0}")]
    Tls(#[from] crate::tls::TlsError),
    #[error("listener {listener}: {source}")]
    ListenerTls {
        listener: String,
        source: crate::tls::TlsError,
    },
    #[error("{0}")]
    Sasl(String),
    #[error("authorizer: {0}")]
    Authorizer(String),
    #[error("cannot start the admin server on {addr}: {source}")]
    Admin {
        addr: String,
        source: std::io::Error,
    },
    #[error("cannot install signal handlers: {0}")]
    Signals(std::io::Error),
}

/// Runs the broker until SIGTERM or SIGINT.
pub fn run(config: BrokerConfig) -> Result<(), ServerError> {
    std::fs::create_dir_all(&config.data_dir).map_err(|source| ServerError::DataDir {
        path: config.data_dir.display().to_string(),
        source,
    })?;
    // Every listener's port must be free (a plain bind first, see
    // `check_free`).
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    for l in &config.listeners {
        check_free(l.bind, deadline)?;
    }
    // The admin server's port too (bound now, served once the shards run).
    let admin_listener = match config.admin_addr {
        Some(addr) => Some(
            crate::admin_http::bind(addr).map_err(|source| ServerError::Admin {
                addr: addr.to_string(),
                source,
            })?,
        ),
        None => None,
    };
    // Certificates are loaded before anything else starts, so a broken
    // keystore stops the broker with a clear message.
    let admin_tls = config.admin_addr.is_some() && config.settings.bool("admin.ssl.enabled");
    // Every TLS listener has its own context, which follows its
    // `listener.name.<l>.ssl.*` settings (static, or changed at run
    // time); the admin server's follows the broker's `ssl.*`.
    let tls = if admin_tls {
        Some(crate::tls::TlsContext::from_settings(&config.settings)?)
    } else {
        None
    };
    let mut listener_tls = std::collections::BTreeMap::new();
    for l in config.listeners.iter().filter(|l| l.protocol.tls()) {
        let ctx =
            crate::tls::TlsContext::for_listener(&config.settings, &l.name).map_err(|source| {
                ServerError::ListenerTls {
                    listener: l.name.clone(),
                    source,
                }
            })?;
        listener_tls.insert(l.name.clone(), ctx);
    }

    let bootstrap_user = crate::sasl::BootstrapUser::from_env().map_err(ServerError::Sasl)?;
    let sasl_listener = config.listeners.iter().any(|l| l.protocol.sasl());
    // Cluster mode: the metadata comes from the controller log, applied
    // after start-up (`cluster::controller`, which also adds the bootstrap
    // user once caught up); a single node keeps it in `metadata.json`.
    let mut store = match &config.cluster {
        None => Some(MetadataStore::open(
            &config.data_dir,
            config.settings.clone(),
        )?),
        Some(_) => None,
    };
    if let (Some(st), Some(b)) = (store.as_mut(), &bootstrap_user) {
        bootstrap_single_node(st, b)?;
    }
    let snapshot = Arc::new(match &store {
        Some(st) => st.snapshot(),
        None => {
            crate::metadata::MetadataState::new(config.settings.clone(), config.node_id).snapshot()
        }
    });
    if let Some(st) = &store {
        crate::topics::remove_orphans(&config.data_dir, &st.snapshot());
        // Listeners added at run time by an earlier run: their ports must
        // be free too.
        if let Ok(wanted) = crate::listener_set::wanted(&config.listeners, &snapshot.settings) {
            for l in wanted.iter().filter(|l| !config.listeners.contains(l)) {
                check_free(l.bind, deadline)?;
            }
        }
    }
    // A cluster broker knows its users only once it has caught up with
    // the controller log; it warns then (see `Controller::bootstrap_user`).
    if store.is_some() && sasl_listener && snapshot.scram.is_empty() {
        warn!(
            "a SASL listener has no users: every authentication will fail (set TIDEMARK_BOOTSTRAP_USER=name:password)"
        );
    }
    let authorizer = crate::acl::authorizer::Authorizer::from_settings(
        &config.settings.get("authorizer.class.name"),
        &config.settings.get("super.users"),
        config.settings.get("allow.everyone.if.no.acl.found") == "true",
    )
    .map_err(|e| ServerError::Authorizer(e.to_string()))?;
    let peer_tls = crate::tls::peer::PeerTlsConfig::from_settings(&config.settings)?;
    let cores = config.cores;
    let ctx = Arc::new(BrokerContext {
        supported: crate::apis::supported(),
        shutting_down: AtomicBool::new(false),
        connections: Default::default(),
        fetch_max_bytes: usize::try_from(config.settings.i64("fetch.max.bytes")).unwrap_or(0),
        inflight_produce_bytes: AtomicI64::new(0),
        inflight_requests: AtomicUsize::new(0),
        metadata_caught_up: AtomicBool::new(false),
        registered: AtomicBool::new(false),
        incarnation: uuid::Uuid::new_v4().as_u64_pair().0,
        tls,
        listeners: crate::listener_set::ListenerSet::new(config.listeners.clone(), listener_tls),
        bootstrap_user,
        authorizer,
        peer_tls,
        telemetry: std::sync::Mutex::new(crate::client_metrics::Telemetry::default()),
        quotas: crate::quotas::manager::QuotaManager::default(),
        disk_space: crate::disk_space::DiskSpace::new(&config.data_dir, &config.settings),
        memory_trims: crate::memory_trim::TrimStats::default(),
        config,
    });

    let mut senders = Vec::with_capacity(cores);
    let mut receivers = Vec::with_capacity(cores);
    for _ in 0..cores {
        let (tx, rx) = flume::unbounded::<Job>();
        senders.push(tx);
        receivers.push(rx);
    }
    let peers = Arc::new(senders);
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<usize, String>>();
    let mut threads = Vec::new();
    for (id, inbox) in receivers.into_iter().enumerate() {
        let peers = peers.clone();
        let ctx = ctx.clone();
        let snapshot = snapshot.clone();
        let ready = ready_tx.clone();
        let store = if id == 0 { store.take() } else { None };
        let t = std::thread::Builder::new()
            .name(format!("shard-{id}"))
            .spawn(move || shard_main(id, peers, inbox, ctx, snapshot, store, ready))
            .map_err(|e| ServerError::Shard {
                shard: id,
                message: e.to_string(),
            })?;
        threads.push(t);
    }
    drop(ready_tx);
    for _ in 0..cores {
        match ready_rx.recv() {
            Ok(Ok(_)) => {}
            Ok(Err(message)) => {
                ctx.shutting_down.store(true, Ordering::SeqCst);
                stop_shards(&peers);
                return Err(ServerError::Shard { shard: 0, message });
            }
            Err(_) => {
                return Err(ServerError::Shard {
                    shard: 0,
                    message: "a shard exited during start-up".into(),
                });
            }
        }
    }
    info!(
        listeners = %ctx
            .listeners
            .current()
            .iter()
            .map(|l| format!("{}://{} (advertised {}:{})", l.name, l.bind, l.advertised_host, l.advertised_port))
            .collect::<Vec<_>>()
            .join(", "),
        node_id = ctx.config.node_id,
        shards = cores,
        data_dir = %ctx.config.data_dir.display(),
        topics = snapshot.topics.len(),
        "tidemark started"
    );
    warn_if_few_descriptors(snapshot.topics.values().map(|t| t.partitions as u64).sum());
    if let Some(l) = admin_listener {
        let addr = ctx
            .config
            .admin_addr
            .map(|a| a.to_string())
            .unwrap_or_default();
        if let Err(source) = crate::admin_http::start(l, ctx.clone(), peers.clone()) {
            ctx.shutting_down.store(true, Ordering::SeqCst);
            stop_shards(&peers);
            return Err(ServerError::Admin { addr, source });
        }
    }

    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
    ])
    .map_err(ServerError::Signals)?;
    if let Some(sig) = signals.forever().next() {
        info!(signal = sig, "shutting down");
    }
    ctx.shutting_down.store(true, Ordering::SeqCst);
    stop_shards(&peers);
    for t in threads {
        if t.join().is_err() {
            error!("a shard panicked during shutdown");
        }
    }
    info!("tidemark stopped");
    Ok(())
}

/// Single node: gives the bootstrap user its SCRAM credentials unless it
/// has some already (a password changed with AlterUserScramCredentials
/// must survive a restart with the same environment).
fn bootstrap_single_node(
    store: &mut MetadataStore,
    user: &crate::sasl::BootstrapUser,
) -> Result<(), ServerError> {
    if store.snapshot().scram.user(&user.name).is_some() {
        info!(user = %user.name, "bootstrap user has credentials already; kept");
        return Ok(());
    }
    store
        .apply(&crate::metadata::Command::BootstrapScram {
            user: user.name.clone(),
            credentials: user.credentials.clone(),
        })
        .map_err(|e| ServerError::Sasl(format!("cannot store the bootstrap user: {e}")))?;
    info!(user = %user.name, "bootstrap user created (SCRAM-SHA-256, SCRAM-SHA-512)");
    Ok(())
}

/// Fails if something already listens on `addr`: with SO_REUSEPORT a
/// second broker could silently share the port, a plain bind fails. Right after a kill -9
/// the old listening socket lingers for a few milliseconds; this retries
/// until `deadline` before calling the port taken.
fn check_free(addr: std::net::SocketAddr, deadline: std::time::Instant) -> Result<(), ServerError> {
    loop {
        match StdListener::bind(addr) {
            Ok(l) => {
                drop(l);
                return Ok(());
            }
            Err(e)
                if e.kind() == std::io::ErrorKind::AddrInUse
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(source) => {
                return Err(ServerError::Listen {
                    addr: addr.to_string(),
                    source,
                });
            }
        }
    }
}

/// Warns when the open-file limit is low for the partitions held: each
/// partition being written holds its active segment open, and one being
/// read a reader too (idle ones hold none). The broker raises its own
/// limit as far as it may (`main`); past that, the operator must.
fn warn_if_few_descriptors(partitions: u64) {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass, alive for the call.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return;
    }
    let wanted = partitions.saturating_mul(2).saturating_add(1024);
    if lim.rlim_cur < wanted {
        warn!(
            limit = lim.rlim_cur,
            partitions,
            wanted,
            "the open-file limit is low for this many partitions: if most of them are written or read at once, some writes will wait for descriptors (raise nofile)"
        );
    }
}

/// Asks every shard to stop (each finishes its in-flight work first).
fn stop_shards(peers: &Arc<Vec<flume::Sender<Job>>>) {
    for p in peers.iter() {
        let _ = p.send(Box::new(|shard: Rc<Shard>| {
            Box::pin(async move { shard.begin_stop() })
        }));
    }
}

fn shard_main(
    id: usize,
    peers: Arc<Vec<flume::Sender<Job>>>,
    inbox: flume::Receiver<Job>,
    ctx: Arc<BrokerContext>,
    snapshot: Arc<ClusterMetadata>,
    store: Option<MetadataStore>,
    ready: std::sync::mpsc::Sender<Result<usize, String>>,
) {
    let rt = monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
        .enable_timer()
        .with_entries(1024)
        .build();
    let mut rt = match rt {
        Ok(rt) => rt,
        Err(e) => {
            let _ = ready.send(Err(format!("shard {id}: cannot start the runtime: {e}")));
            return;
        }
    };
    crate::metrics::record::set_enabled(ctx.config.metrics_enabled);
    rt.block_on(async move {
        let cluster = ctx.config.cluster.clone();
        let net = cluster
            .as_ref()
            .map(|c| Rc::new(crate::cluster::ShardNet::new(ctx.config.node_id, id, c)));
        let shard = Rc::new(Shard::new(
            id,
            peers,
            ctx.clone(),
            snapshot.clone(),
            net.clone(),
        ));
        if let Some(store) = store {
            shard.install_store(store);
        }
        // Open the partitions this shard owns.
        for t in snapshot.topics.values() {
            for p in 0..t.partitions {
                if owner_shard(t.id, p, shard.shard_count()) == id
                    && let Err(e) = crate::topics::open_partition(&shard, t, p).await
                {
                    let _ = ready.send(Err(format!("cannot open {}-{p}: {e}", t.name)));
                    return;
                }
            }
        }
        // Committed offsets and groups of this shard's __consumer_offsets
        // partitions, before any request can reach them.
        crate::groups::start(&shard).await;
        // Transactional ids of this shard's __transaction_state partitions.
        crate::txn::start(&shard).await;
        // Share-partition lock expiry and share group sessions.
        crate::share::start(&shard);
        if let (Some(c), Some(net)) = (&cluster, &net) {
            if let Err(e) = crate::cluster::start(&shard, net, c.rpc_addr) {
                let _ = ready.send(Err(e));
                return;
            }
            if id == 0 {
                match crate::cluster::controller::Controller::open(&shard, net.clone()).await {
                    Ok(ctl) => {
                        shard.install_controller(ctl.clone());
                        monoio::spawn(ctl.clone().run(shard.clone()));
                        monoio::spawn(ctl.clone().fence_dead_brokers(shard.clone()));
                        let me = crate::metadata::BrokerMeta {
                            id: ctx.config.node_id,
                            host: ctx.config.advertised_host.clone(),
                            port: ctx.config.advertised_port,
                            rack: c.rack.clone(),
                            rpc_addr: c.advertised_rpc_addr.clone(),
                            fenced: false,
                            maintenance: false,
                            decommissioning: false,
                            // Kept current by `register` as listeners change.
                            listeners: Vec::new(),
                            incarnation: ctx.incarnation,
                        };
                        monoio::spawn(ctl.clone().register(shard.clone(), me));
                        monoio::spawn(ctl.bootstrap_user(shard.clone()));
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return;
                    }
                }
            }
            monoio::spawn(crate::cluster::leadership::run(shard.clone()));
        }
        // The acceptors start serving once this task first waits, after
        // start-up is reported.
        let failed = crate::acceptors::Acceptors::reconcile(&shard);
        if !failed.is_empty() {
            let _ = ready.send(Err(failed.join("; ")));
            return;
        }
        monoio::spawn(crate::acceptors::follow(shard.clone()));
        let _ = ready.send(Ok(id));
        monoio::spawn(crate::maintenance::run(shard.clone()));
        monoio::spawn(crate::maintenance::hibernate(shard.clone()));
        if id == 0 {
            monoio::spawn(crate::disk_space::run(shard.clone()));
            monoio::spawn(crate::memory_trim::run(shard.clone()));
        }
        monoio::spawn(crate::disk_space::reopen_failed(shard.clone()));
        // Keep serving other shards' jobs until this shard has stopped:
        // during shutdown they may still need it to finish their requests.
        loop {
            let job = monoio::select! {
                j = inbox.recv_async() => j,
                _ = shard.stopped() => break,
            };
            match job {
                Ok(job) => {
                    monoio::spawn(job(shard.clone()));
                }
                Err(_) => break,
            }
        }
    });
}
