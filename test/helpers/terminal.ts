import { spawn } from 'node:child_process';
import { MKT_BIN, tempConfigDir } from './run-mkt.js';
import { installed } from './installed.js';
import { tempDir } from './temp-dir.js';

/** util-linux `script`, which gives a command a real pseudo-terminal. */
export const hasScript = installed('script');

const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/** A clean environment, as a user's: no MKT_*, NO_COLOR, FORCE_COLOR or CLICOLOR* unless given; its own config and cache directories. */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { TERM: 'xterm-256color', MKT_CONFIG_DIR: tempConfigDir(), MKT_CACHE_DIR: tempDir('mkt-cache-'), MKT_DATA_DIR: tempDir('mkt-data-') };
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(MKT_|NO_COLOR$|FORCE_COLOR$|CLICOLOR$|CLICOLOR_FORCE$|NODE_EXTRA_CA_CERTS$|XDG_CONFIG_HOME$|XDG_CACHE_HOME$|XDG_DATA_HOME$|TERM$)/.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * Runs mkt with stdout and stderr on one pseudo-terminal `columns` wide (with `pipeTo`, stdout
 * goes through that command first, as in `mkt … | head -3`), and returns what the terminal received. Output post-processing (`\n` → `\r\n`) is off, so lines split on `\n`.
 */
export function runOnTerminal(
  args: readonly string[],
  options: { columns: number; env?: Record<string, string>; pipeTo?: readonly string[] },
): Promise<string> {
  const mkt = [process.execPath, MKT_BIN, ...args].map(quote).join(' ');
  const run = options.pipeTo ? `${mkt} | ${options.pipeTo.map(quote).join(' ')}` : `exec ${mkt}`;
  const command = `stty cols ${options.columns} rows 50 -onlcr; ${run}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: userEnv(options.env ?? {}) });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`exit ${code}: ${output}`))));
  });
}
