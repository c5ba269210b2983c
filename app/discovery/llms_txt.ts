import { inject } from '@adonisjs/core'
import { ChainConfig } from '#chain/define_config'
import { publicUrl } from '#core/public_url'
import { DEFAULT_LIMIT, MAX_LIMIT } from '#discovery/validators'

/**
 * GET /llms.txt: what Tollbooth is and how an agent finds and pays its feeds,
 * in the llms.txt format (llmstxt.org: an H1, a blockquote summary, then H2
 * sections of links with notes).
 */
@inject()
export class LlmsTxt {
  constructor(private chain: ChainConfig) {}

  text() {
    const { name, caip2 } = this.chain.network
    const link = (path: string) => publicUrl(path)
    return `# Tollbooth

> A pay-per-call marketplace for JSON data feeds, built-in and published by providers. Agents pay per request in STX on Stacks (${name}, \`${caip2}\`) with x402 v2: no account, no API key — the payment is the authorization.

Every feed is a GET on its own URL (\`/feeds/<id>\`, or \`/feeds/p/<handle>/<slug>\` for a provider's feed). Each declares its query parameters and, when known, the JSON Schema of its answer.

## Discover feeds

- [Discovery API: resources](${link('/facilitator/discovery/resources')}): every live feed as an x402 discovery resource — its URL, the payment requirement its 402 gives (\`accepts\`) and the Bazaar extension (\`extensions.bazaar\`: method, query parameters, output schema and example). \`limit\` (1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}), \`offset\`, filters \`type\`, \`payTo\`, \`scheme\`, \`network\`, \`extensions\`. @x402/extensions' \`withBazaar(new HTTPFacilitatorClient({ url: '${link('/facilitator')}' }))\` reads it.
- [Discovery API: search](${link('/facilitator/discovery/search?query=price')}): the feeds whose name, description, category or provider contain every word of \`query\`; follow \`pagination.cursor\` for the next page.
- [Registry](${link('/registry/feeds')}): the built-in feeds with prices and statistics.
- [Provider feeds](${link('/registry/provider-feeds')}): providers' feeds a page at a time (\`page\`, \`size\`), with provider, freshness and declaration.
- [OpenAPI](${link('/openapi.json')}): every API route, the paid ones with \`x-payment-info\`.
- [/.well-known/x402](${link('/.well-known/x402')}): the first feeds' URLs, for x402scan-style discovery.

## Pay for a call

1. GET the feed's URL with its query parameters. Without payment it answers **402**: the requirement (\`scheme: "exact"\`, \`network\`, \`amount\` in µSTX, \`asset: "STX"\`, \`payTo\`) in the body and, base64, in the \`payment-required\` header.
2. Sign an STX transfer of \`amount\` to \`payTo\` — do not broadcast it: Tollbooth does.
3. Send the same GET with \`payment-signature\`: base64 of \`{"x402Version": 2, "accepted": <the requirement>, "payload": {"transaction": "<hex of the signed transfer>"}, "extensions": {"payment-identifier": {"info": {"required": false, "id": "<16–128 of A-Z a-z 0-9 _ ->"}}}}\`.
4. **200** with \`{data, price, price_stx, data_source, last_updated}\` once the transfer is confirmed, and a \`payment-response\` header; **202** with a receipt while it settles (retry after \`Retry-After\`).
5. Lost the answer? Retry with the same payment and the same \`payment-identifier\` id: you get the stored response again, not a second charge.

## Optional

- [Marketplace](${link('/')}): the same feeds, for people.
- [Facilitator](${link('/facilitator/supported')}): x402 \`/verify\` and \`/settle\` for STX.
`
  }
}
