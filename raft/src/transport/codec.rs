//! The wire format of the node-to-node transport.
//!
//! Hand-written and big-endian, like Kafka's: every frame is
//!
//! ```text
//! [size u32]  bytes after this field
//! [kind u8][correlation id u64][group key u128][group index i32]
//! [body]
//! ```
//!
//! A connection starts with one `Hello` frame from the client (who it is);
//! after that the client sends requests and the server answers each with
//! a response of the same correlation id and group, in any order.
//!
//! Bodies (`opt` = `[0u8]` or `[1u8][value]`):
//!
//! * vote = `[term u64][voted_for u64][committed u8]`, log id =
//!   `[term u64][index u64]`
//! * Vote and pre-vote requests: `vote, opt log id, [leadership_transfer u8]`
//! * Vote response: `vote, [granted u8], opt log id`
//! * Append request: `vote, opt prev log id, opt leader commit,
//!   [count u32]{log id, [payload kind u8], payload}*` where a blank has no
//!   payload and normal (a stamped Kafka batch) and membership (the
//!   control-record encoding of `types.rs`) are `[len u32][bytes]`
//! * Append response: `[tag u8]` 0 success, 1 partial success `opt log id`,
//!   2 conflict, 3 higher vote `vote`
//! * Install-snapshot request (a log reset): `vote, opt last log id,
//!   opt membership log id, [len u32][membership], [leader u64]
//!   [log start i64][next offset i64][count u32]{[term u64][index u64]
//!   [offset i64]}*`; its response: `vote`
//! * Read-log request (a log reset's copy): `[from i64][until i64]
//!   [max bytes u32]`; its response: `[len u32][batches]`
//! * Error response: `[code u16][len u16][utf-8 message]`
//!
//! Decoding takes a frame's bytes (already limited to the configured
//! maximum by the reader) and never panics: every count is checked against
//! the bytes left before anything is reserved, so a frame can never make
//! the decoder allocate more than its own size. Batch payloads are slices
//! of the frame (no copy).

use bytes::{Buf, BufMut, Bytes, BytesMut};
use openraft::raft::{
    AppendEntriesRequest, AppendEntriesResponse, SnapshotResponse, TransferLeaderError,
    TransferLeaderRequest, TransferLeaderResponse, VoteRequest, VoteResponse,
};
use openraft::vote::leader_id_std;

use super::membership::{decode_membership, encode_membership};
use crate::types::{
    Entry, KafkaBatch, LogId, NodeId, Payload, ResetSource, SnapshotMeta, StoredMembership,
    TypeConfig, Vote, log_id,
};

/// Which Raft group a message is for: opaque to the transport. For a
/// partition, the topic id and the partition index; the controller group
/// picks its own value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupId {
    pub key: u128,
    pub index: i32,
}

impl std::fmt::Display for GroupId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}-{}", self.key, self.index)
    }
}

/// A Raft RPC sent to one group on another node.
#[derive(Debug, Clone)]
pub enum RaftRequest {
    Vote(VoteRequest<TypeConfig>),
    /// A pre-vote (openraft's `Config::enable_pre_vote`): answered like a
    /// vote, but changes nothing on the receiver.
    PreVote(VoteRequest<TypeConfig>),
    Append(AppendEntriesRequest<TypeConfig>),
    /// The broker's own call (e.g. a metadata change forwarded to the
    /// controller leader): opaque bytes, answered by [`RaftResponse::App`].
    App(Bytes),
    /// A leader hands its leadership to the receiver (controlled
    /// shutdown, preferred-leader rebalancing).
    TransferLeader(TransferLeaderRequest<TypeConfig>),
    /// A leader's snapshot for a follower behind its purge point: the
    /// follower resets its log to the leader's (see [`ResetSource`]).
    InstallSnapshot {
        vote: Vote,
        meta: SnapshotMeta,
        source: ResetSource,
    },
    /// A follower resetting its log reads the leader's committed batches
    /// from offset `from` (or the log start) on, below `until`.
    ReadLog {
        from: i64,
        until: i64,
        max_bytes: u32,
    },
    /// One shard's coalesced beat to a peer node (see
    /// [`super::HeartbeatTicker`]): the sender is alive, and these of its
    /// leader groups are quiet. Sent to no group in particular; answered
    /// by [`RaftResponse::Beat`].
    Beat(Beat),
}

/// A leader shard's beat: who it is and which of its groups are quiet.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Beat {
    /// The sending shard on its node (with the node id from the
    /// connection's hello, it names the sender of the groups listed).
    pub shard: u32,
    pub groups: Vec<QuietGroup>,
}

/// A leader group that stopped heartbeating: its followers stop their
/// election timers while they match it and its node keeps beating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuietGroup {
    pub group: GroupId,
    /// The leader's term.
    pub term: u64,
    /// The leader's last log index, everything of which is committed and
    /// was acknowledged by every follower (`None`: an empty log).
    pub last_index: Option<u64>,
}

/// Encoded size of one [`QuietGroup`].
const QUIET_GROUP_LEN: usize = 16 + 4 + 8 + 8;
/// Encoded size of one group id.
const GROUP_ID_LEN: usize = 16 + 4;

/// The answer to a [`RaftRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RaftResponse {
    Vote(VoteResponse<TypeConfig>),
    Append(AppendEntriesResponse<TypeConfig>),
    /// The answer to a [`RaftRequest::App`].
    App(Bytes),
    TransferLeader(TransferLeaderResponse<TypeConfig>),
    InstallSnapshot(SnapshotResponse<TypeConfig>),
    /// The batches a [`RaftRequest::ReadLog`] asked for (empty: none).
    Log(Bytes),
    /// The answer to a [`RaftRequest::Beat`]: the listed groups the
    /// receiver could not quiet (its replica is not a caught-up follower
    /// of that leader and term, or is not there); their leader resumes
    /// heartbeats.
    Beat(Vec<GroupId>),
    /// The request could not be delivered to the group.
    Error(RemoteFailure),
}

/// Why a node could not deliver a request to a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteFailure {
    pub code: FailureCode,
    pub message: String,
}

/// The kind of a [`RemoteFailure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureCode {
    /// No replica of this group on the receiving node (not created yet,
    /// or moved away).
    GroupNotHere,
    /// The replica exists but its Raft group has stopped.
    GroupStopped,
    /// The receiving node refuses the request (shutting down, fenced).
    Refused,
    /// A code this build does not know (a newer peer).
    Other(u16),
}

impl FailureCode {
    fn to_u16(self) -> u16 {
        match self {
            FailureCode::GroupNotHere => 1,
            FailureCode::GroupStopped => 2,
            FailureCode::Refused => 3,
            FailureCode::Other(c) => c,
        }
    }

