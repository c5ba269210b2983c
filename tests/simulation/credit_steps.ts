import app from '@adonisjs/core/services/app'
import type { ApiResponse } from '@japa/api-client'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import { CreditConfig } from '#credit/define_config'
import { formatStx } from '#ledger/money'
import { type PaidCall, QueryLog } from '#stats/query_log'
import { outcomeOf, presentPayment } from '#tests/simulation/cast'
import {
  type HeldToken,
  creditCall,
  creditOf,
  exchangeCreditToken,
  requestRefund,
  signRefund,
} from '#tests/simulation/credit_cast'
import { servedCreditCall } from '#tests/simulation/invariants'
import {
  type Run,
  type Step,
  type Target,
  buyerName,
  maybeChainFault,
  maybeSourceFault,
  newPayment,
  observe,
  pickTarget,
  withFaults,
} from '#tests/simulation/steps'
import type { Wallet } from '#tests/simulation/world'

/**
 * The prepaid-credit steps (docs/credit.md): top-ups through the paid route,
 * credit tokens for signed messages, calls paid from credit (one, several at
 * once from one token, with another wallet's token), refunds through the
 * withdrawal pipeline, and a crash in the middle of a credit call.
 */

const STX = 1_000_000n
/** A token this close to its expiry is not used: a step may take virtual seconds. */
const EXPIRY_MARGIN_MS = 60_000

/** The limits a wallet signs for a token: a cap, and a price per call within it. */
function tokenLimits(run: Run) {
  const { rng } = run
  const spendCap = rng.weighted([
    [rng.bigint(50_000n, STX), 2],
    [rng.bigint(STX, 10n * STX), 2],
    [rng.bigint(10n * STX, 50n * STX), 1],
  ] as const)
  // Built-in feeds only; the sellers' feeds (0.3–2.5 STX) too, or some of them; the dearest allowed.
  const maxPrice = rng.weighted([
    [10_000n, 1],
    [rng.bigint(300_000n, 2_500_000n), 3],
    [10n * STX, 2],
  ] as const)
  return { spendCap, maxPrice: maxPrice < spendCap ? maxPrice : spendCap }
}

function describeLimits(token: { spendCap: bigint; maxPrice: bigint }) {
  return `cap ${formatStx(token.spendCap)} STX, ≤ ${formatStx(token.maxPrice)} STX a call`
}

function liveTokens(run: Run, owner?: Wallet) {
  const usableUntil = run.world.clock.now() + EXPIRY_MARGIN_MS
  return run.tokens.filter(
    (held) => held.expiresAt > usableUntil && (owner === undefined || held.owner === owner)
  )
}

/** A live token of the buyer's, or a new one (its exchange noted for the trace). */
async function tokenOf(run: Run, buyer: Wallet): Promise<{ held: HeldToken; note: string }> {
  const live = liveTokens(run, buyer)
  if (live.length > 0 && run.rng.chance(0.8)) return { held: run.rng.pick(live), note: '' }
  const limits = tokenLimits(run)
  const { response, token } = await exchangeCreditToken(run.world, buyer, limits)
  if (!token) throw new Error(`a credit token for ${describeLimits(limits)}: ${response.text()}`)
  run.tokens.push(token)
  return { held: token, note: ` (new token: ${describeLimits(token)})` }
}

/** Records a credit call's answer: data served (with its payer and identifier), or a failure of ours. */
function observeCredit(
  run: Run,
  call: { payer: string; path: string; identifier?: string },
  response: ApiResponse
) {
  if (call.identifier) run.observed.creditIdentifiers.add(`${call.payer} ${call.identifier}`)
  if (response.status() === 200) {
    run.observed.creditCalls.push(
      servedCreditCall({
        payer: call.payer,
        identifier: call.identifier,
        body: response.text(),
        step: run.step,
      })
    )
  }
  if (response.status() >= 500 && outcomeOf(response).endsWith('internal_error')) {
    run.observed.internalErrors.push(
      `step ${run.step}: ${call.path} paid from credit answered ${response.text()}`
    )
  }
}

