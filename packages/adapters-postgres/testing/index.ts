export * from './test-database';
export * from './real-server-only';
