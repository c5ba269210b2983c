import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { feedUrl, type Client, type Quote } from '../client.ts'
import type { Feed } from '../discovery.ts'
import {
  AgentError,
  OverCapError,
  PendingError,
  RefusedError,
  UnreachableError,
} from '../errors.ts'
import { isObject } from '../x402.ts'
import { formatStx } from './stx.ts'

export interface McpOptions {
  /** The service the client buys from (to resolve a feed id to its URL). */
  baseUrl: string
  /** The client's per-call cap (µSTX), shown by describe_feed. */
  maxPerCallMicrostx: bigint
  /** The environment variables that set the caps, named in refusals so the model can tell the operator. */
  capVariables?: { perCall: string; budget: string }
}

/** Feed ids, handles and URLs are short: anything longer is not one. */
const feedArgument = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .describe('A feed as search_feeds lists it: its URL, a built-in id (whale-alerts) or handle/slug')

/**
 * The MCP server of one paying client: `search_feeds` and `describe_feed`
 * read the discovery API; `buy_feed` pays through the client, whose
 * per-call cap and budget were set by the operator at start. A refusal is a
 * tool error result (isError) saying what to do, with nothing paid.
 */
export function createMcpServer(client: Client, options: McpOptions): McpServer {
  const caps = options.capVariables ?? {
    perCall: 'TOLLBOOTH_MAX_PER_CALL',
    budget: 'TOLLBOOTH_BUDGET',
  }
  const server = new McpServer({ name: 'tollbooth', version: '0.1.0' })

  server.registerTool(
    'search_feeds',
    {
      title: 'Search Tollbooth data feeds',
      description:
        'Lists paid JSON data feeds with their price in STX, description and URL. Filter by words, category and maximum price.',
      inputSchema: {
        query: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .optional()
          .describe('Words every feed found contains'),
        category: z
          .string()
          .trim()
          .min(1)
          .max(50)
          .optional()
          .describe('A category (crypto, …) or provider'),
        max_price_stx: z
          .number()
          .positive()
          .max(1_000_000)
          .optional()
          .describe('Highest price per call, in STX'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(100)
          .optional()
          .describe('At most this many feeds (default 20)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ query, category, max_price_stx: maxPriceStx, limit }) =>
      answer(async () => {
        const feeds = await client.feeds({
          query,
          category,
          maxPriceMicrostx: maxPriceStx === undefined ? undefined : toMicrostx(maxPriceStx),
          limit: limit ?? 20,
        })
        return json({
          feeds: feeds.map((feed) => ({
            feed: feed.resource,
            price_stx: formatStx(feed.priceMicrostx),
            description: feed.description ?? null,
            tags: feed.tags,
          })),
          remaining_budget_stx: await remainingBudget(client),
        })
      })
  )

  server.registerTool(
    'describe_feed',
    {
      title: 'Describe one Tollbooth feed',
      description:
        "One feed's price, its query parameters (with their JSON Schemas), the schema of what it answers, and when it was last updated. Nothing is paid.",
      inputSchema: { feed: feedArgument },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ feed }) =>
      answer(async () => {
        const found = await findFeed(client, options.baseUrl, feed)
        if (!found) {
          return refusal(`No live feed "${feed}" is listed. Use search_feeds to find one.`)
        }
        const registered = await registryEntry(options.baseUrl, new URL(found.resource).pathname)
        // Its 402 (nothing paid) tells the ways to pay; the description stands without it.
        const quote = await client.quote(found.resource).catch(() => null)
        // The Bazaar extension: `info` holds example values, `schema` their JSON Schemas.
        const bazaar = at(found.raw, 'extensions', 'bazaar')
        const schema = at(bazaar, 'schema', 'properties')
        return json({
          feed: found.resource,
          price_stx: formatStx(found.priceMicrostx),
          description: found.description ?? null,
          tags: found.tags,
          last_updated: found.raw.lastUpdated ?? null,
          update_frequency: registered?.update_frequency ?? null,
          freshness: registered?.freshness ?? null,
          stats: registered?.stats ?? null,
          input: {
            method: at(bazaar, 'info', 'input', 'method') ?? 'GET',
            query_params: at(schema, 'input', 'properties', 'queryParams') ?? null,
            example: at(bazaar, 'info', 'input', 'queryParams') ?? null,
          },
          output: {
            schema: at(schema, 'output') ?? null,
            example: at(bazaar, 'info', 'output', 'example') ?? null,
          },
          ...waysToPay(found.priceMicrostx, quote, client.prefersCredit),
          per_call_cap_stx: formatStx(options.maxPerCallMicrostx),
          remaining_budget_stx: await remainingBudget(client),
        })
      })
  )

  server.registerTool(
    'buy_feed',
    {
      title: 'Buy one call of a Tollbooth feed',
      description:
        "Pays the feed's price in STX from the operator's wallet (within the operator's per-call cap and total budget) and returns the data. " +
        "Paid from the operator's prepaid credit when they configured it and the service offers it (topped up on chain within the budget), else by one STX transfer.",
      inputSchema: {
        feed: feedArgument,
        params: z
          .record(
            z.string().min(1).max(100),
            z.union([z.string().max(1000), z.number().finite(), z.boolean()])
          )
          .refine((params) => Object.keys(params).length <= 20, 'at most 20 parameters')
          .optional()
          .describe("The feed's query parameters (describe_feed lists them)"),
        payment_identifier: z
          .string()
          .regex(/^[A-Za-z0-9_-]{16,128}$/)
          .optional()
          .describe(
            'Only to retry a call paid from credit whose answer was lost: the payment_identifier buy_feed named'
          ),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async ({ feed, params, payment_identifier: paymentIdentifier }) =>
      answer(async () => {
        if (!(await isOwnFeed(client, options.baseUrl, feed))) {
          return refusal(
            `buy_feed pays only for the feeds of ${options.baseUrl}; ${feed} is not one of them. ` +
              'Nothing was paid. Use search_feeds to find a feed.'
          )
        }
        try {
          const bought = await client.get(feed, params ?? {}, { paymentIdentifier })
          const { credit } = client.spent()
          return json({
            data: bought.data,
            price_stx: formatStx(bought.priceMicrostx),
            paid_with: bought.paidWith === 'credit' ? 'prepaid_credit' : 'per_call',
            txid: bought.txid,
            ...(credit.balanceMicrostx === null
              ? {}
              : { credit_balance_stx: formatStx(credit.balanceMicrostx) }),
            last_updated: bought.body.last_updated ?? null,
            stale: bought.body.stale ?? false,
            remaining_budget_stx: await remainingBudget(client),
          })
        } catch (error) {
          if (error instanceof OverCapError) return refusal(overCapMessage(error, caps))
          if (error instanceof UnreachableError && error.paymentIdentifier) {
            return refusal(
              `The service did not answer; the call may have been paid from credit. Call buy_feed again with the same feed, params and payment_identifier "${error.paymentIdentifier}" to get its data without paying twice.`
            )
          }
          if (error instanceof PendingError && error.paying === 'top_up') {
            return refusal(
              `Paid a prepaid-credit top-up (transaction ${error.txid}) that is still settling; ` +
                'the credit is added once it confirms. The feed was not bought: try buy_feed again in a minute, it will pay from that credit.'
            )
          }
          if (error instanceof PendingError) {
            return refusal(
              `Paid (transaction ${error.txid}) but the payment is still settling. ` +
                `The data can be collected later at ${error.receipt.statusUrl}. Do not buy again.`
            )
          }
          if (error instanceof RefusedError) {
            return refusal(
              `The service refused the call (${error.serverCode}): ${error.serverMessage}. ` +
                (error.nothingPaid ? 'Nothing was paid.' : 'The payment may have been taken.')
            )
          }
          throw error
        }
      })
  )

  return server
}

/** A tool's answer; an AgentError (the service unreachable, a bad 402, …) as a tool error result. */
async function answer(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof AgentError) return refusal(error.message)
    throw error
  }
}

/**
 * describe_feed's ways to pay: per call on chain always; prepaid credit when the feed's 402
 * offers it (its extension), and which of them buy_feed uses.
 */
function waysToPay(price: bigint, quote: Quote | null, prefersCredit: boolean) {
  const perCall = {
    method: 'per_call',
    price_stx: formatStx(quote?.priceMicrostx ?? price),
    how: 'One STX transfer per call, confirmed on chain (x402 v2, exact scheme).',
  }
  const offer = quote?.credit
  const credit = offer && {
    method: 'prepaid_credit',
    price_stx: formatStx(quote.priceMicrostx),
    how: 'Top up once with an STX transfer, then each call is paid from the balance at service latency, with no chain transaction.',
    top_up_minimum_stx:
      offer.topUpMinimumMicrostx === null ? null : formatStx(offer.topUpMinimumMicrostx),
    top_up_maximum_stx:
      offer.topUpMaximumMicrostx === null ? null : formatStx(offer.topUpMaximumMicrostx),
  }
  return {
    ways_to_pay: credit ? [perCall, credit] : [perCall],
    buy_feed_pays_with: credit && prefersCredit ? 'prepaid_credit' : 'per_call',
  }
}

/**
 * What is left of the budget once the payments of unknown outcome are looked up on the chain
 * (one look-up each; none when there are none): a payment that moved nothing is back in it.
 */
async function remainingBudget(client: Client) {
  const { remainingMicrostx } = await client.settle()
  return formatStx(remainingMicrostx)
}

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] }
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true }
}

