import 'reflect-metadata';
import { IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { OPERATION_TYPES, type OperationType } from '@rcs/domain';
import { DateOrTimestamp } from './calendar-date';
import { CurrencyCode } from './currency-code';
import { EntityId, EntityIdParam } from './entity-id';
import { ListQuery, PageQuery } from './list-query';
import { NestedObject } from './nested-object';

export class CounterPartyBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  /** Canonicalised and check-digit verified by the domain. */
  @IsString()
  taxId!: string;
}

/** POST /v1/sandbox/collections. */
export class CollectionBody {
  @EntityId()
  receivableAccountId!: number;

  @IsDefined({ message: 'amount is required' })
  amount!: unknown;

  @IsOptional()
  @IsString()
  @CurrencyCode()
  currencyCode?: string;

  @IsDefined({ message: 'counterParty is required' })
  @NestedObject(CounterPartyBody)
  counterParty!: CounterPartyBody;
}

export class MovementListQuery extends PageQuery {
  @IsOptional()
  @IsIn(['-movementDate', 'movementDate'], { message: 'sort must be -movementDate (default) or movementDate' })
  sort?: '-movementDate' | 'movementDate';

  @IsOptional() @DateOrTimestamp() fromDate?: string;
  @IsOptional() @DateOrTimestamp() toDate?: string;
  @IsOptional() @IsIn(['CREDIT', 'DEBIT'], { message: 'movementType must be CREDIT or DEBIT' }) movementType?: 'CREDIT' | 'DEBIT';
  @IsOptional() @IsIn(OPERATION_TYPES, { message: 'operationType must be DEPOSIT, SETTLEMENT or TRANSFER' }) operationType?: OperationType;
}

export class CurrentAccountListQuery extends ListQuery {
  @IsOptional() @IsIn(['MAIN', 'SUB'], { message: 'accountType must be MAIN or SUB' }) accountType?: 'MAIN' | 'SUB';
  @IsOptional() @IsIn(['ACTIVE', 'DISABLED'], { message: 'status must be ACTIVE or DISABLED' }) status?: 'ACTIVE' | 'DISABLED';
}

export class SettlementListQuery extends ListQuery {
  @IsOptional() @EntityIdParam() receivableAccountId?: number;
}
