import app from '@adonisjs/core/services/app'
import { sources as driverFactories, type FeedsConfig } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { UPSTREAM_NAMES, type UpstreamName } from '#feeds/builtin/upstreams'
import { UpstreamSimulator } from '#feeds/builtin/simulator/upstream_simulator'
import { encodeHeader } from '#payments/x402_codec'
import type { PaymentRequired } from '#payments/x402'
import { TEST_SETTINGS } from '#tests/support/upstreams'

/** Points the app's built-in driver at a fresh upstream simulator until restored. */
export async function pointBuiltinFeedsAtSimulator() {
  const simulator = await new UpstreamSimulator({ hangMs: 500 }).listen()
  const baseUrls = Object.fromEntries(
    UPSTREAM_NAMES.map((name) => [name, `${simulator.url}/${name}`])
  )
  sources.extend(
    'builtin',
    driverFactories.builtin({
      baseUrls: baseUrls as Record<UpstreamName, string>,
      simulated: true,
      timeoutMs: 300,
      maxBytes: 5_000_000,
      settings: TEST_SETTINGS,
    })
  )
  return {
    simulator,
    async restore() {
      sources.extend('builtin', app.config.get<FeedsConfig>('feeds').sources.builtin)
      await simulator.close()
    },
  }
}

/** The payment-signature header an x402 v2 client sends for a signed transaction. */
export function paymentHeader(
  required: PaymentRequired,
  transactionHex: string,
  paymentIdentifier?: string
) {
  return encodeHeader({
    x402Version: 2,
    resource: required.resource,
    accepted: required.accepts[0],
    payload: { transaction: transactionHex },
    ...(paymentIdentifier
      ? { extensions: { 'payment-identifier': { id: paymentIdentifier } } }
      : {}),
  })
}

export function decodeHeader<T = Record<string, unknown>>(value: string | undefined): T {
  return JSON.parse(Buffer.from(value ?? '', 'base64').toString('utf8')) as T
}
