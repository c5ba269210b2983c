import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import type { JsonSchema } from '#feeds/builtin/schemas/json_schema'
import { JSON_SCHEMA_2020 } from '#feeds/output_schema'
import { formatStx, type Microstx } from '#ledger/money'
import type Feed from '#models/feed'

/** A query parameter a buyer may send, in the shape of an OpenAPI parameter. */
export interface QueryParameter {
  name: string
  in: 'query'
  required: boolean
  description?: string
  schema: JsonSchema
}

/**
 * What a feed declares it takes and answers — never what it served. The
 * feed page shows it; machine discovery is built on it (docs/api.md,
 * "Output declaration").
 */
export interface FeedDeclaration {
  query: QueryParameter[]
  /** JSON Schema (2020-12) of a paid answer's body and an example body; null when none is declared. */
  output: { schema: JsonSchema; example: unknown } | null
}

type DeclaringFeed = Pick<
  Feed,
  | 'providerId'
  | 'slug'
  | 'sourceType'
  | 'sourceSettings'
  | 'priceMicrostx'
  | 'outputSchema'
  | 'outputExample'
>

const BUILTIN = new Map(BUILTIN_FEEDS.map((feed) => [feed.id, feed.declaration]))

/** An example's `last_updated` (2025-11-24T16:00:00Z): any time in Unix milliseconds. */
const EXAMPLE_LAST_UPDATED = 1_764_000_000_000

export function feedDeclaration(feed: DeclaringFeed): FeedDeclaration {
  const builtin = feed.providerId === null ? BUILTIN.get(feed.slug) : undefined
  const declared = builtin
    ? { schema: builtin.data, example: builtin.example }
    : feed.outputSchema && { schema: feed.outputSchema, example: feed.outputExample ?? null }
  return {
    query: builtin?.query ?? forwardedQuery(feed),
    output: declared
      ? {
          schema: responseSchema(declared.schema, feed.priceMicrostx),
          example:
            declared.example === null ? null : responseBody(declared.example, feed.priceMicrostx),
        }
      : null,
  }
}

/** A Partner Bridge feed takes the parameters it forwards (forward_query), each optional. */
function forwardedQuery(feed: DeclaringFeed): QueryParameter[] {
  if (feed.sourceType !== 'partner_bridge') return []
  const names = (feed.sourceSettings.forward_query as string[] | undefined) ?? []
  return names.map((name) => ({
    name,
    in: 'query',
    required: false,
    description: "Passed on to the provider's API",
    schema: { type: 'string' },
  }))
}

/**
 * The paid answer's body (serve_paid_call.ts) with `data` as declared. The
 * declared schema becomes its own resource (`$id`), so its `#/$defs/…`
 * references keep resolving inside it.
 */
function responseSchema(data: JsonSchema, price: Microstx): JsonSchema {
  // The dialect is the envelope's; a `$schema` inside an embedded resource is redundant.
  const dataSchema = { ...data }
  delete dataSchema.$schema
  return {
    $schema: JSON_SCHEMA_2020,
    type: 'object',
    properties: {
      data: { $id: 'data', ...dataSchema },
      price: { type: 'integer', const: Number(price), description: 'Price paid, in µSTX' },
      price_stx: { type: 'string', const: formatStx(price), description: 'Price paid, in STX' },
      data_source: { type: 'string', description: 'Where the data comes from' },
      last_updated: {
        type: 'integer',
        description: 'When the data was last updated, in Unix milliseconds',
      },
      stale: {
        const: true,
        description: 'Present when the source failed and the last good copy was served',
      },
    },
    required: ['data', 'price', 'price_stx', 'data_source', 'last_updated'],
    additionalProperties: false,
  }
}

function responseBody(data: unknown, price: Microstx) {
  return {
    data,
    price: Number(price),
    price_stx: formatStx(price),
    data_source: 'the data source',
    last_updated: EXAMPLE_LAST_UPDATED,
  }
}