const topUp: Step = async (run) => {
  const { rng, world } = run
  const buyer = rng.pick(run.buyers)
  const { topUp: bounds } = await app.container.make(CreditConfig)
  const amount = rng.weighted([
    [rng.bigint(bounds.minimumMicrostx, 2n * STX), 3],
    [rng.bigint(2n * STX, 30n * STX), 5],
    [rng.bigint(1n, bounds.minimumMicrostx - 1n), 1],
    [rng.bigint(bounds.maximumMicrostx + 1n, 2n * bounds.maximumMicrostx), 1],
  ] as const)
  const path = `/credit/top-ups?amount_stx=${formatStx(amount)}`
  const what = `${buyerName(run, buyer)} tops up ${formatStx(amount)} STX`
  if (amount < bounds.minimumMicrostx || amount > bounds.maximumMicrostx) {
    const refused = await world.drive(Promise.resolve(world.client.post(path)))
    return `${what}: ${outcomeOf(refused)}`
  }
  const overpay = rng.chance(0.1) ? rng.bigint(1n, 9_999n) : 0n
  const identifier = rng.chance(0.5) ? rng.uuid() : undefined
  const payment = await newPayment(run, buyer, path, {
    method: 'POST',
    amount: (asked) => asked + overpay,
    identifier,
  })
  const chainFault = maybeChainFault(run, 0.15)
  const response = await world.drive(presentPayment(world, payment))
  observe(run, payment, response)
  return `${withFaults(`${what}${overpay > 0n ? ` +${overpay}` : ''}`, chainFault)}: ${outcomeOf(response)}`
}

const exchangeToken: Step = async (run) => {
  const { rng } = run
  const buyer = rng.pick(run.buyers)
  const limits = tokenLimits(run)
  // Sometimes another wallet's key signs: a forged message buys no token.
  const forger = rng.chance(0.1) ? rng.pick(run.buyers.filter((other) => other !== buyer)) : null
  const { response, token } = await exchangeCreditToken(run.world, buyer, limits, forger?.key)
  if (token) run.tokens.push(token)
  const signer = forger ? ` signed by ${buyerName(run, forger)}` : ''
  return `${buyerName(run, buyer)} exchanges a credit message (${describeLimits(limits)})${signer} for a token: ${outcomeOf(response)}`
}

const spendCredit: Step = async (run) => {
  const { rng, world } = run
  const buyer = rng.pick(run.buyers)
  const expired = run.tokens.filter(
    (held) => held.owner === buyer && held.expiresAt <= world.clock.now()
  )
  const useExpired = expired.length > 0 && rng.chance(0.1)
  const { held, note } = useExpired
    ? { held: rng.pick(expired), note: ' (an expired token)' }
    : await tokenOf(run, buyer)
  const target = pickTarget(run)
  const identifier = rng.chance(0.4) ? rng.uuid() : undefined
  const sourceFault = maybeSourceFault(run, target)
  const response = await world.drive(creditCall(world, target.path, held.token, identifier))
  observeCredit(run, { payer: buyer.address, path: target.path, identifier }, response)
  const what = `${buyerName(run, buyer)} spends credit on ${target.label}${identifier ? ' (with an identifier)' : ''}${note}`
  return `${withFaults(what, sourceFault)}: ${outcomeOf(response)}`
}

/**
 * Calls of one feed, all at once, with one token. What holds for every
 * interleaving is recorded: how many calls were debited (one per identifier
 * served, one per call without one), never which.
 */
async function spendAtOnce(
  run: Run,
  payer: Wallet,
  held: HeldToken,
  target: Target,
  identifiers: (string | undefined)[]
) {
  const { world } = run
  const before = await creditOf(payer.address)
  const responses = await world.drive(
    Promise.all(
      identifiers.map((identifier) => creditCall(world, target.path, held.token, identifier))
    )
  )
  responses.forEach((response, index) =>
    observeCredit(
      run,
      { payer: payer.address, path: target.path, identifier: identifiers[index] },
      response
    )
  )
  refusedRetries(run, payer, identifiers, responses)
  const debited = before - (await creditOf(payer.address))
  const refusals = [...new Set(responses.filter((r) => r.status() !== 200).map(outcomeOf))].sort()
  return `${formatStx(debited)} STX debited${refusals.length > 0 ? `, refused: ${refusals.join(', ')}` : ''}`
}

/**
 * Calls at once with one payment-identifier are served once and all get its
 * bytes: one of them refused while another was served is a violation.
 */
