/** Stands in the outcome of a (status, operation) pair the matrix leaves out, so its case fails by name. */
export const MISSING_FROM_MATRIX = 'missing from the matrix';

/**
 * The cases of a state machine's matrix test: one per (status, operation) pair of the full lists, each the matrix
 * row that states it. A matrix that misses a status or an operation cannot pass by having the right length.
 */
export function everyPair<S extends string, O extends string, Row extends readonly [S, O, ...unknown[]]>(
  statuses: readonly S[],
  operations: readonly O[],
  matrix: readonly Row[],
): Row[] {
  return statuses.flatMap((from) =>
    operations.map((operation) => matrix.find(([s, o]) => s === from && o === operation) ?? ([from, operation, MISSING_FROM_MATRIX] as unknown as Row)),
  );
}

interface Versioned<S extends string> {
  readonly status: S;
  toSnapshot(): { readonly version: number; readonly modificationDate: Date };
}

/**
 * One matrix case: `move` takes `before` to `outcome`, one version on and stamped `at`, when `outcome` is one of
 * `statuses`; otherwise it is refused with `outcome` as its code.
 */
export function expectMove<S extends string>(statuses: readonly S[], before: Versioned<S>, move: () => Versioned<S>, outcome: string, at: Date): void {
  if (!(statuses as readonly string[]).includes(outcome)) {
    expect(move).toThrow(expect.objectContaining({ code: outcome }) as Error);
    return;
  }
  const after = move();
  expect(after.status).toBe(outcome);
  expect(after.toSnapshot().version).toBe(before.toSnapshot().version + 1);
  expect(after.toSnapshot().modificationDate).toEqual(at);
}
