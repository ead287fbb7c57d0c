import 'reflect-metadata';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { DOCUMENT_TYPES, type ClientDetails, type DocumentType } from '@rcs/domain';
import { KeyText } from './key-text';
import { ListQuery } from './list-query';
import { TaxIdFilter } from './tax-id-filter';
import { TextFilter } from './text-filter';

/** POST and PUT /v1/clients: the full client. */
export class ClientBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  businessName!: string;

  /** Check digit and canonical form are the domain's (400 validation either way). */
  @IsString()
  taxId!: string;

  @IsIn(DOCUMENT_TYPES, { message: 'documentType must be CUIT or CUIL' })
  documentType!: DocumentType;

  @IsOptional()
  @IsString()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email?: string | null;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @KeyText()
  branchExternalCode?: string | null;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  branchDescription?: string | null;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  branchReferenceAddress?: string | null;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @KeyText()
  externalId?: string | null;
}

export function clientDetailsOf(body: ClientBody): ClientDetails {
  return {
    businessName: body.businessName,
    taxId: body.taxId,
    documentType: body.documentType,
    email: body.email ?? null,
    branchExternalCode: body.branchExternalCode ?? null,
    branchDescription: body.branchDescription ?? null,
    branchReferenceAddress: body.branchReferenceAddress ?? null,
    externalId: body.externalId ?? null,
  };
}

export class ClientListQuery extends ListQuery {
  @IsOptional()
  @TaxIdFilter()
  taxId?: string;

  @IsOptional()
  @IsIn(DOCUMENT_TYPES, { message: 'documentType must be CUIT or CUIL' })
  documentType?: DocumentType;

  @IsOptional()
  @TextFilter()
  branchExternalCode?: string;

  @IsOptional()
  @TextFilter()
  externalId?: string;
}
