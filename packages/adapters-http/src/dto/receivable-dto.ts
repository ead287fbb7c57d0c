import 'reflect-metadata';
import { IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { RECEIVABLE_STATUSES, RECEIVABLE_TYPES, type ReceivableStatus, type ReceivableType } from '@rcs/domain';
import { EntityId, EntityIdParam } from './entity-id';
import { CalendarDate } from './calendar-date';
import { CurrencyCode } from './currency-code';
import { ListQuery } from './list-query';
import { NestedObject } from './nested-object';
import { KeyText, RouteCode } from './key-text';
import { TextFilter } from './text-filter';

export class InvoiceDataBody {
  @IsOptional() @IsString() @MaxLength(40) version?: string;
  @IsOptional() @IsString() @MaxLength(40) pointOfSale?: string;
  @IsOptional() @IsString() @MaxLength(40) quote?: string;
  @IsOptional() @IsString() @MaxLength(40) rawDocumentType?: string;
  @IsOptional() @IsString() @MaxLength(40) recipientDocumentType?: string;
  @IsOptional() @IsString() @MaxLength(40) authCodeType?: string;
  @IsOptional() @IsString() @MaxLength(80) authCode?: string;
}

/** The fields PUT may change. */
export class ReceivableEditableBody {
  /** A JSON number or decimal string; exactness and range are the domain's (Money.parse). */
  @IsOptional()
  amount?: unknown;

  @IsOptional() @IsString() @NotBlank() @MaxLength(64) @KeyText() legalNumber?: string | null;
  @IsOptional() @IsString() @MaxLength(500) description?: string | null;
  @IsOptional() @IsString() @NotBlank() @MaxLength(64) @RouteCode() externalRoutingCode?: string | null;
  @IsOptional() @CalendarDate() issueDate?: string | null;
  @IsOptional() @CalendarDate() dueDate?: string | null;

  @IsOptional()
  // Any host a voucher may sit on, an intranet name without a dot or one with an underscore included.
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'], require_tld: false, allow_underscores: true },
    { message: 'attachmentUri must be an absolute http(s) URL' },
  )
  @MaxLength(2048)
  attachmentUri?: string | null;

  @IsOptional()
  @NestedObject(InvoiceDataBody)
  invoiceData?: InvoiceDataBody | null;
}

/** POST /v1/receivables (and each batch item); on PUT the identity members may be repeated, not changed. */
export class ReceivableBody extends ReceivableEditableBody {
  @EntityId()
  receivableAccountId!: number;

  @IsDefined({ message: 'amount is required' })
  declare amount: unknown;

  @IsString()
  @IsNotEmpty()
  @CurrencyCode()
  currencyCode!: string;

  @IsIn(RECEIVABLE_TYPES, { message: `receivableType must be one of ${RECEIVABLE_TYPES.join(', ')}` })
  receivableType!: ReceivableType;

  @IsOptional() @EntityId() clientId?: number | null;
  @IsOptional() @EntityId() associateId?: number | null;
  @IsOptional() @CalendarDate() receivableDate?: string | null;
  @IsOptional() @EntityId() parentReceivableId?: number | null;
}

/** PUT /v1/receivables/{id}: editable fields, plus identity fields that must be unchanged if sent. */
export class ReceivableEditBody extends ReceivableEditableBody {
  @IsOptional() @EntityId() receivableAccountId?: number;
  @IsOptional() @IsString() currencyCode?: string;
  @IsOptional() @IsString() receivableType?: string;
  @IsOptional() @EntityId() clientId?: number | null;
  @IsOptional() @EntityId() associateId?: number | null;
  @IsOptional() @EntityId() parentReceivableId?: number | null;
}

export class ReceivableStatusBody {
  @IsIn(RECEIVABLE_STATUSES, { message: `status must be one of ${RECEIVABLE_STATUSES.join(', ')}` })
  status!: ReceivableStatus;
}

/** POST /v1/sandbox/expiration-runs: the day to expire as of (null or absent: today in Buenos Aires). */
export class ExpirationRunBody {
  @IsOptional() @CalendarDate() date?: string | null;
}

export class ReceivableListQuery extends ListQuery {
  @IsOptional() @EntityIdParam() receivableAccountId?: number;
  @IsOptional() @EntityIdParam() clientId?: number;
  @IsOptional() @EntityIdParam() associateId?: number;
  @IsOptional() @IsIn(RECEIVABLE_STATUSES, { message: `status must be one of ${RECEIVABLE_STATUSES.join(', ')}` }) status?: ReceivableStatus;
  @IsOptional() @IsIn(RECEIVABLE_TYPES, { message: `receivableType must be one of ${RECEIVABLE_TYPES.join(', ')}` }) receivableType?: ReceivableType;
  @IsOptional() @CalendarDate() fromDueDate?: string;
  @IsOptional() @CalendarDate() toDueDate?: string;
  @IsOptional() @CalendarDate() fromIssueDate?: string;
  @IsOptional() @CalendarDate() toIssueDate?: string;
  @IsOptional() @TextFilter() legalNumber?: string;
  @IsOptional() @TextFilter() externalRoutingCode?: string;
  @IsOptional() @EntityIdParam() parentReceivableId?: number;
  @IsOptional() @IsString() minAmount?: string;
  @IsOptional() @IsString() maxAmount?: string;
}

function NotBlank(): PropertyDecorator {
  return IsNotEmpty({ message: ({ property }) => `${property} must not be empty (send null to clear it)` });
}
