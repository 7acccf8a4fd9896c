/** A JSON object as parsed: not null, not an array. Light, so that start-up code may check a shape. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
