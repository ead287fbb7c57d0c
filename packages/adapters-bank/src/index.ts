export * from './http-bank-provider';
export * from './bank-simulator';
export * from './incoming-transfer-notification';
export * from './simulated-payouts';
export * from './simulated-alias-directory';
export * from './bank-entity-directory';