function refusedRetries(
  run: Run,
  payer: Wallet,
  identifiers: (string | undefined)[],
  responses: ApiResponse[]
) {
  for (const identifier of new Set(identifiers)) {
    if (identifier === undefined) continue
    const outcomes = responses
      .filter((_, index) => identifiers[index] === identifier)
      .map((response) => outcomeOf(response))
    if (outcomes.includes('200') && outcomes.some((outcome) => outcome !== '200')) {
      run.observed.refusedRetries.push(
        `step ${run.step}: ${payer.address}'s calls at once with identifier ${identifier} were answered ${outcomes.join(', ')}`
      )
    }
  }
}

const spendConcurrently: Step = async (run) => {
  const { rng } = run
  const buyer = rng.pick(run.buyers)
  const { held, note } = await tokenOf(run, buyer)
  const target = pickTarget(run)
  const repeated = rng.uuid()
  const identifiers = Array.from({ length: rng.int(3, 6) }, (_, index) =>
    index === 0
      ? repeated
      : rng.weighted([
          [repeated, 4],
          [rng.uuid(), 3],
          [undefined, 3],
        ] as const)
  )
  const outcome = await spendAtOnce(run, buyer, held, target, identifiers)
  const repeats = identifiers.filter((identifier) => identifier === repeated).length
  return `${buyerName(run, buyer)} spends credit on ${target.label} ${identifiers.length}× at once, one identifier ${repeats}×${note}: ${outcome}`
}

/**
 * The attack signed limits defend against: a seller holding a buyer's token
 * (stolen) buys its own feed with it, several calls at once. Whatever it
 * gets is within the cap and the price per call the victim signed, and is
 * paid from the victim's credit only (the invariants check both).
 */
const spendStolenToken: Step = async (run) => {
  const { rng } = run
  const thief = rng.pick(run.sellers)
  const live = liveTokens(run)
  const { held, note } =
    live.length > 0 ? { held: rng.pick(live), note: '' } : await tokenOf(run, rng.pick(run.buyers))
  const target: Target = { path: thief.feedPath, label: thief.handle, seller: thief }
  const identifiers = Array.from({ length: rng.int(1, 4) }, () =>
    rng.chance(0.3) ? rng.uuid() : undefined
  )
  const outcome = await spendAtOnce(run, held.owner, held, target, identifiers)
  return `${thief.handle} spends ${buyerName(run, held.owner)}'s token (${describeLimits(held)})${note} on its own feed at ${formatStx(thief.price)} STX ${identifiers.length}× at once: ${outcome}`
}

const refund: Step = async (run) => {
  const { rng, world } = run
  const buyer = rng.pick(run.buyers)
  const credit = await creditOf(buyer.address)
  const { refund: config } = await app.container.make(CreditConfig)
  const some = credit > config.minimumMicrostx ? credit : STX
  const amount = rng.weighted([
    [credit > 0n ? credit : some, 2],
    [rng.bigint(config.minimumMicrostx, some), 3],
    [credit + rng.bigint(1n, STX), 1],
    [rng.bigint(1n, config.minimumMicrostx - 1n), 1],
  ] as const)
  // Sometimes another wallet's key signs: no refund, to anyone.
  const forger = rng.chance(0.1) ? rng.pick(run.buyers.filter((other) => other !== buyer)) : null
  const what = `${buyerName(run, buyer)} refunds ${formatStx(amount)} STX${forger ? ` signed by ${buyerName(run, forger)}` : ''}`
  const { response: asked, signed } = await signRefund(world, buyer, amount, forger?.key)
  if (!signed) return `${what}: ${outcomeOf(asked)}`
  const chainFault = maybeChainFault(run)
  const copies = rng.chance(0.2) ? 2 : 1
  const responses = await world.drive(
    Promise.all(Array.from({ length: copies }, () => requestRefund(world, signed)))
  )
  for (const response of responses) {
    if (response.status() >= 500 && outcomeOf(response).endsWith('internal_error')) {
      run.observed.internalErrors.push(`step ${run.step}: a refund answered ${response.text()}`)
    }
  }
  const ids = new Set(responses.map((response) => response.body()?.refund?.id).filter(Boolean))
  const statuses = responses.map((response) => response.status()).sort()
  const codes = [...new Set(responses.map(outcomeOf).filter((outcome) => outcome.includes(' ')))]
  const outcome =
    copies === 1
      ? `${outcomeOf(responses[0])}${responses[0].body()?.refund ? ` ${responses[0].body().refund.status}` : ''}`
      : `sent twice at once: ${statuses.join('+')}, ${ids.size} refund(s)${codes.length > 0 ? ` ${codes.join(', ')}` : ''}`
  return `${withFaults(what, chainFault)}: ${outcome}`
}

