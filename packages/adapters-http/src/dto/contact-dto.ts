import 'reflect-metadata';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from './list-query';
import { TaxIdFilter } from './tax-id-filter';

/** POST and PUT /v1/contacts: the full recipient. Formats (check digits, alias pattern) are the domain's. */
export class ContactBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsString()
  taxId!: string;

  @IsOptional()
  @IsString()
  cbuCvu?: string;

  @IsOptional()
  @IsString()
  alias?: string;
}

/** SPEC "Recipients": taxId, alias, page, count. */
export class ContactListQuery extends PageQuery {
  @IsOptional()
  @TaxIdFilter()
  taxId?: string;

  @IsOptional()
  @IsString()
  alias?: string;
}
