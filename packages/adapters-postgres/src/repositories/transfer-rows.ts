import { Transfer, type NewTransfer, type TransferSnapshot } from '@rcs/domain';

export interface TransferRow {
  id: string;
  customer_id: string;
  type: TransferSnapshot['type'];
  status: TransferSnapshot['status'];
  source_account_id: string;
  amount_minor: string;
  currency_code: TransferSnapshot['currencyCode'];
  destination_cbu_cvu: string | null;
  destination_alias: string | null;
  destination_account_id: string | null;
  counter_party_name: string | null;
  counter_party_tax_id: string | null;
  contact_id: string | null;
  description: string | null;
  external_id: string | null;
  scheduled_date: string | null;
  execution_date: Date | null;
  failure_reason: string | null;
  created_by_credential_id: string;
  approved_by_credential_id: string | null;
  rejected_by_credential_id: string | null;
  attempts: number;
  claimed_until: Date | null;
  claimed_by: string | null;
  creation_date: Date;
  modification_date: Date;
  version: number;
}

const optionalId = (value: string | null) => (value === null ? null : Number(value));

export const toTransfer = (row: TransferRow): Transfer =>
  Transfer.rehydrate({
    id: Number(row.id),
    customerId: Number(row.customer_id),
    type: row.type,
    status: row.status,
    sourceAccountId: Number(row.source_account_id),
    amountMinor: BigInt(row.amount_minor),
    currencyCode: row.currency_code,
    destination: {
      cbuCvu: row.destination_cbu_cvu,
      alias: row.destination_alias,
      accountId: optionalId(row.destination_account_id),
      counterParty: row.counter_party_name === null ? null : { name: row.counter_party_name, taxId: row.counter_party_tax_id! },
    },
    contactId: optionalId(row.contact_id),
    description: row.description,
    externalId: row.external_id,
    scheduledDate: row.scheduled_date,
    executionDate: row.execution_date,
    failureReason: row.failure_reason,
    createdByCredentialId: Number(row.created_by_credential_id),
    approvedByCredentialId: optionalId(row.approved_by_credential_id),
    rejectedByCredentialId: optionalId(row.rejected_by_credential_id),
    processing: { attempts: row.attempts, claimedUntil: row.claimed_until, claimedBy: row.claimed_by },
    creationDate: row.creation_date,
    modificationDate: row.modification_date,
    version: row.version,
  });

export const toTransferRow = (t: NewTransfer & Partial<Pick<TransferSnapshot, 'modificationDate' | 'version'>>) => ({
  customer_id: t.customerId,
  type: t.type,
  status: t.status,
  source_account_id: t.sourceAccountId,
  // pg sends a bigint's decimal text: exact at any size.
  amount_minor: t.amountMinor.toString(),
  currency_code: t.currencyCode,
  destination_cbu_cvu: t.destination.cbuCvu,
  destination_alias: t.destination.alias,
  destination_account_id: t.destination.accountId,
  counter_party_name: t.destination.counterParty?.name ?? null,
  counter_party_tax_id: t.destination.counterParty?.taxId ?? null,
  contact_id: t.contactId,
  description: t.description,
  external_id: t.externalId,
  scheduled_date: t.scheduledDate,
  execution_date: t.executionDate,
  failure_reason: t.failureReason,
  created_by_credential_id: t.createdByCredentialId,
  approved_by_credential_id: t.approvedByCredentialId,
  rejected_by_credential_id: t.rejectedByCredentialId,
  attempts: t.processing.attempts,
  claimed_until: t.processing.claimedUntil,
  claimed_by: t.processing.claimedBy,
  creation_date: t.creationDate,
  modification_date: t.modificationDate ?? t.creationDate,
  version: t.version ?? 1,
});
