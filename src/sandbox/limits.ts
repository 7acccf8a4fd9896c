/**
 * Defaults and bounds of the sandbox's options. A module of its own, free of imports but a type, so that
 * `mkt sandbox` can validate its flags without loading the sandbox.
 */
import type { ServiceShape } from '../api/record-id.js';

export const DEFAULT_RECORDS = 3000;
export const DEFAULT_SEED = 1;
/** Above this, a version's records could be created after the next version was scraped. */
export const MAX_RECORDS = 5_000_000;
/** Versions, those generated and those added: a record's version is a 16-bit number. */
export const MAX_VERSIONS = 65_536;
export const MAX_LATENCY_MS = 600_000;
export const MAX_RATE_WINDOW_SECONDS = 86_400;
export const MAX_PORT = 65_535;
/** The editions of the service the sandbox speaks; the first is the default. */
export const SANDBOX_SHAPES = ['interface', '2026'] as const satisfies readonly ServiceShape[];
