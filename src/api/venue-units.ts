/*
 * What a venue's fee schedule is counted in (shared/cli-contract.md, "Tiers and venues"). The
 * schedule's numbers say neither, so the unit is told from the fee types of the venue's results:
 * a venue whose results are all of one class prices that class. Nothing is guessed from the
 * numbers' size or from the venue's name.
 */

export type VenueUnit = 'per share' | 'per contract';

/** The unit of each class, by the filter value of its fee type (`Equity`) in any case: `EQUITY` and `equity` are spellings of it. */
export const UNIT_OF_FEE_TYPE: ReadonlyMap<string, VenueUnit> = new Map([
  ['equity', 'per share'],
  ['option', 'per contract'],
]);

/**
 * The unit of a venue whose results carry these fee types: the class's when they are all of one
 * class; null with both (one schedule cannot say which it prices), none, or a fee type of no known class.
 */
export function unitOfFeeTypes(feeTypes: readonly string[]): VenueUnit | null {
  const units = new Set(feeTypes.map((feeType) => UNIT_OF_FEE_TYPE.get(feeType.toLowerCase()) ?? null));
  const [unit] = units;
  return units.size === 1 && unit !== undefined ? unit : null;
}
