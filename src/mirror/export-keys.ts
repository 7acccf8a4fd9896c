/** The keys a tree of `mkt export` may be partitioned by, in the one order its folders nest. */
export const PARTITION_KEYS = ['exchange_name', 'fee_type', 'scraped_date'] as const;
export type PartitionKey = (typeof PARTITION_KEYS)[number];
export const DEFAULT_PARTITION_KEYS: readonly PartitionKey[] = ['exchange_name', 'fee_type'];
