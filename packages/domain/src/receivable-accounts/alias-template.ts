import { ValidationError } from '../shared/domain-error';
import { isValidAlias } from '../shared/bank-account-number';

/** Default template: "cta." and the account id padded to 7 digits, e.g. cta.0000042. */
export const DEFAULT_ALIAS_TEMPLATE = 'cta.{id:7}';

/** How the service names the current accounts it opens (main.cta.5, sub.cta.6). */
export const CURRENT_ACCOUNT_ALIAS_TEMPLATES = { MAIN: 'main.cta.{id}', SUB: 'sub.cta.{id}' } as const;

/**
 * The alias an account gets when every alias of its customer's template is held. Reserved like generated ones, and
 * derived from the account id alone, so only an alias chosen before it was reserved can stand in its way.
 */
export const FALLBACK_ALIAS_TEMPLATE = 'ra.{id:7}';

/** The last suffix tried ("-9") when an account's generated alias is held by another account. */
const LAST_SUFFIX = 9;

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

/**
 * The aliases provisioning may give an account, best first: the template's, then the same with "-2" to "-9" in
 * case another account holds it (one taken before such aliases were reserved, say), then the fallback.
 */
export function aliasCandidates(template: string, accountId: number): string[] {
  const alias = renderAlias(template, accountId);
  const suffixed = Array.from({ length: LAST_SUFFIX - 1 }, (_, i) => `${alias}-${i + 2}`);
  return [alias, ...suffixed, renderAlias(FALLBACK_ALIAS_TEMPLATE, accountId)].filter(isValidAlias);
}

/**
 * The last alias provisioning tries when every candidate is held: the fallback with four random letters or digits
 * after it, which nobody can hold ahead of the account (the candidates are all derived from its id, which the next
 * account of a shared sequence makes easy to guess).
 */
export function unguessableAlias(accountId: number): string {
  const letters = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(4)), (byte) => (byte % 36).toString(36)).join('');
  return `${renderAlias(FALLBACK_ALIAS_TEMPLATE, accountId)}.${letters}`;
}

/**
 * True if the alias has the form of one the service generates from any of these templates (suffixed ones
 * included), in any letter case. Such aliases are the service's to give: a customer who could choose one would
 * take it from the account it is generated for.
 */
export function isGeneratedAlias(alias: string, templates: readonly string[]): boolean {
  return templates.some((template) => generatedAliasPattern(template).test(alias));
}

function generatedAliasPattern(template: string): RegExp {
  const parts = template.split(TOKEN);
  // split() puts each token's width capture between the literal parts: literal, width, literal, width, ...
  const source = parts.map((part, i) => (i % 2 === 0 ? escapeRegExp(part) : `\\d{${part ?? 1},}`)).join('');
  return new RegExp(`^${source}(?:-\\d+)?$`, 'i');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
