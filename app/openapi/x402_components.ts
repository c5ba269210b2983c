import { ERROR_CODES } from '#core/error_codes'
import { MAX_TIMEOUT_SECONDS, PAYMENT_IDENTIFIER_DECLARATION, X402_VERSION } from '#payments/x402'

const ref = (schema: string) => ({ $ref: `#/components/schemas/${schema}` })

const base64Of = (schema: string, meaning: string) => ({
  description: `${meaning}: base64 of the JSON of a ${schema}`,
  schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json' },
})

/** The headers of Tollbooth signature v1 on a webhook push (docs/hosted-mirror.md). */
const PUSH_SIGNATURE_HEADERS = {
  'x-tollbooth-id': 'A new id per push (a UUID v4 is best), at most 200 characters',
  'x-tollbooth-timestamp':
    'Unix seconds when signed: a recent one (docs/hosted-mirror.md gives the window)',
  'x-tollbooth-provider': "The feed's provider handle",
  'x-tollbooth-signature':
    'v1=<hex HMAC-SHA256(K, S)>, K = SHA-256 of the push secret, S = "v1\\nPOST\\n<path>\\n<timestamp>\\n<id>\\n<hex SHA-256 of the body>"',
}

/** A signed push's header parameters, referencing components.parameters. */
export const PUSH_SIGNATURE_PARAMETERS = Object.keys(PUSH_SIGNATURE_HEADERS).map((name) => ({
  $ref: `#/components/parameters/${name}`,
}))

/** The codes of `{error}` bodies (app/core/error_codes.ts); the x402-only codes never reach one. */
const ERROR_BODY_CODES = Object.entries(ERROR_CODES)
  .filter(([, entry]) => (entry.in as readonly string[]).includes('error'))
  .map(([code]) => code)

/**
 * The shared pieces of /openapi.json: the error body every route answers
 * with, and x402 v2 as app/payments/x402.ts and paid_call_response.ts
 * shape it (the body, the `payment-required` / `payment-signature` /
 * `payment-response` headers).
 */
