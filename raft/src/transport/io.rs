//! Frame reading and coalesced writing on a TCP stream, shared by the
//! client and server sides.

use std::cell::Cell;
use std::io;

use bytes::BytesMut;

use super::codec::{SIZE_PREFIX, frame_size};
use super::stream::{Reader, Writer};
use super::sync::OutQueue;

/// Counters of one shard's transport (client and server sides), to see
/// how well frames coalesce: `frames_sent / writes` is the number of
/// frames per write syscall.
#[derive(Debug, Default)]
pub struct TransportStats {
    /// Write calls on sockets (one `write_all`, normally one syscall).
    pub writes: Cell<u64>,
    pub bytes_written: Cell<u64>,
    /// Request and response frames queued for sending.
    pub frames_sent: Cell<u64>,
    pub frames_received: Cell<u64>,
    /// Connections established by the client side.
    pub connects: Cell<u64>,
    /// Connection attempts that failed, and connections lost.
    pub connection_failures: Cell<u64>,
}

/// A copy of [`TransportStats`] at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatsSnapshot {
    pub writes: u64,
    pub bytes_written: u64,
    pub frames_sent: u64,
    pub frames_received: u64,
    pub connects: u64,
    pub connection_failures: u64,
}

impl TransportStats {
    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            writes: self.writes.get(),
            bytes_written: self.bytes_written.get(),
            frames_sent: self.frames_sent.get(),
            frames_received: self.frames_received.get(),
            connects: self.connects.get(),
            connection_failures: self.connection_failures.get(),
        }
    }

    pub(crate) fn add(c: &Cell<u64>, n: u64) {
        c.set(c.get() + n);
    }
}

impl std::ops::Sub for StatsSnapshot {
    type Output = StatsSnapshot;
    fn sub(self, o: StatsSnapshot) -> StatsSnapshot {
        StatsSnapshot {
            writes: self.writes - o.writes,
            bytes_written: self.bytes_written - o.bytes_written,
            frames_sent: self.frames_sent - o.frames_sent,
            frames_received: self.frames_received - o.frames_received,
            connects: self.connects - o.connects,
            connection_failures: self.connection_failures - o.connection_failures,
        }
    }
}

/// Writes whatever is queued, all of it per call, until the queue closes
/// or a write fails.
pub(crate) async fn write_loop(
    w: &mut Writer,
    q: &OutQueue,
    stats: &TransportStats,
) -> io::Result<()> {
    while let Some(chunks) = q.take().await {
        // One write per chunk: frames' small fields gathered together,
        // each large payload on its own (see `OutBuf`).
        for c in chunks {
            let n = c.len();
            w.write_all(c).await?;
            TransportStats::add(&stats.writes, 1);
            TransportStats::add(&stats.bytes_written, n as u64);
            q.written(n);
        }
    }
    Ok(())
}

/// Splits a byte stream into frames of at most `max` bytes.
pub(crate) struct FrameReader {
    buf: BytesMut,
    max: usize,
}

const READ_CHUNK: usize = 64 * 1024;

impl FrameReader {
    pub(crate) fn new(max: usize) -> Self {
        FrameReader {
            buf: BytesMut::with_capacity(READ_CHUNK),
            max,
        }
    }

    /// The next frame (without its size prefix); `Ok(None)` at a clean end
    /// of stream. A frame over the limit is an error: the caller closes
    /// the connection (nothing after it can be trusted).
    pub(crate) async fn next(&mut self, r: &mut Reader) -> io::Result<Option<bytes::Bytes>> {
        loop {
            if self.buf.len() >= SIZE_PREFIX {
                let prefix: [u8; 4] = self.buf[..SIZE_PREFIX].try_into().expect("4 bytes");
                let size = frame_size(prefix, self.max)
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
                let total = SIZE_PREFIX + size;
                if self.buf.len() >= total {
                    let mut frame = self.buf.split_to(total);
                    let _ = frame.split_to(SIZE_PREFIX);
                    return Ok(Some(frame.freeze()));
                }
                // Room for the rest of this frame (bounded by `max`,
                // checked above) and the start of the next.
                self.buf
                    .reserve(total - self.buf.len() + READ_CHUNK.min(self.max));
            } else {
                self.buf.reserve(READ_CHUNK);
            }
            match r.read_more(&mut self.buf).await? {
                0 if self.buf.is_empty() => return Ok(None),
                0 => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "connection closed inside a frame",
                    ));
                }
                _ => {}
            }
        }
    }
}
