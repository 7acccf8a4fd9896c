import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Data flows one way: service → walk of plain records → exporter → sink. These checks read the
 * import statements of src/ (static, type-only and dynamic alike) and hold the layers to it.
 */

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `from './x.js'`, `import './x.js'` and `import('./x.js')`, relative ones only, as src-relative .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)].map((match) => match[1] as string);
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

const graph = new Map(sourceFiles(SRC).map((file) => [relative(SRC, file), importsOf(file)]));

/** The folder of a src-relative path, as `output`; `src` for the files at the top. */
const folderOf = (file: string): string => (file.includes('/') ? (file.split('/')[0] as string) : 'src');

/** The imports of src/ that cross from one folder into another, as [file, imported file]. */
const crossings: [string, string][] = [...graph].flatMap(([file, imports]) =>
  imports.filter((target) => graph.has(target) && folderOf(target) !== folderOf(file)).map((target): [string, string] => [file, target]),
);

/** Which folders the files of each folder import. */
const folderGraph = new Map<string, string[]>([...graph.keys()].map((file) => [folderOf(file), []]));
for (const [file, target] of crossings) {
  const targets = folderGraph.get(folderOf(file)) as string[];
  if (!targets.includes(folderOf(target))) targets.push(folderOf(target));
}

/** Strongly connected components of more than one node, or a node importing itself (Tarjan). */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || edges.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Imports from files under `from` into files under any of `into`. */
function importsBetween(from: string, into: readonly string[]): string[] {
  return [...graph].flatMap(([file, imports]) =>
    file.startsWith(from) ? imports.filter((target) => into.some((layer) => target.startsWith(layer))).map((target) => `${file} → ${target}`) : [],
  );
}

describe('the import graph of src/', () => {
  it('reads the files it checks', () => {
    expect(graph.get('api/walk.ts')).toContain('api/client.ts');
  });

  it('has no cycle, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has folders that form layers: no folder reaches back to itself through another', () => {
    const tying = (folders: string[]): string[] =>
      crossings.filter((pair) => pair.every((file) => folders.includes(folderOf(file)))).map(([file, target]) => `${file} → ${target}`);
    expect(cycles(folderGraph).map((folders) => ({ folders, imports: tying(folders) }))).toEqual([]);
  });

  it('finds a cycle between folders', () => {
    expect(cycles(new Map([['api', ['core']], ['core', ['output']], ['output', ['api']], ['io', ['core']]]))).toEqual([['api', 'core', 'output']]);
  });

  it('keeps the HTTP transport free of the API client, output and commands', () => {
    expect(importsBetween('http/', ['api/', 'output/', 'commands/'])).toEqual([]);
  });

  it('keeps the output layer free of HTTP', () => {
    expect(importsBetween('output/', ['http/'])).toEqual([]);
  });

  it('keeps the config free of the output layer but for the list of formats', () => {
    expect(importsBetween('config/', ['output/']).filter((tie) => !tie.endsWith('→ output/formats.ts'))).toEqual([]);
  });
});

/** Calls that load a module by name at run time, as `require('node:http')` or `createRequire(…)('node:http')` do; not `import('…')`. */
function requiresOf(text: string): string[] {
  return [...text.matchAll(/(?<!\bimport\s*)\(\s*'(node:[a-z_/]+)'\s*\)/g)].map((match) => match[1] as string);
}

describe('Node\'s built-ins are imported, as ES modules are', () => {
  it('tells a require from a dynamic import', () => {
    expect(requiresOf("const http = createRequire(import.meta.url)('node:http');\nrequire( 'node:fs' );")).toEqual(['node:http', 'node:fs']);
    expect(requiresOf("const https = await import('node:https');\nimport { STATUS_CODES } from 'node:http';")).toEqual([]);
  });

  it('no file of src/ requires one', () => {
    const offenders = sourceFiles(SRC).flatMap((file) => requiresOf(readFileSync(file, 'utf8')).map((found) => `${relative(SRC, file)}: ${found}`));
    expect(offenders).toEqual([]);
  });
});
