//! The byte streams a transport connection runs on: plain TCP, or a
//! stream the embedding program secures (the broker's TLS between
//! brokers) through a [`PeerSecurity`] hook. The raft crate knows no TLS:
//! the hook hands back boxed halves that read and write plaintext.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;

use bytes::{Bytes, BytesMut};
use monoio::buf::IoBufMut;
use monoio::io::{AsyncReadRent, AsyncWriteRentExt, OwnedReadHalf, OwnedWriteHalf, Splitable};
use monoio::net::TcpStream;

/// A future that borrows its receiver (not `Send`: one thread per shard).
pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// The reading half of a secured stream.
pub trait PeerRead {
    /// Appends what arrives to `buf` (within its spare capacity or
    /// growing it); 0 at the end of the stream.
    fn read<'a>(&'a mut self, buf: &'a mut BytesMut) -> LocalFuture<'a, io::Result<usize>>;
}

/// The writing half of a secured stream.
pub trait PeerWrite {
    fn write_all(&mut self, data: Bytes) -> LocalFuture<'_, io::Result<()>>;
}

/// Both halves of a secured stream.
pub type SecuredHalves = (Box<dyn PeerRead>, Box<dyn PeerWrite>);

/// Secures the transport's connections: `connect` runs the client side
/// on a fresh connection to `addr`, `accept` the server side on an
/// accepted one (and may refuse the peer: an error closes it).
pub trait PeerSecurity {
    fn connect(
        &self,
        addr: SocketAddr,
        stream: TcpStream,
    ) -> LocalFuture<'static, io::Result<SecuredHalves>>;
    fn accept(
        &self,
        peer: SocketAddr,
        stream: TcpStream,
    ) -> LocalFuture<'static, io::Result<SecuredHalves>>;
}

/// A connection's reading side.
pub(crate) enum Reader {
    Plain(OwnedReadHalf<TcpStream>),
    Secured(Box<dyn PeerRead>),
}

/// A connection's writing side.
pub(crate) enum Writer {
    Plain(OwnedWriteHalf<TcpStream>),
    Secured(Box<dyn PeerWrite>),
}

/// Splits `stream` as is, or through `security` (client side when
/// `connect_to` names the peer, server side otherwise).
pub(crate) async fn open(
    stream: TcpStream,
    security: Option<&dyn PeerSecurity>,
    connect_to: Option<SocketAddr>,
    peer: SocketAddr,
) -> io::Result<(Reader, Writer)> {
    match security {
        None => {
            let (r, w) = stream.into_split();
            Ok((Reader::Plain(r), Writer::Plain(w)))
        }
        Some(sec) => {
            let (r, w) = match connect_to {
                Some(addr) => sec.connect(addr, stream).await?,
                None => sec.accept(peer, stream).await?,
            };
            Ok((Reader::Secured(r), Writer::Secured(w)))
        }
    }
}

impl Reader {
    /// Reads once, appending to `buf` (whose spare capacity the caller
    /// has reserved); 0 at the end of the stream.
    pub(crate) async fn read_more(&mut self, buf: &mut BytesMut) -> io::Result<usize> {
        match self {
            Reader::Plain(r) => {
                // Read after what is buffered (monoio reads a BytesMut
                // from its start otherwise).
                let len = buf.len();
                let owned = std::mem::take(buf).slice_mut(len..);
                let (res, owned) = r.read(owned).await;
                *buf = owned.into_inner();
                res
            }
            Reader::Secured(r) => r.read(buf).await,
        }
    }
}

impl Writer {
    pub(crate) async fn write_all(&mut self, data: Bytes) -> io::Result<()> {
        match self {
            Writer::Plain(w) => w.write_all(data).await.0.map(|_| ()),
            Writer::Secured(w) => w.write_all(data).await,
        }
    }
}
