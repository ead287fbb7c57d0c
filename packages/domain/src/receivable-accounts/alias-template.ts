import { ValidationError } from '../shared/domain-error';
import { isValidAlias } from '../shared/bank-account-number';

/** Default template: "cta." and the account id padded to 7 digits, e.g. cta.0000042. */
export const DEFAULT_ALIAS_TEMPLATE = 'cta.{id:7}';

const TOKEN = /\{id(?::(\d{1,2}))?\}/g;

/**
 * Renders a customer's alias template for an account id. `{id}` is required (account ids are unique across the
 * service, so aliases are too); `{id:N}` pads it to N digits.
 */
export function renderAlias(template: string, accountId: number): string {
  return template.replace(TOKEN, (_match, width?: string) => String(accountId).padStart(width ? Number(width) : 0, '0'));
}

export function assertAliasTemplate(template: string): void {
  if (!/\{id(?::\d{1,2})?\}/.test(template) || !isValidAlias(renderAlias(template, 1))) {
    throw ValidationError.of('aliasTemplate', "must contain {id} and render 6 to 20 letters, digits, '.' or '-'");
  }
}
