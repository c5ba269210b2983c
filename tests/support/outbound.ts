import app from '@adonisjs/core/services/app'
import type { FeedsConfig } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { OutboundClient } from '#outbound/outbound_client'
import { Clock } from '#core/clock'

/** The configured drivers that fetch through the OutboundClient. */
const OUTBOUND_SOURCES = ['partner_bridge', 'codehost_raw', 'objectstore_url']

/**
 * Swaps the app's OutboundClient until restored, and fakes the feed source
 * drivers that hold one with their configured factories (they take it when
 * first created, so a driver created earlier would keep fetching through the
 * previous client); restoring drops those drivers too.
 */
export function swapOutboundClient(client: OutboundClient) {
  const factories = app.config.get<FeedsConfig>('feeds').sources
  app.container.swap(OutboundClient, () => client)
  for (const name of OUTBOUND_SOURCES) sources.fake(name, factories[name])
  return () => {
    app.container.restore(OutboundClient)
    for (const name of OUTBOUND_SOURCES) void sources.restore(name)
  }
}

/** Until restored, outbound requests reach 127.0.0.1 only: a fuzzed URL is never fetched beyond it. */
export function useLoopbackOnlyOutbound() {
  return swapOutboundClient(
    new OutboundClient({
      allowPrivateTargets: true,
      httpsOnly: false,
      isAllowedAddress: (address) => address === '127.0.0.1',
      resolve: async () => [],
      timeoutMs: 5_000,
      clock: new Clock(),
    })
  )
}
