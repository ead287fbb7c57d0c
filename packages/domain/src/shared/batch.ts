import type { DomainError } from './domain-error';

/** One item's answer in a batch: what it created, or the error it would have had posted alone. */
export type BatchOutcome<T> = { readonly index: number; readonly value: T } | { readonly index: number; readonly error: DomainError };
