import 'reflect-metadata';
import { IsDefined } from 'class-validator';
import { DomainError, MAX_BATCH_ITEMS, ValidationError } from '@rcs/domain';

/** A batch's envelope: its items are parsed one by one (batchItems), each standing alone. */
export class BatchBody {
  @IsDefined()
  items!: unknown;
}

/**
 * A batch's items, each parsed on its own by `parse`: a malformed item becomes that item's 400, not the batch's.
 * `noun` names what the items are, for the envelope's own 400.
 */
export function batchItems<T>(items: unknown, noun: string, parse: (item: unknown) => T): Array<T | DomainError> {
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_ITEMS) {
    throw ValidationError.of('items', `items must be an array of 1 to ${MAX_BATCH_ITEMS} ${noun}`);
  }
  return items.map((item) => {
    try {
      return parse(item);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  });
}
