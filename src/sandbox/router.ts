import { API_PREFIX, AVAILABLE_FILTERS_PATH, RESULTS_KEY_HEADER, RESULTS_PATH } from '../api/paths.js';
import type { ServiceShape } from '../api/record-id.js';
import { ControlRoute, isControlPath } from './control-route.js';
import { bearerToken, RESOURCE_BY_PATH, serveExchange } from './exchange-routes.js';
import { serveAvailableFilters, serveExchangeList } from './filters-route.js';
import { licenceOf } from './keys.js';
import { detailResponse, jsonResponse, RESULTS_UNAUTHORIZED_BODY, type Router } from './responses.js';
import type { ResultsDataset } from './results-dataset.js';
import { ResultsRoute } from './results-route.js';
import { createRouter2026 } from './router-2026.js';
import { INTERFACE_VOCABULARY } from './vocabulary.js';

const EXCHANGES_PREFIX = `${API_PREFIX}/exchanges/`;

/** The router of a shape of the service: the interface document's (below) or the 2026 edition's (router-2026.ts). */
export function createRouter(seed: number, dataset: ResultsDataset, shape: ServiceShape): Router {
  return shape === '2026' ? createRouter2026(seed, dataset) : createInterfaceRouter(seed, dataset);
}

/**
 * Maps a request to the endpoint that answers it: the results path and its /filters, and the
 * exchange list (/exchanges/), with or without a trailing slash, /exchanges/{exchange}/{resource}
 * exactly as paths.ts spells them, and
 * the sandbox's own control routes under /__sandbox/ (the only paths that take other methods).
 */
function createInterfaceRouter(seed: number, dataset: ResultsDataset): Router {
  const results = new ResultsRoute(dataset);
  const control = new ControlRoute(dataset, INTERFACE_VOCABULARY);
  return (request, startedAt) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (isControlPath(request.url)) return control.serve(request.method, url);
    if (request.method !== 'GET') return detailResponse(405, 'Method Not Allowed', { allow: 'GET' });
    const resultsKey = request.headers[RESULTS_KEY_HEADER];
    const key = typeof resultsKey === 'string' ? resultsKey : undefined;
    if (path === RESULTS_PATH || path === `${RESULTS_PATH}/`) return results.serve(url.searchParams, key, startedAt);
    if (path === AVAILABLE_FILTERS_PATH || path === `${AVAILABLE_FILTERS_PATH}/`) return serveAvailableFilters(dataset, url.searchParams, key, startedAt);
    if (path === EXCHANGES_PREFIX || path === EXCHANGES_PREFIX.slice(0, -1)) {
      const licence = licenceOf(key);
      return licence === undefined ? jsonResponse(401, RESULTS_UNAUTHORIZED_BODY) : serveExchangeList(dataset, licence, INTERFACE_VOCABULARY, startedAt);
    }
    if (path.startsWith(EXCHANGES_PREFIX)) {
      const rest = path.slice(EXCHANGES_PREFIX.length);
      const slash = rest.indexOf('/');
      const resource = RESOURCE_BY_PATH.get(rest.slice(slash + 1));
      if (slash > 0 && resource !== undefined) {
        let exchange: string;
        try {
          exchange = decodeURIComponent(rest.slice(0, slash));
        } catch {
          return detailResponse(404, 'Not Found');
        }
        return serveExchange(seed, exchange, resource, url.searchParams, bearerToken(request.headers.authorization));
      }
    }
    return detailResponse(404, 'Not Found');
  };
}
