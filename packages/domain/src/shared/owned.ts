import { NotAccessibleError, NotFoundError } from './domain-error';

/**
 * Tenant check for a resource named by id: missing is 404, another customer's is 403 (CONTRACT), so callers
 * never act on a row that is not theirs.
 */
export function ownedBy<T extends { readonly customerId: number }>(found: T | undefined, customerId: number, resource: string, id: number | string): T {
  if (!found) throw new NotFoundError(resource, id);
  if (found.customerId !== customerId) throw new NotAccessibleError(resource, id);
  return found;
}
