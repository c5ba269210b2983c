import app from '@adonisjs/core/services/app'
import type { FeedsConfig } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { OutboundClient } from '#outbound/outbound_client'
import { Clock } from '#core/clock'

/**
 * Swaps the app's OutboundClient until restored, and rebuilds the feed
 * source drivers that hold one (they take it when first created, so a
 * driver created earlier would keep fetching through the previous client).
 */
export function swapOutboundClient(client: OutboundClient) {
  const rebuildDrivers = () => {
    const factories = app.config.get<FeedsConfig>('feeds').sources
    for (const name of ['partner_bridge', 'codehost_raw', 'objectstore_url']) {
      if (factories[name]) sources.extend(name, factories[name])
    }
  }
  app.container.swap(OutboundClient, () => client)
  rebuildDrivers()
  return () => {
    app.container.restore(OutboundClient)
    rebuildDrivers()
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
      timeoutMs: 500,
      clock: new Clock(),
    })
  )
}
