import type { OutputStream } from '../core/deps.js';

/** A variable that is set to something other than "" and "0". */
const isOn = (value: string | undefined): boolean => value !== undefined && value !== '' && value !== '0';

/**
 * Whether to colour a stream, by gh's precedence: `NO_COLOR` and `--no-color` win over
 * everything, then `CLICOLOR_FORCE` (colour even off a terminal), then `FORCE_COLOR` (the same,
 * or no colour when 0 or false), then `CLICOLOR=0` (no colour), then whether the stream is a terminal.
 */
export function colorEnabled(
  stream: OutputStream,
  env: Readonly<Record<string, string | undefined>>,
  colorFlag: boolean,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (!colorFlag) return false;
  if (isOn(env.CLICOLOR_FORCE)) return true;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.CLICOLOR === '0') return false;
  return stream.isTTY === true;
}

const ANSI = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Style = keyof typeof ANSI;

export function paint(enabled: boolean, style: Style, text: string): string {
  return enabled ? `\u001b[${ANSI[style]}m${text}\u001b[0m` : text;
}
