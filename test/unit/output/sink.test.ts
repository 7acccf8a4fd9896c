import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChunkSink } from '../../../src/output/sink.js';

/** A stream whose every write fails on the next tick, as a closed pipe does. */
class FailingStream extends Writable {
  writes = 0;
  override _write(_chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writes++;
    process.nextTick(() => callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })));
  }
}

describe('ChunkSink', () => {
  it('writes nothing once detached, so a batched text cannot raise an error no one hears', async () => {
    const stream = new FailingStream();
    const sink = new ChunkSink(stream);
    sink.write('batched, flush scheduled');
    sink.detach(); // the exporter's loop threw before the scheduled flush ran
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(stream.writes).toBe(0);
    expect(stream.listenerCount('error')).toBe(0);
  });
});
