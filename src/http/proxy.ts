import * as http from 'node:http';
import { BlockList, connect as netConnect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions } from 'node:tls';
import { NetworkError, UsageError } from '../core/errors.js';

/*
 * How requests reach the service: straight to it, or through the proxy the environment names,
 * read as curl reads it (docs/configuration.md, "Proxies"):
 *   - `http_proxy` for an http base URL, lower case only: curl ignores HTTP_PROXY, which a CGI
 *     script's environment takes from a request's `Proxy:` header;
 *   - `https_proxy`, else `HTTPS_PROXY`, for an https base URL;
 *   - else `all_proxy`, else `ALL_PROXY`;
 *   - no proxy when `no_proxy` (else `NO_PROXY`) lists the host. Loopback is not special.
 * An empty variable counts as unset. An https base URL goes through a CONNECT tunnel, with TLS
 * to the service over it; an http one is sent to the proxy with the absolute URL as its path,
 * as curl does (a CONNECT to a port other than 443 is refused by Squid's default rules).
 */

/** A proxy named by the environment. */
export interface Proxy {
  /** The variable that named it: `HTTPS_PROXY`. */
  variable: string;
  hostname: string;
  port: number;
  /** `HOST:PORT`, for messages. */
  host: string;
  /** `Basic …`, when the URL carries a user or a password. */
  authorization: string | undefined;
  /** The URL for --verbose, its credentials shown as `***`. */
  display: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A URL's hostname as sockets take it: an IPv6 address without its brackets. */
const unbracketed = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/** curl's port for a proxy URL that gives none. */
const DEFAULT_PROXY_PORT = 1080;

/** The proxy for requests to `target`, or undefined to go straight there. */
export function proxyFor(target: URL, env: Env): Proxy | undefined {
  const noProxy = env.no_proxy || env.NO_PROXY;
  if (noProxy && noProxyMatches(noProxy, target)) return undefined;
  const scheme = target.protocol.slice(0, -1);
  const names = [`${scheme}_proxy`, ...(scheme === 'http' ? [] : [`${scheme.toUpperCase()}_PROXY`]), 'all_proxy', 'ALL_PROXY'];
  const variable = names.find((name) => env[name]);
  return variable === undefined ? undefined : parseProxy(variable, env[variable] as string);
}

/** `http://[USER:PASSWORD@]HOST[:PORT]`, the scheme optional. The value may hold a password: it is never quoted. */
function parseProxy(variable: string, value: string): Proxy {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const hint = `Set ${variable} to http://[USER:PASSWORD@]HOST[:PORT], e.g. http://proxy.example.com:3128.`;
  let url: URL;
  let credentials: string;
  try {
    url = new URL(withScheme);
    credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  } catch {
    throw new UsageError(`${variable} is not a proxy URL`, { hint });
  }
  if (url.protocol !== 'http:') {
    throw new UsageError(`${variable}: mkt supports http:// proxies only, not ${url.protocol}//`, { hint });
  }
  // URL drops a port that is the scheme's default, so ":80" is looked for in the text.
  const port = url.port ? Number(url.port) : /^[^/]*\/\/[^/?#]*:0*80(?:[/?#]|$)/.test(withScheme) ? 80 : DEFAULT_PROXY_PORT;
  const hasCredentials = url.username !== '' || url.password !== '';
  return {
    variable,
    hostname: unbracketed(url.hostname),
    port,
    host: `${url.hostname}:${port}`,
    authorization: hasCredentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined,
    display: `http://${hasCredentials ? '***@' : ''}${url.hostname}:${port}`,
  };
}

/**
 * Whether a NO_PROXY list names `target`'s host, as curl reads it: `*` alone names every host;
 * entries are separated by commas or blanks; a name matches itself and its subdomains (a
 * leading or trailing dot is ignored); an IP address matches itself, or a range in CIDR
 * notation. Beyond curl, which never matches an entry with a port, `HOST:PORT` (`[IPv6]:PORT`)
 * matches that port only.
 */
export function noProxyMatches(list: string, target: URL): boolean {
  if (list === '*') return true;
  const host = unbracketed(target.hostname).replace(/\.$/, '');
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const family = isIP(host);
  return list.split(/[\s,]+/).some((entry) => {
    const [name, entryPort] = splitEntry(entry.toLowerCase());
    if (!name || (entryPort !== undefined && Number(entryPort) !== Number(port))) return false;
    if (family) return inRange(host, family, name);
    const domain = name.replace(/^\./, '').replace(/\.$/, '');
    return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
  });
}

/** A NO_PROXY entry's host and port: `HOST`, `HOST:PORT`, `[IPv6]`, `[IPv6]:PORT`, or a bare IPv6 address. */
function splitEntry(entry: string): [string, string | undefined] {
  const match = /^\[([^\]]*)\](?::(\d+))?$/.exec(entry) ?? /^([^:]*):(\d+)$/.exec(entry);
  return match ? [match[1] as string, match[2]] : [entry, undefined];
}

/** Whether `address` is `entry`, an address or a CIDR range of the same family. */
function inRange(address: string, family: number, entry: string): boolean {
  const [network = '', bits] = entry.split('/');
  if (isIP(network) !== family || (bits !== undefined && !/^\d+$/.test(bits))) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const range = new BlockList();
  try {
    if (bits === undefined) range.addAddress(network, type);
    else range.addSubnet(network, Number(bits), type);
  } catch {
    return false; // a prefix longer than the address
  }
  return range.check(address, type);
}

/** How requests reach the service: one keep-alive pool, straight or through the proxy. */
export interface Route {
  /** The proxy on the way, if any. */
  readonly proxy: Proxy | undefined;
  /** Starts a GET of `url` (on the base URL's origin). */
  get(url: URL, headers: Record<string, string>): http.ClientRequest;
  /** Closes the pooled connections. */
  close(): void;
}

export interface RouteOptions {
  baseUrl: URL;
  /** Where the proxy variables are read; undefined to go straight to the service, as to the in-process sandbox. */
  env: Env | undefined;
  maxSockets: number;
  /** Stops connections to the proxy that are still being opened; open ones are closed by close(). */
  signal: AbortSignal;
}

export async function openRoute({ baseUrl, env, maxSockets, signal }: RouteOptions): Promise<Route> {
  const proxy = env && proxyFor(baseUrl, env);
  const poolOptions = { keepAlive: true, maxSockets };
  if (baseUrl.protocol === 'https:') {
    // One module for the pool: redirects may not leave the origin, so never change protocol.
    const https = await import('node:https');
    const agent = new https.Agent(poolOptions);
    if (proxy) {
      const { connect: tlsConnect } = await import('node:tls');
      const authority = `${baseUrl.hostname}:${baseUrl.port || 443}`;
      // The agent's options are TLS's: servername, and the CA and checks of the request.
      pooled(agent, async (options) => tlsConnect({ ...(options as ConnectionOptions), socket: await openTunnel(proxy, authority, signal) }));
    }
    return { proxy, get: (url, headers) => https.request(url, { method: 'GET', headers, agent }), close: () => agent.destroy() };
  }
  const agent = new http.Agent(poolOptions);
  if (!proxy) return { proxy, get: (url, headers) => http.request(url, { method: 'GET', headers, agent }), close: () => agent.destroy() };
  pooled(agent, () => connectToProxy(proxy, signal));
  return {
    proxy,
    get: (url, headers) =>
      http.request({
        host: proxy.hostname,
        port: proxy.port,
        path: url.href,
        method: 'GET',
        headers: { ...headers, host: url.host, ...proxyHeaders(proxy) },
        agent,
      }),
    close: () => agent.destroy(),
  };
}

const proxyHeaders = (proxy: Proxy): Record<string, string> => (proxy.authorization ? { 'proxy-authorization': proxy.authorization } : {});

/** Makes `agent` open its connections with `connect`, which may take a while: a tunnel does. */
function pooled(agent: http.Agent, connect: (options: http.RequestOptions) => Promise<Duplex>): void {
  agent.createConnection = (options, callback) => {
    // Node's agent takes a failure as the error alone.
    const done = callback as (error: Error | null, socket?: Duplex) => void;
    connect(options).then((socket) => done(null, socket), (error: Error) => done(error));
    return undefined;
  };
}

/** A connection to the proxy. Failing to connect is the proxy's failure, and says so. */
function connectToProxy(proxy: Proxy, signal: AbortSignal): Promise<Socket> {
  const socket = netConnect({ host: proxy.hostname, port: proxy.port });
  const connected = new Promise<Socket>((resolve, reject) => {
    const onError = (error: Error): void => reject(proxyError(error, proxy));
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
  return whileOpening(socket, signal, connected);
}

/** A connection to `authority` (`HOST:PORT`) through the proxy, by CONNECT. */
async function openTunnel(proxy: Proxy, authority: string, signal: AbortSignal): Promise<Socket> {
  const socket = await connectToProxy(proxy, signal);
  const tunnel = new Promise<Socket>((resolve, reject) => {
    const request = http.request({
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyHeaders(proxy) },
      createConnection: () => socket,
    });
    request.once('error', (error) => {
      socket.destroy();
      reject(proxyError(error, proxy));
    });
    request.once('connect', (response, connected: Socket, head: Buffer) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        if (head.length > 0) connected.unshift(head);
        resolve(connected);
        return;
      }
      connected.destroy();
      // The status's standard text, not the proxy's.
      const answer = [status, http.STATUS_CODES[status]].filter(Boolean).join(' ');
      reject(
        new NetworkError(`proxy ${proxy.host} answered ${answer} to CONNECT ${authority}`, {
          transient: status >= 500,
          hint: status === 407 ? `Check the user and password in ${proxy.variable}: http://USER:PASSWORD@HOST:PORT.` : undefined,
        }),
      );
    });
    request.end();
  });
  return whileOpening(socket, signal, tunnel);
}

/**
 * `opening`, with `socket` destroyed if the command ends first (a timeout, Ctrl-C). An open
 * connection belongs to the pool, which the transport closes.
 */
async function whileOpening<T>(socket: Socket, signal: AbortSignal, opening: Promise<T>): Promise<T> {
  const onAbort = (): void => {
    socket.destroy(new Error('the command has finished'));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await opening;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A failure to reach the proxy, as one line naming it. */
function proxyError(error: Error, proxy: Proxy): NetworkError {
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return new NetworkError(`connection refused by proxy ${proxy.host}`, { transient: true, cause: error });
  if (code === 'ENOTFOUND') return new NetworkError(`cannot resolve proxy host ${proxy.host}`, { transient: false, cause: error });
  return new NetworkError(`connection to proxy ${proxy.host} failed: ${error.message}`, { transient: true, cause: error });
}
