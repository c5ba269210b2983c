import { createError } from '@adonisjs/core/exceptions'

/**
 * Where a code reaches the client: `error` — the `{error: {code, message}}`
 * body; `x402` — the string `error` of an x402 402/202 body, the
 * `errorReason` of the `payment-response` header and of `/facilitator/settle`,
 * the `invalidReason` of `/facilitator/verify`.
 */
export type CodeSurface = 'error' | 'x402'

export interface ErrorCodeEntry {
  /** The HTTP status of the response that carries it (200: a facilitator answer). */
  status: number
  in: readonly CodeSurface[]
  meaning: string
  /** The `Retry-After` an `{error}` answer with this code carries. */
  retryAfterSeconds?: number
  /** The `WWW-Authenticate` challenge a 401 with this code carries (RFC 9110 requires one). */
  challenge?: string
}

const ERROR = ['error'] as const
const X402 = ['x402'] as const
const BOTH = ['error', 'x402'] as const

/**
 * Every stable code a client can see, declared once with its HTTP status and
 * meaning. Exceptions take their status from here (defineError), the
 * verification and node-rejection codes are typed against it, and docs/api.md's
 * error table is rendered from it (a test keeps the two in step).
 */
export const ERROR_CODES = {
  // The request itself
  invalid_json: {
    status: 400,
    in: ERROR,
    meaning:
      'the body is not valid JSON, or nests so deeply (thousands of levels) it cannot be read',
  },
  invalid_characters: {
    status: 400,
    in: ERROR,
    meaning: 'a NUL character in the path, the query or any string or key of the body',
  },
  invalid_body_encoding: {
    status: 400,
    in: ERROR,
    meaning: 'the body is not valid data for its `Content-Encoding` (gzip, deflate, br)',
  },
  malformed_url: {
    status: 400,
    in: ERROR,
    meaning: "the URL's percent-escapes are not valid UTF-8",
  },
  malformed_request: {
    status: 400,
    in: ERROR,
    meaning:
      'refused by the HTTP parser: bad framing or header bytes, Content-Length with Transfer-Encoding, bad chunked encoding; the connection is closed after the answer',
  },
  bad_request: { status: 400, in: ERROR, meaning: 'any other malformed request' },
  request_timeout: {
    status: 408,
    in: ERROR,
    meaning: 'the request did not arrive in time; the connection is closed after the answer',
  },
  request_entity_too_large: { status: 413, in: ERROR, meaning: 'the body is over 1 MB' },
  unsupported_media_type: {
    status: 415,
    in: ERROR,
    meaning:
      'a POST, PUT, PATCH or DELETE with a non-empty body whose `Content-Type` is missing or not JSON (`application/json`, or another JSON type listed in config/bodyparser.ts): send it as JSON with `Content-Type: application/json`',
  },
  content_encoding_unsupported: {
    status: 415,
    in: ERROR,
    meaning: 'a `Content-Encoding` other than gzip, deflate or br',
  },
  headers_too_large: {
    status: 431,
    in: ERROR,
    meaning: 'headers over 16 KiB; the connection is closed after the answer',
  },
  method_not_implemented: {
    status: 501,
    in: ERROR,
    meaning: 'an HTTP method the server does not know; the connection is closed after the answer',
  },
  route_not_found: { status: 404, in: ERROR, meaning: 'no such route' },
  rate_limiter_unavailable: {
    status: 503,
    in: ERROR,
    meaning:
      "the rate limits' counters could not be read in time (their database is busy or down); nothing was done",
    retryAfterSeconds: 5,
  },
  too_many_requests: {
    status: 429,
    in: ERROR,
    meaning:
      'over a rate limit ("Rate limits" below): too many sign-in requests, registrations, feed changes, wallet links or pushes from the address, or too many registrations, feed changes, source or handshake tests or withdrawals by the signed-in wallet, wallet links by the session, or signed pushes to the feed; carries `Retry-After`, the seconds until the window ends',
  },
  validation_failed: {
    status: 422,
    in: ERROR,
    meaning:
      'the body or query failed validation; `fields` is `[{field, rule, message}]` (a value outside a fixed list: rule `enum`, message `integration_mode must be one of partner_bridge, hosted_mirror`)',
  },

  // Sessions (Sign-In With Stacks)
  unauthenticated: {
    status: 401,
    in: ERROR,
    meaning:
      'a bearer route without a valid token (missing, malformed, unknown, expired or revoked)',
    challenge: 'Bearer',
  },
  challenge_not_found: {
    status: 401,
    in: ERROR,
    meaning:
      'unknown nonce, or a nonce issued to another wallet or for something else (a sign-in nonce sent to link a wallet, a link-wallet nonce of another provider or address)',
  },
  challenge_expired: {
    status: 401,
    in: ERROR,
    meaning: "the nonce's 5 minutes are over: ask for a new one",
  },
  challenge_used: {
    status: 401,
    in: ERROR,
    meaning: 'the nonce was already redeemed (it signed someone in or linked a wallet)',
  },
  challenge_foreign: {
    status: 401,
    in: ERROR,
    meaning: 'the nonce was issued under another `PUBLIC_URL` or network',
  },
  message_mismatch: {
    status: 401,
    in: ERROR,
    meaning: 'the `message` sent along differs from the issued one',
  },
  signature_invalid: {
    status: 401,
    in: ERROR,
    meaning:
      "not RSV hex, not a valid signature, signed by another key, or a `public_key` that is not the signer's",
  },

  // Providers and feeds
  not_owner: {
    status: 403,
    in: ERROR,
    meaning: 'a management route of a provider the signed-in wallet does not own',
  },
  feed_not_found: {
    status: 404,
    in: ERROR,
    meaning:
      'no such feed; a mistyped one (`GET /feeds/whale-alert`, `/feeds/p/acme-data/btc-prise`) close to an existing one (at most two edits, fewer for short names, case ignored) adds `suggestion` (`whale-alerts`, `acme-data/btc-price`) and a "did you mean" to the message',
  },
  owner_signature_required: {
    status: 403,
    in: ERROR,
    meaning:
      "linking a withdrawal wallet other than the owner wallet — the first one or a change — needs the owner wallet's signature of the `owner_challenge` too (`owner_nonce`, `owner_signature`)",
  },
  provider_not_found: { status: 404, in: ERROR, meaning: 'no such provider' },
  handle_taken: { status: 409, in: ERROR, meaning: 'another provider has this handle' },
  slug_taken: { status: 409, in: ERROR, meaning: 'the provider already has a feed with this slug' },
  mode_unchanged: {
    status: 409,
    in: ERROR,
    meaning: 'the provider is already in the requested integration mode',
  },
  not_partner_bridge: {
    status: 409,
    in: ERROR,
    meaning: 'a Partner Bridge route of a provider in Hosted Mirror mode',
  },
  no_feeds: { status: 409, in: ERROR, meaning: 'the handshake test needs a feed to probe' },
  feed_limit_reached: {
    status: 409,
    in: ERROR,
    meaning:
      'the change would take a feed count past its cap — live feeds per provider, live feeds per owner wallet, or active polled feeds per owner wallet (docs/operations.md#feed-limits); the message names the limit. Delete or pause a feed first',
  },
  handle_reserved: {
    status: 422,
    in: ERROR,
    meaning: 'the handle is reserved (the only failed field; `fields` still lists it)',
  },
  handle_invalid: {
    status: 422,
    in: ERROR,
    meaning: 'the handle is not 3–32 characters of `a–z 0–9 -`',
  },
  invalid_partner_endpoint: {
    status: 422,
    in: ERROR,
    meaning: 'partner_endpoint is not an allowed origin',
  },
  invalid_source_path: {
    status: 422,
    in: ERROR,
    meaning: 'source_path is not a normalised absolute path',
  },
  invalid_source_url: { status: 422, in: ERROR, meaning: "a mirror's source url is not allowed" },
  invalid_website: { status: 422, in: ERROR, meaning: 'website is not an allowed URL' },
  invalid_price: { status: 422, in: ERROR, meaning: 'price_stx is not a decimal with ≤ 6 places' },
  price_out_of_range: {
    status: 422,
    in: ERROR,
    meaning: 'price_stx is outside 0.0001–10 STX',
  },
  invalid_output_schema: {
    status: 422,
    in: ERROR,
    meaning:
      'output_schema is not a usable JSON Schema (2020-12): not an object, over 32 768 bytes or 32 levels, refused by the meta-schema or by strict compilation (unknown keyword or format, a `pattern` RE2 cannot run), a `$ref` outside itself or to an anchor, an `$id`, a loop of `$ref`s that never goes into the data, or more than 2 000 subschemas once its `$ref`s are followed',
  },
  output_example_mismatch: {
    status: 422,
    in: ERROR,
    meaning:
      'output_example does not validate against output_schema, is over the size or depth cap, would take over 100 000 subschema checks, or is given without a schema',
  },
  source_type_unavailable: {
    status: 422,
    in: ERROR,
    meaning:
      'a Hosted Mirror feed names a source type no configured driver offers; the message lists those that are',
  },
  nothing_to_update: {
    status: 422,
    in: ERROR,
    meaning:
      'an edit (`PATCH`) names none of the fields it can change — only unknown ones, or none; the message lists the allowed fields (`fields`: one entry, `field` `""`)',
  },
  feed_unavailable: { status: 503, in: ERROR, meaning: 'the feed is paused by its provider' },
  source_unavailable: {
    status: 503,
    in: BOTH,
    meaning:
      "the feed's source failed and nothing fresh enough is cached, or a Hosted Mirror feed has no data yet (answered before any payment is asked, even to a request carrying one); nothing was charged",
    retryAfterSeconds: 60,
  },

  // Hosted Mirror: pushes, uploads and the source test
  push_signature_missing: {
    status: 401,
    in: ERROR,
    meaning:
      'a push without its X-Tollbooth-Id, -Timestamp, -Provider and -Signature headers (docs/hosted-mirror.md)',
  },
  push_signature_malformed: {
    status: 401,
    in: ERROR,
    meaning:
      'X-Tollbooth-Signature is not `v1=<64 hex digits>`, or X-Tollbooth-Id is over 200 characters',
  },
  push_timestamp_stale: {
    status: 401,
    in: ERROR,
    meaning:
      "X-Tollbooth-Timestamp is more than 300 s from Tollbooth's clock (or not Unix seconds)",
  },
  push_signature_invalid: {
    status: 401,
    in: ERROR,
    meaning:
      "the signature is not the feed's push secret's over this method, path, timestamp, id and body, or X-Tollbooth-Provider is not the feed's provider",
  },
  push_replayed: {
    status: 409,
    in: ERROR,
    meaning: 'a push with this X-Tollbooth-Id was already accepted (sign each push with a new id)',
  },
  not_a_push_feed: {
    status: 409,
    in: ERROR,
    meaning:
      'a push to a feed whose source type is not webhook_push (or rotating a push secret of one)',
  },
  not_an_upload_feed: {
    status: 409,
    in: ERROR,
    meaning: 'an upload to a feed whose source type is not manual_upload',
  },
  feed_paused: {
    status: 409,
    in: ERROR,
    meaning: 'a push to a paused feed: resume it first (`PATCH …/feeds/:slug/state`)',
  },
  source_not_fetched: {
    status: 409,
    in: ERROR,
    meaning:
      'the source test of a feed whose source is not fetched by us (pushes, uploads; Partner Bridge has `POST …/hmac/test`)',
  },
  document_too_large: {
    status: 413,
    in: ERROR,
    meaning:
      "a pushed or uploaded document over a cap configured for its source type below the server's 1 MiB body limit (`maxBytes` in config/feeds.ts)",
  },
  not_a_json_document: {
    status: 422,
    in: ERROR,
    meaning:
      'a pushed or uploaded body that is not a JSON object or array, or one we cannot store (an unpaired surrogate, a number beyond ±1.8e308 such as 1e400, nesting over 256 levels)',
  },

  // Withdrawals
  withdrawal_not_found: { status: 404, in: ERROR, meaning: 'the provider has no such withdrawal' },
  idempotency_conflict: {
    status: 409,
    in: ERROR,
    meaning:
      'the idempotency_key was used for a withdrawal with another amount or destination (the same key and body answer the original withdrawal)',
  },
  wallet_not_linked: {
    status: 409,
    in: ERROR,
    meaning: 'no withdrawal wallet is linked yet',
  },
  amount_below_minimum: { status: 422, in: ERROR, meaning: 'a withdrawal below 1 STX' },
  amount_above_maximum: { status: 422, in: ERROR, meaning: 'a withdrawal above 1000 STX' },
  insufficient_pending_revenue: {
    status: 409,
    in: ERROR,
    meaning: 'the amount is more than the pending revenue at the moment of the debit',
  },
  destination_not_linked_wallet: {
    status: 422,
    in: ERROR,
    meaning: 'destination_address is not the linked withdrawal wallet',
  },
  withdrawal_wallet_on_hold: {
    status: 409,
    in: ERROR,
    meaning:
      'the withdrawal wallet, not the owner wallet, was linked less than 24 h ago (configurable): withdrawals to it wait until the time the message gives (`withdrawal_wallet_held_until` of the provider)',
  },

  // Prepaid credit: top-ups
  invalid_top_up_amount: {
    status: 422,
    in: ERROR,
    meaning: 'amount_stx of a top-up is not an amount of STX with at most 6 decimals',
  },
  top_up_below_minimum: {
    status: 422,
    in: ERROR,
    meaning: 'a top-up below the minimum (0.1 STX by default, config/credit.ts)',
  },
  top_up_above_maximum: {
    status: 422,
    in: ERROR,
    meaning: 'a top-up above the maximum (100 STX by default, config/credit.ts)',
  },
  // Prepaid credit: refunds, balance and statement (docs/credit.md)
  refund_above_credit: {
    status: 422,
    in: ERROR,
    meaning:
      "a refund above the wallet's credit at the moment of the debit; nothing is written (the message names its amount: ask for a new challenge for a smaller one)",
  },
  refund_below_minimum: {
    status: 422,
    in: ERROR,
    meaning:
      "a refund below the minimum (0.1 STX, config/credit.ts) that is not of the whole credit: the platform pays each refund's network fee",
  },
  refund_not_found: { status: 404, in: ERROR, meaning: 'the wallet has no such refund' },
  // Prepaid credit: spending it (docs/credit.md#credit-tokens)
  credit_token_invalid: {
    status: 401,
    in: ERROR,
    meaning:
      'the `credit-token` header names no credit token, or one that expired: sign a new message at POST /credit/nonce',
  },
  payment_identifier_conflict: {
    status: 409,
    in: ERROR,
    meaning:
      "the `payment-identifier` of a call paid from credit was used by this wallet for another resource (the same id and resource answer the first call's bytes)",
  },
  credit_call_outcome_unknown: {
    status: 503,
    in: ERROR,
    meaning:
      "a call paid from credit with a `payment-identifier` whose debit the database did not confirm at its commit (refused there, or the connection lost during it): it may have been debited — retry with the same `payment-identifier` to get the stored answer if it was and a new call if not (without an identifier the call answers 500 `internal_error`: the wallet's statement, GET /credit/statement, tells whether it was debited)",
    retryAfterSeconds: 1,
  },
  credit_price_above_limit: {
    status: 402,
    in: X402,
    meaning:
      "the feed's price is above the maximum price per call the credit token's wallet signed",
  },
  credit_spend_cap_reached: {
    status: 402,
    in: X402,
    meaning: 'the credit token has spent its signed cap, or this call would take it past the cap',
  },
  insufficient_credit: {
    status: 402,
    in: X402,
    meaning: "the wallet's credit does not cover the price: top up, or pay this call on chain",
  },

  // Metrics (GET /metrics)
  metrics_token_invalid: {
    status: 401,
    in: ERROR,
    meaning:
      'a scrape of /metrics without `Authorization: Bearer <METRICS_TOKEN>` (docs/operations.md#metrics)',
    challenge: 'Bearer',
  },

  // Payments
  payment_not_found: {
    status: 404,
    in: ERROR,
    meaning: 'no payment with this txid and receipt token',
  },
  too_many_payments_in_flight: {
    status: 429,
    in: BOTH,
    meaning: 'the payer already has 5 payments settling',
    retryAfterSeconds: 5,
  },
  settlement_unavailable: {
    status: 503,
    in: ERROR,
    meaning: 'the Stacks node rate-limited the broadcast; nothing was charged',
    retryAfterSeconds: 5,
  },
  facilitator_unavailable: {
    status: 503,
    in: ERROR,
    meaning: 'the remote facilitator (FACILITATOR_URL) failed; nothing was charged',
  },
  chain_node_bad_answer: { status: 502, in: ERROR, meaning: 'the Stacks node answered nonsense' },
  chain_node_unavailable: { status: 503, in: ERROR, meaning: 'the Stacks node did not answer' },
  database_unavailable: {
    status: 503,
    in: ERROR,
    meaning:
      '`GET /health/ready`: PostgreSQL did not answer within 2 s, so this instance cannot serve; `chain_node` beside the code reports the Stacks node',
  },
  internal_error: {
    status: 500,
    in: ERROR,
    meaning:
      "a bug: the detail is logged with the body's `request_id`; never a library's or the database's own code",
  },

  // x402 refusals: the payment header and the signed transaction
  invalid_payload: {
    status: 402,
    in: X402,
    meaning: 'the payment header is not base64 JSON of an x402 payload',
  },
  invalid_x402_version: { status: 402, in: X402, meaning: 'x402Version is not 2' },
  unsupported_scheme: { status: 402, in: X402, meaning: 'a scheme other than `exact`' },
  invalid_network: {
    status: 402,
    in: X402,
    meaning: 'the payment or its transaction is for another network',
  },
  invalid_payment_requirements: {
    status: 402,
    in: X402,
    meaning: '`accepted` does not match the current payment requirements',
  },
  unsupported_authorization: {
    status: 402,
    in: X402,
    meaning: 'a sponsored or not standard single-signature (P2PKH) transaction',
  },
  invalid_signature: { status: 402, in: X402, meaning: "the transaction's signature is invalid" },
  invalid_transaction: {
    status: 402,
    in: X402,
    meaning: 'the node could not decode the transaction',
  },
  invalid_transaction_type: { status: 402, in: X402, meaning: 'not an STX token transfer' },
  invalid_recipient: { status: 402, in: X402, meaning: 'not paid to the platform wallet' },
  invalid_amount: {
    status: 402,
    in: X402,
    meaning: 'an amount of 2^63 µSTX or more, or one the node refused',
  },
  insufficient_amount: { status: 402, in: X402, meaning: 'less than the price' },
  post_conditions_not_allowed: {
    status: 402,
    in: X402,
    meaning: 'the transfer carries post-conditions',
  },
  fee_too_low: { status: 402, in: X402, meaning: 'a fee below 1 µSTX per byte' },
  fee_too_high: { status: 402, in: X402, meaning: 'a fee above the configured maximum' },
  bad_nonce: {
    status: 402,
    in: X402,
    meaning:
      "a nonce already used, or further ahead of the payer's next nonce than its payments in flight fill",
  },
  conflicting_nonce: {
    status: 402,
    in: X402,
    meaning: 'the nonce of another payment of this payer in flight',
  },
  too_much_chaining: {
    status: 402,
    in: X402,
    meaning: 'the node refused: the payer has too many pending transactions',
  },
  insufficient_funds: {
    status: 402,
    in: X402,
    meaning: "the payer's balance does not cover this payment and those in flight, fees included",
  },
  recipient_is_sender: { status: 402, in: X402, meaning: 'the node refused a transfer to oneself' },
  unsupported_transaction: {
    status: 402,
    in: X402,
    meaning: 'the node refused a transaction of a kind it does not take here',
  },
  node_failure: { status: 402, in: X402, meaning: 'the node failed to process the transaction' },
  rejected: {
    status: 402,
    in: X402,
    meaning: 'the node refused the transaction for another reason',
  },
  transaction_already_broadcast: {
    status: 402,
    in: X402,
    meaning:
      'the chain already knows the transaction: only a transfer this service broadcasts can be redeemed',
  },
  payment_already_used: {
    status: 402,
    in: X402,
    meaning: 'the transaction was already redeemed (a replay needs the same `payment-identifier`)',
  },
  payment_failed: { status: 402, in: X402, meaning: 'the transaction failed on chain' },

  // x402 settlement states
  settlement_pending: {
    status: 202,
    in: X402,
    meaning:
      'not confirmed within the request: collect the response at `status_url` with the receipt',
    retryAfterSeconds: 5,
  },
  rate_limited: {
    status: 503,
    in: X402,
    meaning: 'the `errorReason` of a `settlement_unavailable` answer: the node rate-limited us',
  },
  unexpected_settle_error: {
    status: 500,
    in: X402,
    meaning: 'the `errorReason` of an `internal_error` answer after the payment decoded',
  },
  transaction_failed: {
    status: 200,
    in: X402,
    meaning: '`/facilitator/settle`: the transaction failed on chain',
  },
} as const satisfies Record<string, ErrorCodeEntry>

