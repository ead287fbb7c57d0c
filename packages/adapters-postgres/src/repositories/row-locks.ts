import type { Knex } from 'knex';

/**
 * Locks the rows a transaction is about to change. FOR NO KEY UPDATE, not FOR UPDATE: rows that new rows reference
 * (a receivable's account, client, associate or parent) stay open to those inserts' foreign key checks (FOR KEY
 * SHARE), which FOR UPDATE blocked, making an insert wait on, and deadlock against, whoever held the lock.
 * Changes still exclude each other; an UPDATE that does change a key column takes the stronger lock itself.
 */
export const lockedForChange = <Q extends Knex.QueryBuilder>(query: Q): Q => query.forNoKeyUpdate() as Q;
