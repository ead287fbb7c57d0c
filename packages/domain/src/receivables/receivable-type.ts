export const RECEIVABLE_TYPES = ['INVOICE', 'DEBT', 'CREDIT_NOTE', 'MISSING_PRODUCT', 'RETURN_PRODUCT', 'BROKEN_PRODUCT', 'ADJUSTMENT', 'RETENTION'] as const;
export type ReceivableType = (typeof RECEIVABLE_TYPES)[number];

/** Types that add to what the client owes; every other type reduces a parent of one of these. */
export const POSITIVE_TYPES: readonly ReceivableType[] = ['INVOICE', 'DEBT'];

export const isPositive = (type: ReceivableType): boolean => POSITIVE_TYPES.includes(type);

/** Signed minor units: the accounting sign comes from the type, the stored amount is always positive. */
export const signedMinor = (type: ReceivableType, amountMinor: bigint): bigint => (isPositive(type) ? amountMinor : -amountMinor);
