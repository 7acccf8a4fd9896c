/**
 * Every echo of `key` in `text` made `***`: the key as sent, and percent-encoded as a server may
 * echo a request back, whichever of its characters are encoded and in either case of hex digit
 * (`%2F` and `%2f`).
 */
export function redactKey(text: string, key: string): string {
  return key === '' ? text : text.replace(keyEchoes(key), '***');
}

/** The last pattern made: one invocation has one key, and its logger asks for it on every line. */
let lastEchoes: { key: string; pattern: RegExp } | undefined;

function keyEchoes(key: string): RegExp {
  if (lastEchoes?.key !== key) lastEchoes = { key, pattern: new RegExp(keyEchoSource(key), 'g') };
  return lastEchoes.pattern;
}

/**
 * The source of a pattern that matches every echo of `key`, each character as it is or
 * percent-encoded (a space also as a form's `+`), without capturing.
 */
export function keyEchoSource(key: string): string {
  const encoder = new TextEncoder();
  return Array.from(key, (char) => {
    const literal = char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    const encoded = Array.from(encoder.encode(char), (byte) => `%${hexDigits(byte)}`).join('');
    // A form's query writes a space as `+`.
    return `(?:${literal}|${encoded}${char === ' ' ? '|\\+' : ''})`;
  }).join('');
}

/** A byte's two hex digits as a pattern that takes either case: `2F` is `2[Ff]`. */
function hexDigits(byte: number): string {
  return byte.toString(16).padStart(2, '0').replace(/[a-f]/g, (digit) => `[${digit.toUpperCase()}${digit}]`);
}
