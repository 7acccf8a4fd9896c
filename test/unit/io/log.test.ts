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
