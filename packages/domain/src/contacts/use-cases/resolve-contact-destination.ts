import type { AliasDirectory } from '../../bank/alias-directory';
import type { EntityDirectory } from '../../bank/entity-directory';
import { DomainError, ValidationError } from '../../shared/domain-error';
import { parseAlias, parseCbuCvu } from '../../shared/bank-account-number';
import type { ContactDestination } from '../contact';

export interface ContactDestinationInput {
  readonly cbuCvu?: string;
  readonly alias?: string;
}

/** An alias that no account has at the banking provider: 404 resource-not-found (README "Recipients"). */
export class UnknownAliasError extends DomainError {
  constructor(alias: string) {
    super('resource-not-found', `no account has the alias ${alias}, here or at the banking provider`);
  }
}

/**
 * Turns what the caller gave (a CBU/CVU, an alias, or both) into a destination. An alias not of this service's
 * accounts is asked of the provider, so this runs before and outside any transaction: a provider that is down or slow fails it with 502/504 and
 * nothing has been written. A CBU/CVU alone needs no call: its entity comes from the directory.
 */
export class ResolveContactDestination {
  constructor(
    private readonly aliases: AliasDirectory,
    private readonly entities: EntityDirectory,
  ) {}

  async execute(input: ContactDestinationInput): Promise<ContactDestination> {
    if (input.cbuCvu === undefined && input.alias === undefined) {
      throw new ValidationError([
        { name: 'cbuCvu', reason: 'cbuCvu or alias is required' },
        { name: 'alias', reason: 'cbuCvu or alias is required' },
      ]);
    }
    const cbuCvu = input.cbuCvu === undefined ? undefined : parseCbuCvu(input.cbuCvu);
    if (input.alias === undefined) return { cbuCvu: cbuCvu!, alias: null, entity: this.entities.entityOf(cbuCvu!) };
    const alias = parseAlias(input.alias);
    const resolved = await this.aliases.resolve(alias);
    if (!resolved) throw new UnknownAliasError(alias);
    if (cbuCvu !== undefined && resolved.cbuCvu !== cbuCvu) {
      throw ValidationError.of('alias', 'names another account than cbuCvu; send one of them, or both of the same account');
    }
    return { cbuCvu: resolved.cbuCvu, alias, entity: resolved.entity };
  }
}
