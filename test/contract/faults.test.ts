import { describe, expect, it } from 'vitest';
import type { InterfaceResultsEnvelope } from '../../src/api/types.js';
import { RESULTS_KEY_HEADER, RESULTS_PATH } from '../../src/api/paths.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { useSandbox } from '../helpers/sandbox.js';

const faulty = useSandbox({ records: 400, faults: true });
const healthy = useSandbox({ records: 400 });

type Outcome = 'ok' | 'html-503' | 'retry-429' | 'truncated-200' | 'other';

interface Try {
  outcome: Outcome;
  body?: InterfaceResultsEnvelope;
}

async function attempt(sandbox: RunningSandbox, pathAndQuery: string): Promise<Try> {
  const response = await fetch(`${sandbox.url}${pathAndQuery}`, { headers: { [RESULTS_KEY_HEADER]: sandbox.keys.api_key } });
  let text: string;
  try {
    text = await response.text();
  } catch {
    return { outcome: response.status === 200 && Number(response.headers.get('content-length')) > 0 ? 'truncated-200' : 'other' };
  }
  if (response.status === 503 && response.headers.get('content-type') === 'text/html' && text.includes('<html>')) return { outcome: 'html-503' };
  if (response.status === 429 && response.headers.get('retry-after') === '1') return { outcome: 'retry-429' };
  if (response.status === 200) return { outcome: 'ok', body: JSON.parse(text) as InterfaceResultsEnvelope };
  return { outcome: 'other' };
}

const REQUESTS = Array.from({ length: 80 }, (_, page) => `${RESULTS_PATH}?page_size=5&page_number=${page}`);

describe('--faults', () => {
  it('fails the first try of roughly a quarter of requests, with all three kinds, and the second try succeeds with the right data', async () => {
    const outcomes: Outcome[] = [];
    for (const request of REQUESTS) {
      const first = await attempt(faulty.current, request);
      outcomes.push(first.outcome);
      const expected = await attempt(healthy.current, request);
      if (first.outcome === 'ok') {
        expect(first.body!.data).toEqual(expected.body!.data);
        continue;
      }
      const second = await attempt(faulty.current, request);
      expect(second.outcome, request).toBe('ok');
      expect(second.body!.data).toEqual(expected.body!.data);
    }
    expect(outcomes).not.toContain('other');
    const failed = outcomes.filter((outcome) => outcome !== 'ok').length;
    expect(failed).toBeGreaterThanOrEqual(REQUESTS.length * 0.1);
    expect(failed).toBeLessThanOrEqual(REQUESTS.length * 0.45);
    expect(new Set(outcomes)).toEqual(new Set(['ok', 'html-503', 'retry-429', 'truncated-200']));
  });

  it('chooses the same requests on every run of the same seed', async () => {
    const run = async (): Promise<Outcome[]> => {
      const outcomes: Outcome[] = [];
      for (const request of REQUESTS.slice(0, 30)) {
        const first = await attempt(faulty.current, `${request}&run=same`);
        outcomes.push(first.outcome);
        if (first.outcome !== 'ok') await attempt(faulty.current, `${request}&run=same`);
      }
      return outcomes;
    };
    expect(await run()).toEqual(await run());
  });

  it('does not fault a sandbox started without --faults', async () => {
    for (const request of REQUESTS) expect((await attempt(healthy.current, request)).outcome).toBe('ok');
  });
});
