import { MktError, UsageError } from '../core/errors.js';
import { proxyFor } from './proxy.js';

/** 127.0.0.0/8, ::1 and localhost: plain http there never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export interface BaseUrlChecks {
  /** --insecure: plain http to a host that is not loopback is allowed. */
  insecure?: boolean;
  /** Where the proxy variables are read (src/http/proxy.ts); undefined when no proxy is used. */
  proxyEnv?: Readonly<Record<string, string | undefined>>;
}

/**
 * The base URL as a URL, or a usage error saying how to set one. Its form was checked where
 * it was read (src/config/settings.ts); here the key is kept off plain http that leaves the
 * machine, unless `insecure`: to a host that is not loopback, or through a proxy that is not.
 */
export function checkBaseUrl(baseUrl: string | undefined, profile: string, { insecure = false, proxyEnv }: BaseUrlChecks = {}): URL {
  if (!baseUrl) {
    throw new UsageError(`no base URL for profile "${profile}"`, {
      hint: 'Set one with --base-url, MKT_BASE_URL or `mkt config set base_url URL`; or try --sandbox.',
    });
  }
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || insecure) return url;
  if (!isLoopbackHost(url.hostname)) {
    throw new UsageError(`refusing to send the API key over plain http to ${url.host}`, {
      hint: 'Use an https:// base URL, or add --insecure if you really mean it.',
    });
  }
  const proxy = proxyEnv && proxyFor(url, proxyEnv);
  if (proxy && !isLoopbackHost(proxy.hostname)) {
    throw new UsageError(`refusing to send the API key over plain http through proxy ${proxy.host} (from ${proxy.variable})`, {
      hint: `Use an https:// base URL, add ${url.hostname} to no_proxy, or add --insecure if you really mean it.`,
    });
  }
  return url;
}

/**
 * The base URL as mkt tells services apart: scheme and host in lower case and the default port
 * left out, as URL parsing gives them, and the path as written (paths are case-sensitive) without
 * its trailing slashes. `HTTP://Example.com:80/v/` and `http://example.com/v` are one service.
 */
export function serviceIdentity(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl.replace(/\/+$/, '');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A path of segments as a URL path, `/a/b%2Fc`: each segment percent-encoded, so none can hold a `/`, `?` or `#`. */
export const pathText = (path: readonly string[]): string => path.map((segment) => `/${encodeURIComponent(segment)}`).join('');

/**
 * The URL of `path` under the base URL, with `query`: its segments appended to the base URL's
 * path, never a string resolved against the base URL, which a path starting `//` would send to
 * another host. A URL that still leaves the base URL's origin or path (a `..` segment) is
 * refused before anything is sent.
 */
export function serviceUrl(baseUrl: URL, path: readonly string[], query: URLSearchParams): URL {
  const url = new URL(baseUrl.href);
  const basePath = baseUrl.pathname.replace(/\/$/, '');
  url.pathname = `${basePath}${pathText(path)}`;
  url.search = query.toString();
  url.hash = '';
  if (url.origin !== baseUrl.origin || !url.pathname.startsWith(`${basePath}/`)) {
    throw new MktError(`refusing to request ${url.href}: mkt sends the key only under ${baseUrl.origin}${basePath}/`);
  }
  return url;
}
