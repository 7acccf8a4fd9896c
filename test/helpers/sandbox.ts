import { afterAll, beforeAll } from 'vitest';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';

/**
 * Starts one sandbox on a free port for the enclosing test file and closes it afterwards.
 * Read `.current` inside tests.
 */
export function useSandbox(options: SandboxOptions = {}): { current: RunningSandbox } {
  const handle = {} as { current: RunningSandbox };
  beforeAll(async () => {
    handle.current = await startSandbox({ port: 0, ...options });
  });
  afterAll(async () => {
    await handle.current?.close();
  });
  return handle;
}

/** The part of an added version's ids (version 7 UUIDs) that its run stamps: the run's start and 12 random bits. */
export const RUN_STAMP = /\b[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/g;
