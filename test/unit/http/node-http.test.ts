import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Imports of node:http that load it as an ES module: every one but `import type`. */
function valueImportsOfHttp(text: string): string[] {
  return [...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'node:http'|\bimport\s*\(\s*'node:http'\s*\)/gm)].map((match) => match[0]);
}

describe('node:http is required, not imported (src/http/node-http.ts)', () => {
  it('tells a value import from a type import', () => {
    expect(valueImportsOfHttp("import { createServer } from 'node:http';\nimport type { Agent } from 'node:http';")).toEqual([
      "import { createServer } from 'node:http'",
    ]);
    expect(valueImportsOfHttp("const http = await import('node:http');")).toHaveLength(1);
    expect(valueImportsOfHttp("import { type IncomingMessage, STATUS_CODES } from 'node:http';")).toHaveLength(1);
  });

  it('no file of src/ imports a value from node:http', () => {
    const offenders = sourceFiles(SRC).flatMap((file) => valueImportsOfHttp(readFileSync(file, 'utf8')).map((found) => `${relative(SRC, file)}: ${found}`));
    expect(offenders).toEqual([]);
  });
});
