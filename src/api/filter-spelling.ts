/**
 * How the service's enumerated values compare across its two editions and its own variants:
 * `Fee And Rebates`, `Fees And Rebates` and `fees_and_rebates` are one value, as are `N/A` and
 * `not_applicable`, and `Legal Regulatory Fees` and `legal_regulatory_fee`. Case does not count,
 * an underscore is a space, and a word's final plural s is dropped. The 2026 edition's
 * `equity_class` (a fee_symbol_classification) is the interface document's `Equity`. The mirror's
 * SQL has its exact twin (enumKeySql in src/mirror/offline-results.ts).
 */
export function enumKey(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^n\/a$/, 'not applicable')
    .split(/[\s_]+/)
    .filter((word) => word !== '')
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word))
    .join(' ')
    .replace(/^equity class$/, 'equity');
}
