/**
 * Names the bank or wallet behind a CBU or CVU from its first digits: a CBU's first 3 are the bank's BCRA code; a
 * CVU starts with 000 and its next 4 are the payment service provider's code. A port, so the table stays data in
 * an adapter and the domain stays pure.
 */
export interface EntityDirectory {
  /** Never fails: a code missing from the table gets a stable "Unknown entity (...)" name. */
  entityOf(cbuCvu: string): string;
}
