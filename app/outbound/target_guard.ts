import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { abortable } from '#outbound/abortable'
import { describeAddress } from '#outbound/address_policy'
import { OutboundFailure } from '#outbound/outbound_failure'
import type { ResolvedAddress, Resolver } from '#outbound/resolver'

export interface TargetRules {
  /** Plain http and non-public addresses are accepted (development and tests). */
  allowPrivateTargets: boolean
  /** Only https URLs, whatever allowPrivateTargets says (production). */
  httpsOnly: boolean
  /** Ports a URL may name; any when unset. */
  allowedPorts?: number[]
  resolve: Resolver
  /** Whether a resolved (or literal) address may be connected to. */
  isAllowedAddress: (address: string) => boolean
}

/** A URL that passed every rule, with the addresses it was checked against. */
export interface CheckedTarget {
  url: URL
  /** The hostname without IPv6 brackets (the TLS server name when it is not an IP). */
  hostname: string
  port: number
  /** Connect to these as they are: looking the hostname up again could answer differently. */
  addresses: ResolvedAddress[]
}

export type UrlRuleViolation =
  | { rule: 'scheme' }
  | { rule: 'https_only' }
  | { rule: 'userinfo' }
  | { rule: 'port'; port: number; allowed: number[] }

/**
 * The rules a URL must pass before any DNS look-up: http(s) only, plain http
 * only where private targets are allowed and https is not required, no
 * credentials, an allowed port. Shared by the guard (at call time) and by
 * validation of the URLs providers give (app/outbound/url_policy.ts).
 */
export function urlRuleViolation(
  url: URL,
  rules: Pick<TargetRules, 'allowPrivateTargets' | 'httpsOnly' | 'allowedPorts'>
): UrlRuleViolation | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { rule: 'scheme' }
  if (url.protocol === 'http:' && (rules.httpsOnly || !rules.allowPrivateTargets)) {
    return { rule: 'https_only' }
  }
  if (url.username || url.password) return { rule: 'userinfo' }
  const port = portOf(url)
  if (rules.allowedPorts && !rules.allowedPorts.includes(port)) {
    return { rule: 'port', port, allowed: rules.allowedPorts }
  }
  return null
}

function describeViolation(violation: UrlRuleViolation, url: URL) {
  switch (violation.rule) {
    case 'scheme':
      return `${url.protocol} URLs are not allowed`
    case 'https_only':
      return `only https URLs are allowed (${url.host})`
    case 'userinfo':
      return 'URLs with a user name or password are not allowed'
    case 'port':
      return `port ${violation.port} is not allowed (allowed: ${violation.allowed.join(', ')})`
  }
}

/**
 * Applies the outbound rules to one URL (the first one or a redirect hop):
 * scheme, userinfo and port, then DNS and the address policy.
 */
export class TargetGuard {
  constructor(private rules: TargetRules) {}

  /** Parses a URL and applies the rules that need no DNS. */
  parse(input: string | URL): URL {
    let url: URL
    try {
      url = new URL(input)
    } catch {
      throw new OutboundFailure('invalid_url', 'not a valid URL')
    }
    const violation = urlRuleViolation(url, this.rules)
    if (violation) throw new OutboundFailure('blocked_target', describeViolation(violation, url))
    return url
  }

  /** Resolves the URL's host (unless it is an IP) and checks every address it gives. */
  async check(input: string | URL, signal: AbortSignal): Promise<CheckedTarget> {
    const url = this.parse(input)
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1')
    const literal = isIP(hostname) !== 0
    const answers = literal ? [hostname] : await this.#resolve(hostname, signal)

    const addresses = answers.map((answer) => {
      if (!ipaddr.isValid(answer)) {
        throw new OutboundFailure('unreachable', `${hostname} resolves to an invalid address`)
      }
      if (!this.rules.isAllowedAddress(answer)) {
        throw new OutboundFailure(
          'blocked_target',
          literal
            ? `${hostname} is ${describeAddress(answer)}`
            : `${hostname} resolves to ${describeAddress(answer)} (${answer})`
        )
      }
      const parsed = ipaddr.parse(answer)
      return { address: parsed.toString(), family: parsed.kind() === 'ipv6' ? 6 : 4 } as const
    })
    return { url, hostname, port: portOf(url), addresses }
  }

  async #resolve(hostname: string, signal: AbortSignal): Promise<string[]> {
    let answers: ResolvedAddress[]
    try {
      answers = await abortable(this.rules.resolve(hostname), signal)
    } catch (error) {
      if (signal.aborted) throw error
      throw new OutboundFailure('unreachable', `${hostname} could not be resolved`)
    }
    if (answers.length === 0) {
      throw new OutboundFailure('unreachable', `${hostname} could not be resolved`)
    }
    return answers.map(({ address }) => address)
  }
}

function portOf(url: URL): number {
  if (url.port) return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}