    fn from_u16(c: u16) -> Self {
        match c {
            1 => FailureCode::GroupNotHere,
            2 => FailureCode::GroupStopped,
            3 => FailureCode::Refused,
            c => FailureCode::Other(c),
        }
    }
}

/// One decoded frame.
#[derive(Debug, Clone)]
pub enum Frame {
    /// The first frame a client sends: who is calling.
    Hello { node: NodeId },
    Request {
        corr: u64,
        group: GroupId,
        req: RaftRequest,
    },
    Response {
        corr: u64,
        group: GroupId,
        resp: RaftResponse,
    },
}

/// Why a frame could not be encoded or decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    #[error("frame truncated: {0}")]
    Truncated(&'static str),
    #[error("invalid frame: {0}")]
    Invalid(String),
    #[error("frame of {size} bytes exceeds the limit of {max}")]
    TooLarge { size: usize, max: usize },
    /// A leader's batch must be stamped (offsets, epoch) before it is
    /// replicated: followers store the bytes as they arrive.
    #[error("refusing to send an unstamped batch")]
    Unstamped,
}

const KIND_HELLO: u8 = 0;
const KIND_VOTE_REQ: u8 = 1;
const KIND_APPEND_REQ: u8 = 2;
const KIND_PRE_VOTE_REQ: u8 = 3;
const KIND_APP_REQ: u8 = 4;
const KIND_TRANSFER_REQ: u8 = 5;
const KIND_SNAPSHOT_REQ: u8 = 6;
const KIND_READ_LOG_REQ: u8 = 7;
const KIND_BEAT_REQ: u8 = 8;
const KIND_BEAT_RESP: u8 = 0x88;
const KIND_SNAPSHOT_RESP: u8 = 0x86;
const KIND_LOG_RESP: u8 = 0x87;
const KIND_APP_RESP: u8 = 0x84;
const KIND_TRANSFER_RESP: u8 = 0x85;
const KIND_VOTE_RESP: u8 = 0x81;
const KIND_APPEND_RESP: u8 = 0x82;
const KIND_ERROR_RESP: u8 = 0xff;

const HELLO_MAGIC: u32 = 0x544d_5254; // "TMRT"
const VERSION: u16 = 0;

/// Size of the `[size u32]` prefix.
pub const SIZE_PREFIX: usize = 4;
/// Bytes of every frame's header after the size prefix.
pub const HEADER_LEN: usize = 1 + 8 + 16 + 4;

const VOTE_LEN: usize = 8 + 8 + 1;
const LOG_ID_LEN: usize = 16;
/// The smallest encoded entry (a blank): what a count is checked against.
const MIN_ENTRY_LEN: usize = LOG_ID_LEN + 1;
/// Most entries in one AppendEntries. openraft sends at most
/// `ReplicaConfig::max_payload_entries` (256 by default), far below.
pub const MAX_ENTRIES: usize = 1 << 16;

/// Reads a size prefix; `Err` if the frame is larger than `max` (the
/// connection is then closed: its stream can no longer be trusted) or
/// too small to hold a header.
pub fn frame_size(prefix: [u8; 4], max: usize) -> Result<usize, CodecError> {
    let size = u32::from_be_bytes(prefix) as usize;
    if size > max {
        return Err(CodecError::TooLarge { size, max });
    }
    if size < HEADER_LEN {
        return Err(CodecError::Truncated("header"));
    }
    Ok(size)
}

fn opt_log_id_len(l: &Option<LogId>) -> usize {
    1 + if l.is_some() { LOG_ID_LEN } else { 0 }
}

fn entry_len(e: &Entry) -> usize {
    LOG_ID_LEN
        + 1
        + match &e.payload {
            Payload::Blank => 0,
            Payload::Normal(b) => 4 + b.bytes().len(),
            // Membership entries are rare (group changes): computing their
            // encoding twice costs nothing that matters.
            Payload::Membership(m) => 4 + encode_membership(m).len(),
        }
}

/// Encoded size of a request frame, size prefix included (so that a
/// sender can reserve queue space before encoding into the queue).
pub fn request_len(req: &RaftRequest) -> usize {
    SIZE_PREFIX
        + HEADER_LEN
        + match req {
            RaftRequest::Vote(v) | RaftRequest::PreVote(v) => {
                VOTE_LEN + opt_log_id_len(&v.last_log_id) + 1
            }
            RaftRequest::Append(a) => {
                VOTE_LEN
                    + opt_log_id_len(&a.prev_log_id)
                    + opt_log_id_len(&a.leader_commit)
                    + 4
                    + a.entries.iter().map(entry_len).sum::<usize>()
            }
            RaftRequest::App(b) => 4 + b.len(),
            RaftRequest::TransferLeader(t) => {
                VOTE_LEN + 8 + opt_log_id_len(&t.last_log_id().copied())
            }
            RaftRequest::InstallSnapshot { meta, source, .. } => {
                VOTE_LEN
                    + opt_log_id_len(&meta.last_log_id)
                    + opt_log_id_len(meta.last_membership.log_id())
                    + 4
                    + encode_membership(meta.last_membership.membership()).len()
                    + 8
                    + 8
                    + 8
                    + 4
                    + source.epochs.len() * 24
            }
            RaftRequest::ReadLog { .. } => 8 + 8 + 4,
            RaftRequest::Beat(b) => 4 + 4 + b.groups.len() * QUIET_GROUP_LEN,
        }
}

/// Encoded size of a response frame, size prefix included.
pub fn response_len(resp: &RaftResponse) -> usize {
    SIZE_PREFIX
        + HEADER_LEN
        + match resp {
            RaftResponse::Vote(v) => VOTE_LEN + 1 + opt_log_id_len(&v.last_log_id),
            RaftResponse::Append(a) => {
                1 + match a {
                    AppendEntriesResponse::Success | AppendEntriesResponse::Conflict => 0,
                    AppendEntriesResponse::PartialSuccess(l) => opt_log_id_len(l),
                    AppendEntriesResponse::HigherVote(_) => VOTE_LEN,
                }
            }
            RaftResponse::App(b) => 4 + b.len(),
            RaftResponse::Beat(g) => 4 + g.len() * GROUP_ID_LEN,
            RaftResponse::TransferLeader(r) => {
                1 + match r {
                    Ok(()) => 0,
                    Err(TransferLeaderError::VoteChanged { .. }) => 2 * VOTE_LEN,
                    Err(TransferLeaderError::LogNotFlushed { expected, actual }) => {
                        opt_log_id_len(expected) + opt_log_id_len(actual)
                    }
                }
            }
            RaftResponse::InstallSnapshot(_) => VOTE_LEN,
            RaftResponse::Log(b) => 4 + b.len(),
            RaftResponse::Error(e) => 2 + 2 + message_bytes(&e.message).len(),
        }
}

