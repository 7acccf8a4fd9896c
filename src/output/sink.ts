import type { Writable } from 'node:stream';

/**
 * Text is gathered until this many characters, then written in one call. Small enough that the
 * joined text stays below V8's large-object size (two bytes a character once any of it is beyond
 * Latin-1), since V8 maps and unmaps fresh memory for every string above it, and a page joined
 * whole would spend much of a walk's time in page faults.
 */
const BATCH_CHARS = 16 * 1024;

/** `mkt … | head`: the reader went away. Not a failure of the export. */
export function isBrokenPipe(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EPIPE';
}

/**
 * Writes an exporter's output to a stream: small texts are batched, the stream's backpressure
 * is respected, and the stream's errors (EPIPE, a full disk) reach the exporter's loop.
 *
 * Batched text is flushed when the batch is full, or on the next turn of the event loop, that
 * is as soon as the record source waits for I/O: each page goes out before the next is fetched.
 */
export class ChunkSink {
  private batch: string[] = [];
  private batchChars = 0;
  private flushScheduled = false;
  /** Set by detach(): nobody hears the stream's errors any more, so nothing may be written. */
  private detached = false;
  private failure: Error | undefined;
  private drained: Promise<void> | undefined;
  private readonly onError = (error: Error): void => {
    this.failure ??= error;
  };

  constructor(private readonly stream: Writable) {
    stream.on('error', this.onError);
  }

  /**
   * Queues a chunk. Returns a promise only when the caller must wait for the stream to drain,
   * so that the hot loop awaits nothing in the common case. Throws the stream's error, if any.
   */
  write(chunk: string | Uint8Array): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    if (typeof chunk === 'string') {
      this.batch.push(chunk);
      this.batchChars += chunk.length;
      if (this.batchChars >= BATCH_CHARS) this.flush();
      else this.scheduleFlush();
    } else {
      this.flush();
      this.send(chunk);
    }
    return this.drained;
  }

  /** Writes what is queued and waits until the stream has taken it. Throws the stream's error. */
  async close(): Promise<void> {
    if (this.failure) throw this.failure;
    const last = this.batch.join('');
    this.batch = [];
    this.batchChars = 0;
    await this.drained;
    await new Promise<void>((resolve, reject) => {
      this.stream.write(last, (error) => (error ? reject(error) : resolve()));
    });
    if (this.failure) throw this.failure;
  }

  /**
   * Stops listening to the stream. After a broken pipe a listener stays, so that a late EPIPE
   * on stdout cannot crash the process as an unhandled 'error' event.
   */
  detach(): void {
    this.detached = true;
    this.stream.off('error', this.onError);
    if (isBrokenPipe(this.failure)) this.stream.on('error', ignoreBrokenPipe);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      if (!this.detached && !this.failure && !this.stream.destroyed) this.flush();
    });
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const text = this.batch.join('');
    this.batch = [];
    this.batchChars = 0;
    this.send(text);
  }

  private send(chunk: string | Uint8Array): void {
    if (this.stream.write(chunk) || this.drained) return;
    this.drained = new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        this.stream.off('drain', onDrain);
        this.stream.off('error', onFail);
        this.stream.off('close', onClose);
        this.drained = undefined;
        if (error) reject(error);
        else resolve();
      };
      const onDrain = (): void => settle();
      const onFail = (error: Error): void => settle(error);
      const onClose = (): void => settle(this.failure ?? new Error('the output stream closed before the export ended'));
      this.stream.on('drain', onDrain);
      this.stream.on('error', onFail);
      this.stream.on('close', onClose);
    });
    // A flush scheduled on the event loop may fail with no one awaiting yet: the failure is
    // kept in `this.failure` and thrown by the next write, so this rejection is not lost.
    this.drained.catch(() => {});
  }
}

function ignoreBrokenPipe(error: Error): void {
  if (!isBrokenPipe(error)) throw error;
}
