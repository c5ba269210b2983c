import { errors as vineErrors } from '@vinejs/vine'
import type Feed from '#models/feed'
import type { OutboundClient } from '#outbound/outbound_client'
import {
  OutboundFailure,
  type OutboundOutcome,
  describeOutboundFailure,
} from '#outbound/outbound_failure'
import {
  type PartnerBridgeSettings,
  partnerBridgeSettingsValidator,
} from '#feeds/partner_bridge/partner_bridge_settings'
import {
  type PartnerTarget,
  parsePartnerJson,
  partnerPathFor,
  requestPartner,
} from '#feeds/partner_bridge/partner_request'
import {
  type FeedFetchRequest,
  type FeedPayload,
  type FeedSourceDriver,
  SourceUnavailable,
} from '#feeds/source_driver'

export type PartnerFailureKind = OutboundOutcome | 'http_status' | 'bad_json'

/** The partner did not answer with JSON in time: the buyer is not charged. */
export class PartnerFailure extends SourceUnavailable {
  constructor(
    readonly kind: PartnerFailureKind,
    message: string
  ) {
    super(message)
  }
}

export interface PartnerBridgeDriverOptions {
  outbound: OutboundClient
  /** The feed's provider as a call target; null when it has no Partner Bridge secret. */
  targetOf(feed: Feed): Promise<PartnerTarget | null>
  timeoutMs: number
  maxBytes: number
  now(): number
}

const MAX_QUERY_VALUE_LENGTH = 256

/**
 * Partner Bridge: after a verified payment, a signed GET to the provider's
 * own API (partner_endpoint + source_path + the forwarded query). Every paid
 * call reaches the partner: nothing is cached.
 */
export class PartnerBridgeDriver implements FeedSourceDriver {
  readonly name = 'partner_bridge'

  constructor(private options: PartnerBridgeDriverOptions) {}

  validateSettings(settings: unknown) {
    return partnerBridgeSettingsValidator.validate(settings)
  }

  /** Only the parameters the feed forwards are kept; each must be a single short value. */
  async validateQuery(feed: Feed, query: Record<string, unknown>) {
    const accepted: Record<string, string> = {}
    const problems: { field: string; message: string; rule: string }[] = []
    for (const name of settingsOf(feed).forward_query ?? []) {
      const value = query[name]
      if (value === undefined) continue
      if (typeof value !== 'string' || value.length > MAX_QUERY_VALUE_LENGTH) {
        problems.push({
          field: name,
          message: `${name} must be a single value of at most ${MAX_QUERY_VALUE_LENGTH} characters`,
          rule: 'query_parameter',
        })
      } else {
        accepted[name] = value
      }
    }
    if (problems.length > 0) throw new vineErrors.E_VALIDATION_ERROR(problems)
    return accepted
  }

  cacheTtlMs() {
    return null
  }

  /** One signed GET to the partner with this driver's limits (also the handshake test's probe). */
  call(target: PartnerTarget, pathAndQuery: string) {
    return requestPartner(this.options.outbound, target, pathAndQuery, this.options)
  }

  async fetch(feed: Feed, request: FeedFetchRequest): Promise<FeedPayload> {
    const target = await this.options.targetOf(feed)
    if (!target) {
      throw new PartnerFailure('refused_target', 'the provider has no Partner Bridge endpoint')
    }
    const host = new URL(target.partnerEndpoint).host
    let answer
    try {
      answer = await this.call(target, partnerPathFor(settingsOf(feed), request.query))
    } catch (error) {
      if (error instanceof OutboundFailure) {
        const { outcome, message } = describeOutboundFailure(error, host)
        throw new PartnerFailure(outcome, message)
      }
      throw error
    }
    if (answer.status < 200 || answer.status > 299) {
      throw new PartnerFailure('http_status', `${host} answered HTTP ${answer.status}`)
    }
    const parsed = parsePartnerJson(answer)
    if (!parsed.ok) throw new PartnerFailure('bad_json', `${host} did not answer JSON`)
    return {
      data: parsed.value,
      last_updated: this.options.now(),
      data_source: `${target.handle} via Partner Bridge (${host})`,
    }
  }
}

function settingsOf(feed: Feed) {
  return feed.sourceSettings as PartnerBridgeSettings
}
