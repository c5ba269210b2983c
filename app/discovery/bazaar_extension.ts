import {
  bazaarResourceServerExtension,
  declareDiscoveryExtension,
  type DiscoveryExtension,
} from '@x402/extensions/bazaar'
import type { JsonSchema } from '#feeds/builtin/schemas/json_schema'
import type { FeedDeclaration } from '#feeds/feed_declaration'

/**
 * x402's Bazaar discovery extension for a feed (`extensions.bazaar` of its
 * 402 and of its discovery entry): how to call it — GET, its query
 * parameters with their JSON Schemas — and what it answers, our paid
 * envelope as a JSON Schema with an example. Built by `@x402/extensions`'
 * own declareDiscoveryExtension and its server extension's enrichment (which
 * adds the method), so the shape is the library's. `query` holds the values
 * shown as the example input: the request's own when answering one, else
 * each parameter's declared example or default.
 */
export function bazaarExtension(
  declaration: FeedDeclaration,
  request: { path: string; query?: Record<string, string> }
): DiscoveryExtension {
  const { bazaar } = declareDiscoveryExtension({
    input: exampleInput(declaration, request.query ?? {}),
    inputSchema: {
      properties: Object.fromEntries(
        declaration.query.map(({ name, schema, description }) => [
          name,
          description ? { ...schema, description } : schema,
        ])
      ),
      required: declaration.query.filter((param) => param.required).map((param) => param.name),
    },
    ...(declaration.output && {
      output: { example: declaration.output.example, schema: embedded(declaration.output.schema) },
    }),
  })
  // A path without parameters as the route: each feed is its own resource, not one of a template.
  return bazaarResourceServerExtension.enrichDeclaration!(bazaar, {
    method: 'GET',
    routePattern: request.path,
    adapter: { getPath: () => request.path },
  }) as DiscoveryExtension
}

/** A call's query with only its required parameters, at their declared examples: a URL that gets the 402. */
export function requiredExampleQuery(declaration: FeedDeclaration): Record<string, string> {
  const required = declaration.query.filter((param) => param.required)
  const example = exampleInput({ query: required, output: null })
  return Object.fromEntries(Object.entries(example).map(([name, value]) => [name, String(value)]))
}

/** The query a call shows as its example: `query`'s values, else each parameter's declared example or default. */
function exampleInput(declaration: FeedDeclaration, query: Record<string, string> = {}) {
  const input: Record<string, unknown> = {}
  for (const { name, schema } of declaration.query) {
    const example = query[name] ?? (schema.examples as unknown[] | undefined)?.[0] ?? schema.default
    if (example !== undefined) input[name] = example
  }
  return input
}

/** Where the library puts the output schema inside its own (declareDiscoveryExtension). */
const OUTPUT_AT = '#/properties/output/properties/example'

/**
 * The response schema as the library's document can hold it: no nested
 * `$schema` (its root is 2020-12 already) and no `$id` — the library refuses
 * any — so `data`'s own resource is dissolved and its `#/…` references are
 * rewritten to where `data` now sits in the document.
 */
function embedded(schema: JsonSchema): JsonSchema {
  const envelope = { ...schema }
  delete envelope.$schema
  const properties = envelope.properties as Record<string, JsonSchema>
  const data = { ...properties.data }
  delete data.$id
  return {
    ...envelope,
    properties: { ...properties, data: rebased(data, `${OUTPUT_AT}/properties/data`) },
  }
}

/** Keywords whose values are instances, not schemas: nothing in them is a reference. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'examples', 'default'])

function rebased(node: unknown, base: string): any {
  if (Array.isArray(node)) return node.map((item) => rebased(item, base))
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
        return [key, `${base}${value.slice(1)}`]
      }
      return [key, DATA_KEYWORDS.has(key) ? value : rebased(value, base)]
    })
  )
}
