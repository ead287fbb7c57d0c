import type { Knex } from 'knex';
import {
  ConcurrentModificationError,
  DomainError,
  type AccountOwner,
  type CurrencyCode,
  type HostedAccount,
  type ProvisioningClaim,
  type ReceivableAccount,
  type ReceivableAccountRepository,
} from '@rcs/domain';
import { violatedConstraint } from './pg-errors';
import { lockedForChange } from './row-locks';
import { rowsByIds } from './rows-by-ids';
import { prepared } from './prepared';
import {
  OWNER_COLUMNS,
  ownersOf,
  pendingAmountSql,
  toReceivableAccount,
  toReceivableAccountRow,
  type OwnerColumns,
  type ReceivableAccountRow,
} from './receivable-account-rows';

/** Unique constraints whose violation is a business answer, not a bug. */
const CONSTRAINT_ERRORS: Record<string, () => DomainError> = {
  receivable_accounts_owner: () => new DomainError('receivable-account-already-exists', 'another account has this owner and currency'),
  receivable_accounts_alias_any_case: () => new DomainError('alias-already-in-use', 'the alias is already in use'),
};

type NewRow = ReturnType<typeof toReceivableAccountRow>;

/** The order of the receivable_accounts_owner index's key (a missing party is 0). */
const inOwnerOrder = (a: NewRow, b: NewRow): number =>
  a.customer_id - b.customer_id ||
  (a.client_id ?? 0) - (b.client_id ?? 0) ||
  (a.associate_id ?? 0) - (b.associate_id ?? 0) ||
  a.currency_code.localeCompare(b.currency_code);

