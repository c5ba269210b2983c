import app from '@adonisjs/core/services/app'
import type { ApiResponse } from '@japa/api-client'
import { PlatformWallet } from '#chain/platform_wallet'
import { MirrorPoller } from '#feeds/mirror_poller'
import Provider from '#models/provider'
import { ReconcilePayments } from '#payments/reconcile_payments'
import { FEE, RECIPIENT, broadcast, transfer } from '#tests/support/devnet'
import { decodeHeader, paymentHeader } from '#tests/support/paid_calls'
import { ConfirmWithdrawals } from '#withdrawals/confirm_withdrawals'
import {
  BUILTIN_FEEDS,
  type Seller,
  type SignedPayment,
  linkWallet,
  nextNonce,
  outcomeOf,
  presentPayment,
  purposeOf,
  requestWithdrawal,
  signedIn,
  signPayment,
} from '#tests/simulation/cast'
import {
  type FaultTally,
  injectChainFault,
  injectPartnerFault,
  injectSiteFault,
  injectUpstreamFault,
} from '#tests/simulation/faults'
import {
  type Observations,
  type ServedResponse,
  servedResponse,
} from '#tests/simulation/invariants'
import type { SeededRandom } from '#tests/simulation/seeded_random'
import type { Wallet, World } from '#tests/simulation/world'
import type { HeldToken } from '#tests/simulation/credit_cast'

const STX = 1_000_000n

/** One run's actors and what it has seen so far. */
export interface Run {
  world: World
  rng: SeededRandom
  buyers: Wallet[]
  sellers: Seller[]
  tally: FaultTally
  observed: Observations
  /** Payments presented so far: what replays present again. */
  presented: SignedPayment[]
  receipts: { statusUrl: string; token: string; purpose: ServedResponse['purpose'] }[]
  /** Transfers to or from the platform wallet the service did not make or redeem. */
  outside: { txid: string; from: 'buyer' | 'operator' }[]
  /** Credit tokens the buyers were given, oldest first (credit_steps.ts). */
  tokens: HeldToken[]
  step: number
}

export type Step = (run: Run) => Promise<string>

/** A feed to buy: a built-in one (its first upstream) or a seller's. */
export interface Target {
  path: string
  label: string
  upstream?: string
  seller?: Seller
}

export function pickTarget(run: Run): Target {
  const { rng } = run
  if (rng.chance(0.35)) {
    const feed = rng.pick(BUILTIN_FEEDS)
    return { path: feed.path, label: feed.path.slice('/feeds/'.length), upstream: feed.upstream }
  }
  const seller = rng.pick(run.sellers)
  return { path: seller.feedPath, label: seller.handle, seller }
}

/** A partner or upstream failure for the buyer's call to `target`, sometimes. */
export function maybeSourceFault(run: Run, target: Target): string | null {
  const { rng, world, tally } = run
  if (!rng.chance(0.15)) return null
  if (target.upstream) return injectUpstreamFault(world, target.upstream, rng, tally)
  const partner = target.seller?.partner
  if (!partner) return null
  return injectPartnerFault(world, world.partners.indexOf(partner), rng, tally)
}

export function maybeChainFault(run: Run, probability = 0.3): string | null {
  return run.rng.chance(probability) ? injectChainFault(run.world, run.rng, run.tally) : null
}

export function withFaults(description: string, ...faults: (string | null)[]) {
  const present = faults.filter((fault) => fault !== null)
  return present.length > 0 ? `${description} [${present.join(', ')}]` : description
}

/** Records what an answer to a paid request showed: data (or credit) served, a receipt, a failure of ours. */
export function observe(run: Run, payment: SignedPayment, response: ApiResponse) {
  if (response.status() === 200) {
    const settlement = decodeHeader<{ transaction: string }>(response.header('payment-response'))
    run.observed.served.push(
      servedResponse(
        settlement.transaction.replace(/^0x/, ''),
        response.text(),
        run.step,
        purposeOf(payment)
      )
    )
  }
  const receipt = response.status() === 202 ? response.body().receipt : undefined
  if (receipt?.token) {
    run.receipts.push({
      statusUrl: receipt.status_url,
      token: receipt.token,
      purpose: purposeOf(payment),
    })
  }
  if (response.status() >= 500 && outcomeOf(response).endsWith('internal_error')) {
    run.observed.internalErrors.push(
      `step ${run.step}: ${payment.path} answered ${response.text()}`
    )
  }
  run.presented.push(payment)
}

