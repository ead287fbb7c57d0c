import { openApiDocument } from '@rcs/adapters-http';

interface Schema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly enum?: readonly unknown[];
  readonly example?: unknown;
  readonly format?: string;
  readonly allOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
}

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
}

type Item = Readonly<Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>> & {
  parameters?: Parameter[];
};

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One documented operation, with a plausible body built from its request schema. */
export interface DocumentedOperation {
  readonly method: Method;
  readonly template: string;
  readonly queryNames: readonly string[];
  readonly sampleBody: unknown;
}

const components = openApiDocument.components as unknown as { schemas: Record<string, Schema> };

/** A plausible value of a schema: its example, else its first enum value, else one built from its members. */
function sampleOf(schema: Schema | undefined, depth = 0): unknown {
  if (schema === undefined || depth > 6) return null;
  if (schema.$ref) return sampleOf(components.schemas[schema.$ref.split('/').pop()!], depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.enum) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part, depth + 1)));
  const choice = schema.oneOf ?? schema.anyOf;
  if (choice) return sampleOf(choice[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, member]) => [name, sampleOf(member, depth + 1)]));
  }
  if (type === 'array') return [sampleOf(schema.items, depth + 1)];
  if (type === 'integer') return 1;
  if (type === 'number') return 10.5;
  if (type === 'boolean') return true;
  if (schema.format === 'date') return '2026-12-01';
  if (schema.format === 'date-time') return '2026-12-01T00:00:00Z';
  return 'text';
}

/** Every operation of the OpenAPI document. */
export const documentedOperations: readonly DocumentedOperation[] = Object.entries(openApiDocument.paths as unknown as Record<string, Item>).flatMap(
  ([template, item]) =>
    (['get', 'post', 'put', 'patch', 'delete'] as const)
      .filter((method) => item[method] !== undefined)
      .map((method) => {
        const operation = item[method];
        const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
        return {
          method,
          template,
          queryNames: parameters.filter((p) => p.in === 'query').map((p) => p.name),
          sampleBody: sampleOf(operation.requestBody?.content['application/json']?.schema),
        };
      }),
);