/// The message of an error response, cut to what a u16 length holds (at
/// a character boundary).
fn message_bytes(m: &str) -> &[u8] {
    let mut end = m.len().min(1024);
    while !m.is_char_boundary(end) {
        end -= 1;
    }
    &m.as_bytes()[..end]
}

fn put_header(buf: &mut BytesMut, size: usize, kind: u8, corr: u64, group: GroupId) {
    buf.put_u32((size - SIZE_PREFIX) as u32);
    buf.put_u8(kind);
    buf.put_u64(corr);
    buf.put_u128(group.key);
    buf.put_i32(group.index);
}

fn put_vote(buf: &mut BytesMut, v: &Vote) {
    buf.put_u64(v.leader_id.term);
    buf.put_u64(v.leader_id.voted_for);
    buf.put_u8(v.committed as u8);
}

fn put_log_id(buf: &mut BytesMut, l: &LogId) {
    buf.put_u64(l.leader_id.term);
    buf.put_u64(l.index);
}

fn put_opt_log_id(buf: &mut BytesMut, l: &Option<LogId>) {
    match l {
        None => buf.put_u8(0),
        Some(l) => {
            buf.put_u8(1);
            put_log_id(buf, l);
        }
    }
}

/// Payloads at least this long (record batches, log reads) are queued as
/// their own chunk by an [`OutBuf`] instead of being copied. Each chunk
/// is one write call: below this size copying costs less than the call.
pub const SHARE_MIN: usize = 64 * 1024;

/// Where frames are encoded: the header fields go to `bytes()`, payloads
/// (record batches, log reads) to `put_shared`, which a plain `BytesMut`
/// copies and an [`OutBuf`] keeps as its own chunk.
pub trait FrameSink {
    /// The buffer the next fixed-size fields are written to.
    fn bytes(&mut self) -> &mut BytesMut;
    /// Appends `b` (which [`OutBuf`] does without copying it).
    fn put_shared(&mut self, b: &Bytes);
    /// Bytes appended so far.
    fn encoded_len(&self) -> usize;
    /// Makes room for a frame of `size` bytes, `shared` of them payloads.
    fn reserve_frame(&mut self, size: usize, shared: usize);
}

impl FrameSink for BytesMut {
    fn bytes(&mut self) -> &mut BytesMut {
        self
    }
    fn put_shared(&mut self, b: &Bytes) {
        self.extend_from_slice(b);
    }
    fn encoded_len(&self) -> usize {
        self.len()
    }
    fn reserve_frame(&mut self, size: usize, _shared: usize) {
        self.reserve(size);
    }
}

/// Frames waiting to be written on one connection: small fields gathered
/// in one buffer, payloads of [`SHARE_MIN`] bytes or more kept as their
/// own [`Bytes`] (the leader's record batches go to the socket from the
/// log's tail cache or read buffer, with no copy into a send buffer: that
/// copy, once per follower, was 7% of a three-node benchmark's broker CPU).
#[derive(Default)]
pub struct OutBuf {
    chunks: Vec<Bytes>,
    chunked: usize,
    scratch: BytesMut,
}

impl OutBuf {
    pub fn is_empty(&self) -> bool {
        self.chunked == 0 && self.scratch.is_empty()
    }

    /// Everything appended, in order, as chunks to write one after another.
    pub fn take(&mut self) -> Vec<Bytes> {
        self.seal();
        self.chunked = 0;
        std::mem::take(&mut self.chunks)
    }

    pub fn clear(&mut self) {
        self.chunks.clear();
        self.chunked = 0;
        self.scratch.clear();
    }

    fn seal(&mut self) {
        if !self.scratch.is_empty() {
            let s = self.scratch.split().freeze();
            self.chunked += s.len();
            self.chunks.push(s);
        }
    }
}

impl FrameSink for OutBuf {
    fn bytes(&mut self) -> &mut BytesMut {
        &mut self.scratch
    }
    fn put_shared(&mut self, b: &Bytes) {
        if b.len() < SHARE_MIN {
            self.scratch.extend_from_slice(b);
            return;
        }
        self.seal();
        self.chunked += b.len();
        self.chunks.push(b.clone());
    }
    fn encoded_len(&self) -> usize {
        self.chunked + self.scratch.len()
    }
    fn reserve_frame(&mut self, size: usize, shared: usize) {
        self.scratch.reserve(size - shared);
    }
}

/// Appends the hello frame of node `node`.
pub fn encode_hello(out: &mut impl FrameSink, node: NodeId) {
    let buf = out.bytes();
    let size = SIZE_PREFIX + HEADER_LEN + 4 + 2 + 8;
    put_header(buf, size, KIND_HELLO, 0, GroupId { key: 0, index: 0 });
    buf.put_u32(HELLO_MAGIC);
    buf.put_u16(VERSION);
    buf.put_u64(node);
}

/// Appends a request frame to `buf`. On error nothing is appended.
pub fn encode_request(
    out: &mut impl FrameSink,
    corr: u64,
    group: GroupId,
    req: &RaftRequest,
) -> Result<(), CodecError> {
    let size = request_len(req);
    if size - SIZE_PREFIX > u32::MAX as usize {
        return Err(CodecError::TooLarge {
            size,
            max: u32::MAX as usize,
        });
    }
    if let RaftRequest::Append(a) = req {
        for e in &a.entries {
            if let Payload::Normal(b) = &e.payload
                && !b.is_stamped()
            {
                return Err(CodecError::Unstamped);
            }
        }
    }
    let start = out.encoded_len();
    if let RaftRequest::Append(a) = req {
        encode_append(out, size, corr, group, a);
        debug_assert_eq!(out.encoded_len() - start, size);
        return Ok(());
    }
    out.reserve_frame(size, 0);
    let buf = out.bytes();
    match req {
        RaftRequest::Vote(v) | RaftRequest::PreVote(v) => {
            let kind = if matches!(req, RaftRequest::Vote(_)) {
                KIND_VOTE_REQ
            } else {
                KIND_PRE_VOTE_REQ
            };
            put_header(buf, size, kind, corr, group);
            put_vote(buf, &v.vote);
            put_opt_log_id(buf, &v.last_log_id);
            buf.put_u8(v.leadership_transfer as u8);
        }
        RaftRequest::Append(_) => unreachable!("encoded above"),
        RaftRequest::App(b) => {
            put_header(buf, size, KIND_APP_REQ, corr, group);
            buf.put_u32(b.len() as u32);
            buf.put_slice(b);
        }
        RaftRequest::TransferLeader(t) => {
            put_header(buf, size, KIND_TRANSFER_REQ, corr, group);
            put_vote(buf, t.from_leader());
            buf.put_u64(*t.to_node_id());
            put_opt_log_id(buf, &t.last_log_id().copied());
        }
        RaftRequest::InstallSnapshot { vote, meta, source } => {
            put_header(buf, size, KIND_SNAPSHOT_REQ, corr, group);
            put_vote(buf, vote);
            put_opt_log_id(buf, &meta.last_log_id);
            put_opt_log_id(buf, meta.last_membership.log_id());
            let m = encode_membership(meta.last_membership.membership());
            buf.put_u32(m.len() as u32);
            buf.put_slice(&m);
            buf.put_u64(source.leader);
            buf.put_i64(source.log_start);
            buf.put_i64(source.next_offset);
            buf.put_u32(source.epochs.len() as u32);
            for &(term, index, offset) in &source.epochs {
                buf.put_u64(term);
                buf.put_u64(index);
                buf.put_i64(offset);
            }
        }
        RaftRequest::ReadLog {
            from,
            until,
            max_bytes,
        } => {
            put_header(buf, size, KIND_READ_LOG_REQ, corr, group);
            buf.put_i64(*from);
            buf.put_i64(*until);
            buf.put_u32(*max_bytes);
        }
        RaftRequest::Beat(b) => {
            put_header(buf, size, KIND_BEAT_REQ, corr, group);
            buf.put_u32(b.shard);
            buf.put_u32(b.groups.len() as u32);
            for q in &b.groups {
                buf.put_u128(q.group.key);
                buf.put_i32(q.group.index);
                buf.put_u64(q.term);
                // An index is far below u64::MAX, which stands for none.
                buf.put_u64(q.last_index.unwrap_or(u64::MAX));
            }
        }
    }
    debug_assert_eq!(out.encoded_len() - start, size);
    Ok(())
}

