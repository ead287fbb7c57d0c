import { ValidationError } from './domain-error';

/**
 * CONTRACT: a PUT may send a resource's identity fields again, never change them. Each member of `sent` given with
 * another value than `current`'s is 400 validation naming it, rather than ignored: a request never means less than
 * it says.
 */
export function assertIdentityUnchanged<T extends object>(sent: { readonly [K in keyof T]?: unknown }, current: T): void {
  const changed = Object.entries(sent).filter(([name, value]) => value !== undefined && value !== current[name as keyof T]);
  if (changed.length) throw new ValidationError(changed.map(([name]) => ({ name, reason: 'cannot change after creation' })));
}
