import { DomainError, ValidationError } from '../shared/domain-error';
import { isValidAlias, isValidCbuCvu } from '../shared/bank-account-number';
import { parseTaxId } from '../shared/tax-id';
import { trimmedName } from '../shared/names';
import type { CounterParty } from '../ledger/movement';
import type { HostedAccount } from '../receivable-accounts/receivable-account-repository';

export const TRANSFER_TYPES = [
  /** To a third party's CBU, CVU or alias, paid out through the banking provider. */
  'OUTGOING_TRANSFER',
  /** To another current account of the same customer; no provider involved. */
  'INTERNAL_TRANSFER',
] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

/**
 * Where the money goes, copied into the transfer's own row when it is created: deleting or editing a recipient
 * later never changes a past transfer. An INTERNAL_TRANSFER's carries the destination account's own CVU and alias.
 */
export interface TransferDestination {
  readonly cbuCvu: string | null;
  readonly alias: string | null;
  /** The destination current account (INTERNAL_TRANSFER only). */
  readonly accountId: number | null;
  /** Who receives the money (OUTGOING_TRANSFER only). */
  readonly counterParty: CounterParty | null;
}

/** A destination as the caller sent it, before its rules are checked. */
export interface DestinationInput {
  readonly cbuCvu?: string | null;
  readonly alias?: string | null;
  readonly accountId?: number | null;
  readonly counterParty?: { readonly name: string; readonly taxId: string } | null;
}

const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/**
 * An OUTGOING_TRANSFER names a CBU/CVU (both check digits right) or an alias (or both) and its counterParty; an
 * INTERNAL_TRANSFER names only accountId. A member of the other type is refused rather than ignored, so a request
 * never means something else than it says.
 */
export function outgoingDestination(input: DestinationInput): TransferDestination {
  if (given(input.accountId)) throw ValidationError.of('destination.accountId', 'only an INTERNAL_TRANSFER names an accountId');
  if (!given(input.cbuCvu) && !given(input.alias)) throw ValidationError.of('destination', 'an OUTGOING_TRANSFER needs cbuCvu or alias');
  if (given(input.cbuCvu) && !isValidCbuCvu(input.cbuCvu)) {
    throw ValidationError.of('destination.cbuCvu', 'must be 22 digits with valid check digits');
  }
  if (given(input.alias) && !isValidAlias(input.alias)) {
    throw ValidationError.of('destination.alias', "must be 6 to 20 letters, digits, '.' or '-'");
  }
  if (!given(input.counterParty)) throw ValidationError.of('destination.counterParty', 'an OUTGOING_TRANSFER needs counterParty {name, taxId}');
  const name = trimmedName(input.counterParty.name, 'destination.counterParty.name');
  return {
    cbuCvu: input.cbuCvu ?? null,
    alias: input.alias ?? null,
    accountId: null,
    counterParty: { name, taxId: parseTaxId(input.counterParty.taxId, 'destination.counterParty.taxId') },
  };
}

/** The members an INTERNAL_TRANSFER may not carry; the account's own CVU and alias are filled in by the service. */
export function internalDestinationId(input: DestinationInput): number {
  for (const member of ['cbuCvu', 'alias', 'counterParty'] as const) {
    if (given(input[member])) throw ValidationError.of(`destination.${member}`, 'an INTERNAL_TRANSFER names only destination.accountId');
  }
  if (!given(input.accountId)) throw ValidationError.of('destination.accountId', 'an INTERNAL_TRANSFER needs destination.accountId');
  return input.accountId;
}

/** SPEC: source and destination must differ, whether the destination names the account by id, CBU/CVU or alias. */
export function assertDifferentFrom(destination: TransferDestination, source: NamedAccount): void {
  if (names(destination, source)) throw new DomainError('equal-origin-destination', `the destination is the source account ${source.id} itself`);
}

/**
 * An OUTGOING_TRANSFER leaves through the banking provider, so the account its CBU/CVU or alias names at this
 * service (`hosted`) decides. A current account, the caller's or another customer's, takes no payments from
 * outside: the money would leave the ledger and enter it nowhere (money between one's own accounts moves by
 * INTERNAL_TRANSFER, which keeps both sides in it). The caller's own receivable account is no transfer's
 * destination. Another customer's receivable account is paid like any account while ACTIVE (the provider's
 * incoming-transfer notification credits it); not ACTIVE, it refuses that notification and the money would be lost.
 */
export function assertPayableOutside(hosted: HostedAccount | undefined, customerId: number, member = 'destination'): void {
  const refusal = refusalOutside(hosted, customerId, member);
  if (refusal) throw refusal;
}

/**
 * Why `assertPayableOutside` refuses the account, if it does, as a validation of `member` (what the request named
 * it by: a transfer's destination, a recipient's cbuCvu or alias): the worker FAILS a due transfer with it.
 */
export function refusalOutside(hosted: HostedAccount | undefined, customerId: number, member = 'destination'): DomainError | undefined {
  if (hosted?.kind === 'CURRENT' && hosted.customerId === customerId) {
    return ValidationError.of(member, `names your current account ${hosted.id}: move money between your accounts with an INTERNAL_TRANSFER`);
  }
  if (hosted?.kind === 'CURRENT') return ValidationError.of(member, 'names a current account of this service, which takes no payments from outside');
  if (hosted?.kind === 'RECEIVABLE' && hosted.customerId !== customerId && !hosted.active) {
    return ValidationError.of(member, 'names a receivable account of this service that is not ACTIVE, which takes no payments');
  }
  if (hosted?.kind === 'RECEIVABLE' && hosted.customerId === customerId) {
    return new DomainError(
      'receivable-account-not-transfer-enabled',
      `destination names your receivable account ${hosted.id}; transfers move money between current accounts and out of them`,
    );
  }
  return undefined;
}

interface NamedAccount {
  readonly id: number;
  readonly cvu: string;
  readonly alias: string;
}

const names = (destination: TransferDestination, account: NamedAccount) =>
  destination.accountId === account.id ||
  destination.cbuCvu === account.cvu ||
  (destination.alias !== null && destination.alias.toLowerCase() === account.alias.toLowerCase());
