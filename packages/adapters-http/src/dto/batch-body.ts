import type { Request, RequestHandler } from 'express';
import { DomainError, MAX_BATCH_ITEMS, ValidationError, type InvalidParam } from '@rcs/domain';
import { assertObject, storable } from './parse-input';

/** A batch's body once its envelope is checked: its items, each parsed on its own later (batchItems). */
export interface BatchBody {
  readonly items: unknown;
}

/**
 * An item whose text or numbers cannot be stored exactly: its own 400 among the results, not the batch's (CONTRACT:
 * each item stands alone). It keeps the item as received, so two batches differing in it do not share a fingerprint.
 */
class UnreadableItem {
  constructor(
    readonly problems: readonly InvalidParam[],
    readonly item: unknown,
  ) {}
}

/** Problems the JSON parser's checks found inside a batch's items (inexact numbers), for batchBody to place. */
const foundInItems = new WeakMap<Request, readonly InvalidParam[]>();

const ITEM_MEMBER = /^items\[(\d+)\](?:\.(.+)|(\[.+))?$/;

/**
 * Splits problems found in a body into those inside a batch's items, kept for its batchBody (harmless elsewhere:
 * a body of any other operation has no `items`, and an unknown member is dropped unread), and the others.
 */
export function setApartItemProblems(req: Request, problems: readonly InvalidParam[]): InvalidParam[] {
  const inItems = problems.filter((problem) => ITEM_MEMBER.test(problem.name));
  if (inItems.length > 0) foundInItems.set(req, inItems);
  return problems.filter((problem) => !ITEM_MEMBER.test(problem.name));
}

/**
 * A batch's envelope: `items` required, other members dropped; an item with text that cannot be stored or a number
 * that cannot be read exactly is set apart as that item's 400, named as its own members (`description`, not
 * `items[3].description`). Validation of the items themselves is batchItems'.
 */
export const batchBody: RequestHandler = (req, _res, next) => {
  assertObject(req.body, 'body');
  const { items } = req.body as { items?: unknown };
  if (items === undefined || items === null) throw ValidationError.of('items', 'is required');
  const problems = [...(foundInItems.get(req) ?? [])];
  const copy = storable(items, 'items', problems);
  const own = problems.filter((problem) => !ITEM_MEMBER.test(problem.name));
  if (own.length > 0) throw new ValidationError(own);
  const apart = new Map<number, InvalidParam[]>();
  for (const { name, reason } of problems) {
    const [, index, member, element] = ITEM_MEMBER.exec(name)!;
    apart.set(Number(index), [...(apart.get(Number(index)) ?? []), { name: member ?? (element ? `body${element}` : 'body'), reason }]);
  }
  req.body = {
    items: Array.isArray(copy)
      ? (copy as unknown[]).map((item, index) => (apart.has(index) ? new UnreadableItem(apart.get(index)!, (items as unknown[])[index]) : item))
      : copy,
  };
  next();
};

/**
 * A batch's items, each parsed on its own by `parse`: a malformed item becomes that item's 400, not the batch's.
 * `noun` names what the items are, for the envelope's own 400.
 */
export function batchItems<T>(items: unknown, noun: string, parse: (item: unknown) => T): Array<T | DomainError> {
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_ITEMS) {
    throw ValidationError.of('items', `items must be an array of 1 to ${MAX_BATCH_ITEMS} ${noun}`);
  }
  return items.map((item) => {
    if (item instanceof UnreadableItem) return new ValidationError(item.problems);
    try {
      return parse(item);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  });
}
