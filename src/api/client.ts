import { AuthError, HttpStatusError, MalformedResponseError, type MktError, NotFoundError, UsageError } from '../errors.js';
import type { Credential, Transport } from '../http/transport.js';
import { describeErrorBody } from './error-body.js';
import type { ResultsQuery } from './filters.js';
import { type ExchangeResource, exchangePath, RESULTS_KEY_HEADER, RESULTS_PATH } from './paths.js';
import { toResultsSearchParams } from './results-query.js';
import type { FeeScheduleResultsPage } from './types.js';

/** The service's endpoints, one method each, with its statuses turned into mkt's errors. */
export interface ServiceClient {
  /** GET /api/v1/exchanges/{exchange}/{resource}: the body as the service sent it. */
  fetchExchangeResource(exchange: string, resource: ExchangeResource, query?: Record<string, string>): Promise<unknown>;
  /** GET /api/v1/fee-schedule-results: one page, its envelope checked. */
  fetchResultsPage(query: ResultsQuery): Promise<FeeScheduleResultsPage>;
}

export interface ClientAuth {
  apiKey: string;
  /** Where the key came from, for the hint when the service rejects it. */
  keySource: 'env' | 'stored' | 'sandbox' | 'none';
}

export function createServiceClient(transport: Transport, auth: ClientAuth): ServiceClient {
  const { apiKey } = auth;
  // The two schemes of the service document: a bearer token on the exchange endpoints, a header of its own on results.
  const bearer: Credential = { name: 'authorization', value: `Bearer ${apiKey}`, redacted: 'Authorization: Bearer ***' };
  const resultsKey: Credential = { name: RESULTS_KEY_HEADER, value: apiKey, redacted: `${RESULTS_KEY_HEADER}: ***` };

  function rejectedKey(): AuthError {
    const hint =
      auth.keySource === 'env'
        ? 'MKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.'
        : 'Run `mkt auth login` to store a valid key.';
    return new AuthError('the service rejected the API key (401)', { hint });
  }

  return {
    async fetchExchangeResource(exchange, resource, query = {}) {
      try {
        return await transport.getJson(exchangePath(exchange, resource), new URLSearchParams(query), bearer, {
          'content-type': 'application/json',
        });
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw error;
        if (error.status === 401) throw rejectedKey();
        if (error.status === 403) {
          throw new AuthError(`your key is not licensed for ${exchange} (403)`, {
            hint: 'Ask the data operator to add it to your licence, or use another profile with --profile.',
          });
        }
        if (error.status === 404) {
          const upper = exchange.toUpperCase();
          throw new NotFoundError(`unknown exchange ${exchange} (404)`, {
            hint:
              upper !== exchange
                ? `Exchange identifiers are upper case: did you mean ${upper}?`
                : 'Check the identifier (e.g. NYSE, CBOE, IEX); `mkt results` shows the exchanges your key reaches.',
          });
        }
        throw withServiceDetail(error);
      }
    },

    async fetchResultsPage(query) {
      let body: unknown;
      try {
        body = await transport.getJson(RESULTS_PATH, toResultsSearchParams(query), resultsKey);
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw error;
        if (error.status === 401) throw rejectedKey();
        if (error.status === 403) throw new AuthError('your key is not licensed for these results (403)');
        throw withServiceDetail(error);
      }
      return checkResultsPage(body, transport.host);
    },
  };
}

/** 422s and other rejections: say what the service said, in one line. */
function withServiceDetail(error: HttpStatusError): MktError {
  const detail = describeErrorBody(error.body);
  if (error.status === 422 || error.status === 400) {
    return new UsageError(`the service rejected the request (${error.status})${detail ? `: ${detail}` : ''}`);
  }
  return detail
    ? new HttpStatusError(error.status, error.statusText, error.url, error.body, { hint: detail, retryAfter: error.retryAfter })
    : error;
}

function checkResultsPage(body: unknown, host: string): FeeScheduleResultsPage {
  const page = body as Partial<FeeScheduleResultsPage> | null;
  if (
    typeof page !== 'object' || page === null || !Array.isArray(page.data)
    || typeof page.total_records !== 'number' || typeof page.total_pages !== 'number'
  ) {
    throw new MalformedResponseError(`${host} answered with a results body that lacks data, total_records or total_pages`);
  }
  return page as FeeScheduleResultsPage;
}
