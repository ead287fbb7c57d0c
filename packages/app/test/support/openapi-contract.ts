import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { openApiDocument } from '@rcs/adapters-http';

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int64', true);
ajv.addSchema({ $id: 'openapi', components: closed(openApiDocument.components) });

const templates = Object.keys(openApiDocument.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const compiled = new Map<string, ValidateFunction>();

function rebase(schema: object): object {
  return JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/', '"openapi#/components/'));
}

/**
 * The schemas with every object closed to members it does not declare. The document leaves answers open, so a
 * client tolerates a member added later; the tests still hold the service to exactly the members it documents.
 */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const schema: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closed(value)]));
  const isObject = [schema.type].flat().includes('object') && schema.properties !== undefined;
  return isObject && !('additionalProperties' in schema) ? { ...schema, additionalProperties: false } : schema;
}

/**
 * Fails unless the response is documented for that operation and status, and its body matches the documented
 * schema. Every HTTP test response goes through here, so the published contract cannot drift from the code.
 */
export function assertMatchesOpenApi(method: string, url: string, status: number, contentType: string | undefined, body: unknown): void {
  const path = url.split('?')[0];
  const match = templates.find((t) => t.pattern.test(path));
  if (!match) throw new Error(`OpenAPI: no path documented for ${path}`);
  const operation = (openApiDocument.paths as unknown as Record<string, Record<string, Operation>>)[match.template][method.toLowerCase()];
  if (!operation) throw new Error(`OpenAPI: ${method} ${match.template} is not documented`);
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`OpenAPI: status ${status} is not documented for ${method} ${match.template}`);
  if (!response.content) return;
  const mediaType = (contentType ?? '').split(';')[0];
  const media = response.content[mediaType];
  if (!media) throw new Error(`OpenAPI: ${method} ${match.template} ${status} does not document ${mediaType || 'an empty body'}`);
  const key = `${method} ${match.template} ${status} ${mediaType}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(media.schema));
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(`OpenAPI: ${key} body does not match: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  }
}

/** Fails unless `body` is what the document's top-level `webhooks` says a delivery of `type` carries. */
export function assertMatchesWebhookEvent(type: string, body: unknown): void {
  const webhooks = (openApiDocument as unknown as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }> })
    .webhooks;
  const documented = webhooks[type]?.post.requestBody.content['application/json'].schema;
  if (!documented) throw new Error(`no webhooks entry documents the event type ${type}`);
  const key = `webhook ${type}`;
  const validate = compiled.get(key) ?? ajv.compile(rebase(documented));
  compiled.set(key, validate);
  if (!validate(body)) throw new Error(`a ${type} delivery does not match the webhooks section: ${ajv.errorsText(validate.errors)}`);
}
