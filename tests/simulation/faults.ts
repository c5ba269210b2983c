import type { SimulatedFault } from '@tollbooth/upstream-simulator'
import type { PartnerBehaviour } from '#tests/support/partner_server'
import type { SeededRandom } from '#tests/simulation/seeded_random'
import type { SiteBehaviour, World } from '#tests/simulation/world'

/** What a faulty Stacks node can do to the step it is injected into. */
export const CHAIN_FAULTS = [
  'broadcast_429_then_ok',
  'broadcast_429_every_retry',
  'broadcast_5xx',
  'broadcast_timeout',
  'broadcast_taken_answer_lost',
  'lookups_5xx',
  'lookup_timeout',
  'accounts_5xx',
  'nonces_5xx',
  'abort_next_transaction',
  'dropped_then_confirmed',
  'blocks_delayed',
] as const
export type ChainFault = (typeof CHAIN_FAULTS)[number]

const PARTNER_FAULTS: PartnerBehaviour[] = ['error500', 'hang', 'html']
const UPSTREAM_FAULTS: SimulatedFault[] = ['status_500', 'timeout', 'malformed_json']
const SITE_FAULTS: SiteBehaviour[] = ['error500', 'not_json', 'hang']

/** Counts of every fault injected in a run, by kind. */
export class FaultTally {
  readonly counts = new Map<string, number>()

  note(kind: string) {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1)
  }

  add(other: FaultTally) {
    for (const [kind, count] of other.counts)
      this.counts.set(kind, (this.counts.get(kind) ?? 0) + count)
  }
}

/**
 * Queues one chain fault for the current step on the world's devnet (faults
 * left unused are cleared when the step ends). Returns its name for the trace.
 */
export function injectChainFault(world: World, rng: SeededRandom, tally: FaultTally): ChainFault {
  const fault = rng.pick(CHAIN_FAULTS)
  const faults = world.devnet.faults
  switch (fault) {
    case 'broadcast_429_then_ok':
      faults.failNext(rng.int(1, 2), 429, '/v2/transactions', { retryAfterSeconds: null })
      break
    case 'broadcast_429_every_retry':
      faults.failNext(3, 429, '/v2/transactions')
      break
    case 'broadcast_5xx':
      faults.failNext(1, rng.pick([500, 502, 503] as const), '/v2/transactions')
      break
    case 'broadcast_timeout':
      faults.timeoutNext(1, '/v2/transactions')
      break
    case 'broadcast_taken_answer_lost':
      faults.loseAnswerNext(1, '/v2/transactions', { status: rng.pick([502, null] as const) })
      break
    case 'lookups_5xx':
      faults.failNext(rng.int(1, 3), 503, '/extended/v1/tx')
      break
    case 'lookup_timeout':
      faults.timeoutNext(1, '/extended/v1/tx')
      break
    case 'accounts_5xx':
      faults.failNext(1, 503, '/v2/accounts')
      break
    case 'nonces_5xx':
      faults.failNext(1, 503, '/extended/v1/address')
      break
    case 'abort_next_transaction':
      faults.transactionFaultNext('abort', 1)
      break
    case 'dropped_then_confirmed':
      // Held in the mempool for the step, so the node's "dropped" is what the service sees.
      faults.transactionFaultNext('report_dropped', 1)
      world.delayBlocks()
      break
    case 'blocks_delayed':
      world.delayBlocks()
      break
    default: {
      const unknownFault: never = fault
      throw new Error(`unknown chain fault ${unknownFault}`)
    }
  }
  tally.note(`chain: ${fault}`)
  return fault
}

/** The partner of a Partner Bridge feed misbehaves for this step. */
export function injectPartnerFault(
  world: World,
  partnerIndex: number,
  rng: SeededRandom,
  tally: FaultTally
) {
  const behaviour = rng.pick(PARTNER_FAULTS)
  world.partners[partnerIndex].behaviour = behaviour
  tally.note(`partner: ${behaviour}`)
  return `partner ${behaviour}`
}

/** A built-in feed's upstream fails its next call. */
export function injectUpstreamFault(
  world: World,
  upstream: string,
  rng: SeededRandom,
  tally: FaultTally
) {
  const fault = rng.pick(UPSTREAM_FAULTS)
  world.upstream.failNext(upstream, fault)
  tally.note(`upstream: ${fault}`)
  return `upstream ${fault}`
}

/** The mirrored site misbehaves for this step. */
export function injectSiteFault(world: World, rng: SeededRandom, tally: FaultTally) {
  const behaviour = rng.pick(SITE_FAULTS)
  world.mirror.behaviour = behaviour
  tally.note(`mirrored site: ${behaviour}`)
  return `site ${behaviour}`
}
