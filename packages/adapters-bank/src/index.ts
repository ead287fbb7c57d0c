export * from './http-bank-provider';
export * from './bank-simulator';
