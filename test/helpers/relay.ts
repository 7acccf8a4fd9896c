import { afterEach } from 'vitest';
import { httpRequest } from './http-request.js';
import { type RecordedRequest, sendText, startRecordingServer } from './recording-server.js';

/** How a relay changes what passes: an answer of its own instead of the target's, or the target's body rewritten. */
export interface RelayChanges {
  /** The status, body and any headers to answer with, without asking the target; undefined to ask it. */
  answer?: (request: RecordedRequest) => { status: number; text: string; headers?: Record<string, string> } | undefined;
  /** The body to pass on, from the target's status and body. */
  rewrite?: (request: RecordedRequest, status: number, text: string) => string;
}

/**
 * A server that passes every request on to `target` and records it: how many requests a command
 * sent, and which, seen from outside the command. `changes` make it a service that answers otherwise.
 * A function as `target` names it at each request: one base URL, the mirror's service, in front
 * of a sandbox a test has just started as another was.
 */
export async function startRelay(target: string | (() => string), changes: RelayChanges = {}) {
  const targetNow = typeof target === 'string' ? () => target : target;
  let held: { after: number; released: Promise<void>; release: () => void } | undefined;
  const server = await startRecordingServer((request, response) => {
    const own = changes.answer?.(request);
    if (own) {
      sendText(response, own.status, own.text, own.headers);
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host'),
    );
    const hold = held !== undefined && server.requests.indexOf(request) >= held.after ? held.released : undefined;
    (hold ?? Promise.resolve())
      .then(() => httpRequest(`${targetNow()}${request.url}`, { headers }))
      .then((answer) => {
        const body = answer.text;
        const passed = changes.rewrite ? changes.rewrite(request, answer.status, body) : body;
        sendText(response, answer.status, passed, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      })
      .catch(() => response.destroy());
  });
  return {
    ...server,
    /**
     * Leaves every request after the first `after` unanswered until `release()`: a walk that
     * cannot end, however fast the service answers, while the test stops it.
     */
    holdAfter(after: number): void {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      held = { after, released, release };
    },
    /** Answers the requests held, and every request from now on. */
    release(): void {
      held?.release();
      held = undefined;
    },
  };
}

/** Relays for a test file's tests, each closed once its test is done. */
export function useRelays(): (target: string, changes?: RelayChanges) => ReturnType<typeof startRelay> {
  const relays: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.close()));
  });
  return async (target, changes) => {
    const relay = await startRelay(target, changes);
    relays.push(relay);
    return relay;
  };
}
