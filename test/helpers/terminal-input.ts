import { PassThrough } from 'node:stream';

/** A stand-in for a terminal on stdin: isTTY, and raw mode, which readline turns on and off, recorded. */
export function terminalInput(): PassThrough & { isTTY: boolean; rawModes: boolean[]; setRawMode(raw: boolean): unknown } {
  const rawModes: boolean[] = [];
  return Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes,
    setRawMode(raw: boolean) {
      rawModes.push(raw);
      return this;
    },
  });
}
