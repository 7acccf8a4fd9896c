import { describe, expect, it } from 'vitest';
import { RESULTS_KEY_HEADER } from '../../src/api/paths.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getAllResults, getExchange, getResults } from './http.js';

const sandbox = useSandbox();

const DOCUMENTED_401 = {
  message: expect.stringMatching(/not authorized.*invalid/i),
  data: [],
  query_time: null,
  success: false,
  disable_jsonable_encoder: false,
  status_code: 401,
};

describe('results endpoint authentication', () => {
  it('answers a missing key with the documented 401 body', async () => {
    const { status, body } = await getResults(sandbox.current, { key: null });
    expect(status).toBe(401);
    expect(body).toStrictEqual(DOCUMENTED_401);
  });

  it('answers an unknown key with the documented 401 body', async () => {
    const { status, body } = await getResults(sandbox.current, { key: 'not-a-key' });
    expect(status).toBe(401);
    expect(body).toStrictEqual(DOCUMENTED_401);
  });

  it('does not accept the bearer scheme on the results endpoint', async () => {
    const { status } = await getResults(sandbox.current, {
      key: null,
      headers: { authorization: `Bearer ${sandbox.current.keys.api_key}` },
    });
    expect(status).toBe(401);
  });

  it('accepts both demo keys in x-service-api-access-key', async () => {
    for (const key of [sandbox.current.keys.api_key, sandbox.current.keys.scoped_api_key]) {
      const { status, body } = await getResults(sandbox.current, { key });
      expect(status).toBe(200);
      expect(body.success).toBe(true);
    }
  });
});

describe('exchange endpoints authentication', () => {
  it('answers a missing bearer token with 401, a JSON detail and a Bearer challenge', async () => {
    const { status, headers, body } = await getExchange(sandbox.current, 'NYSE', 'fees', { key: null });
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe('Bearer');
    expect(body).toStrictEqual({ detail: expect.stringContaining('Not authenticated') });
  });

  it('answers an unknown bearer token with 401 and a JSON detail', async () => {
    for (const resource of ['fees', 'rules', 'orderTypes', 'historical'] as const) {
      const { status, body } = await getExchange(sandbox.current, 'NYSE', resource, { key: 'not-a-key' });
      expect(status).toBe(401);
      expect(body).toStrictEqual({ detail: 'Invalid API key.' });
    }
  });

  it('does not accept the results header on the exchange endpoints', async () => {
    const { status } = await getExchange(sandbox.current, 'NYSE', 'rules', {
      key: null,
      headers: { [RESULTS_KEY_HEADER]: sandbox.current.keys.api_key },
    });
    expect(status).toBe(401);
  });

  it('checks the key before the exchange: an unknown exchange with a bad key is 401', async () => {
    const { status } = await getExchange(sandbox.current, 'NO_SUCH_VENUE', 'fees', { key: 'not-a-key' });
    expect(status).toBe(401);
  });
});

describe('the scoped key', () => {
  it('is licensed for 2 to 5 exchanges', () => {
    expect(sandbox.current.scopedExchanges.length).toBeGreaterThanOrEqual(2);
    expect(sandbox.current.scopedExchanges.length).toBeLessThanOrEqual(5);
  });

  it('reads every exchange endpoint of a licensed exchange', async () => {
    const [licensed] = sandbox.current.scopedExchanges;
    for (const resource of ['fees', 'rules', 'orderTypes', 'historical'] as const) {
      const { status } = await getExchange(sandbox.current, licensed!, resource, { key: sandbox.current.keys.scoped_api_key });
      expect(status).toBe(200);
    }
  });

  it('gets 403 with a JSON detail for an exchange it is not licensed for', async () => {
    for (const resource of ['fees', 'rules', 'orderTypes', 'historical'] as const) {
      const { status, body } = await getExchange(sandbox.current, 'IEX', resource, { key: sandbox.current.keys.scoped_api_key });
      expect(status).toBe(403);
      expect(body).toStrictEqual({ detail: "The API key is not licensed for exchange 'IEX'." });
    }
  });

  it('sees results of its licensed exchanges only, and all of them', async () => {
    const { records } = await getAllResults(sandbox.current, { key: sandbox.current.keys.scoped_api_key });
    const seen = new Set(records.map((record) => record.exchange_name));
    expect([...seen].sort()).toEqual([...sandbox.current.scopedExchanges].sort());
  });

  it('finds nothing when it filters on an exchange it is not licensed for', async () => {
    const { status, body } = await getResults(sandbox.current, {
      key: sandbox.current.keys.scoped_api_key,
      query: { exchange_name: 'IEX' },
    });
    expect(status).toBe(200);
    expect(body.total_records).toBe(0);
    expect(body.data).toEqual([]);
  });
});
