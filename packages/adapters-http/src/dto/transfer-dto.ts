import 'reflect-metadata';
import { IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { TRANSFER_STATUSES, TRANSFER_TYPES, type TransferStatus, type TransferType } from '@rcs/domain';
import { CalendarDate } from './calendar-date';
import { CurrencyCode } from './currency-code';
import { EntityId, EntityIdParam } from './entity-id';
import { ListQuery } from './list-query';
import { CounterPartyBody } from './money-dto';
import { NestedObject } from './nested-object';
import { KeyText } from './key-text';
import { TextFilter } from './text-filter';

/** Which members a type needs, CBU/CVU check digits and alias form are the domain's (transfer-destination.ts). */
export class TransferDestinationBody {
  @IsOptional() @IsString() cbuCvu?: string | null;
  @IsOptional() @IsString() alias?: string | null;
  @IsOptional() @EntityId() accountId?: number | null;
  @IsOptional() @NestedObject(CounterPartyBody) counterParty?: CounterPartyBody | null;
}

/** POST /v1/transfers. */
export class TransferBody {
  @IsIn(TRANSFER_TYPES, { message: `type must be one of ${TRANSFER_TYPES.join(', ')}` })
  type!: TransferType;

  @EntityId()
  sourceAccountId!: number;

  /** A JSON number or decimal string; exactness and range are the domain's (Money.parse). */
  @IsDefined({ message: 'amount is required' })
  amount!: unknown;

  @IsString()
  @IsNotEmpty()
  @CurrencyCode()
  currencyCode!: string;

  /** Required unless contactId is given (the domain says which of the two, and refuses both). */
  @IsOptional()
  @NestedObject(TransferDestinationBody)
  destination?: TransferDestinationBody | null;

  @IsOptional() @EntityId() contactId?: number | null;

  @IsOptional() @IsString() @MaxLength(500) description?: string | null;

  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'externalId must not be empty (leave it out instead)' })
  @MaxLength(128)
  @KeyText()
  externalId?: string | null;

  @IsOptional() @CalendarDate() scheduledDate?: string | null;
}

export class TransferListQuery extends ListQuery {
  @IsOptional() @IsIn(TRANSFER_TYPES, { message: `type must be one of ${TRANSFER_TYPES.join(', ')}` }) type?: TransferType;
  @IsOptional() @IsIn(TRANSFER_STATUSES, { message: `status must be one of ${TRANSFER_STATUSES.join(', ')}` }) status?: TransferStatus;
  @IsOptional() @EntityIdParam() sourceAccountId?: number;
  @IsOptional() @TextFilter() externalId?: string;
}
