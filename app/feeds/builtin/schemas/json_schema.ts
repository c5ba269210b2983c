/**
 * Builders of the JSON Schemas (2020-12) the built-in feeds declare for
 * their `data` (docs/feeds.md). Objects list every key they always carry as
 * required and refuse others, so a schema that drifts from its adapter fails
 * tests/functional/feeds/builtin_feeds.spec.ts.
 */

export type JsonSchema = Record<string, unknown>

export const string: JsonSchema = { type: 'string' }
export const number: JsonSchema = { type: 'number' }
export const integer: JsonSchema = { type: 'integer' }
export const boolean: JsonSchema = { type: 'boolean' }
/** An ISO 8601 UTC time, e.g. 2026-11-25T18:52:39.000Z. */
export const timestamp: JsonSchema = { type: 'string', format: 'date-time' }

export function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] }
  return { ...schema, type: [schema.type, 'null'] }
}

/** One of fixed strings. */
export function oneOf(...values: string[]): JsonSchema {
  return { type: 'string', enum: values }
}

export function array(items: JsonSchema): JsonSchema {
  return { type: 'array', items }
}

/** An object of these keys; all required but `optional`, no others. */
export function object(properties: Record<string, JsonSchema>, optional: string[] = []) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  } satisfies JsonSchema
}

/** An object whose keys vary (names, kinds), every value of one schema. */
export function mapOf(values: JsonSchema): JsonSchema {
  return { type: 'object', additionalProperties: values }
}
