/** Resources whose access a credential's scopes grant, as `<resource>:read` and `<resource>:write` (CONTRACT). */
export const SCOPED_RESOURCES = [
  'clients',
  'associates',
  'receivable-accounts',
  'receivables',
  'route-settlements',
  'current-accounts',
  'transfers',
  'contacts',
  'webhooks',
] as const;

export type ScopedResource = (typeof SCOPED_RESOURCES)[number];

export const ALL_SCOPES: readonly string[] = [...SCOPED_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`]), 'transfers:approve'];

/** Why a credential could not hold exactly these scopes, or undefined when it can. */
export function scopesProblem(scopes: readonly string[]): string | undefined {
  if (scopes.length === 0) return 'must name at least one scope';
  const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
  return unknown.length ? `unknown scopes: ${unknown.join(', ')} (known: ${ALL_SCOPES.join(' ')})` : undefined;
}