export async function newPayment(
  run: Run,
  buyer: Wallet,
  path: string,
  options: {
    amount?: (price: bigint) => bigint
    identifier?: string
    method?: 'GET' | 'POST'
  } = {}
) {
  const nonce = await nextNonce(run.world, buyer.address)
  return signPayment(run.world, buyer, path, { ...options, nonce })
}

export function buyerName(run: Run, buyer: Wallet) {
  return `buyer ${run.buyers.indexOf(buyer) + 1}`
}

const buy: Step = async (run) => {
  const { rng, world } = run
  const buyer = rng.pick(run.buyers)
  const target = pickTarget(run)
  const overpay = rng.chance(0.2) ? rng.bigint(1n, 9_999n) : 0n
  const identifier = rng.chance(0.5) ? rng.uuid() : undefined
  const payment = await newPayment(run, buyer, target.path, {
    amount: (price) => price + overpay,
    identifier,
  })
  const sourceFault = maybeSourceFault(run, target)
  const chainFault = maybeChainFault(run)
  const response = await world.drive(presentPayment(world, payment))
  observe(run, payment, response)
  const what = `${buyerName(run, buyer)} buys ${target.label}${overpay > 0n ? ` +${overpay}` : ''}`
  return `${withFaults(what, sourceFault, chainFault)}: ${outcomeOf(response)}`
}

const underpay: Step = async (run) => {
  const buyer = run.rng.pick(run.buyers)
  const target = pickTarget(run)
  const short = run.rng.bigint(1n, 2_999n)
  const payment = await newPayment(run, buyer, target.path, {
    amount: (price) => price - short,
  })
  const response = await run.world.drive(presentPayment(run.world, payment))
  observe(run, payment, response)
  return `${buyerName(run, buyer)} underpays ${target.label} by ${short}: ${outcomeOf(response)}`
}

const replay: Step = async (run) => {
  const { rng } = run
  if (run.presented.length === 0) return buy(run)
  const earlier = rng.pick(run.presented)
  const identifier = rng.weighted([
    ['same', 2],
    ['other', 1],
    ['none', 1],
  ] as const)
  const header =
    identifier === 'same' || !earlier.identifier
      ? earlier.header
      : reidentified(earlier.header, identifier === 'other' ? rng.uuid() : undefined)
  const payment = {
    ...earlier,
    header,
    identifier: identifier === 'same' ? earlier.identifier : undefined,
  }
  const chainFault = maybeChainFault(run, 0.15)
  const response = await run.world.drive(presentPayment(run.world, payment))
  observe(run, payment, response)
  return `${withFaults(`replay of a payment for ${earlier.path} (${identifier} id)`, chainFault)}: ${outcomeOf(response)}`
}

/** The same signed payment under another payment-identifier (or none). */
function reidentified(header: string, identifier: string | undefined) {
  const decoded = decodeHeader<Record<string, unknown>>(header)
  delete decoded.extensions
  const next = identifier
    ? {
        ...decoded,
        extensions: { 'payment-identifier': { info: { required: false, id: identifier } } },
      }
    : decoded
  return Buffer.from(JSON.stringify(next)).toString('base64')
}

const duplicate: Step = async (run) => {
  const { rng, world } = run
  const buyer = rng.pick(run.buyers)
  const target = pickTarget(run)
  const copies = rng.int(2, 3)
  const payment = await newPayment(run, buyer, target.path)
  const chainFault = rng.chance(0.15) ? delayBlocks(run) : null
  const responses = await world.drive(
    Promise.all(Array.from({ length: copies }, () => presentPayment(world, payment)))
  )
  for (const response of responses) observe(run, payment, response)
  const paid = responses.filter((response) => response.status() === 200).length
  return `${withFaults(`${buyerName(run, buyer)} sends one payment for ${target.label} ${copies}× at once`, chainFault)}: ${paid} paid`
}

function delayBlocks(run: Run) {
  run.world.delayBlocks()
  run.tally.note('chain: blocks_delayed')
  return 'blocks_delayed'
}

