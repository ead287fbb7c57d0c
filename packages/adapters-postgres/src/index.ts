export * from './knex-factory';
export * from './knex-unit-of-work';
export * from './embedded-postgres';
export * from './settings';
export * from './operational-queries';
export { migrateToLatest } from './migrations';
export { KnexClientQueries } from './repositories/knex-client-repository';
export { KnexAssociateQueries } from './repositories/knex-associate-repository';
export { KnexReceivableAccountQueries } from './repositories/knex-receivable-account-queries';
