import { ReceivableAccount, type DisabledReason, type OwnerDetails, type ReceivableAccountSnapshot } from '@rcs/domain';

/**
 * stats.pendingAmount of the account row `account`: the sum of its PENDING receivables' amounts, as list_counts
 * keeps it (migrations 028 and 032) beside their count, in at most 9 rows (the fold's and 8 writers') whatever the
 * account holds.
 */
export const pendingAmountSql = (account: string): string => `(SELECT COALESCE(SUM(p.amount_minor), 0)
   FROM list_counts p
   WHERE p.list = 'receivables' AND p.customer_id = ${account}.customer_id AND p.scope = 'account' AND p.scope_id = ${account}.id
     AND p.status = 'PENDING'
  )`;

export interface ReceivableAccountRow {
  id: string;
  customer_id: string;
  client_id: string | null;
  associate_id: string | null;
  currency_code: ReceivableAccountSnapshot['currencyCode'];
  status: ReceivableAccountSnapshot['status'];
  cvu: string | null;
  alias: string | null;
  provisioning_attempts: number;
  next_attempt_at: Date | null;
  last_provisioning_error: string | null;
  disabled_reason: DisabledReason | null;
  disabled_message: string | null;
  creation_date: Date;
  modification_date: Date;
  version: number;
}

/** Owner columns joined in by queries and claims. */
export interface OwnerColumns {
  client_business_name: string | null;
  client_tax_id: string | null;
  client_branch_external_code: string | null;
  associate_name: string | null;
  associate_last_name: string | null;
  associate_tax_id: string | null;
}

export const OWNER_COLUMNS = [
  'c.business_name AS client_business_name',
  'c.tax_id AS client_tax_id',
  'c.branch_external_code AS client_branch_external_code',
  'a.name AS associate_name',
  'a.last_name AS associate_last_name',
  'a.tax_id AS associate_tax_id',
] as const;

const optionalId = (value: string | null) => (value === null ? null : Number(value));

export const toReceivableAccount = (row: ReceivableAccountRow): ReceivableAccount =>
  ReceivableAccount.rehydrate({
    id: Number(row.id),
    customerId: Number(row.customer_id),
    clientId: optionalId(row.client_id),
    associateId: optionalId(row.associate_id),
    currencyCode: row.currency_code,
    status: row.status,
    cvu: row.cvu,
    alias: row.alias,
    provisioning: { attempts: row.provisioning_attempts, nextAttemptAt: row.next_attempt_at, lastError: row.last_provisioning_error },
    disabled: row.disabled_reason === null ? null : { reason: row.disabled_reason, message: row.disabled_message },
    creationDate: row.creation_date,
    modificationDate: row.modification_date,
    version: row.version,
  });

export const toReceivableAccountRow = (a: ReceivableAccountSnapshot) => ({
  id: a.id,
  customer_id: a.customerId,
  client_id: a.clientId,
  associate_id: a.associateId,
  currency_code: a.currencyCode,
  status: a.status,
  cvu: a.cvu,
  alias: a.alias,
  provisioning_attempts: a.provisioning.attempts,
  next_attempt_at: a.provisioning.nextAttemptAt,
  last_provisioning_error: a.provisioning.lastError,
  disabled_reason: a.disabled?.reason ?? null,
  disabled_message: a.disabled?.message ?? null,
  creation_date: a.creationDate,
  modification_date: a.modificationDate,
  version: a.version,
});

export function ownersOf(row: OwnerColumns): OwnerDetails {
  return {
    ...(row.client_tax_id === null
      ? {}
      : { client: { displayName: row.client_business_name!, taxId: row.client_tax_id, branchExternalCode: row.client_branch_external_code } }),
    ...(row.associate_tax_id === null ? {} : { associate: { displayName: `${row.associate_name} ${row.associate_last_name}`, taxId: row.associate_tax_id } }),
  };
}
