import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { CurrencyCode } from '../shared/money';
import type { AccountOwner, OwnerType } from './owner';
import type { ReceivableAccount, ReceivableAccountStatus } from './receivable-account';

/** An account claimed by a provisioning worker, with what the provider needs to know of its holder. */
export interface ProvisioningClaim {
  readonly account: ReceivableAccount;
  readonly holderName: string;
  readonly holderTaxId: string;
  readonly aliasTemplate: string;
}

/** An account this service holds the CVU of: a receivable account that has its CVU, or a current account. */
export interface HostedAccount {
  readonly kind: 'RECEIVABLE' | 'CURRENT';
  readonly id: number;
  readonly customerId: number;
  readonly cvu: string;
  /** ACTIVE: a receivable account not ACTIVE refuses what arrives on its CVU. */
  readonly active: boolean;
}

export interface ReceivableAccountRepository {
  /** From the id sequence shared with current accounts. */
  nextId(): Promise<number>;
  /** `count` ids from the same sequence, in one go. */
  nextIds(count: number): Promise<number[]>;
  /** Inserts unless the customer has an account for the same (client, associate, currency). */
  insertIfAbsent(account: ReceivableAccount): Promise<{ account: ReceivableAccount; created: boolean }>;
  /** insertIfAbsent for accounts of distinct owners, in one write; answers in the order given. */
  insertManyIfAbsent(accounts: readonly ReceivableAccount[]): Promise<Array<{ account: ReceivableAccount; created: boolean }>>;
  getForUpdate(id: number): Promise<ReceivableAccount | undefined>;
  /** Reads without locking, for work that does not change the account (issuing receivables on it). */
  get(id: number): Promise<ReceivableAccount | undefined>;
  /**
   * Keeps the account from being settled until the transaction ends (a share lock, which the settlement's pick
   * skips), and waits for a settlement holding it: a child issued under a PAID parent is then either settled with
   * it or refused because the parent is SETTLED, never left PAID under it.
   */
  holdAgainstSettlement(id: number): Promise<void>;
  /** The accounts among `ids` that exist, unlocked, in no particular order. */
  getMany(ids: readonly number[]): Promise<ReceivableAccount[]>;
  /** getMany, each locked to be changed (as getForUpdate), in id order: two such reads cannot deadlock each other. */
  getManyForUpdate(ids: readonly number[]): Promise<ReceivableAccount[]>;
  /** The account a CVU belongs to, locked; CVUs are unique across customers. */
  getByCvuForUpdate(cvu: string): Promise<ReceivableAccount | undefined>;
  findByOwner(customerId: number, owner: AccountOwner, currencyCode: CurrencyCode): Promise<ReceivableAccount | undefined>;
  /** Version-checked save. */
  update(account: ReceivableAccount): Promise<void>;
  /**
   * Leases up to `limit` PROVISIONING accounts due at `now` to the caller until `leaseUntil`, skipping rows other
   * workers hold, so two instances never ask the provider for the same account at once.
   */
  claimForProvisioning(now: Date, leaseUntil: Date, limit: number): Promise<ProvisioningClaim[]>;
  /**
   * Claims the change of the account's alias for `claim` until `until`, false while another claim stands: registering
   * an alias at the banking provider and storing it are two steps with no transaction across them, so one request at
   * a time goes through them. A claim its holder never ended (it died between the two) stands until its time.
   */
  claimAliasChange(accountId: number, claim: string, now: Date, until: Date): Promise<boolean>;
  /** Ends the claim if it is still `claim`: false when it is not (it outlived its time and another took it). */
  endAliasChange(accountId: number, claim: string): Promise<boolean>;
  /** Extends the claim to `until` if it is still `claim` and has not ended by `now`: false when it is not. */
  extendAliasChange(accountId: number, claim: string, now: Date, until: Date): Promise<boolean>;
  /** Up to `limit` accounts whose alias-change claims ended by `now` without being ended by their holders, the longest ended first. */
  abandonedAliasChanges(now: Date, limit: number): Promise<number[]>;
  /** True if another account or current account already uses the alias, in any letter case. */
  aliasInUse(alias: string, exceptAccountId: number): Promise<boolean>;
  /**
   * The account of any customer, receivable or current, with this CVU or this alias (in any letter case): the
   * service assigns both, so it knows them before the banking provider does. The CVU's when each names another.
   */
  hostedAccount(named: { readonly cbuCvu: string | null; readonly alias: string | null }): Promise<HostedAccount | undefined>;
  /** The hosted accounts whose CVU is one of `cvus`: one query for a chunk of transfers about to be debited. */
  hostedByCvu(cvus: readonly string[]): Promise<HostedAccount[]>;
  /** The sum of the amounts of the account's PENDING receivables, each positive whatever its type (SPEC). */
  pendingAmountMinor(accountId: number): Promise<bigint>;
}

export interface OwnerDetails {
  readonly client?: { readonly displayName: string; readonly taxId: string; readonly branchExternalCode: string | null };
  readonly associate?: { readonly displayName: string; readonly taxId: string };
}

/** An account with its pending receivables' sum (stats.pendingAmount): what a change to it answers with. */
export interface ReceivableAccountWithStats {
  readonly account: ReceivableAccount;
  readonly pendingAmountMinor: bigint;
}

/** A just opened account: nothing is issued on it yet, so nothing is pending. */
export const openedAccountWithStats = (account: ReceivableAccount): ReceivableAccountWithStats => ({ account, pendingAmountMinor: 0n });

/** An account as lists show it: with its owners' names too. */
export interface ReceivableAccountRecord extends ReceivableAccountWithStats {
  readonly owners: OwnerDetails;
}

export interface ReceivableAccountListFilter extends CommonListFilter {
  readonly customerId: number;
  readonly clientId?: number;
  readonly associateId?: number;
  readonly ownerType?: OwnerType;
  readonly clientTaxId?: string;
  readonly branchExternalCode?: string;
  readonly cvu?: string;
  readonly alias?: string;
  readonly status?: ReceivableAccountStatus;
}

export interface ReceivableAccountQueries {
  get(id: number): Promise<ReceivableAccountRecord | undefined>;
  list(filter: ReceivableAccountListFilter, page: PageRequest): Promise<Page<ReceivableAccountRecord>>;
}
