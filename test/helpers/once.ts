/** A function that runs `compute` at its first call, and gives every call its answer: set-up that several tests read. */
export function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | undefined;
  return () => (answer ??= compute());
}