const concurrentBuyers: Step = async (run) => {
  const { rng, world } = run
  const buyers = rng.shuffle(run.buyers).slice(0, rng.int(2, 3))
  const targets = buyers.map(() => pickTarget(run))
  const payments: SignedPayment[] = []
  for (const [index, buyer] of buyers.entries()) {
    payments.push(await newPayment(run, buyer, targets[index].path))
  }
  const chainFault = rng.chance(0.15) ? delayBlocks(run) : null
  const responses = await world.drive(
    Promise.all(payments.map((payment) => presentPayment(world, payment)))
  )
  responses.forEach((response, index) => observe(run, payments[index], response))
  const outcomes = responses.map(
    (response, index) =>
      `${buyerName(run, buyers[index])} ${targets[index].label} ${outcomeOf(response)}`
  )
  return `${withFaults('buyers at once', chainFault)}: ${outcomes.join(', ')}`
}

const alreadyBroadcast: Step = async (run) => {
  const buyer = run.rng.pick(run.buyers)
  const target = pickTarget(run)
  const payment = await newPayment(run, buyer, target.path)
  const sent = await broadcast(run.world.devnet, payment.tx)
  run.outside.push({ txid: payment.tx.txid(), from: 'buyer' })
  const response = await run.world.drive(presentPayment(run.world, payment))
  observe(run, payment, response)
  return `${buyerName(run, buyer)} broadcasts its transfer itself (${sent.status}), then presents it to ${target.label}: ${outcomeOf(response)}`
}

const replaceByFee: Step = async (run) => {
  const { rng, world } = run
  const buyer = rng.pick(run.buyers)
  const target = pickTarget(run)
  const payment = await newPayment(run, buyer, target.path)
  world.delayBlocks()
  run.tally.note('chain: buyer replaces a pending payment (nonce conflict)')
  const response = await world.drive(presentPayment(world, payment))
  observe(run, payment, response)
  const replacement = await transfer({
    senderKey: buyer.key,
    recipient: RECIPIENT,
    amount: 1n,
    nonce: payment.tx.auth.spendingCondition.nonce,
    fee: FEE * 10n,
  })
  const replaced = await broadcast(world.devnet, replacement)
  return `${buyerName(run, buyer)} pays ${target.label} while blocks wait (${outcomeOf(response)}), then replaces the transfer with a higher fee: ${replaced.status}`
}

const facilitatorSettle: Step = async (run) => {
  const { rng, world } = run
  const buyer = rng.pick(run.buyers)
  const amount = rng.bigint(5_000n, 50_000n)
  const tx = await transfer({
    senderKey: buyer.key,
    recipient: world.payTo,
    amount,
    nonce: await nextNonce(world, buyer.address),
  })
  const chainFault = maybeChainFault(run)
  const settled = await world.drive(
    Promise.resolve(
      world.client.post('/facilitator/settle').json({
        x402Version: 2,
        paymentPayload: { payload: { transaction: tx.serialize() } },
        paymentRequirements: { amount: amount.toString(), payTo: world.payTo },
      })
    )
  )
  const answer = settled.body() as { success: boolean; errorReason?: string }
  let outcome = `settle ${settled.status()} ${answer.success ? 'success' : answer.errorReason}`
  if (rng.chance(0.4)) {
    const feed = rng.pick(BUILTIN_FEEDS)
    const quote = await world.drive(Promise.resolve(world.client.get(feed.path)))
    const payment = {
      tx,
      header: paymentHeader(quote.body(), tx.serialize()),
      path: feed.path,
      method: 'GET' as const,
    }
    const response = await world.drive(presentPayment(world, payment))
    observe(run, payment, response)
    outcome += `, then at ${feed.path}: ${outcomeOf(response)}`
  }
  return `${withFaults(`${buyerName(run, buyer)} settles ${amount} µSTX through /facilitator/settle`, chainFault)}: ${outcome}`
}

const link: Step = async (run) => {
  const seller = await signedIn(run.world, run.rng.pick(run.sellers))
  const wallet = seller.linked === seller.wallets[0] ? seller.wallets[1] : seller.wallets[0]
  const change = seller.linked !== null
  const response = await linkWallet(run.world, seller, wallet)
  if (response.status() === 200) seller.linked = wallet
  return `${seller.handle} ${change ? 'changes' : 'links'} its withdrawal wallet: ${outcomeOf(response)}`
}

