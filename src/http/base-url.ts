import type { ResolvedSettings } from '../config/resolve.js';
import { UsageError } from '../errors.js';

/** 127.0.0.0/8, ::1 and localhost: plain http there never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The base URL as a URL, or a usage error saying how to set one. The key is never sent over
 * plain http to a host that is not loopback, unless `insecure`.
 */
export function checkBaseUrl(settings: Pick<ResolvedSettings, 'baseUrl' | 'profile'>, insecure = false): URL {
  if (!settings.baseUrl) {
    throw new UsageError(`no base URL for profile "${settings.profile}"`, {
      hint: 'Set one with --base-url, MKT_BASE_URL or `mkt config set base_url URL`; or try --sandbox.',
    });
  }
  let url: URL;
  try {
    url = new URL(settings.baseUrl);
  } catch {
    throw new UsageError(`the base URL ${JSON.stringify(settings.baseUrl)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`the base URL must be http(s), not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new UsageError(`refusing to send the API key over plain http to ${url.host}`, {
      hint: 'Use an https:// base URL, or add --insecure if you really mean it.',
    });
  }
  if (url.username || url.password) {
    throw new UsageError('the base URL must not carry a user name or password');
  }
  return url;
}
