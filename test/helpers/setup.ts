import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

// Run before every test file: a helper module is evaluated once per worker, not once per file
// (vitest.config.ts), so a hook it registered itself would run after the first file only.
afterAll(removeTempDirs);
