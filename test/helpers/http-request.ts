import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A request to a local server over node:http, as mkt's transport sends its own: fetch spends more
 * CPU on each, and the contract tests and the relays send thousands.
 */
export function httpRequest(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: init.method ?? 'GET', headers: init.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        resolve({ status: response.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}
