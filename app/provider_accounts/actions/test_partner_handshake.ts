import { inject } from '@adonisjs/core'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import type { PartnerBridgeDriver } from '#feeds/drivers/partner_bridge_driver'
import type { PartnerBridgeSettings } from '#feeds/partner_bridge/partner_bridge_settings'
import { parsePartnerJson, partnerPathFor } from '#feeds/partner_bridge/partner_request'
import { OutboundFailure, describeOutboundFailure } from '#outbound/outbound_failure'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { E_NO_FEEDS, E_NOT_PARTNER_BRIDGE } from '#provider_accounts/exceptions'
import { partnerTargetFor } from '#provider_accounts/partner_targets'
import type Provider from '#models/provider'

export type HandshakeResult =
  | 'ok'
  | 'unreachable'
  | 'secret_mismatch'
  | 'path_mismatch'
  | 'bad_json'
  | 'timeout'
  | 'partner_error'
  | 'refused_target'

const ADVICE: Record<HandshakeResult, string> = {
  ok: 'The partner verified the signature and answered JSON',
  unreachable: 'Could not connect to partner_endpoint',
  secret_mismatch:
    'The partner refused the signature (401/403): it does not hold the current secret',
  path_mismatch:
    'The partner answered 404: source_path is not a route of partner_endpoint (check for a repeated path segment)',
  bad_json: 'The partner answered, but not with JSON',
  timeout: 'The partner did not answer in time',
  partner_error: 'The partner answered with an error status',
  refused_target:
    'partner_endpoint is not an allowed target (public https address on port 443, same-origin redirects only)',
}

/**
 * POST /providers/id/:id/hmac/test: signs a request against the first feed's
 * source_path exactly as a buyer's paid call would, and says what went wrong.
 */
@inject()
export class TestPartnerHandshake {
  constructor(
    private sources: FeedSourceManager,
    private feeds: ManageFeeds
  ) {}

  async execute(provider: Provider) {
    const target = partnerTargetFor(provider)
    if (!target) throw new E_NOT_PARTNER_BRIDGE()
    const feed = await this.feeds.liveFeeds(provider).where('source_type', 'partner_bridge').first()
    if (!feed) throw new E_NO_FEEDS()

    const probedPath = partnerPathFor(feed.sourceSettings as PartnerBridgeSettings)
    const driver = (await this.sources.use('partner_bridge')) as PartnerBridgeDriver
    const report = (result: HandshakeResult, status: number | null, latencyMs: number | null) => ({
      result,
      message: ADVICE[result],
      probed_path: probedPath,
      upstream_status: status,
      latency_ms: latencyMs,
    })

    let answer
    try {
      answer = await driver.call(target, probedPath)
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error
      const { outcome } = describeOutboundFailure(error, target.partnerEndpoint)
      return report(outcome === 'too_large' ? 'bad_json' : outcome, error.httpStatus, null)
    }
    const { status, latencyMs } = answer
    if (status === 401 || status === 403) return report('secret_mismatch', status, latencyMs)
    if (status === 404) return report('path_mismatch', status, latencyMs)
    if (status < 200 || status > 299) return report('partner_error', status, latencyMs)
    if (!parsePartnerJson(answer).ok) return report('bad_json', status, latencyMs)
    return report('ok', status, latencyMs)
  }
}
