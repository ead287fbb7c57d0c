export * from './config';
export * from './container';
export * from './service';
export * from './logger';
