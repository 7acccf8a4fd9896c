// Did-you-mean: the known name closest to what was typed.

/** Levenshtein distance, case-insensitive. */
function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previousRow = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const row = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = (previousRow[j - 1] as number) + (left[i - 1] === right[j - 1] ? 0 : 1);
      row.push(Math.min((previousRow[j] as number) + 1, (row[j - 1] as number) + 1, substitution));
    }
    previousRow = row;
  }
  return previousRow[right.length] as number;
}

/** The allowed value closest to `value`, if it is close enough to be a typo. */
export function nearestValue(value: string, allowed: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(value, candidate);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const tolerance = Math.max(2, Math.floor(best.candidate.length / 3));
  return best.distance <= tolerance ? best.candidate : undefined;
}
