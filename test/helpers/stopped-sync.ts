import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import type { startRelay } from './relay.js';
import { spawnMkt } from './run-mkt.js';
import { tempDir } from './temp-dir.js';

// Syncs stopped in a process of their own (SIGKILL, SIGINT) once they have committed: issue 16's
// "a killed sync carries on from its last commit".

type Relay = Awaited<ReturnType<typeof startRelay>>;

/** Waits, on the event loop, until `condition` holds. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The page numbers of the requests a relay saw, in the order they came. */
export const pagesAsked = (requests: readonly { url: string }[]) =>
  requests.map((request) => new URL(request.url, 'http://x').searchParams).map((params) => `${params.get('order_dir')} ${params.get('page_number')}`);

/** Requests a relay answers before it holds the rest, for a sync that commits every `commitPages` pages (see committedAndStuck). */
export const answeredFor = (commitPages: number) => 2 * commitPages + 10;

/**
 * Waits until a sync through `counted` has committed and cannot end, the relay answering
 * `answered` requests, answeredFor(the sync's commit pages). A walk commits every so many pages
 * (or every 2 s, when pages come slowly), and a commit runs while the walk reads on, but the next
 * one waits for it: the walk asks for a page a few beyond twice the commit pages only once the
 * first commit has finished. The relay answers none beyond that page, which keeps the walk going.
 */
export async function committedAndStuck(counted: Relay, answered: number): Promise<void> {
  counted.holdAfter(answered);
  await until(() => counted.requests.length > answered);
}

/**
 * A first sync of the sandbox's records through `counted`, a relay to it, committing every
 * `commitPages` pages, killed (SIGKILL) once it has committed: the sandbox needs more than
 * answeredFor(commitPages) pages.
 */
export async function killedFirstSync(sandbox: RunningSandbox, counted: Relay, commitPages: number) {
  const mirror = join(tempDir('mkt-mirror-'), 'killed.duckdb');
  const env = { MKT_BASE_URL: counted.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: mirror };
  const killed = spawnMkt(['sync'], { env, syncCommitPages: commitPages });
  await committedAndStuck(counted, answeredFor(commitPages));
  killed.child.kill('SIGKILL');
  expect((await killed.result).signal).toBe('SIGKILL');
  counted.release();
  return { mirror, env };
}
