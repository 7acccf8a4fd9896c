import { eastAsianWidth } from 'get-east-asian-width';

/** Printable ASCII: a cell per character, measured by its length without segmenting. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Marks and format characters on their own join the text before them and take no cell. */
const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|\p{Cf})+$/u;
/**
 * Every character that can join another into one grapheme (Unicode's UAX #29): marks, joiners and
 * the other format characters, skin tones, regional indicators (flags), Hangul jamo and Kirat Rai's
 * vowel signs, which join as they do, a CR (before a LF), and the few letters that are spacing
 * marks or prepended. Text with none of them is one grapheme per code point, measured without
 * segmenting.
 */
export const MAY_JOIN =
  /[\r\p{M}\p{Cf}\p{Grapheme_Extend}\p{Emoji_Modifier}\p{Regional_Indicator}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\u0E33\u0EB3\u0D4E\u{111C2}\u{111C3}\u{113D1}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}\u{16D63}\u{16D67}-\u{16D6A}]/u;
/** Emoji shown as pictures whatever their first character's East Asian Width: one made so by U+FE0F, and a flag. */
const EMOJI_SEQUENCE = /\uFE0F|\p{Regional_Indicator}{2}/u;

let segmenter: Intl.Segmenter | undefined;

/**
 * The most text given to the segmenter at once: Node 20's takes time that grows with the square of
 * the text's length, and a long text from the server would hold a table up for minutes.
 */
export const SEGMENTED_AT_ONCE = 256;

/**
 * The graphemes of a text, segmented in pieces of at most SEGMENTED_AT_ONCE code units, each
 * starting where a grapheme starts: the piece's graphemes but its last are whole, and the next
 * piece starts with that last one. Only a grapheme longer than a piece, which no script writes,
 * is cut where the piece ends.
 */
export function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter();
  let start = 0;
  while (text.length - start > SEGMENTED_AT_ONCE) {
    const pieceStart = start;
    let end = start + SEGMENTED_AT_ONCE;
    if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
    let last = '';
    for (const { segment } of segmenter.segment(text.slice(start, end))) {
      if (last !== '') {
        yield last;
        start += last.length;
      }
      last = segment;
    }
    if (start === pieceStart) {
      yield last;
      start = end;
    }
  }
  for (const { segment } of segmenter.segment(text.slice(start))) yield segment;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;

/** Two cells for a grapheme whose first character is East Asian Wide or Fullwidth (ambiguous ones are narrow, as Unicode advises). */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  return eastAsianWidth(grapheme.codePointAt(0)!) === 2 || EMOJI_SEQUENCE.test(grapheme) ? 2 : 1;
}

/** Terminal cells one line of text takes. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  if (!MAY_JOIN.test(text)) {
    for (const character of text) width += eastAsianWidth(character.codePointAt(0)!);
    return width;
  }
  for (const grapheme of graphemes(text)) width += graphemeWidth(grapheme);
  return width;
}

/**
 * The text cut to `width` cells, ending with `…` when cut. A cut that would split a word holding
 * a digit falls before that word instead: `≥ 50,000,000 shares` never shows as `≥ 50,00…`.
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const grapheme of graphemes(text)) {
    const cells = graphemeWidth(grapheme);
    if (used + cells > width - 1) break;
    kept += grapheme;
    used += cells;
  }
  const head = /\S*$/u.exec(kept)?.[0] ?? '';
  const tail = /^\S*/u.exec(text.slice(kept.length))?.[0] ?? '';
  if (head !== '' && tail !== '' && /\d/u.test(head + tail)) kept = kept.slice(0, kept.length - head.length);
  return `${kept}…`;
}

/**
 * The text in lines of at most `width` cells, broken at spaces; a word longer than a line is
 * broken where the line ends. Nothing is left out but the spaces at the breaks. With `hang`,
 * the lines after the first are indented by that many spaces (an item of a list, wrapped,
 * stays apart from the next item).
 */
export function wrapToWidth(text: string, width: number, hang = 0): string[] {
  if (displayWidth(text) <= width) return [text];
  const indent = ' '.repeat(Math.min(hang, width - 1));
  const lines: string[] = [];
  let line = '';
  const limit = (): number => (lines.length === 0 ? width : width - indent.length);
  const push = (): void => {
    lines.push(lines.length === 0 ? line : `${indent}${line}`);
    line = '';
  };
  for (const word of text.split(' ')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (displayWidth(joined) <= limit()) {
      line = joined;
      continue;
    }
    if (line !== '') push();
    let used = 0;
    for (const grapheme of graphemes(word)) {
      const cells = graphemeWidth(grapheme);
      if (used + cells > limit() && line !== '') {
        push();
        used = 0;
      }
      line += grapheme;
      used += cells;
    }
  }
  if (line !== '') push();
  return lines;
}
