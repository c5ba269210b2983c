import vine from '@vinejs/vine'
import { MAX_PAGE } from '#core/pagination'
import { decodeCursor } from '#discovery/search_cursor'

/**
 * Resources a discovery answer holds at most, and when no limit is asked. A
 * provider feed's declaration may take about 64 KB (schema and example), so
 * a full page stays within a few MB.
 */
export const MAX_LIMIT = 50
export const DEFAULT_LIMIT = 20

/** How far into the catalog the discovery lists go: their offsets and counts stop here. */
export const MAX_LISTED = MAX_PAGE * MAX_LIMIT

/** Characters of a discovery search. */
export const MAX_QUERY_LENGTH = 100

/**
 * The library's filters (ListDiscoveryResourcesParams): a well-formed value
 * that names nothing we sell (`network=eip155:8453`) matches no resource; a
 * malformed one is refused.
 */
const filters = {
  type: vine.enum(['http', 'mcp']).optional(),
  payTo: vine
    .string()
    .maxLength(128)
    .regex(/^[A-Za-z0-9.:_-]+$/)
    .optional(),
  scheme: vine
    .string()
    .maxLength(32)
    .regex(/^[a-z0-9-]+$/)
    .optional(),
  /** CAIP-2: `namespace:reference`. */
  network: vine
    .string()
    .maxLength(41)
    .regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/)
    .optional(),
  extensions: vine
    .string()
    .maxLength(64)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
}

const limit = () => vine.number().withoutDecimals().range([1, MAX_LIMIT]).optional()

/** GET /facilitator/discovery/resources */
export const listResourcesValidator = vine.create({
  ...filters,
  limit: limit(),
  offset: vine.number().withoutDecimals().range([0, MAX_LISTED]).optional(),
})

const cursorRule = vine.createRule((value, _options, field) => {
  if (typeof value === 'string' && decodeCursor(value, MAX_LISTED) === undefined) {
    field.report('cursor is not one this API returned', 'cursor', field)
  }
})

/** GET /facilitator/discovery/search: the cursor comes back as the offset it stands for. */
export const searchResourcesValidator = vine.create({
  query: vine.string().trim().minLength(1).maxLength(MAX_QUERY_LENGTH),
  ...filters,
  limit: limit(),
  cursor: vine
    .string()
    .maxLength(64)
    .use(cursorRule())
    .transform((value) => decodeCursor(value, MAX_LISTED)!)
    .optional(),
})

/** GET /registry/provider-feeds */
export const providerFeedsValidator = vine.create({
  page: vine.number().withoutDecimals().range([1, MAX_PAGE]).optional(),
  size: limit(),
})