export const COMPONENTS = {
  schemas: {
    Error: {
      type: 'object',
      properties: {
        error: {
          type: 'object',
          properties: {
            code: {
              type: 'string',
              enum: ERROR_BODY_CODES,
              description: 'Stable code: the table in docs/api.md',
            },
            message: { type: 'string' },
            fields: {
              type: 'array',
              description: 'What was wrong with each field of the input (validation errors)',
              items: {
                type: 'object',
                properties: {
                  field: { type: 'string' },
                  message: { type: 'string' },
                  rule: { type: 'string' },
                },
                required: ['field', 'message', 'rule'],
              },
            },
            request_id: { type: 'string', description: 'The X-Request-Id of the answer' },
          },
          required: ['code', 'message'],
        },
      },
      required: ['error'],
    },
    PaymentRequired: {
      type: 'object',
      description: 'x402 v2 PaymentRequired: what to pay, and to whom',
      properties: {
        x402Version: { const: X402_VERSION },
        error: { type: 'string', description: 'Why an offered payment was refused' },
        resource: {
          type: 'object',
          properties: {
            url: { type: 'string', format: 'uri' },
            description: { type: 'string' },
            mimeType: { type: 'string' },
          },
          required: ['url', 'description', 'mimeType'],
        },
        accepts: { type: 'array', items: ref('PaymentRequirements'), minItems: 1 },
        extensions: {
          type: 'object',
          properties: {
            'payment-identifier': { const: PAYMENT_IDENTIFIER_DECLARATION },
          },
          additionalProperties: true,
        },
      },
      required: ['x402Version', 'resource', 'accepts'],
    },
    PaymentRequirements: {
      type: 'object',
      properties: {
        scheme: { const: 'exact' },
        network: { type: 'string', description: 'CAIP-2 id of the Stacks network' },
        amount: { type: 'string', pattern: '^[0-9]+$', description: 'Price in µSTX' },
        asset: { const: 'STX' },
        payTo: { type: 'string', description: 'The platform wallet' },
        maxTimeoutSeconds: { type: 'integer', maximum: MAX_TIMEOUT_SECONDS },
        extra: { type: 'object' },
      },
      required: ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds', 'extra'],
    },
    PaymentFailed: {
      type: 'object',
      description: 'The payment failed on chain: paying again buys nothing',
      properties: { x402Version: { const: X402_VERSION }, error: { const: 'payment_failed' } },
      required: ['x402Version', 'error'],
    },
    SettlementPending: {
      type: 'object',
      description: 'Paid, not yet confirmed: collect the answer at receipt.status_url',
      properties: {
        x402Version: { const: X402_VERSION },
        error: { const: 'settlement_pending' },
        receipt: {
          type: 'object',
          properties: {
            txid: { type: 'string' },
            token: { type: 'string' },
            status_url: { type: 'string' },
          },
          required: ['txid', 'status_url'],
        },
      },
      required: ['x402Version', 'error'],
    },
    SettlementResponse: {
      type: 'object',
      properties: {
        success: { type: 'boolean' },
        transaction: { type: 'string', description: '0x-prefixed txid, or "" when none' },
        network: { type: 'string' },
        payer: { type: 'string' },
        errorReason: { type: 'string' },
      },
      required: ['success', 'transaction', 'network'],
    },
  },
  responses: {
    Error: {
      description: 'An error: its stable code and message',
      content: { 'application/json': { schema: ref('Error') } },
    },
    PaymentRequired: {
      description: 'Payment required: pay as `accepts` says and retry with `payment-signature`',
      headers: { 'payment-required': { $ref: '#/components/headers/payment-required' } },
      content: {
        'application/json': { schema: { oneOf: [ref('PaymentRequired'), ref('PaymentFailed')] } },
      },
    },
    SettlementPending: {
      description: 'Paid, settlement pending',
      headers: { 'payment-response': { $ref: '#/components/headers/payment-response' } },
      content: { 'application/json': { schema: ref('SettlementPending') } },
    },
  },
  headers: {
    'payment-required': base64Of('PaymentRequired', 'The payment requirements'),
    'payment-response': base64Of('SettlementResponse', 'The settlement of the payment'),
    'credit-balance': {
      description:
        'A call paid from credit: `balance=<µSTX>; token_remaining=<µSTX>`, what the wallet and the token have left',
      schema: { type: 'string' },
    },
  },
  parameters: {
    'payment-signature': {
      name: 'payment-signature',
      in: 'header',
      required: false,
      description:
        'x402 v2 PaymentPayload (base64 of its JSON): the signed STX transfer that pays for this call. Without it the answer is 402.',
      schema: { type: 'string' },
    },
    'credit-token': {
      name: 'credit-token',
      in: 'header',
      required: false,
      description:
        "A credit token (POST /credit/tokens): this call is paid from the wallet's prepaid credit, within the limits the wallet signed (docs/credit.md#credit-tokens).",
      schema: { type: 'string' },
    },
    'payment-identifier': {
      name: 'payment-identifier',
      in: 'header',
      required: false,
      description:
        "With credit-token: a retry with the same id and resource gets the first call's bytes, not debited again.",
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,128}$' },
    },
    ...Object.fromEntries(
      Object.entries(PUSH_SIGNATURE_HEADERS).map(([name, description]) => [
        name,
        { name, in: 'header', required: true, description, schema: { type: 'string' } },
      ])
    ),
  },
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'A session token from Sign-In With Stacks (POST /auth/nonce, /auth/verify)',
    },
    pushSignature: {
      type: 'apiKey',
      in: 'header',
      name: 'x-tollbooth-signature',
      description:
        "Tollbooth signature v1 under the feed's push secret, with the x-tollbooth-id, -timestamp and -provider headers it signs (docs/hosted-mirror.md)",
    },
  },
} as const
