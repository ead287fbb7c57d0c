import 'reflect-metadata';
import { IsOptional, IsString } from 'class-validator';
import { PageQuery } from './list-query';
import { CounterPartyBody } from './money-dto';
import { TaxIdFilter } from './tax-id-filter';
import { TextFilter } from './text-filter';

/**
 * POST and PUT /v1/contacts: the full recipient, a counterparty with its account. Formats are the domain's. null is
 * the same as leaving a member out, so a recipient as read (alias null) can be sent back as it is.
 */
export class ContactBody extends CounterPartyBody {
  @IsOptional()
  @IsString()
  cbuCvu?: string | null;

  @IsOptional()
  @IsString()
  alias?: string | null;
}

/** SPEC "Recipients": taxId, alias, page, count. */
export class ContactListQuery extends PageQuery {
  @IsOptional()
  @TaxIdFilter()
  taxId?: string;

  @IsOptional()
  @TextFilter()
  alias?: string;
}
