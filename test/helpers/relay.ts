import { afterEach } from 'vitest';
import { sendText, startRecordingServer } from './recording-server.js';

/**
 * A server that passes every request on to `target` and records it: how many requests a command
 * sent, and which, seen from outside the command. `rewrite`, when given, changes each answer's
 * body on the way back: a service that spells its records otherwise.
 */
export async function startRelay(target: string, rewrite: (body: string) => string = (body) => body) {
  let held: { after: number; released: Promise<void>; release: () => void } | undefined;
  const server = await startRecordingServer((request, response) => {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host'),
    );
    const hold = held !== undefined && server.requests.indexOf(request) >= held.after ? held.released : undefined;
    (hold ?? Promise.resolve())
      .then(() => fetch(`${target}${request.url}`, { headers }))
      .then(async (answer) => {
        const body = await answer.text();
        sendText(response, answer.status, rewrite(body), { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
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
export function useRelays(): (target: string, rewrite?: (body: string) => string) => ReturnType<typeof startRelay> {
  const relays: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.close()));
  });
  return async (target, rewrite) => {
    const relay = await startRelay(target, rewrite);
    relays.push(relay);
    return relay;
  };
}
