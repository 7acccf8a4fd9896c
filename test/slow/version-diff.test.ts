import { expect, it } from 'vitest';
import { misreadOfOneIdentity } from '../helpers/line-items.js';

// Issue 35, point 8: the pairing grows with the items of an identity, not their square (a pairing
// that compared every two took a minute here). test/unit/api/version-diff.test.ts pairs 1,400.
it('pairs 140,000 items of one identity: the equal ones together, the rest in content order', () => {
  expect(misreadOfOneIdentity(100_000, 40_000)).toEqual([]);
});
