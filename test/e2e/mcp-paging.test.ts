import { describe, expect, it } from 'vitest';
import { Context } from '../../src/commands/context.js';
import { outputOptions } from '../../src/commands/output-options.js';
import { collectRecords, encodeCursor, MAX_DATA_CHARS, pagingOf, type Paging, RecordBudget } from '../../src/mcp/tool-call.js';
import { writeDataset } from '../../src/output/write.js';
import { memoryDeps } from '../helpers/run-in-process.js';

// Issue 40, point 1: a tool answers what a command writes, page by page, as the commands of
// compare_venues and diff_versions write it: each answer as much as fits, the next from its cursor.

const ROWS = 2000;
const rowOf = (index: number) => ({ index, text: `row ${index} `.padEnd(80, '.') });

/** A command that writes ROWS rows in batches of 100, and counts the batches it was asked for. */
function writingCommand(pulled: { batches: number }): (call: Context) => Promise<void> {
  async function* batches(): AsyncGenerator<object[]> {
    for (let start = 0; start < ROWS; start += 100) {
      pulled.batches++;
      yield Array.from({ length: 100 }, (_, offset) => rowOf(start + offset));
    }
  }
  return async (call) => {
    await writeDataset({ shape: 'list', batches: batches() }, outputOptions(call));
  };
}

const isPaging = (value: unknown): value is Paging => typeof value === 'object' && value !== null && 'skip' in value && 'args' in value;

describe('a command written for a tool', () => {
  it('is answered as much as fits, every row once and in order across the cursors, and stops writing once an answer is full', async () => {
    const deps = memoryDeps();
    const server = new Context(deps, { color: false });
    const signal = new AbortController().signal;
    const rows: { index: number }[] = [];
    const pulled = { batches: 0 };
    let cursor: string | undefined;
    let answers = 0;
    do {
      const state = pagingOf(cursor ? { cursor } : { exchange: 'NYSE' }, isPaging, (given) => ({ args: given, skip: 0 }));
      pulled.batches = 0;
      const found = await collectRecords(server, signal, new RecordBudget(Number.POSITIVE_INFINITY), state.skip, writingCommand(pulled));
      expect(JSON.stringify(found.records).length).toBeLessThanOrEqual(MAX_DATA_CHARS);
      // The first answer is full long before the last batch: the command was stopped, as `| head` stops it.
      if (answers === 0) expect(pulled.batches).toBeLessThan(ROWS / 100);
      rows.push(...(found.records as { index: number }[]));
      cursor = found.cut ? encodeCursor({ args: state.args, skip: found.next }) : undefined;
      answers++;
    } while (cursor !== undefined && answers < 20);
    expect(rows.map((row) => row.index)).toEqual(Array.from({ length: ROWS }, (_, index) => index));
    expect(answers).toBeGreaterThan(3);
    expect(deps.stdout.text()).toBe('');
    await server.dispose();
  });
});