export type ErrorCode = keyof typeof ERROR_CODES

/** A union of codes that must all be declared above (a compile error names any that is not). */
export type DeclaredCodes<Codes extends ErrorCode> = Codes

export function isErrorCode(name: string): name is ErrorCode {
  return Object.hasOwn(ERROR_CODES, name)
}

/** The declared code of an exception (`E_<CODE>`), if it has one. */
export function declaredCodeOf(thrown: unknown): ErrorCode | undefined {
  const code = (thrown as { code?: unknown } | null)?.code
  const name = typeof code === 'string' && code.startsWith('E_') ? code.slice(2).toLowerCase() : ''
  return isErrorCode(name) ? name : undefined
}

/** An exception class for one declared code: `E_<CODE>`, with the table's status. */
export function defineError<Args extends unknown[] = never>(code: ErrorCode, message: string) {
  return createError<Args>(message, `E_${code.toUpperCase()}`, ERROR_CODES[code].status)
}

/** docs/api.md's error table, rendered from ERROR_CODES. */
export function renderErrorTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, entry]: [string, ErrorCodeEntry]) => {
    const retry = entry.retryAfterSeconds
      ? `; carries \`Retry-After: ${entry.retryAfterSeconds}\``
      : ''
    const challenge = entry.challenge ? `; carries \`WWW-Authenticate: ${entry.challenge}\`` : ''
    return `| ${entry.status} | \`${code}\` | ${entry.in.join(', ')} | ${entry.meaning}${retry}${challenge} |`
  })
  return ['| status | code | in | meaning |', '|---|---|---|---|', ...rows].join('\n')
}

const TABLE_START =
  '<!-- error-codes:start (generated from app/core/error_codes.ts: node ace docs:error-codes) -->'
const TABLE_END = '<!-- error-codes:end -->'

/** A markdown document with its error-code table replaced by the current one. */
export function withCurrentErrorTable(markdown: string): string {
  const start = markdown.indexOf(TABLE_START)
  const end = markdown.indexOf(TABLE_END)
  if (start === -1 || end < start) {
    throw new Error(`the document has no ${TABLE_START} … ${TABLE_END} section`)
  }
  return `${markdown.slice(0, start)}${TABLE_START}\n${renderErrorTable()}\n${markdown.slice(end)}`
}
