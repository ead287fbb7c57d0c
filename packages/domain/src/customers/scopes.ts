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

export const ALL_SCOPES: readonly string[] = [
  ...SCOPED_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`]),
  'transfers:approve',
];
