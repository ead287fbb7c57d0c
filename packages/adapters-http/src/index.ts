import 'reflect-metadata';
export * from './create-http-app';
export type { RateLimits } from './middleware/rate-limit-rules';
export * from './auth/jwt-token-service';
export * from './auth/scrypt-secret-hasher';
export * from './auth/random-secret-generator';
export * from './middleware/problem';
export { openApiDocument } from './openapi/document';
