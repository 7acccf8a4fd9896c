import { readFileSync } from 'node:fs';

/** The package version, from the nearest package.json named "mkt" above this module (dist/ or src/). */
function readVersion(): string {
  for (let directory = new URL('./', import.meta.url); ; directory = new URL('../', directory)) {
    try {
      const manifest = JSON.parse(readFileSync(new URL('package.json', directory), 'utf8')) as { name?: string; version: string };
      if (manifest.name === 'mkt') return manifest.version;
    } catch {
      // no package.json here: look one level up
    }
    if (directory.pathname === '/') throw new Error('package.json of mkt not found');
  }
}

export const VERSION: string = readVersion();