/** The process dying in a credit call's transaction, after every write and before the commit. */
class SimulatedCrash extends Error {}

/** The query log of a process that dies right after logging `payer`'s credit call. */
class CrashingQueryLog extends QueryLog {
  constructor(
    clock: Clock,
    private payer: string
  ) {
    super(clock)
  }

  override async recordPaidCall(trx: TransactionClientContract, call: PaidCall) {
    await super.recordPaidCall(trx, call)
    if (call.creditCallId !== undefined && call.payer === this.payer) {
      throw new SimulatedCrash('the process died before the credit call committed')
    }
  }
}

/**
 * A crash in the middle of a credit call, then the buyer's retry with the
 * same payment-identifier: the process dies in the call's transaction (after
 * the token's spend, the call, the posting and the query log, before the
 * commit: nothing is written) or after the commit, before the answer reaches
 * the buyer (debited once; the retry gets the same bytes). Either way the
 * in-memory services are rebuilt, as after any crash.
 */
const crashMidCall: Step = async (run) => {
  const { rng, world } = run
  // A call that gets as far as its transaction: a seller's feed, a wallet with the credit, a new token.
  const seller = rng.pick(run.sellers)
  const target: Target = { path: seller.feedPath, label: seller.handle, seller }
  const credits = await Promise.all(run.buyers.map((buyer) => creditOf(buyer.address)))
  const able = run.buyers.filter((_, index) => credits[index] >= seller.price)
  const buyer = rng.pick(able.length > 0 ? able : run.buyers)
  const limits = { spendCap: 2n * seller.price, maxPrice: seller.price }
  const { response: exchanged, token: held } = await exchangeCreditToken(world, buyer, limits)
  if (!held) throw new Error(`a credit token for ${describeLimits(limits)}: ${exchanged.text()}`)
  run.tokens.push(held)
  const note = ` (new token: ${describeLimits(held)})`
  const identifier = rng.uuid()
  const when = rng.pick(['before the commit', 'after the commit'] as const)
  const call = { payer: buyer.address, path: target.path, identifier }
  let first: ApiResponse
  if (when === 'before the commit') {
    const clock = await app.container.make(Clock)
    app.container.swap(QueryLog, () => new CrashingQueryLog(clock, buyer.address))
    try {
      first = await world.drive(creditCall(world, target.path, held.token, identifier))
    } finally {
      app.container.restore(QueryLog)
    }
    // The buyer's connection dropped: no answer (the 500 stands for it).
    run.observed.creditIdentifiers.add(`${call.payer} ${identifier}`)
  } else {
    first = await world.drive(creditCall(world, target.path, held.token, identifier))
    // Sent, then lost with the process: the buyer never read it; it is still what was served.
    observeCredit(run, call, first)
  }
  await world.crash()
  run.tally.note(`crash: mid credit call, ${when}`)
  const retry = await world.drive(creditCall(world, target.path, held.token, identifier))
  observeCredit(run, call, retry)
  const same =
    first.status() === 200 && retry.status() === 200
      ? `, ${first.text() === retry.text() ? 'the same' : 'other'} bytes`
      : ''
  return `${buyerName(run, buyer)} spends credit on ${target.label}${note}; the process dies ${when} (${outcomeOf(first)}); the retry: ${outcomeOf(retry)}${same}`
}

/** The credit steps and how often each is drawn (beside STEPS' weights). */
export const CREDIT_STEPS: Record<string, { weight: number; run: Step }> = {
  top_up: { weight: 8, run: topUp },
  credit_token: { weight: 2, run: exchangeToken },
  credit_call: { weight: 8, run: spendCredit },
  credit_calls_at_once: { weight: 3, run: spendConcurrently },
  stolen_credit_token: { weight: 2, run: spendStolenToken },
  refund: { weight: 3, run: refund },
  crash_mid_credit_call: { weight: 2, run: crashMidCall },
}
