export { createApiClient, type ApiClient, type ClientOptions } from './client';
export { allItems, type ItemOf, type ListParams, type ListPath } from './pages';
export { ApiError, type Problem } from './api-error';
export type { Credentials } from './token-source';
export type { RetryOptions } from './retry';
export type { components, operations, paths } from './generated/api';
export type { WebhookEvent, WebhookEventOf } from './webhook-event';
