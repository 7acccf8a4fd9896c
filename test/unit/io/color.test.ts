import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../../src/io/color.js';
import { MemoryOutput } from '../../helpers/run-in-process.js';

const terminal = new MemoryOutput({ isTTY: true, columns: 80 });
const pipe = new MemoryOutput();

// Issue 40, point 4: gh's precedence: NO_COLOR (and --no-color), then CLICOLOR_FORCE, then CLICOLOR.
describe('colorEnabled', () => {
  it.each([
    ['nothing set, a terminal', terminal, {}, true, true],
    ['nothing set, a pipe', pipe, {}, true, false],
    ['CLICOLOR=0 at a terminal', terminal, { CLICOLOR: '0' }, true, false],
    ['CLICOLOR=1 on a pipe', pipe, { CLICOLOR: '1' }, true, false],
    ['CLICOLOR_FORCE=1 on a pipe', pipe, { CLICOLOR_FORCE: '1' }, true, true],
    ['CLICOLOR_FORCE=0 on a pipe', pipe, { CLICOLOR_FORCE: '0' }, true, false],
    ['CLICOLOR_FORCE empty on a pipe', pipe, { CLICOLOR_FORCE: '' }, true, false],
    ['CLICOLOR_FORCE=1 beside CLICOLOR=0', pipe, { CLICOLOR_FORCE: '1', CLICOLOR: '0' }, true, true],
    ['CLICOLOR_FORCE=1 beside FORCE_COLOR=0', pipe, { CLICOLOR_FORCE: '1', FORCE_COLOR: '0' }, true, true],
    ['NO_COLOR beside CLICOLOR_FORCE=1', terminal, { NO_COLOR: '1', CLICOLOR_FORCE: '1' }, true, false],
    ['--no-color beside CLICOLOR_FORCE=1', terminal, { CLICOLOR_FORCE: '1' }, false, false],
    ['FORCE_COLOR=1 beside CLICOLOR=0', pipe, { FORCE_COLOR: '1', CLICOLOR: '0' }, true, true],
    ['an empty NO_COLOR beside CLICOLOR=0', terminal, { NO_COLOR: '', CLICOLOR: '0' }, true, false],
  ])('%s', (_what, stream, env, colorFlag, expected) => {
    expect(colorEnabled(stream, env, colorFlag)).toBe(expected);
  });
});
