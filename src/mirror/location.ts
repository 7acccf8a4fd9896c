import path from 'node:path';
import { dataDirectory } from '../config/paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The mirror a command uses: `--mirror`, else `MKT_MIRROR`, else `<profile>.duckdb` in the OS
 * data directory. With `--sandbox`, MKT_MIRROR is not read and the default is under `sandbox/`:
 * the sandbox's made-up data never lands in a mirror of the service.
 */
export function mirrorLocation(flag: string | undefined, env: Env, profile: string, sandbox: boolean): string {
  if (flag !== undefined) return path.resolve(flag);
  const fromEnv = sandbox ? undefined : env.MKT_MIRROR?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(dataDirectory(env), ...(sandbox ? ['sandbox'] : []), `${profile}.duckdb`);
}