/** What a seller asks to withdraw: mostly what it has, sometimes more, sometimes too little. */
async function withdrawalAmount(run: Run, seller: Seller) {
  const provider = await Provider.findOrFail(seller.providerId)
  const pending = provider.pendingRevenueMicrostx
  return run.rng.weighted([
    [STX, 3],
    [pending, 2],
    [pending > STX ? run.rng.bigint(STX, pending) : STX, 3],
    [pending + run.rng.bigint(1n, STX), 1],
    [run.rng.bigint(1n, STX - 1n), 1],
  ] as const)
}

function destinationOf(run: Run, seller: Seller) {
  if (seller.linked && run.rng.chance(0.9)) return seller.linked.address
  return run.rng.pick(seller.wallets).address
}

const withdraw: Step = async (run) => {
  const { rng, world } = run
  const seller = await signedIn(world, rng.pick(run.sellers))
  const amount = await withdrawalAmount(run, seller)
  const destination = destinationOf(run, seller)
  const key = rng.uuid()
  const chainFault = maybeChainFault(run)
  const response = await world.drive(requestWithdrawal(world, seller, { amount, destination, key }))
  return `${withFaults(`${seller.handle} withdraws ${amount}`, chainFault)}: ${withdrawalOutcome(response)}`
}

function withdrawalOutcome(response: ApiResponse) {
  const status = response.body()?.withdrawal?.status
  return status ? `${outcomeOf(response)} ${status}` : outcomeOf(response)
}

const doubleClick: Step = async (run) => {
  const { rng, world } = run
  const seller = await signedIn(world, rng.pick(run.sellers))
  const amount = await withdrawalAmount(run, seller)
  const body = { amount, destination: destinationOf(run, seller), key: rng.uuid() }
  const responses = await world.drive(
    Promise.all([requestWithdrawal(world, seller, body), requestWithdrawal(world, seller, body)])
  )
  const ids = new Set(responses.map((response) => response.body()?.withdrawal?.id).filter(Boolean))
  const statuses = responses.map((response) => response.status()).sort()
  return `${seller.handle} double-clicks a withdrawal of ${amount}: ${statuses.join('+')}, ${ids.size} withdrawal(s)`
}

const concurrentKeys: Step = async (run) => {
  const { rng, world } = run
  const seller = await signedIn(world, rng.pick(run.sellers))
  const amount = await withdrawalAmount(run, seller)
  const destination = destinationOf(run, seller)
  const responses = await world.drive(
    Promise.all([
      requestWithdrawal(world, seller, { amount, destination, key: rng.uuid() }),
      requestWithdrawal(world, seller, { amount, destination, key: rng.uuid() }),
    ])
  )
  const statuses = responses.map((response) => response.status()).sort()
  return `${seller.handle} withdraws ${amount} twice at once with two keys: ${statuses.join('+')}`
}

/**
 * Someone sends from the platform wallet by hand: with the next nonce (the
 * pipeline's counter is then behind), or over a pending withdrawal's nonce
 * with a higher fee (the withdrawal is replaced).
 */
const operatorSpend: Step = async (run) => {
  const { rng, world } = run
  const wallet = await app.container.make(PlatformWallet)
  const response = await fetch(`${world.devnet.url}/extended/v1/address/${wallet.address}/nonces`)
  const nonces = (await response.json()) as {
    possible_next_nonce: number
    last_executed_tx_nonce: number | null
  }
  const executed = nonces.last_executed_tx_nonce ?? -1
  const replace = nonces.possible_next_nonce > executed + 1 && rng.chance(0.5)
  const nonce = BigInt(replace ? executed + 1 : nonces.possible_next_nonce)
  const tx = await transfer({
    senderKey: wallet.privateKey.release(),
    recipient: RECIPIENT,
    amount: rng.bigint(1n, 1_000n),
    nonce,
    fee: 50_000n,
  })
  const sent = await broadcast(world.devnet, tx)
  if (sent.status === 200) run.outside.push({ txid: tx.txid(), from: 'operator' })
  run.tally.note('chain: operator spends from the platform wallet (nonce conflict)')
  return `an operator sends from the platform wallet ${replace ? 'over a pending nonce' : 'with the next nonce'}: ${sent.status}`
}