function overCapMessage(error: OverCapError, caps: { perCall: string; budget: string }) {
  const price = formatStx(error.priceMicrostx)
  const cap = formatStx(error.capMicrostx)
  return error.cap === 'per_call'
    ? `This feed costs ${price} STX; the per-call cap is ${cap} STX. Nothing was paid. ` +
        `Ask the operator to raise ${caps.perCall} or choose a cheaper feed.`
    : `This feed costs ${price} STX; only ${cap} STX is left of the budget. Nothing was paid. ` +
        `Ask the operator to raise ${caps.budget} (and restart the server) or choose a cheaper feed.`
}

/**
 * Whether `feed` is bought from the service the operator configured: an id
 * or handle/slug always is; a URL when it is on that origin or is a feed the
 * service lists (under its public origin). A URL from anywhere else (a page
 * the model read, say) is never paid.
 */
async function isOwnFeed(client: Client, baseUrl: string, feed: string): Promise<boolean> {
  if (!/^https?:\/\//i.test(feed)) return true
  let url: URL
  try {
    url = new URL(feed)
  } catch {
    return false
  }
  if (url.origin === new URL(baseUrl).origin) return true
  const listed = await client.feeds()
  return listed.some((candidate) => {
    const resource = new URL(candidate.resource)
    return resource.origin === url.origin && resource.pathname === url.pathname
  })
}

/** Provider feeds' registry pages read at most, looking for one feed. */
const REGISTRY_PAGES = 20

/**
 * The feed's entry in the service's registry (/registry/feeds for the
 * built-ins, /registry/provider-feeds a page at a time for providers'), for
 * its stats and freshness; null if the registry does not list it or cannot
 * be read: the description stands without them.
 */
async function registryEntry(
  baseUrl: string,
  path: string
): Promise<Record<string, unknown> | null> {
  const root = baseUrl.replace(/\/+$/, '')
  const pages = path.startsWith('/feeds/p/')
    ? Array.from(
        { length: REGISTRY_PAGES },
        (_, index) => `${root}/registry/provider-feeds?page=${index + 1}&size=50`
      )
    : [`${root}/registry/feeds`]
  for (const page of pages) {
    const listed = await fetch(page, { signal: AbortSignal.timeout(10_000) })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null)
    const feeds = at(listed, 'feeds')
    if (!Array.isArray(feeds) || feeds.length === 0) return null
    const entry = feeds.find((candidate) => at(candidate, 'endpoint') === path)
    if (isObject(entry)) return entry
  }
  return null
}

/** `value[keys[0]][keys[1]]…`, or undefined where a step is not an object. */
function at(value: unknown, ...keys: string[]): unknown {
  let current = value
  for (const key of keys) {
    if (!isObject(current)) return undefined
    current = current[key]
  }
  return current
}

/**
 * STX as a number (from a model) to whole µSTX, rounded to the nearest:
 * binary floats put 0.001001 × 10⁶ at 1000.999…, which rounded down would
 * leave out a feed priced exactly the maximum.
 */
function toMicrostx(stx: number): bigint {
  return BigInt(Math.round(stx * 1_000_000))
}

/**
 * The listed feed `feed` names (by URL, id or handle/slug), or null. Paths
 * are compared: the service may list its feeds under its public origin.
 */
async function findFeed(client: Client, baseUrl: string, feed: string): Promise<Feed | null> {
  const path = new URL(feedUrl(baseUrl, feed, {})).pathname
  const feeds = await client.feeds()
  return feeds.find((candidate) => new URL(candidate.resource).pathname === path) ?? null
}
