export * from './knex-factory';
export * from './knex-unit-of-work';
export * from './embedded-postgres';
export * from './settings';
export * from './operational-queries';
export { migrateToLatest, migrationSource, MIGRATION_NAMES } from './migrations';
export { KnexClientQueries } from './repositories/knex-client-repository';
export { KnexAssociateQueries } from './repositories/knex-associate-repository';
export { KnexReceivableAccountQueries } from './repositories/knex-receivable-account-queries';
export { KnexReceivableQueries } from './repositories/knex-receivable-queries';
export { KnexRouteSettlementQueries } from './repositories/knex-route-settlement-repository';
/** The outbox's insert, for the benchmark's floor, which must send the statement the service sends. */
export { INSERT_EVENTS, eventColumns, newEventIds } from './repositories/knex-outbox';
export { KnexLedgerQueries } from './repositories/knex-ledger';
export { KnexSettlementQueries } from './repositories/knex-settlements';
export { KnexCurrentAccountQueries } from './repositories/knex-current-account-repository';
export { knexStorage } from './knex-storage';
export { foldListCounts, type FoldResult } from './list-counts-fold';
