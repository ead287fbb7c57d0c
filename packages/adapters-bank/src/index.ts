export * from './http-bank-provider';
export * from './bank-simulator';
export * from './incoming-transfer-notification';
export * from './simulated-payouts';
export * from './bank-entity-directory';