export class KnexReceivableAccountRepository implements ReceivableAccountRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async nextId(): Promise<number> {
    const { rows } = await this.trx.raw<{ rows: Array<{ id: string }> }>(`SELECT nextval('account_id_seq') AS id`);
    return Number(rows[0].id);
  }

  async nextIds(count: number): Promise<number[]> {
    if (count === 0) return [];
    const { rows } = await this.trx.raw<{ rows: Array<{ id: string }> }>(`SELECT nextval('account_id_seq') AS id FROM generate_series(1, ?::int)`, [count]);
    return rows.map((row) => Number(row.id));
  }

  async insertManyIfAbsent(accounts: readonly ReceivableAccount[]): Promise<Array<{ account: ReceivableAccount; created: boolean }>> {
    if (accounts.length === 0) return [];
    // In the owner index's order, so that two batches naming the same owners wait on one another one way only
    // (in item order, each could hold a row the other waits for: a deadlock). Answered in item order below.
    const rows = accounts.map((account) => toReceivableAccountRow(account.toSnapshot())).sort(inOwnerOrder);
    const inserted = await this.trx('receivable_accounts').insert(rows).onConflict().ignore().returning<ReceivableAccountRow[]>('*');
    const byId = new Map(inserted.map((row) => [Number(row.id), toReceivableAccount(row)]));
    const results: Array<{ account: ReceivableAccount; created: boolean }> = [];
    for (const account of accounts) {
      const created = byId.get(account.id);
      // Rare: another transaction opened the owner's account meanwhile; found one by one.
      results.push(created ? { account: created, created: true } : await this.insertIfAbsent(account));
    }
    return results;
  }

  async insertIfAbsent(account: ReceivableAccount): Promise<{ account: ReceivableAccount; created: boolean }> {
    const s = account.toSnapshot();
    const [inserted] = await this.trx('receivable_accounts').insert(toReceivableAccountRow(s)).onConflict().ignore().returning<ReceivableAccountRow[]>('*');
    if (inserted) return { account: toReceivableAccount(inserted), created: true };
    const existing = await this.findByOwner(s.customerId, s, s.currencyCode);
    if (!existing) throw new Error('receivable account owner conflicted but no row was found');
    return { account: existing, created: false };
  }

  async getForUpdate(id: number): Promise<ReceivableAccount | undefined> {
    const row = await lockedForChange(this.trx('receivable_accounts').where({ id })).first<ReceivableAccountRow | undefined>();
    return row && toReceivableAccount(row);
  }

  async get(id: number): Promise<ReceivableAccount | undefined> {
    const { rows } = await prepared<ReceivableAccountRow>(this.trx, 'receivable_accounts.get', 'SELECT * FROM receivable_accounts WHERE id = ?', [id]);
    return rows[0] && toReceivableAccount(rows[0]);
  }

  async holdAgainstSettlement(id: number): Promise<void> {
    // FOR SHARE conflicts with the settlement's FOR NO KEY UPDATE (which skips it), not with the KEY SHARE of the
    // foreign keys every receivable insert takes: other issues on the account go on beside it.
    await this.trx.raw('SELECT 1 FROM receivable_accounts WHERE id = ? FOR SHARE', [id]);
  }

  async getMany(ids: readonly number[]): Promise<ReceivableAccount[]> {
    return (await rowsByIds<ReceivableAccountRow>(this.trx, 'receivable_accounts', ids)).map(toReceivableAccount);
  }

  async getManyForUpdate(ids: readonly number[]): Promise<ReceivableAccount[]> {
    return (await rowsByIds<ReceivableAccountRow>(this.trx, 'receivable_accounts', ids, lockedForChange)).map(toReceivableAccount);
  }

  async getByCvuForUpdate(cvu: string): Promise<ReceivableAccount | undefined> {
    const row = await lockedForChange(this.trx('receivable_accounts').where({ cvu })).first<ReceivableAccountRow | undefined>();
    return row && toReceivableAccount(row);
  }

  async findByOwner(customerId: number, owner: AccountOwner, currencyCode: CurrencyCode): Promise<ReceivableAccount | undefined> {
    const row = await this.trx('receivable_accounts')
      .where({ customer_id: customerId, currency_code: currencyCode })
      .whereRaw('COALESCE(client_id, 0) = ? AND COALESCE(associate_id, 0) = ?', [owner.clientId ?? 0, owner.associateId ?? 0])
      .first<ReceivableAccountRow | undefined>();
    return row && toReceivableAccount(row);
  }

  async update(account: ReceivableAccount): Promise<void> {
    const next = account.toSnapshot();
    let changed: number;
    try {
      // Saving also ends any provisioning lease: the worker that held it has recorded its answer.
      changed = await this.trx('receivable_accounts')
        .where({ id: next.id, version: next.version - 1 })
        .update({ ...toReceivableAccountRow(next), locked_until: null });
    } catch (error) {
      const known = CONSTRAINT_ERRORS[violatedConstraint(error) ?? ''];
      throw known ? known() : error;
    }
    if (changed !== 1) throw new ConcurrentModificationError('receivable account', next.id);
  }

  async claimForProvisioning(now: Date, leaseUntil: Date, limit: number): Promise<ProvisioningClaim[]> {
    // One round trip: pick due rows no other worker holds, lease them, and return them with their holders.
    const { rows } = await this.trx.raw<{ rows: Array<ReceivableAccountRow & OwnerColumns & { alias_template: string }> }>(
      `WITH due AS (
         SELECT id FROM receivable_accounts
         WHERE status = 'PROVISIONING' AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
         ORDER BY next_attempt_at, id
         LIMIT ?
         FOR NO KEY UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE receivable_accounts ra SET locked_until = ? FROM due WHERE ra.id = due.id RETURNING ra.*
       )
       SELECT claimed.*, cu.alias_template, ${OWNER_COLUMNS.join(', ')}
       FROM claimed
       JOIN customers cu ON cu.id = claimed.customer_id
       LEFT JOIN clients c ON c.id = claimed.client_id
       LEFT JOIN associates a ON a.id = claimed.associate_id
       ORDER BY claimed.next_attempt_at, claimed.id`,
      [now, now, limit, leaseUntil],
    );
    return rows.map((row) => {
      const { client, associate } = ownersOf(row);
      const holder = client ?? associate!;
      return { account: toReceivableAccount(row), holderName: holder.displayName, holderTaxId: holder.taxId, aliasTemplate: row.alias_template };
    });
  }

  async claimAliasChange(accountId: number, claim: string, now: Date, until: Date): Promise<boolean> {
    const { rows } = await this.trx.raw<{ rows: unknown[] }>(
      `INSERT INTO alias_claims AS c (account_id, claim, claimed_until) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET claim = excluded.claim, claimed_until = excluded.claimed_until WHERE c.claimed_until <= ?
       RETURNING 1`,
      [accountId, claim, until, now],
    );
    return rows.length > 0;
  }

  async endAliasChange(accountId: number, claim: string): Promise<boolean> {
    return (await this.trx('alias_claims').where({ account_id: accountId, claim }).delete()) > 0;
  }

  async extendAliasChange(accountId: number, claim: string, now: Date, until: Date): Promise<boolean> {
    const extended = await this.trx('alias_claims').where({ account_id: accountId, claim }).where('claimed_until', '>', now).update({ claimed_until: until });
    return extended > 0;
  }

  async abandonedAliasChanges(now: Date, limit: number): Promise<number[]> {
    // The table holds only changes in flight and abandoned ones, a handful of rows: scanned, no index of its time.
    const rows = await this.trx('alias_claims')
      .where('claimed_until', '<=', now)
      .orderBy([{ column: 'claimed_until' }, { column: 'account_id' }])
      .limit(limit)
      .select('account_id');
    return rows.map((row: { account_id: string | number }) => Number(row.account_id));
  }

  async aliasInUse(alias: string, exceptAccountId: number): Promise<boolean> {
    const { rows } = await this.trx.raw<{ rows: Array<{ taken: boolean }> }>(
      `SELECT EXISTS (SELECT 1 FROM receivable_accounts WHERE lower(alias) = lower(?) AND id <> ?)
           OR EXISTS (SELECT 1 FROM current_accounts WHERE lower(alias) = lower(?)) AS taken`,
      [alias, exceptAccountId, alias],
    );
    return rows[0].taken;
  }

  async hostedAccount(named: { readonly cbuCvu: string | null; readonly alias: string | null }): Promise<HostedAccount | undefined> {
    const { rows } = await this.trx.raw<{ rows: HostedRow[] }>(
      `SELECT * FROM (${hostedSql('cvu = ?::text OR lower(alias) = lower(?::text)')}) hosted
       ORDER BY cvu = ?::text DESC NULLS LAST
       LIMIT 1`,
      [named.cbuCvu, named.alias, named.cbuCvu, named.alias, named.cbuCvu],
    );
    return rows.map(toHosted)[0];
  }

  async hostedByCvu(cvus: readonly string[]): Promise<HostedAccount[]> {
    if (cvus.length === 0) return [];
    const { rows } = await this.trx.raw<{ rows: HostedRow[] }>(hostedSql('cvu = ANY(?::text[])'), [[...cvus], [...cvus]]);
    return rows.map(toHosted);
  }

  async pendingAmountMinor(accountId: number): Promise<bigint> {
    const { rows } = await this.trx.raw<{ rows: Array<{ pending: string }> }>(
      `SELECT ${pendingAmountSql('a')} AS pending FROM receivable_accounts a WHERE a.id = ?`,
      [accountId],
    );
    return BigInt(rows[0]?.pending ?? 0);
  }
}

type HostedRow = { kind: HostedAccount['kind']; id: string; customer_id: string; cvu: string; active: boolean };

/** Both tables' accounts matching `where` (whose placeholders are bound once per table). */
const hostedSql = (where: string) =>
  `SELECT 'RECEIVABLE' AS kind, id, customer_id, cvu, status = 'ACTIVE' AS active FROM receivable_accounts WHERE ${where}
   UNION ALL
   SELECT 'CURRENT', id, customer_id, cvu, status = 'ACTIVE' FROM current_accounts WHERE ${where}`;

const toHosted = (row: HostedRow): HostedAccount => ({
  kind: row.kind,
  id: Number(row.id),
  customerId: Number(row.customer_id),
  cvu: row.cvu,
  active: row.active,
});
