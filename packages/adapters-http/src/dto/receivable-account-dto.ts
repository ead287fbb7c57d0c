import 'reflect-metadata';
import { IsIn, IsObject, IsOptional, IsString, Matches } from 'class-validator';
import { OWNER_TYPES, type OwnerType, type ReceivableAccountStatus } from '@rcs/domain';
import { EntityId, EntityIdParam } from './entity-id';
import { ListQuery } from './list-query';
import { Omittable } from './omittable';
import { TaxIdFilter } from './tax-id-filter';
import { TextFilter } from './text-filter';

const STATUSES: readonly ReceivableAccountStatus[] = ['PROVISIONING', 'ACTIVE', 'DISABLED'];

/** POST /v1/receivable-accounts: clientId and/or associateId. */
export class OpenReceivableAccountBody {
  @IsOptional()
  @EntityId()
  clientId?: number | null;

  @IsOptional()
  @EntityId()
  associateId?: number | null;

  @IsOptional()
  @IsIn(['ARS'], { message: 'currencyCode must be ARS (the only supported currency)' })
  currencyCode?: string;
}

/**
 * PUT /v1/receivable-accounts/{id}: a new alias and/or an associate bound afterwards (neither can be removed); the
 * account's identity may be sent again (owner and currencyCode as read, clientId as opened), and another value is
 * 400. The cvu, the provider's, is derived: ignored if sent (SPEC), as status is.
 */
export class UpdateReceivableAccountBody {
  @Omittable()
  @IsString()
  alias?: string;

  @Omittable()
  @EntityId()
  associateId?: number;

  @IsOptional() @EntityId() clientId?: number | null;
  @IsOptional() @IsString() currencyCode?: string;
  @IsOptional() @IsObject() owner?: Record<string, unknown>;
}

export class ExpandQuery {
  @IsOptional()
  @IsIn(['owner'], { message: 'expand accepts only owner' })
  expand?: 'owner';
}

export class ReceivableAccountListQuery extends ListQuery {
  @IsOptional()
  @EntityIdParam()
  clientId?: number;

  @IsOptional()
  @EntityIdParam()
  associateId?: number;

  @IsOptional()
  @IsIn(OWNER_TYPES, { message: 'ownerType must be CLIENT, ASSOCIATE or CLIENT_AND_ASSOCIATE' })
  ownerType?: OwnerType;

  @IsOptional()
  @TaxIdFilter()
  clientTaxId?: string;

  @IsOptional()
  @TextFilter()
  branchExternalCode?: string;

  @IsOptional()
  @Matches(/^\d{22}$/, { message: 'cvu must be 22 digits' })
  cvu?: string;

  @IsOptional()
  @TextFilter()
  alias?: string;

  /** Defaults to ACTIVE (SPEC). */
  @IsOptional()
  @IsIn(STATUSES, { message: 'status must be PROVISIONING, ACTIVE or DISABLED' })
  status?: ReceivableAccountStatus;

  @IsOptional()
  @IsIn(['owner'], { message: 'expand accepts only owner' })
  expand?: 'owner';
}
