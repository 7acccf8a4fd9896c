import type { OutputStream } from '../core/deps.js';

/**
 * Whether to colour a stream: `NO_COLOR` wins over everything, then `--no-color`, then
 * `FORCE_COLOR`, then whether the stream is a terminal.
 */
export function colorEnabled(
  stream: OutputStream,
  env: Readonly<Record<string, string | undefined>>,
  colorFlag: boolean,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (!colorFlag) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}

const ANSI = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Style = keyof typeof ANSI;

export function paint(enabled: boolean, style: Style, text: string): string {
  return enabled ? `\u001b[${ANSI[style]}m${text}\u001b[0m` : text;
}
