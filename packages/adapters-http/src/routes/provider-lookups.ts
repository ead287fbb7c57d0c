import type { Request } from 'express';
import { UnknownAliasError } from '@rcs/domain';

/**
 * What a request's call to the banking provider found, made before its Idempotency-Key's transaction opens (no
 * transaction waits on the provider): the answer, or the provider's word that no account has the alias, a business
 * refusal (404) that the keyed handler throws, so that the key keeps it as it keeps every business refusal
 * (CONTRACT). A provider down or slow (502/504) and a malformed request (400) are thrown at once: a key keeps
 * nothing of those, and the retry runs.
 */
export class ProviderLookups<T> {
  private readonly found = new WeakMap<Request, T | UnknownAliasError>();

  async look(req: Request, lookup: () => Promise<T>): Promise<void> {
    try {
      this.found.set(req, await lookup());
    } catch (error) {
      if (!(error instanceof UnknownAliasError)) throw error;
      this.found.set(req, error);
    }
  }

  /** The answer looked up for `req`, if any was; the refusal, thrown. */
  of(req: Request): T | undefined {
    const found = this.found.get(req);
    if (found instanceof UnknownAliasError) throw found;
    return found;
  }
}
