import 'reflect-metadata';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { AssociateDetails, AssociateStatus } from '@rcs/domain';
import { EntityId, EntityIdParam } from './entity-id';
import { ListQuery } from './list-query';
import { TaxIdFilter } from './tax-id-filter';
import { TextFilter } from './text-filter';

const STATUSES: readonly AssociateStatus[] = ['ACTIVE', 'DISABLED'];

/** POST and PUT /v1/associates: the full associate. */
export class AssociateBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  type!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName!: string;

  @IsString()
  taxId!: string;

  @IsString()
  @Matches(/^\d{6,9}$/, { message: 'documentNumber must be 6 to 9 digits' })
  documentNumber!: string;

  @IsString()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @IsString()
  @Matches(/^\+[1-9]\d{7,14}$/, { message: 'phone must be + country code and number, digits only (e.g. +5491155550000)' })
  phone!: string;

  @IsOptional()
  @IsString()
  @MaxLength(300)
  address?: string | null;

  @IsOptional()
  @EntityId()
  parentAssociateId?: number | null;
}

export function associateDetailsOf(body: AssociateBody): AssociateDetails {
  return {
    type: body.type,
    name: body.name,
    lastName: body.lastName,
    taxId: body.taxId,
    documentNumber: body.documentNumber,
    email: body.email,
    phone: body.phone,
    address: body.address ?? null,
    parentAssociateId: body.parentAssociateId ?? null,
  };
}

export class AssociateListQuery extends ListQuery {
  @IsOptional()
  @TaxIdFilter()
  taxId?: string;

  @IsOptional()
  @TextFilter()
  documentNumber?: string;

  @IsOptional()
  @TextFilter()
  type?: string;

  @IsOptional()
  @EntityIdParam()
  parentAssociateId?: number;

  /** Defaults to ACTIVE (SPEC). */
  @IsOptional()
  @IsIn(STATUSES, { message: 'status must be ACTIVE or DISABLED' })
  status?: AssociateStatus;
}