/// An AppendEntries frame: its batches go to `out` as payloads (not
/// copied by an [`OutBuf`]).
fn encode_append(
    out: &mut impl FrameSink,
    size: usize,
    corr: u64,
    group: GroupId,
    a: &AppendEntriesRequest<TypeConfig>,
) {
    let shared: usize = a
        .entries
        .iter()
        .map(|e| match &e.payload {
            Payload::Normal(b) if b.bytes().len() >= SHARE_MIN => b.bytes().len(),
            _ => 0,
        })
        .sum();
    out.reserve_frame(size, shared);
    let buf = out.bytes();
    put_header(buf, size, KIND_APPEND_REQ, corr, group);
    put_vote(buf, &a.vote);
    put_opt_log_id(buf, &a.prev_log_id);
    put_opt_log_id(buf, &a.leader_commit);
    buf.put_u32(a.entries.len() as u32);
    for e in &a.entries {
        let buf = out.bytes();
        put_log_id(buf, &e.log_id);
        match &e.payload {
            Payload::Blank => buf.put_u8(0),
            Payload::Normal(b) => {
                buf.put_u8(1);
                buf.put_u32(b.bytes().len() as u32);
                out.put_shared(b.bytes());
            }
            Payload::Membership(m) => {
                let m = encode_membership(m);
                buf.put_u8(2);
                buf.put_u32(m.len() as u32);
                buf.put_slice(&m);
            }
        }
    }
}

/// Appends a response frame to `out`.
pub fn encode_response(out: &mut impl FrameSink, corr: u64, group: GroupId, resp: &RaftResponse) {
    let size = response_len(resp);
    let start = out.encoded_len();
    if let RaftResponse::Log(b) = resp {
        out.reserve_frame(size, if b.len() >= SHARE_MIN { b.len() } else { 0 });
        let buf = out.bytes();
        put_header(buf, size, KIND_LOG_RESP, corr, group);
        buf.put_u32(b.len() as u32);
        out.put_shared(b);
        debug_assert_eq!(out.encoded_len() - start, size);
        return;
    }
    out.reserve_frame(size, 0);
    let buf = out.bytes();
    match resp {
        RaftResponse::Vote(v) => {
            put_header(buf, size, KIND_VOTE_RESP, corr, group);
            put_vote(buf, &v.vote);
            buf.put_u8(v.vote_granted as u8);
            put_opt_log_id(buf, &v.last_log_id);
        }
        RaftResponse::Append(a) => {
            put_header(buf, size, KIND_APPEND_RESP, corr, group);
            match a {
                AppendEntriesResponse::Success => buf.put_u8(0),
                AppendEntriesResponse::PartialSuccess(l) => {
                    buf.put_u8(1);
                    put_opt_log_id(buf, l);
                }
                AppendEntriesResponse::Conflict => buf.put_u8(2),
                AppendEntriesResponse::HigherVote(v) => {
                    buf.put_u8(3);
                    put_vote(buf, v);
                }
            }
        }
        RaftResponse::App(b) => {
            put_header(buf, size, KIND_APP_RESP, corr, group);
            buf.put_u32(b.len() as u32);
            buf.put_slice(b);
        }
        RaftResponse::Beat(groups) => {
            put_header(buf, size, KIND_BEAT_RESP, corr, group);
            buf.put_u32(groups.len() as u32);
            for g in groups {
                buf.put_u128(g.key);
                buf.put_i32(g.index);
            }
        }
        RaftResponse::TransferLeader(r) => {
            put_header(buf, size, KIND_TRANSFER_RESP, corr, group);
            match r {
                Ok(()) => buf.put_u8(0),
                Err(TransferLeaderError::VoteChanged { expected, actual }) => {
                    buf.put_u8(1);
                    put_vote(buf, expected);
                    put_vote(buf, actual);
                }
                Err(TransferLeaderError::LogNotFlushed { expected, actual }) => {
                    buf.put_u8(2);
                    put_opt_log_id(buf, expected);
                    put_opt_log_id(buf, actual);
                }
            }
        }
        RaftResponse::InstallSnapshot(r) => {
            put_header(buf, size, KIND_SNAPSHOT_RESP, corr, group);
            put_vote(buf, &r.vote);
        }
        RaftResponse::Log(_) => unreachable!("encoded above"),
        RaftResponse::Error(e) => {
            put_header(buf, size, KIND_ERROR_RESP, corr, group);
            let m = message_bytes(&e.message);
            buf.put_u16(e.code.to_u16());
            buf.put_u16(m.len() as u16);
            buf.put_slice(m);
        }
    }
    debug_assert_eq!(out.encoded_len() - start, size);
}

/// A cursor over a frame's bytes whose reads fail instead of panicking.
struct Reader {
    b: Bytes,
}

