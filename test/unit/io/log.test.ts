import { describe, expect, it } from 'vitest';
import { Logger } from '../../../src/io/log.js';
import { MemoryOutput } from '../../helpers/run-in-process.js';

function logger(verbose = true) {
  const stream = new MemoryOutput();
  return { log: new Logger(stream, { quiet: false, verbose, color: false }), text: () => stream.text() };
}

// Issue 35, point 6: the key stays out of text made where it was not at hand.
describe('Logger.conceal', () => {
  it('takes the key, as sent or percent-encoded in any case, out of every kind of line', () => {
    const { log, text } = logger();
    log.conceal('SeCrEtKeY/with+plus');
    log.info('record SeCrEtKeY/with+plus');
    log.warn('record SeCrEtKeY%2fwith%2bplus');
    log.debug('record SeCrEtKeY%2Fwith%2Bplus');
    log.error('record SeCrEtKeY/with+plus', 'hint SeCrEtKeY/with+plus');
    expect(text()).toBe('record ***\nwarning: record ***\nrecord ***\nmkt: record ***\nhint ***\n');
  });

  it('leaves a key too short to tell from words to serverText alone', () => {
    const { log, text } = logger();
    log.conceal('k');
    log.error('mkt exchanges knows');
    expect(text()).toBe('mkt: mkt exchanges knows\n');
  });
});

// Issue 40, point 2: under --error-format json, a failing run leaves its JSON object alone on stderr.
describe('a Logger that holds its lines back', () => {
  function holding() {
    const stream = new MemoryOutput();
    return { log: new Logger(stream, { quiet: false, verbose: true, color: false, hold: true }), text: () => stream.text() };
  }

  it('writes the request log as it comes, and notes and warnings only at release()', () => {
    const { log, text } = holding();
    log.info('a note');
    log.warn('a warning');
    log.debug('→ GET');
    expect(text()).toBe('→ GET\n');
    log.release();
    expect(text()).toBe('→ GET\na note\nwarning: a warning\n');
  });

  it('keeps a bounded number of lines, and counts the rest', () => {
    const { log, text } = holding();
    for (let line = 0; line < 1002; line += 1) log.warn(`w${line}`);
    log.release();
    const lines = text().trimEnd().split('\n');
    expect([lines.length, lines.at(-2), lines.at(-1)]).toEqual([1001, 'warning: w999', '(2 more lines not kept)']);
  });

  it('writes a failure as one line of JSON, at once, the key concealed, hint null when none, http_status only when given', () => {
    const { log, text } = holding();
    log.conceal('SeCrEtKeY/with+plus');
    log.warn('held back');
    log.failure({ code: 'server', message: 'said SeCrEtKeY/with+plus', hint: undefined, exit_code: 1, http_status: undefined, retryable: false });
    log.failure({ code: 'auth', message: 'rejected (401)', hint: 'Run `mkt auth login`.', exit_code: 3, http_status: 401, retryable: false });
    expect(text()).toBe(
      '{"error":{"code":"server","message":"said ***","hint":null,"exit_code":1,"retryable":false}}\n'
        + '{"error":{"code":"auth","message":"rejected (401)","hint":"Run `mkt auth login`.","exit_code":3,"http_status":401,"retryable":false}}\n',
    );
  });
});
