export * from './test-database';
export * from './real-server-only';
export * from './skipped-with-reason';
export * from './lock-waiters';
