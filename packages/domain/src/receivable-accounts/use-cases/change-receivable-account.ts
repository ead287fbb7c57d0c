import type { Clock } from '../../shared/clock';
import { ConcurrentModificationError, DomainError, ValidationError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import { parseAlias } from '../../shared/bank-account-number';
import { changeOwnedIn } from '../../shared/change-owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { ownerView, type ReceivableAccount } from '../receivable-account';
import type { ReceivableAccountWithStats } from '../receivable-account-repository';
import type { ProvisioningTrigger } from './open-receivable-account';
import { assertOwnClient, assertOwnerFree, assertOwnerTypeEnabled, assertUsableAssociate, customerOf } from './account-parties';
import type { AliasRegistrar } from './alias-registrar';
import { recordAccountEvent } from './record-account-event';
import { CURRENT_ACCOUNT_ALIAS_TEMPLATES, FALLBACK_ALIAS_TEMPLATE, isGeneratedAlias } from '../alias-template';
import { assertIdentityUnchanged } from '../../shared/identity';

interface Target {
  readonly customerId: number;
  readonly accountId: number;
}

type AccountScope = Pick<TransactionScope, 'receivableAccounts' | 'outbox'>;

/** changeOwnedIn, storing the move's event with the account as GET answers it (the entity cannot know its stats). */
const change = <Scope extends AccountScope>(
  tx: Scope,
  target: Target,
  apply: (account: ReceivableAccount, tx: Scope) => Promise<ReceivableAccount> | ReceivableAccount,
) =>
  changeOwnedIn(
    tx,
    (scope) => scope.receivableAccounts,
    { customerId: target.customerId, id: target.accountId, resource: 'receivable account' },
    async (current, scope) => {
      const next = await apply(current, scope);
      await recordAccountEvent(scope, next);
      return next;
    },
  );

/** The change, and the changed account's pending sum read in its transaction: all its answer needs. */
const changeWithStats = <Scope extends AccountScope>(
  uow: UnitOfWork<Scope>,
  target: Target,
  apply: (account: ReceivableAccount, tx: Scope) => Promise<ReceivableAccount> | ReceivableAccount,
) =>
  uow.run(async (tx): Promise<ReceivableAccountWithStats> => {
    const account = await change(tx, target, apply);
    return { account, pendingAmountMinor: await tx.receivableAccounts.pendingAmountMinor(account.id) };
  });

async function assertAliasFree(tx: Pick<TransactionScope, 'customers' | 'receivableAccounts'>, alias: string, accountId: number): Promise<void> {
  const generatedBy = [...(await tx.customers.aliasTemplates()), ...Object.values(CURRENT_ACCOUNT_ALIAS_TEMPLATES), FALLBACK_ALIAS_TEMPLATE];
  if (isGeneratedAlias(alias, generatedBy)) {
    throw new DomainError('alias-already-in-use', `alias ${alias} has the form of the aliases the service gives new accounts; choose another`);
  }
  if (await tx.receivableAccounts.aliasInUse(alias, accountId)) throw new DomainError('alias-already-in-use', `alias ${alias} is already in use`);
}

/** What an account is, sent back on PUT as it was read (or as opened: clientId): each may be repeated, not changed (CONTRACT). */
export interface ReceivableAccountIdentity {
  readonly clientId?: number | null;
  readonly currencyCode?: string;
  /** As the account shows it (members it does not show, such as an expanded displayName, are not compared). */
  readonly owner?: Readonly<Record<string, unknown>>;
}

/** Whether `sent` is the account's owner as the API shows it, member for member. */
const sameOwner = (sent: Readonly<Record<string, unknown>>, account: ReceivableAccount) =>
  Object.entries(ownerView(account.owner)).every(([member, value]) => sent[member] === value);

type UpdateScope = Pick<TransactionScope, 'receivableAccounts' | 'associates' | 'clients' | 'customers' | 'outbox'>;
type UpdateInput = Target & { readonly alias?: string; readonly associateId?: number; readonly identity?: ReceivableAccountIdentity };

/** PUT: change the alias and/or bind an associate to an account that has none. */
export class UpdateReceivableAccount {
  constructor(
    private readonly uow: UnitOfWork<UpdateScope>,
    private readonly clock: Clock,
    private readonly aliases: AliasRegistrar,
  ) {}

  /**
   * A new alias is an account's at every bank, so it is registered at the banking provider for the account's CVU
   * before it is stored, outside any transaction, once the whole change is checked (AliasRegistrar): one an account
   * at any bank holds is refused like one held here (else payments to it would reach this account). It is stored
   * only if the account's alias is still the one it had when checked, under a claim still held.
   */
  async execute(input: UpdateInput): Promise<ReceivableAccountWithStats> {
    const registration = input.alias === undefined ? undefined : await this.uow.run((tx) => this.registrationOf(tx, input));
    if (!registration) {
      return changeWithStats(this.uow, input, (current, tx) => {
        // The alias sent was the stored one when checked, so it was not registered: stored over a change that
        // registered another meanwhile, it would be one the provider no longer names for the account.
        if (input.alias !== undefined && current.toSnapshot().alias !== input.alias)
          throw new ConcurrentModificationError('receivable account', input.accountId);
        return this.changed(current, tx, input);
      });
    }
    return this.aliases.claimed(input.accountId, async (claim) => {
      if (!(await claim.register(registration))) throw new DomainError('alias-already-in-use', `alias ${registration.alias} is held by another account`);
      return changeWithStats(this.uow, input, async (current, tx) => {
        if (current.toSnapshot().alias !== registration.previous) throw new ConcurrentModificationError('receivable account', input.accountId);
        await claim.end(tx);
        return this.changed(current, tx, input);
      });
    });
  }

  /**
   * The alias the change gives the account, to register for its CVU, checked as storing it would check it; in other
   * letters too (registering it again costs a call, and keeps it one with the alias the provider names, whatever
   * changed meanwhile).
   */
  private async registrationOf(tx: UpdateScope, input: UpdateInput) {
    const current = ownedBy(await tx.receivableAccounts.get(input.accountId), input.customerId, 'receivable account', input.accountId);
    const [before, after] = [current.toSnapshot(), (await this.changed(current, tx, input)).toSnapshot()];
    if (after.cvu === null || after.alias === null || after.alias === before.alias) return undefined;
    return { alias: after.alias, cbuCvu: after.cvu, previous: before.alias };
  }

  private async changed(current: ReceivableAccount, tx: UpdateScope, input: UpdateInput): Promise<ReceivableAccount> {
    const clientId = input.identity?.clientId;
    // Another customer's client is 403 as anywhere it is named (CONTRACT tenancy), before it is a change of identity.
    if (clientId != null && clientId !== current.owner.clientId) await assertOwnClient(tx, input.customerId, clientId);
    const { owner, ...identity } = input.identity ?? {};
    assertIdentityUnchanged(identity, current.toSnapshot());
    if (owner !== undefined && !sameOwner(owner, current)) {
      throw ValidationError.of('owner', 'cannot change after creation (an associate is bound afterwards with associateId)');
    }
    const alias = input.alias === undefined ? undefined : parseAlias(input.alias);
    // Naming the account's own associate again is still naming it: a DISABLED one is refused (SPEC).
    if (input.associateId !== undefined) await assertUsableAssociate(tx, input.customerId, input.associateId);
    // The account's own rules (an associate bound to an active CVU stays: 422) before another account's pair (409).
    const next = current.update({ alias, associateId: input.associateId }, this.clock.now());
    if (input.associateId !== undefined && input.associateId !== current.owner.associateId) {
      await assertOwnerFree(tx, input.customerId, { clientId: current.owner.clientId, associateId: input.associateId });
    }
    // After the account's own rule (an associate bound to an active CVU stays), as a receivable naming one checks it.
    if (next.owner.associateId !== current.owner.associateId) assertOwnerTypeEnabled(await customerOf(tx, input.customerId), next.owner);
    // The account's own alias in other letters is still its own, generated for it or not.
    if (alias !== undefined && alias.toLowerCase() !== current.toSnapshot().alias?.toLowerCase()) await assertAliasFree(tx, alias, current.id);
    return next;
  }
}

/** DELETE: DISABLED; provisioning, if under way, stops. */
export class DisableReceivableAccount {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivableAccounts' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: Target): Promise<ReceivableAccount> {
    return this.uow.run((tx) => change(tx, input, (current) => current.disable(this.clock.now())));
  }
}

/** POST .../activations: ACTIVE again, or back to PROVISIONING if it never got a CVU. */
export class ActivateReceivableAccount {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivableAccounts' | 'outbox'>>,
    private readonly clock: Clock,
    private readonly trigger: ProvisioningTrigger,
  ) {}

  async execute(input: Target): Promise<ReceivableAccountWithStats> {
    const activated = await changeWithStats(this.uow, input, (current) => current.activate(this.clock.now()));
    if (activated.account.status === 'PROVISIONING') this.uow.afterCommit(() => this.trigger.accountOpened());
    return activated;
  }
}
