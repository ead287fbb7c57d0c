export * from './collections-desk';
