import type { ResolvedSettings } from '../config/resolve.js';
import { UsageError } from '../errors.js';

/** The base URL as a URL, or a usage error saying how to set one. */
export function checkBaseUrl(settings: Pick<ResolvedSettings, 'baseUrl' | 'profile'>): URL {
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
  if (url.username || url.password) {
    throw new UsageError('the base URL must not carry a user name or password');
  }
  return url;
}
