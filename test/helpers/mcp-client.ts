import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { run } from '../../src/main.js';
import { type InProcessOptions, memoryDeps } from './run-in-process.js';
import { cleanEnv, MKT_BIN, type MktRun } from './run-mkt.js';

/** An `mkt … mcp` run in this process, with the SDK's client connected to its stdin and stdout. */
export interface InProcessMcp {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Closes the client, which ends the server's stdin, and resolves with the exit code run() returned. */
  close(): Promise<number>;
}

/** A spawned `mkt … mcp` with the SDK's client on its pipes. */
export interface SpawnedMcp {
  client: Client;
  /** What the process wrote on stderr so far. */
  stderr(): string;
  /** Everything the process wrote on stdout so far, as it came: the protocol's lines. */
  stdout(): string;
  /** Closes the client, which ends the process's stdin, and resolves once the process has exited. */
  close(): Promise<MktRun>;
}

/**
 * The client's side of `mkt mcp`'s stdio, in memory: what the client sends is a line on the
 * server's stdin, each line the server writes on stdout is a message for the client, as the
 * SDK's StdioClientTransport frames them over a child's pipes.
 */
class MemoryStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  constructor(private readonly stdin: PassThrough) {}

  /** Takes what the server writes on its stdout. */
  readonly stdout = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      this.buffer.append(chunk);
      try {
        for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
      done();
    },
  });

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.stdin.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.stdin.end();
    this.ended();
  }

  /** The server's side is gone, or the client closed: calls still waiting fail now rather than at their timeout. */
  ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * Starts `mkt args…` (ending in `mcp`) in this process, as runInProcess runs a command, and
 * connects the SDK's client to it. For what the tools answer; what only a process shows (its
 * stdout holding protocol messages alone, its start by an assistant) needs a spawned one.
 */
export async function startMcpInProcess(args: readonly string[], options: Omit<InProcessOptions, 'input' | 'stdout'> = {}): Promise<InProcessMcp> {
  const stdin = new PassThrough();
  const transport = new MemoryStdioTransport(stdin);
  const deps = { ...memoryDeps(options), stdin, stdout: transport.stdout };
  const exited = run(args, deps);
  const client = new Client({ name: 'mkt-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => deps.stderr.text(),
    close: async () => {
      await client.close();
      return exited;
    },
  };
}

/**
 * Starts `node bin/mkt.js args…` (ending in `mcp`) with pipes, as an assistant starts it, and
 * connects the SDK's client to them, framed as the SDK's StdioClientTransport frames them. Unlike
 * that transport, it keeps what the process wrote on stdout and its exit: that stdout holds
 * protocol messages alone, and that the process ends with its input, are shown by one server.
 */
export async function spawnMcp(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<SpawnedMcp> {
  const child = spawn(process.execPath, [MKT_BIN, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  const stdin = new PassThrough();
  stdin.pipe(child.stdin);
  const transport = new MemoryStdioTransport(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    transport.stdout.write(chunk);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<MktRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      transport.ended();
      resolve({ code, signal, stdout, stderr });
    });
  });
  const client = new Client({ name: 'mkt-test', version: '1.0.0' });
  await client.connect(transport);
  let closing: Promise<MktRun> | undefined;
  return {
    client,
    stderr: () => stderr,
    stdout: () => stdout,
    close: async () => {
      // Once: a test may end the server to read its exit, before the block's clean-up does.
      closing ??= client.close().then(() => exited);
      return closing;
    },
  };
}
