import { UsageError } from '../errors.js';

/** 127.0.0.0/8, ::1 and localhost: plain http there never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The base URL as a URL, or a usage error saying how to set one. Its form was checked where
 * it was read (src/config/settings.ts); here the key is kept off plain http to a host that is
 * not loopback, unless `insecure`.
 */
export function checkBaseUrl(baseUrl: string | undefined, profile: string, insecure = false): URL {
  if (!baseUrl) {
    throw new UsageError(`no base URL for profile "${profile}"`, {
      hint: 'Set one with --base-url, MKT_BASE_URL or `mkt config set base_url URL`; or try --sandbox.',
    });
  }
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new UsageError(`refusing to send the API key over plain http to ${url.host}`, {
      hint: 'Use an https:// base URL, or add --insecure if you really mean it.',
    });
  }
  return url;
}
