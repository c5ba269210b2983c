import type { NetworkPreset } from '#chain/network'
import type { CreditConfigValues } from '#credit/define_config'
import { tokenLifeSeconds } from '#credit/credit_tokens'

/** The request header that pays a call from credit (docs/credit.md#credit-tokens). */
export const CREDIT_TOKEN_HEADER = 'credit-token'

/**
 * The response header of a call paid from credit: what the wallet and the
 * token have left after it, `balance=<µSTX>; token_remaining=<µSTX>`.
 */
export const CREDIT_BALANCE_HEADER = 'credit-balance'

const MICROSTX = { type: 'string', pattern: '^[0-9]+$' } as const
const URL = { type: 'string', format: 'uri' } as const

/** The JSON schema of the credit extension's info. */
const CREDIT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    header: { type: 'string', const: CREDIT_TOKEN_HEADER },
    chainId: { type: 'string', pattern: '^stacks:[0-9]+$' },
    nonceUrl: URL,
    tokenUrl: URL,
    topUpUrl: URL,
    topUpMinimum: MICROSTX,
    topUpMaximum: MICROSTX,
    tokenMaxLifetimeSeconds: { type: 'integer', minimum: 1, maximum: 3600 },
  },
  required: ['header', 'chainId', 'nonceUrl', 'tokenUrl', 'topUpUrl', 'tokenMaxLifetimeSeconds'],
} as const

export interface CreditExtension {
  info: {
    header: typeof CREDIT_TOKEN_HEADER
    chainId: string
    nonceUrl: string
    tokenUrl: string
    topUpUrl: string
    topUpMinimum: string
    topUpMaximum: string
    tokenMaxLifetimeSeconds: number
  }
  schema: typeof CREDIT_SCHEMA
}

/**
 * The 402's second way to pay: prepaid credit. Top up once (an x402
 * payment), sign the limits for a credit token, then send it in the
 * `credit-token` header instead of a payment. Field names follow x402's
 * `sign-in-with-x` info (camelCase, CAIP-2 `chainId`).
 */
export function creditExtension(
  baseUrl: string,
  network: NetworkPreset,
  config: CreditConfigValues
): CreditExtension {
  return {
    info: {
      header: CREDIT_TOKEN_HEADER,
      chainId: network.caip2,
      nonceUrl: `${baseUrl}/credit/nonce`,
      tokenUrl: `${baseUrl}/credit/tokens`,
      topUpUrl: `${baseUrl}/credit/top-ups`,
      topUpMinimum: config.topUp.minimumMicrostx.toString(),
      topUpMaximum: config.topUp.maximumMicrostx.toString(),
      tokenMaxLifetimeSeconds: tokenLifeSeconds(config),
    },
    schema: CREDIT_SCHEMA,
  }
}
