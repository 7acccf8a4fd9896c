const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|\p{Cf})+$/u;
/** East Asian Wide and Fullwidth blocks, and emoji shown as pictures: two cells in a terminal. */
const DOUBLE_WIDTH =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F000}-\u{1FAFF}\u{20000}-\u{3FFFD}]|\p{Emoji_Presentation}|\uFE0F/u;
/**
 * Text of characters that each take one cell, in one code unit: ASCII, Latin, Greek, Cyrillic
 * (precomposed), general punctuation, arrows (↵) and box drawing. Measured by its length.
 */
const NARROW_ONLY = /^[\x20-\x7e\u00a0-\u02ff\u0370-\u03ff\u0400-\u04ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u257f]*$/;

/** Characters that join with their neighbours into one grapheme: marks, joiners, selectors, skin tones, flags. */
const CLUSTERING = /[\p{M}\p{Cf}\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}]/u;
const DOUBLE_WIDTH_ALL = new RegExp(DOUBLE_WIDTH.source, 'gu');
const SURROGATE_PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

let segmenter: Intl.Segmenter | undefined;

function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter();
  for (const { segment } of segmenter.segment(text)) yield segment;
}

function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  return DOUBLE_WIDTH.test(grapheme) ? 2 : 1;
}

/** Terminal cells one line of text takes. */
export function displayWidth(text: string): number {
  if (NARROW_ONLY.test(text)) return text.length; // the common case, without segmenting
  if (!CLUSTERING.test(text)) {
    // One grapheme per code point: count them, and the wide ones twice.
    const codePoints = text.length - (text.match(SURROGATE_PAIRS)?.length ?? 0);
    return codePoints + (text.match(DOUBLE_WIDTH_ALL)?.length ?? 0);
  }
  let width = 0;
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