const mine: Step = async (run) => {
  const blocks = run.rng.int(1, 2)
  const mined: number[] = []
  for (let index = 0; index < blocks; index++) {
    const block = await run.world.devnet.mine()
    mined.push(block.txids.length)
  }
  return `mine ${blocks} block(s): ${mined.join('+')} transaction(s)`
}

/** A job's run, its summary or the error that stopped it (a node fault may). */
async function job(run: Run, name: string, work: () => Promise<object>) {
  const chainFault = maybeChainFault(run, 0.25)
  try {
    const summary = await run.world.drive(work())
    return `${withFaults(name, chainFault)}: ${JSON.stringify(summary)}`
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message
    return `${withFaults(name, chainFault)}: stopped by ${code}`
  }
}

/** payments:reconcile as the simulation runs it: between steps no request is live. */
export const RECONCILE_OPTIONS = { graceSeconds: 0, releaseAfterSeconds: 0, batchSize: 500 }

const reconcile: Step = (run) =>
  job(run, 'payments:reconcile', async () => {
    const reconciler = await app.container.make(ReconcilePayments)
    return reconciler.run(RECONCILE_OPTIONS)
  })

const confirmWithdrawals: Step = (run) =>
  job(run, 'withdrawals:confirm', async () => {
    const confirm = await app.container.make(ConfirmWithdrawals)
    return confirm.run()
  })

const pollMirrors: Step = async (run) => {
  const fault = run.rng.chance(0.3) ? injectSiteFault(run.world, run.rng, run.tally) : null
  const summary = await run.world.drive(
    app.container.make(MirrorPoller).then((poller) => poller.run())
  )
  return `${withFaults('mirrors:poll', fault)}: ${JSON.stringify(summary)}`
}

const collectReceipt: Step = async (run) => {
  if (run.receipts.length === 0) return mine(run)
  const receipt = run.rng.pick(run.receipts)
  const chainFault = maybeChainFault(run, 0.15)
  const response = await run.world.drive(
    Promise.resolve(
      run.world.client.get(receipt.statusUrl).header('x-payment-receipt', receipt.token)
    )
  )
  if (response.status() === 200) {
    run.observed.served.push(
      servedResponse(
        receipt.statusUrl.slice('/payments/0x'.length),
        response.text(),
        run.step,
        receipt.purpose
      )
    )
  }
  return `${withFaults('a buyer collects a receipt', chainFault)}: ${outcomeOf(response)}`
}

const crash: Step = async (run) => {
  await run.world.crash()
  run.tally.note('crash')
  return 'crash: in-memory services dropped and rebuilt'
}

const timePasses: Step = async (run) => {
  const slots = run.rng.pick([1, 4, 40, 200, 4_600])
  run.world.passTime(slots)
  return `time passes: ${slots} slot(s)`
}

/** Every step kind and how often it is drawn. */
export const STEPS: Record<string, { weight: number; run: Step }> = {
  buy: { weight: 26, run: buy },
  underpay: { weight: 3, run: underpay },
  replay: { weight: 5, run: replay },
  duplicate: { weight: 5, run: duplicate },
  concurrent_buyers: { weight: 4, run: concurrentBuyers },
  already_broadcast: { weight: 2, run: alreadyBroadcast },
  replace_by_fee: { weight: 2, run: replaceByFee },
  facilitator_settle: { weight: 3, run: facilitatorSettle },
  link_wallet: { weight: 4, run: link },
  withdraw: { weight: 9, run: withdraw },
  double_click: { weight: 4, run: doubleClick },
  concurrent_keys: { weight: 3, run: concurrentKeys },
  operator_spend: { weight: 1, run: operatorSpend },
  mine: { weight: 4, run: mine },
  reconcile: { weight: 4, run: reconcile },
  confirm_withdrawals: { weight: 6, run: confirmWithdrawals },
  poll_mirrors: { weight: 4, run: pollMirrors },
  collect_receipt: { weight: 3, run: collectReceipt },
  crash: { weight: 3, run: crash },
  time_passes: { weight: 3, run: timePasses },
}
