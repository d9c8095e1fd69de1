// Compression codecs for kafkajs, which ships only gzip itself.
// Snappy: the community codec kafkajs-snappy (pure JS).
// LZ4 and zstd: thin kafkajs codec adapters over pure-JS / WebAssembly
// libraries (lz4js: LZ4 frame format, as Kafka uses for magic v2; zstd-codec:
// Emscripten build of the reference zstd), so nothing native must build.
'use strict'

const { CompressionTypes, CompressionCodecs } = require('kafkajs')
const SnappyCodec = require('kafkajs-snappy')
const lz4 = require('lz4js')
const { ZstdCodec } = require('zstd-codec')

let zstdReady = null
function zstd() {
  if (!zstdReady) {
    zstdReady = new Promise(resolve => ZstdCodec.run(z => resolve(new z.Streaming())))
  }
  return zstdReady
}

const LZ4Codec = () => ({
  async compress(encoder) {
    return Buffer.from(lz4.compress(encoder.buffer))
  },
  async decompress(buffer) {
    return Buffer.from(lz4.decompress(buffer))
  },
})

const ZstdCodecAdapter = () => ({
  async compress(encoder) {
    const z = await zstd()
    const out = z.compress(new Uint8Array(encoder.buffer), 3)
    if (!out) throw new Error('zstd compression failed')
    return Buffer.from(out)
  },
  async decompress(buffer) {
    const z = await zstd()
    const out = z.decompress(new Uint8Array(buffer))
    if (!out) throw new Error('zstd decompression failed')
    return Buffer.from(out)
  },
})

CompressionCodecs[CompressionTypes.Snappy] = SnappyCodec
CompressionCodecs[CompressionTypes.LZ4] = LZ4Codec
CompressionCodecs[CompressionTypes.ZSTD] = ZstdCodecAdapter

const byName = {
  none: CompressionTypes.None,
  gzip: CompressionTypes.GZIP,
  snappy: CompressionTypes.Snappy,
  lz4: CompressionTypes.LZ4,
  zstd: CompressionTypes.ZSTD,
}

module.exports = { byName }