impl Reader {
    fn need(&self, n: usize, what: &'static str) -> Result<(), CodecError> {
        if self.b.remaining() < n {
            Err(CodecError::Truncated(what))
        } else {
            Ok(())
        }
    }
    fn u8(&mut self, what: &'static str) -> Result<u8, CodecError> {
        self.need(1, what)?;
        Ok(self.b.get_u8())
    }
    fn bool(&mut self, what: &'static str) -> Result<bool, CodecError> {
        match self.u8(what)? {
            0 => Ok(false),
            1 => Ok(true),
            x => Err(CodecError::Invalid(format!("{what}: boolean {x}"))),
        }
    }
    fn u16(&mut self, what: &'static str) -> Result<u16, CodecError> {
        self.need(2, what)?;
        Ok(self.b.get_u16())
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, CodecError> {
        self.need(4, what)?;
        Ok(self.b.get_u32())
    }
    fn u64(&mut self, what: &'static str) -> Result<u64, CodecError> {
        self.need(8, what)?;
        Ok(self.b.get_u64())
    }
    fn i64(&mut self, what: &'static str) -> Result<i64, CodecError> {
        self.need(8, what)?;
        Ok(self.b.get_i64())
    }
    fn bytes(&mut self, what: &'static str) -> Result<Bytes, CodecError> {
        let n = self.u32(what)? as usize;
        self.need(n, what)?;
        Ok(self.b.split_to(n))
    }
    fn vote(&mut self) -> Result<Vote, CodecError> {
        let term = self.u64("vote term")?;
        let node = self.u64("vote node")?;
        let committed = self.bool("vote committed")?;
        Ok(Vote {
            leader_id: leader_id_std::LeaderId {
                term,
                voted_for: node,
            },
            committed,
        })
    }
    fn log_id(&mut self) -> Result<LogId, CodecError> {
        let term = self.u64("log id term")?;
        let index = self.u64("log id index")?;
        Ok(log_id(term, index))
    }
    fn opt_log_id(&mut self) -> Result<Option<LogId>, CodecError> {
        if self.bool("log id presence")? {
            Ok(Some(self.log_id()?))
        } else {
            Ok(None)
        }
    }
    fn entry(&mut self) -> Result<Entry, CodecError> {
        let log_id = self.log_id()?;
        let payload = match self.u8("payload kind")? {
            0 => Payload::Blank,
            // Received batches were stamped by the leader; the follower
            // stores them as they are.
            1 => Payload::Normal(KafkaBatch::stored(self.bytes("batch")?)),
            2 => {
                let m = self.bytes("membership")?;
                Payload::Membership(
                    decode_membership(&m).map_err(|e| CodecError::Invalid(e.to_string()))?,
                )
            }
            k => return Err(CodecError::Invalid(format!("payload kind {k}"))),
        };
        Ok(Entry { log_id, payload })
    }
    fn end(&self) -> Result<(), CodecError> {
        if self.b.has_remaining() {
            Err(CodecError::Invalid(format!(
                "{} bytes after the body",
                self.b.remaining()
            )))
        } else {
            Ok(())
        }
    }
}

/// Decodes one frame from its bytes after the size prefix.
pub fn decode_frame(frame: Bytes) -> Result<Frame, CodecError> {
    let mut r = Reader { b: frame };
    r.need(HEADER_LEN, "header")?;
    let kind = r.u8("kind")?;
    let corr = r.u64("correlation id")?;
    r.need(20, "group")?;
    let group = GroupId {
        key: r.b.get_u128(),
        index: r.b.get_i32(),
    };
    let frame = match kind {
        KIND_HELLO => {
            let magic = r.u32("magic")?;
            let version = r.u16("version")?;
            if magic != HELLO_MAGIC || version != VERSION {
                return Err(CodecError::Invalid(format!(
                    "hello magic {magic:#x} version {version}"
                )));
            }
            Frame::Hello {
                node: r.u64("node")?,
            }
        }
        KIND_VOTE_REQ | KIND_PRE_VOTE_REQ => {
            let vote = r.vote()?;
            let last_log_id = r.opt_log_id()?;
            let leadership_transfer = r.bool("leadership transfer")?;
            let v = VoteRequest {
                vote,
                last_log_id,
                leadership_transfer,
            };
            Frame::Request {
                corr,
                group,
                req: if kind == KIND_VOTE_REQ {
                    RaftRequest::Vote(v)
                } else {
                    RaftRequest::PreVote(v)
                },
            }
        }
        KIND_APPEND_REQ => {
            let vote = r.vote()?;
            let prev_log_id = r.opt_log_id()?;
            let leader_commit = r.opt_log_id()?;
            let n = r.u32("entry count")? as usize;
            // Invariant 5: a count never reserves more than the frame holds;
            // and as a decoded entry is larger than a blank on the wire, the
            // count is capped too, so a frame of blanks cannot make the
            // decoder allocate many times the frame limit.
            if n > MAX_ENTRIES || n > r.b.remaining() / MIN_ENTRY_LEN {
                return Err(CodecError::Invalid(format!(
                    "{n} entries in {} bytes",
                    r.b.remaining()
                )));
            }
            // The count is plausible for the bytes, but an `Entry` in
            // memory is larger than a blank on the wire: reserve no more
            // than the frame's own size up front and let the vector grow
            // with entries actually decoded.
            let fit = r.b.remaining() / std::mem::size_of::<Entry>().max(1);
            let mut entries = Vec::with_capacity(n.min(fit.max(1)));
            for _ in 0..n {
                entries.push(r.entry()?);
            }
            Frame::Request {
                corr,
                group,
                req: RaftRequest::Append(AppendEntriesRequest {
                    vote,
                    prev_log_id,
                    leader_commit,
                    entries,
                }),
            }
        }
        KIND_APP_REQ => Frame::Request {
            corr,
            group,
            req: RaftRequest::App(r.bytes("app request")?),
        },
        KIND_TRANSFER_REQ => {
            let vote = r.vote()?;
            let to = r.u64("transfer target")?;
            let last = r.opt_log_id()?;
            Frame::Request {
                corr,
                group,
                req: RaftRequest::TransferLeader(TransferLeaderRequest::new(vote, to, last)),
            }
        }
        KIND_SNAPSHOT_REQ => {
            let vote = r.vote()?;
            let last_log_id = r.opt_log_id()?;
            let membership_log_id = r.opt_log_id()?;
            let m = r.bytes("membership")?;
            let membership =
                decode_membership(&m).map_err(|e| CodecError::Invalid(e.to_string()))?;
            let leader = r.u64("reset leader")?;
            let log_start = r.i64("reset log start")?;
            let next_offset = r.i64("reset next offset")?;
            let n = r.u32("epoch count")? as usize;
            // Invariant 5: the count is checked against the bytes left.
            if n > r.b.remaining() / 24 {
                return Err(CodecError::Invalid(format!(
                    "{n} epochs in {} bytes",
                    r.b.remaining()
                )));
            }
            let mut epochs = Vec::with_capacity(n);
            for _ in 0..n {
                epochs.push((
                    r.u64("epoch term")?,
                    r.u64("epoch index")?,
                    r.i64("epoch offset")?,
                ));
            }
            Frame::Request {
                corr,
                group,
                req: RaftRequest::InstallSnapshot {
                    vote,
                    meta: SnapshotMeta {
                        last_log_id,
                        last_membership: StoredMembership::new(membership_log_id, membership),
                    },
                    source: ResetSource {
                        leader,
                        log_start,
                        next_offset,
                        epochs,
                    },
                },
            }
        }
        KIND_READ_LOG_REQ => Frame::Request {
            corr,
            group,
            req: RaftRequest::ReadLog {
                from: r.i64("read from")?,
                until: r.i64("read until")?,
                max_bytes: r.u32("read max bytes")?,
            },
        },
        KIND_BEAT_REQ => {
            let shard = r.u32("beat shard")?;
            let n = r.u32("beat group count")? as usize;
            // Invariant 5: the count is checked against the bytes left.
            if n > r.b.remaining() / QUIET_GROUP_LEN {
                return Err(CodecError::Invalid(format!(
                    "{n} quiet groups in {} bytes",
                    r.b.remaining()
                )));
            }
            let mut groups = Vec::with_capacity(n);
            for _ in 0..n {
                r.need(QUIET_GROUP_LEN, "quiet group")?;
                let group = GroupId {
                    key: r.b.get_u128(),
                    index: r.b.get_i32(),
                };
                let term = r.b.get_u64();
                let last = r.b.get_u64();
                groups.push(QuietGroup {
                    group,
                    term,
                    last_index: (last != u64::MAX).then_some(last),
                });
            }
            Frame::Request {
                corr,
                group,
                req: RaftRequest::Beat(Beat { shard, groups }),
            }
        }
        KIND_BEAT_RESP => {
            let n = r.u32("beat answer count")? as usize;
            if n > r.b.remaining() / GROUP_ID_LEN {
                return Err(CodecError::Invalid(format!(
                    "{n} group ids in {} bytes",
                    r.b.remaining()
                )));
            }
            let mut groups = Vec::with_capacity(n);
            for _ in 0..n {
                r.need(GROUP_ID_LEN, "group id")?;
                groups.push(GroupId {
                    key: r.b.get_u128(),
                    index: r.b.get_i32(),
                });
            }
            Frame::Response {
                corr,
                group,
                resp: RaftResponse::Beat(groups),
            }
        }
        KIND_SNAPSHOT_RESP => Frame::Response {
            corr,
            group,
            resp: RaftResponse::InstallSnapshot(SnapshotResponse { vote: r.vote()? }),
        },
        KIND_LOG_RESP => Frame::Response {
            corr,
            group,
            resp: RaftResponse::Log(r.bytes("log batches")?),
        },
        KIND_TRANSFER_RESP => {
            let resp = match r.u8("transfer response tag")? {
                0 => Ok(()),
                1 => Err(TransferLeaderError::VoteChanged {
                    expected: r.vote()?,
                    actual: r.vote()?,
                }),
                2 => Err(TransferLeaderError::LogNotFlushed {
                    expected: r.opt_log_id()?,
                    actual: r.opt_log_id()?,
                }),
                t => return Err(CodecError::Invalid(format!("transfer response tag {t}"))),
            };
            Frame::Response {
                corr,
                group,
                resp: RaftResponse::TransferLeader(resp),
            }
        }
        KIND_APP_RESP => Frame::Response {
            corr,
            group,
            resp: RaftResponse::App(r.bytes("app response")?),
        },
        KIND_VOTE_RESP => {
            let vote = r.vote()?;
            let vote_granted = r.bool("granted")?;
            let last_log_id = r.opt_log_id()?;
            Frame::Response {
                corr,
                group,
                resp: RaftResponse::Vote(VoteResponse {
                    vote,
                    vote_granted,
                    last_log_id,
                }),
            }
        }
        KIND_APPEND_RESP => {
            let resp = match r.u8("append response tag")? {
                0 => AppendEntriesResponse::Success,
                1 => AppendEntriesResponse::PartialSuccess(r.opt_log_id()?),
                2 => AppendEntriesResponse::Conflict,
                3 => AppendEntriesResponse::HigherVote(r.vote()?),
                t => return Err(CodecError::Invalid(format!("append response tag {t}"))),
            };
            Frame::Response {
                corr,
                group,
                resp: RaftResponse::Append(resp),
            }
        }
        KIND_ERROR_RESP => {
            let code = FailureCode::from_u16(r.u16("error code")?);
            let n = r.u16("error message")? as usize;
            r.need(n, "error message")?;
            let message = String::from_utf8_lossy(&r.b.split_to(n)).into_owned();
            Frame::Response {
                corr,
                group,
                resp: RaftResponse::Error(RemoteFailure { code, message }),
            }
        }
        k => return Err(CodecError::Invalid(format!("frame kind {k:#x}"))),
    };
    r.end()?;
    Ok(frame)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::types::GroupMembership;

    const G: GroupId = GroupId {
        key: 0x0123_4567_89ab_cdef_0011_2233_4455_6677,
        index: -7,
    };

    fn vote(term: u64, node: u64, committed: bool) -> Vote {
        let mut v = Vote::new(term, node);
        v.committed = committed;
        v
    }

    fn membership() -> GroupMembership {
        GroupMembership::new(
            vec![BTreeSet::from([1, 2, 3]), BTreeSet::from([2, 3, 4])],
            BTreeSet::from([1, 2, 3, 4, 9]),
        )
        .unwrap()
    }

    fn append_with_everything() -> AppendEntriesRequest<TypeConfig> {
        AppendEntriesRequest {
            vote: vote(7, 2, true),
            prev_log_id: Some(log_id(6, 41)),
            leader_commit: Some(log_id(6, 40)),
            entries: vec![
                Entry {
                    log_id: log_id(7, 42),
                    payload: Payload::Blank,
                },
                Entry {
                    log_id: log_id(7, 43),
                    payload: Payload::Normal(KafkaBatch::stored(Bytes::from_static(
                        b"a stamped kafka batch, opaque to the codec",
                    ))),
                },
                Entry {
                    log_id: log_id(7, 44),
                    payload: Payload::Membership(membership()),
                },
                Entry {
                    log_id: log_id(7, 45),
                    payload: Payload::Normal(KafkaBatch::stored(Bytes::new())),
                },
            ],
        }
    }

    fn requests() -> Vec<RaftRequest> {
        vec![
            RaftRequest::Vote(VoteRequest {
                vote: vote(3, 1, false),
                last_log_id: None,
                leadership_transfer: false,
            }),
            RaftRequest::Vote(VoteRequest {
                vote: vote(u64::MAX, u64::MAX, true),
                last_log_id: Some(log_id(2, 99)),
                leadership_transfer: true,
            }),
            RaftRequest::PreVote(VoteRequest {
                vote: vote(5, 3, false),
                last_log_id: Some(log_id(4, 7)),
                leadership_transfer: false,
            }),
            RaftRequest::Append(AppendEntriesRequest {
                vote: vote(1, 1, true),
                prev_log_id: None,
                leader_commit: None,
                entries: vec![],
            }),
            RaftRequest::App(Bytes::new()),
            RaftRequest::App(Bytes::from_static(b"{\"cmd\":1}")),
            RaftRequest::TransferLeader(TransferLeaderRequest::new(vote(7, 2, true), 3, None)),
            RaftRequest::TransferLeader(TransferLeaderRequest::new(
                vote(8, 1, true),
                2,
                Some(log_id(8, 1234)),
            )),
            RaftRequest::InstallSnapshot {
                vote: vote(6, 2, true),
                meta: SnapshotMeta {
                    last_log_id: Some(log_id(5, 900)),
                    last_membership: StoredMembership::new(Some(log_id(1, 0)), membership()),
                },
                source: ResetSource {
                    leader: 2,
                    log_start: 1840,
                    next_offset: 2040,
                    epochs: vec![(1, 0, 0), (5, 700, 1500)],
                },
            },
            RaftRequest::InstallSnapshot {
                vote: vote(1, 1, true),
                meta: SnapshotMeta {
                    last_log_id: None,
                    last_membership: StoredMembership::default(),
                },
                source: ResetSource::default(),
            },
            RaftRequest::ReadLog {
                from: 1840,
                until: 2040,
                max_bytes: 4 << 20,
            },
            RaftRequest::Beat(Beat::default()),
            RaftRequest::Beat(Beat {
                shard: 3,
                groups: vec![
                    QuietGroup {
                        group: G,
                        term: 7,
                        last_index: Some(1234),
                    },
                    QuietGroup {
                        group: GroupId { key: 1, index: 0 },
                        term: 1,
                        last_index: None,
                    },
                ],
            }),
            // Last: `received_batches_are_slices_of_the_frame` takes it.
            RaftRequest::Append(append_with_everything()),
        ]
    }

    fn responses() -> Vec<RaftResponse> {
        vec![
            RaftResponse::Vote(VoteResponse {
                vote: vote(4, 2, false),
                vote_granted: true,
                last_log_id: Some(log_id(3, 10)),
            }),
            RaftResponse::Vote(VoteResponse {
                vote: vote(4, 3, true),
                vote_granted: false,
                last_log_id: None,
            }),
            RaftResponse::Append(AppendEntriesResponse::Success),
            RaftResponse::Append(AppendEntriesResponse::PartialSuccess(None)),
            RaftResponse::Append(AppendEntriesResponse::PartialSuccess(Some(log_id(5, 6)))),
            RaftResponse::Append(AppendEntriesResponse::Conflict),
            RaftResponse::Append(AppendEntriesResponse::HigherVote(vote(9, 3, true))),
            RaftResponse::App(Bytes::from_static(b"answer")),
            RaftResponse::TransferLeader(Ok(())),
            RaftResponse::TransferLeader(Err(TransferLeaderError::VoteChanged {
                expected: vote(3, 1, true),
                actual: vote(4, 2, false),
            })),
            RaftResponse::TransferLeader(Err(TransferLeaderError::LogNotFlushed {
                expected: Some(log_id(3, 9)),
                actual: None,
            })),
            RaftResponse::InstallSnapshot(SnapshotResponse {
                vote: vote(6, 2, true),
            }),
            RaftResponse::Log(Bytes::new()),
            RaftResponse::Log(Bytes::from_static(b"batches")),
            RaftResponse::Beat(Vec::new()),
            RaftResponse::Beat(vec![G, GroupId { key: 9, index: 2 }]),
            RaftResponse::Error(RemoteFailure {
                code: FailureCode::GroupNotHere,
                message: "group x is not on this node".into(),
            }),
            RaftResponse::Error(RemoteFailure {
                code: FailureCode::Other(77),
                message: String::new(),
            }),
        ]
    }

    fn same_request(a: &RaftRequest, b: &RaftRequest) -> bool {
        match (a, b) {
            (RaftRequest::Vote(a), RaftRequest::Vote(b)) => a == b,
            (RaftRequest::PreVote(a), RaftRequest::PreVote(b)) => a == b,
            (RaftRequest::App(a), RaftRequest::App(b)) => a == b,
            (RaftRequest::Beat(a), RaftRequest::Beat(b)) => a == b,
            (
                RaftRequest::InstallSnapshot {
                    vote: va,
                    meta: ma,
                    source: sa,
                },
                RaftRequest::InstallSnapshot {
                    vote: vb,
                    meta: mb,
                    source: sb,
                },
            ) => va == vb && ma == mb && sa == sb,
            (
                RaftRequest::ReadLog {
                    from: fa,
                    until: ua,
                    max_bytes: xa,
                },
                RaftRequest::ReadLog {
                    from: fb,
                    until: ub,
                    max_bytes: xb,
                },
            ) => (fa, ua, xa) == (fb, ub, xb),
            (RaftRequest::TransferLeader(a), RaftRequest::TransferLeader(b)) => {
                a.from_leader() == b.from_leader()
                    && a.to_node_id() == b.to_node_id()
                    && a.last_log_id() == b.last_log_id()
            }
            (RaftRequest::Append(a), RaftRequest::Append(b)) => {
                a.vote == b.vote
                    && a.prev_log_id == b.prev_log_id
                    && a.leader_commit == b.leader_commit
                    && a.entries.len() == b.entries.len()
                    && a.entries.iter().zip(&b.entries).all(|(x, y)| {
                        x.log_id == y.log_id
                            && match (&x.payload, &y.payload) {
                                (Payload::Blank, Payload::Blank) => true,
                                (Payload::Normal(x), Payload::Normal(y)) => {
                                    x.bytes() == y.bytes() && y.is_stamped()
                                }
                                (Payload::Membership(x), Payload::Membership(y)) => x == y,
                                _ => false,
                            }
                    })
            }
            _ => false,
        }
    }

    /// Encoded request frames: (whole frame with prefix).
    fn encoded_requests() -> Vec<Bytes> {
        requests()
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut b = BytesMut::new();
                encode_request(&mut b, i as u64 + 100, G, r).unwrap();
                assert_eq!(b.len(), request_len(r));
                b.freeze()
            })
            .collect()
    }

    fn body(frame: &Bytes) -> Bytes {
        let size = frame_size(frame[..4].try_into().unwrap(), usize::MAX).unwrap();
        assert_eq!(size + SIZE_PREFIX, frame.len());
        frame.slice(SIZE_PREFIX..)
    }

    #[test]
    fn every_request_round_trips() {
        for (i, (r, frame)) in requests().iter().zip(encoded_requests()).enumerate() {
            match decode_frame(body(&frame)).unwrap() {
                Frame::Request { corr, group, req } => {
                    assert_eq!(corr, i as u64 + 100);
                    assert_eq!(group, G);
                    assert!(same_request(r, &req), "{r:?} != {req:?}");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn received_batches_are_slices_of_the_frame() {
        let frame = encoded_requests().pop().unwrap();
        let body = body(&frame);
        let range = body.as_ptr() as usize..body.as_ptr() as usize + body.len();
        let Frame::Request {
            req: RaftRequest::Append(a),
            ..
        } = decode_frame(body.clone()).unwrap()
        else {
            panic!()
        };
        let Payload::Normal(b) = &a.entries[1].payload else {
            panic!()
        };
        assert!(range.contains(&(b.bytes().as_ptr() as usize)));
    }

    #[test]
    fn a_queued_append_keeps_large_batches_as_their_own_chunks() {
        let big = Bytes::from(vec![7u8; SHARE_MIN]);
        let small = Bytes::from_static(b"small batch");
        let mut a = append_with_everything();
        a.entries[1].payload = Payload::Normal(KafkaBatch::stored(big.clone()));
        a.entries[3].payload = Payload::Normal(KafkaBatch::stored(small));
        let req = RaftRequest::Append(a);
        let log = RaftResponse::Log(big.clone());
        let mut flat = BytesMut::new();
        encode_request(&mut flat, 9, G, &req).unwrap();
        encode_response(&mut flat, 10, G, &log);
        let mut out = OutBuf::default();
        encode_request(&mut out, 9, G, &req).unwrap();
        encode_response(&mut out, 10, G, &log);
        assert_eq!(out.encoded_len(), flat.len());
        let chunks = out.take();
        assert!(out.is_empty());
        // The same bytes; the big batch (twice) not copied, the small one
        // gathered with the fields around it.
        assert_eq!(chunks.concat(), flat.to_vec());
        let shared: Vec<_> = chunks
            .iter()
            .filter(|c| c.as_ptr() == big.as_ptr())
            .collect();
        assert_eq!(shared.len(), 2, "{} chunks", chunks.len());
        assert_eq!(chunks.len(), 4, "fields, batch, fields, log bytes");
    }

    #[test]
    fn every_response_round_trips() {
        for (i, r) in responses().iter().enumerate() {
            let mut b = BytesMut::new();
            encode_response(&mut b, i as u64, G, r);
            assert_eq!(b.len(), response_len(r));
            match decode_frame(body(&b.freeze())).unwrap() {
                Frame::Response { corr, group, resp } => {
                    assert_eq!((corr, group), (i as u64, G));
                    assert_eq!(&resp, r);
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn hello_round_trips() {
        let mut b = BytesMut::new();
        encode_hello(&mut b, 42);
        assert!(matches!(
            decode_frame(body(&b.freeze())),
            Ok(Frame::Hello { node: 42 })
        ));
    }

    #[test]
    fn long_error_messages_are_cut_at_a_char_boundary() {
        let r = RaftResponse::Error(RemoteFailure {
            code: FailureCode::Refused,
            message: "é".repeat(5000),
        });
        let mut b = BytesMut::new();
        encode_response(&mut b, 1, G, &r);
        let Frame::Response {
            resp: RaftResponse::Error(e),
            ..
        } = decode_frame(body(&b.freeze())).unwrap()
        else {
            panic!()
        };
        assert_eq!(e.message, "é".repeat(512));
    }

    #[test]
    fn unstamped_batches_are_not_sent() {
        let mut a = append_with_everything();
        a.entries[1].payload = Payload::Normal(KafkaBatch::new(Bytes::from_static(b"x"), None));
        let mut b = BytesMut::new();
        assert_eq!(
            encode_request(&mut b, 1, G, &RaftRequest::Append(a)),
            Err(CodecError::Unstamped)
        );
        assert!(b.is_empty());
    }

    #[test]
    fn every_truncation_fails_cleanly() {
        let mut frames: Vec<Bytes> = encoded_requests().iter().map(body).collect();
        for (i, r) in responses().iter().enumerate() {
            let mut b = BytesMut::new();
            encode_response(&mut b, i as u64, G, r);
            frames.push(body(&b.freeze()));
        }
        for f in frames {
            for cut in 0..f.len() {
                assert!(decode_frame(f.slice(..cut)).is_err(), "cut at {cut}");
            }
            // And trailing bytes are refused, not ignored.
            let mut longer = BytesMut::from(&f[..]);
            longer.put_u8(0);
            assert!(decode_frame(longer.freeze()).is_err());
        }
    }

    #[test]
    fn sizes_over_the_limit_and_under_a_header_are_refused() {
        assert!(matches!(
            frame_size(1001u32.to_be_bytes(), 1000),
            Err(CodecError::TooLarge {
                size: 1001,
                max: 1000
            })
        ));
        assert!(frame_size((HEADER_LEN as u32 - 1).to_be_bytes(), 1000).is_err());
        assert_eq!(frame_size(1000u32.to_be_bytes(), 1000), Ok(1000));
    }

    #[test]
    fn a_huge_entry_count_allocates_nothing() {
        let mut b = BytesMut::new();
        b.put_u8(KIND_APPEND_REQ);
        b.put_u64(1);
        b.put_u128(0);
        b.put_i32(0);
        put_vote(&mut b, &vote(1, 1, true));
        b.put_u8(0);
        b.put_u8(0);
        b.put_u32(u32::MAX);
        b.put_slice(&[0; 64]);
        match decode_frame(b.freeze()) {
            Err(CodecError::Invalid(m)) => assert!(m.contains("entries"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    /// A deterministic generator (no dependency): xorshift.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn garbage_never_panics() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let valid: Vec<Bytes> = encoded_requests().iter().map(body).collect();
        for i in 0..20_000 {
            let f = if i % 2 == 0 {
                // Random bytes behind a valid kind byte.
                let n = (rng.next() % 200) as usize;
                let mut b: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                if let Some(k) = b.first_mut() {
                    *k = [0, 1, 2, 3, 0x81, 0x82, 0xff][(rng.next() % 7) as usize];
                }
                Bytes::from(b)
            } else {
                // A valid frame with a few bytes flipped.
                let mut b = valid[(rng.next() % valid.len() as u64) as usize].to_vec();
                for _ in 0..=(rng.next() % 4) {
                    let at = (rng.next() % b.len() as u64) as usize;
                    b[at] = rng.next() as u8;
                }
                Bytes::from(b)
            };
            let _ = decode_frame(f);
        }
    }
}
