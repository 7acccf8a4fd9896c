// `npm run generate`: writes the completion scripts, the man page and docs/commands.md from the
// built program (dist/), so that they cannot drift from its definition. test/unit/generators/
// shipped-files.test.ts fails when a committed file differs from what this would write.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { buildProgram } from '../dist/program.js';
import { renderShippedFiles } from '../dist/generators/shipped-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const quiet = new PassThrough();
const program = buildProgram({ stdin: quiet, stdout: quiet, stderr: quiet, env: {}, now: Date.now });
for (const file of renderShippedFiles(program)) {
  const target = join(root, file.path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, file.text);
  console.log(`wrote ${file.path}`);
}
