import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import {
  MalformedPaymentRequiredError,
  NetworkMismatchError,
  OverCapError,
  PaidWithoutDataError,
  PayToNotAllowedError,
  PendingError,
  RefusedError,
  UnreachableError,
  createClient,
  type ClientOptions,
  type Signer,
} from '#agent'
import env from '#start/env'
import { FEE, RECIPIENT, SENDER, broadcast, transfer } from '#tests/support/devnet'
import { registerFeedsWithUploadedRates } from '#tests/support/hosted_mirror'
import { type PaidCallStack, senderNextNonce, usePaidCallStack } from '#tests/support/paid_calls'

const BASE_URL = `http://${env.get('HOST')}:${env.get('PORT')}`
/** spent().credit of a client that paid nothing from credit. */
const NO_CREDIT = {
  topUps: 0,
  topUpsMicrostx: 0n,
  unspentTopUpsMicrostx: 0n,
  calls: 0,
  spentMicrostx: 0n,
  unknownCalls: [],
  balanceMicrostx: null,
}

/**
 * The SDK's client of the app, paying from the devnet's funded sender: at most
 * 0.01 STX a call, 1 STX in all, unless `overrides` say otherwise.
 */
function senderClient(stack: PaidCallStack, overrides: Partial<ClientOptions>) {
  return createClient({
    baseUrl: BASE_URL,
    network: 'devnet',
    stacksApiUrl: stack.devnet.url,
    maxPerCallMicrostx: 10_000n,
    budgetMicrostx: 1_000_000n,
    privateKey: SENDER.privateKey,
    ...overrides,
  })
}

/**
 * The SDK (packages/agent) against the app over real HTTP, paying from the
 * devnet's funded sender on a devnet that mines each accepted transfer.
 */
test.group('The buyer SDK', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  /** The sender's key as a signer that counts its signatures; `fee` picks each transfer's fee. */
  function countingSigner(fee: (index: number) => bigint = () => FEE) {
    const signer = {
      address: SENDER.address,
      signed: [] as bigint[],
      async signTransfer({ recipient, amount, nonce }) {
        const tx = await transfer({ recipient, amount, nonce, fee: fee(signer.signed.length) })
        signer.signed.push(nonce)
        return tx.serialize()
      },
    } satisfies Signer & { signed: bigint[] }
    return signer
  }

  const client = (overrides: Partial<ClientOptions> = {}) => senderClient(stack, overrides)

  /** Transfers of the sender the chain took (mined or in its mempool). */
  const broadcastCount = () => senderNextNonce(stack)

  async function paymentsOfSender() {
    return db.from('payments').where('payer', SENDER.address).orderBy('nonce')
  }

  test('buys a built-in feed and a provider feed, and reports what it spent', async ({
    client: http,
    assert,
  }) => {
    await registerFeedsWithUploadedRates(http)
    const buyer = client()

    const builtin = await buyer.get<{ summary: unknown }>('whale-alerts')
    const provider = await buyer.get('mirror-co/rates')

    assert.isObject(builtin.data.summary)
    assert.deepEqual(provider.data, { rate: 1.25 })
    assert.equal(builtin.priceMicrostx, 5_000n)
    assert.equal(provider.body.price, 5_000)
    const payments = await paymentsOfSender()
    assert.deepEqual(
      payments.map((payment) => [`0x${payment.txid}`, payment.status]),
      [
        [builtin.txid, 'confirmed'],
        [provider.txid, 'confirmed'],
      ]
    )
    assert.deepEqual(buyer.spent(), {
      spentMicrostx: 10_000n,
      reservedMicrostx: 0n,
      remainingMicrostx: 990_000n,
      calls: 2,
      unknown: [],
      credit: NO_CREDIT,
    })
  }).timeout(20_000)

  test('lists feeds from the discovery API, filtered by query, category and price', async ({
    assert,
  }) => {
    const buyer = client()

    const all = await buyer.feeds()
    const whales = await buyer.feeds({ query: 'whale' })
    const cheap = await buyer.feeds({ maxPriceMicrostx: 1_000n })

    assert.isAtLeast(all.length, 16)
    assert.isTrue(all.some((feed) => feed.resource.endsWith('/feeds/whale-alerts')))
    assert.isTrue(whales.some((feed) => feed.resource.endsWith('/feeds/whale-alerts')))
    assert.isBelow(whales.length, all.length)
    assert.isTrue(cheap.every((feed) => feed.priceMicrostx <= 1_000n))
    const category = all[0].tags[0]
    const inCategory = await buyer.feeds({ category })
    assert.isTrue(inCategory.length > 0 && inCategory.every((feed) => feed.tags.includes(category)))
  })

  test('refuses a price over the per-call cap before signing anything', async ({ assert }) => {
    const signer = countingSigner()
    const buyer = client({ signer, privateKey: undefined, maxPerCallMicrostx: 4_999n })

    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)

    assert.instanceOf(error, OverCapError)
    assert.containsSubset(error, {
      code: 'over_cap',
      cap: 'per_call',
      priceMicrostx: 5_000n,
      capMicrostx: 4_999n,
    })
    assert.deepEqual(signer.signed, [])
    assert.equal(await broadcastCount(), 0)
    assert.lengthOf(await paymentsOfSender(), 0)
    assert.deepEqual(buyer.spent(), {
      spentMicrostx: 0n,
      reservedMicrostx: 0n,
      remainingMicrostx: 1_000_000n,
      calls: 0,
      unknown: [],
      credit: NO_CREDIT,
    })
  })

  test('refuses a call that would take the total over the budget before signing it', async ({
    assert,
  }) => {
    const signer = countingSigner()
    const buyer = client({ signer, privateKey: undefined, budgetMicrostx: 7_000n })

    await buyer.get('whale-alerts')
    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)

    assert.instanceOf(error, OverCapError)
    assert.containsSubset(error, { cap: 'budget', priceMicrostx: 5_000n, capMicrostx: 2_000n })
    assert.deepEqual(signer.signed, [0n])
    assert.equal(await broadcastCount(), 1)
    assert.lengthOf(await paymentsOfSender(), 1)
    assert.deepEqual(buyer.spent(), {
      spentMicrostx: 5_000n,
      reservedMicrostx: 0n,
      remainingMicrostx: 2_000n,
      calls: 1,
      unknown: [],
      credit: NO_CREDIT,
    })
  }).timeout(20_000)

  test('a lost answer is retried with the same payment: paid once, data delivered', async ({
    assert,
  }) => {
    let dropped = 0
    const lossy: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      const headers = new Headers(init?.headers)
      if (headers.has('payment-signature') && dropped === 0) {
        // The service handled the payment; its answer never reaches the buyer.
        await response.text()
        dropped++
        throw new TypeError('fetch failed')
      }
      return response
    }
    const signer = countingSigner()
    const buyer = client({ signer, privateKey: undefined, fetch: lossy })

    const bought = await buyer.get('whale-alerts')

    assert.equal(dropped, 1)
    assert.isObject(bought.data)
    assert.deepEqual(signer.signed, [0n])
    assert.equal(await broadcastCount(), 1)
    const payments = await paymentsOfSender()
    assert.deepEqual(
      payments.map((payment) => [`0x${payment.txid}`, payment.status]),
      [[bought.txid, 'confirmed']]
    )
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, calls: 1 })
  }).timeout(20_000)

  test('20 concurrent purchases from one key all end with data, none refused for a nonce', async ({
    assert,
  }) => {
    const signer = countingSigner()
    const paidAnswers: number[] = []
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (new Headers(init?.headers).has('payment-signature')) paidAnswers.push(response.status)
      return response
    }
    const buyer = client({
      signer,
      privateKey: undefined,
      budgetMicrostx: 100_000n,
      fetch: recording,
    })

    const bought = await Promise.all(Array.from({ length: 20 }, () => buyer.get('whale-alerts')))

    assert.isTrue(bought.every((purchase) => typeof purchase.data === 'object'))
    assert.lengthOf(new Set(bought.map((purchase) => purchase.txid)), 20)
    // Every payment was taken at its first try: no 429, no bad_nonce, no retry.
    assert.deepEqual(paidAnswers, Array(20).fill(200))
    assert.deepEqual(
      [...signer.signed].sort((a, b) => Number(a - b)),
      Array.from({ length: 20 }, (_, index) => BigInt(index))
    )
    const payments = await paymentsOfSender()
    assert.lengthOf(payments, 20)
    assert.isTrue(payments.every((payment) => payment.status === 'confirmed'))
    assert.deepEqual(buyer.spent(), {
      spentMicrostx: 100_000n,
      reservedMicrostx: 0n,
      remainingMicrostx: 0n,
      calls: 20,
      unknown: [],
      credit: NO_CREDIT,
    })
  }).timeout(60_000)

  test('a payment that overtakes a lower nonce of the same client is sent again, not re-signed', async ({
    assert,
  }) => {
    const paidAnswers: string[] = []
    let delayed = false
    const slowFirst: typeof fetch = async (input, init) => {
      const paying = new Headers(init?.headers).has('payment-signature')
      if (paying && !delayed) {
        // Nonce 0's request is held up on the way: nonce 1's reaches the service first.
        delayed = true
        await new Promise((resolve) => setTimeout(resolve, 300))
      }
      const response = await fetch(input, init)
      if (paying) {
        const body = (await response.clone().json()) as { error?: unknown }
        paidAnswers.push(`${response.status} ${typeof body.error === 'string' ? body.error : ''}`)
      }
      return response
    }
    const signer = countingSigner()
    const buyer = client({ signer, privateKey: undefined, fetch: slowFirst })

    const bought = await Promise.all([buyer.get('whale-alerts'), buyer.get('whale-alerts')])

    assert.isTrue(bought.every((purchase) => typeof purchase.data === 'object'))
    assert.deepEqual(signer.signed, [0n, 1n])
    assert.include(paidAnswers, '402 bad_nonce')
    assert.equal(paidAnswers.filter((answer) => answer.startsWith('200')).length, 2)
    assert.equal(await broadcastCount(), 2)
    assert.containsSubset(buyer.spent(), { spentMicrostx: 10_000n, calls: 2 })
  }).timeout(20_000)

  test('a payment refused before broadcast frees its nonce and its price for the next call', async ({
    assert,
  }) => {
    // The first transfer's fee is below the node's minimum: refused, never broadcast.
    const signer = countingSigner((index) => (index === 0 ? 1n : FEE))
    const buyer = client({ signer, privateKey: undefined })

    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)
    const spentAfterRefusal = buyer.spent()
    const bought = await buyer.get('whale-alerts')

    assert.instanceOf(error, RefusedError)
    assert.containsSubset(error, { code: 'refused', serverCode: 'fee_too_low', nothingPaid: true })
    assert.containsSubset(spentAfterRefusal, { spentMicrostx: 0n, reservedMicrostx: 0n, calls: 0 })
    assert.isObject(bought.data)
    assert.deepEqual(signer.signed, [0n, 0n])
    assert.equal(await broadcastCount(), 1)
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, calls: 1 })
  }).timeout(20_000)

  test('a 402 for another network is a typed error, nothing signed', async ({ assert }) => {
    const signer = countingSigner()
    const buyer = client({ signer, privateKey: undefined, network: 'mainnet' })

    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)

    assert.instanceOf(error, NetworkMismatchError)
    assert.containsSubset(error, {
      code: 'network_mismatch',
      expected: 'stacks:1',
      offered: ['stacks:2147483648'],
    })
    assert.deepEqual(signer.signed, [])
    assert.equal(await broadcastCount(), 0)
    assert.containsSubset(buyer.spent(), { spentMicrostx: 0n, reservedMicrostx: 0n })
  })

  test('a 402 naming a payTo outside allowedPayTo is refused before signing', async ({
    assert,
  }) => {
    const signer = countingSigner()
    const buyer = client({ signer, privateKey: undefined, allowedPayTo: [RECIPIENT] })

    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)

    assert.instanceOf(error, PayToNotAllowedError)
    assert.containsSubset(error, { code: 'pay_to_not_allowed', payTo: stack.payTo })
    assert.include(error.message, stack.payTo)
    assert.deepEqual(signer.signed, [])
    assert.equal(await broadcastCount(), 0)
    assert.containsSubset(buyer.spent(), { spentMicrostx: 0n, reservedMicrostx: 0n })
  })

  test('a 402 naming an allowed payTo is paid', async ({ assert }) => {
    const buyer = client({ allowedPayTo: [RECIPIENT, stack.payTo] })

    const bought = await buyer.get('whale-alerts')

    assert.isObject(bought.data)
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, calls: 1 })
  }).timeout(20_000)

  /** A stand-in service's answer: status, headers, body. */
  type Answer = [number, Record<string, string>, string]

  const REQUIREMENT = () => ({
    scheme: 'exact',
    network: 'stacks:2147483648',
    amount: '5000',
    asset: 'STX',
    payTo: stack.payTo,
  })

  /**
   * A stand-in x402 server on 127.0.0.1: `answer(n, paymentSignature)` gives
   * the status, headers and body of its n-th request; the client pays from
   * the counting signer.
   */
  async function fakeService(
    cleanup: (fn: () => Promise<void>) => void,
    answer: (n: number, paymentSignature: string | undefined, url: URL) => Answer,
    overrides: Partial<ClientOptions> = {}
  ) {
    const paymentSignatures: string[] = []
    let requests = 0
    const server = createServer((request, response) => {
      const header = request.headers['payment-signature'] as string | undefined
      if (header) paymentSignatures.push(header)
      const [status, headers, body] = answer(
        requests++,
        header,
        new URL(request.url!, 'http://127.0.0.1')
      )
      response.writeHead(status, { 'content-type': 'application/json', ...headers })
      response.end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanup(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const signer = countingSigner()
    const buyer = client({
      signer,
      privateKey: undefined,
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      ...overrides,
    })
    return { buyer, signer, paymentSignatures }
  }

  /** The 402 asking `amount` µSTX. */
  const quote = (amount = '5000'): Answer => [
    402,
    {},
    JSON.stringify({ x402Version: 2, accepts: [{ ...REQUIREMENT(), amount }] }),
  ]
  const paid = (body: unknown): Answer => [200, {}, JSON.stringify(body)]
  /** The service's error answer: `status`, `headers` and `{error:{code,message}}`. */
  const errorAnswer = (
    status: number,
    code: string,
    message: string,
    headers: Record<string, string> = {}
  ): Answer => [status, headers, JSON.stringify({ error: { code, message } })]
  const internalError = () => errorAnswer(500, 'internal_error', 'settle failed')

  test('a malformed 402 is a typed error, nothing signed or sent', async ({ assert, cleanup }) => {
    const requirement = REQUIREMENT()
    const answers = [
      'not json',
      JSON.stringify({ x402Version: 1, accepts: [requirement] }),
      JSON.stringify({ x402Version: 2, accepts: [] }),
      JSON.stringify({ x402Version: 2, accepts: [{ ...requirement, amount: '5e3' }] }),
      JSON.stringify({ x402Version: 2, accepts: [{ ...requirement, amount: 5000 }] }),
      JSON.stringify({ x402Version: 2, accepts: [{ ...requirement, asset: 'sBTC' }] }),
      JSON.stringify({ x402Version: 2, accepts: [{ ...requirement, payTo: 'nobody' }] }),
    ]
    const { buyer, signer, paymentSignatures } = await fakeService(cleanup, (_n, _header, url) => [
      402,
      {},
      answers[Number(url.searchParams.get('n'))],
    ])

    for (const [index] of answers.entries()) {
      const error = await buyer.get('some-feed', { n: index }).catch((thrown) => thrown)
      assert.instanceOf(error, MalformedPaymentRequiredError, `answer ${index}`)
      assert.equal(error.code, 'malformed_402')
    }
    assert.deepEqual(paymentSignatures, [])
    assert.deepEqual(signer.signed, [])
    assert.containsSubset(buyer.spent(), { spentMicrostx: 0n, reservedMicrostx: 0n })
  })

  test('a 429 is waited out and the same payment sent again', async ({ assert, cleanup }) => {
    const { buyer, signer, paymentSignatures } = await fakeService(cleanup, (n, header) => {
      if (!header) return quote()
      if (n === 1) {
        return errorAnswer(429, 'too_many_payments_in_flight', 'wait', { 'retry-after': '0' })
      }
      return paid({ data: { ok: true }, price: 5000 })
    })

    const bought = await buyer.get('some-feed')

    assert.deepEqual(bought.data, { ok: true })
    assert.lengthOf(paymentSignatures, 2)
    assert.equal(paymentSignatures[0], paymentSignatures[1])
    assert.deepEqual(signer.signed, [0n])
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, calls: 1 })
  })

  test('a 200 without data after paying is a typed error, counted as spent', async ({
    assert,
    cleanup,
  }) => {
    const { buyer } = await fakeService(cleanup, (_n, header) =>
      header ? paid({ price: 5000 }) : quote()
    )

    const error = await buyer.get('some-feed').catch((thrown) => thrown)

    assert.instanceOf(error, PaidWithoutDataError)
    assert.equal(error.code, 'paid_without_data')
    assert.match(error.txid, /^0x[0-9a-f]{64}$/)
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, reservedMicrostx: 0n })
  })

  test('a failure of the service once the payment was taken keeps its price reserved, never says nothing was paid', async ({
    assert,
    cleanup,
  }) => {
    const { buyer, signer } = await fakeService(cleanup, (_n, header) =>
      header ? internalError() : quote()
    )

    const error = await buyer.get('some-feed').catch((thrown) => thrown)

    assert.instanceOf(error, RefusedError)
    assert.containsSubset(error, { status: 500, serverCode: 'internal_error', nothingPaid: false })
    assert.containsSubset(buyer.spent(), { spentMicrostx: 0n, reservedMicrostx: 5_000n, calls: 0 })
    assert.deepEqual(signer.signed, [0n], 'signed once, not retried with another transfer')
  })

  test('a payment of unknown outcome the chain never took is released once its nonce is used: the budget comes back', async ({
    assert,
    cleanup,
  }) => {
    // The first payment (5000 µSTX) fails inside the service, never broadcast; later calls cost
    // 4000 and are paid.
    const { buyer, signer, paymentSignatures } = await fakeService(
      cleanup,
      (n, header) => {
        if (n === 0) return quote()
        if (n === 1) return internalError()
        if (!header) return quote('4000')
        return paid({ data: { ok: true }, price: 4000 })
      },
      { budgetMicrostx: 9_000n }
    )

    const lost = await buyer.get('some-feed').catch((thrown) => thrown)
    const afterUnknown = buyer.spent()
    await buyer.get('some-feed')
    // The service broadcasts the second payment, which takes the same nonce.
    const second = JSON.parse(Buffer.from(paymentSignatures[1], 'base64').toString('utf8'))
    const mined = await broadcast(stack.devnet, Buffer.from(second.payload.transaction, 'hex'))
    const third = await buyer.get('some-feed')

    assert.instanceOf(lost, RefusedError)
    assert.equal(mined.status, 200)
    assert.deepEqual(signer.signed, [0n, 0n, 1n])
    assert.deepEqual(third.data, { ok: true })
    assert.deepEqual(
      afterUnknown.unknown.map((payment) => payment.priceMicrostx),
      [5_000n]
    )
    assert.containsSubset(afterUnknown, { reservedMicrostx: 5_000n, remainingMicrostx: 4_000n })
    assert.deepEqual(buyer.spent(), {
      spentMicrostx: 8_000n,
      reservedMicrostx: 0n,
      remainingMicrostx: 1_000n,
      calls: 2,
      unknown: [],
      credit: NO_CREDIT,
    })
  }).timeout(20_000)

  test('a payment of unknown outcome signed again as the same transfer is counted once', async ({
    assert,
    cleanup,
  }) => {
    const { buyer, signer } = await fakeService(cleanup, (n, header) => {
      if (!header) return quote()
      return n === 1 ? internalError() : paid({ data: { ok: true }, price: 5000 })
    })

    const lost = await buyer.get('some-feed').catch((thrown) => thrown)
    const bought = await buyer.get('some-feed')

    // Same nonce, recipient, amount and fee: the very transfer whose outcome was unknown.
    assert.deepEqual(signer.signed, [0n, 0n])
    assert.deepEqual(buyer.spent().unknown, [])
    assert.deepEqual(buyer.spent(), {
      spentMicrostx: 5_000n,
      reservedMicrostx: 0n,
      remainingMicrostx: 995_000n,
      calls: 1,
      unknown: [],
      credit: NO_CREDIT,
    })
    assert.instanceOf(lost, RefusedError)
    assert.isObject(bought.data)
  })

  test('a source failure after the payment was checked releases the price and the nonce', async ({
    assert,
    cleanup,
  }) => {
    const { buyer, signer } = await fakeService(cleanup, (n, header) => {
      if (!header) return quote()
      if (n === 1) {
        return errorAnswer(503, 'source_unavailable', 'upstream down', { 'retry-after': '60' })
      }
      return paid({ data: { ok: true }, price: 5000 })
    })

    const error = await buyer.get('some-feed').catch((thrown) => thrown)
    const afterRefusal = buyer.spent()
    await buyer.get('some-feed')

    assert.instanceOf(error, RefusedError)
    assert.containsSubset(error, {
      status: 503,
      serverCode: 'source_unavailable',
      serverMessage: 'upstream down',
      nothingPaid: true,
    })
    assert.containsSubset(afterRefusal, { spentMicrostx: 0n, reservedMicrostx: 0n, calls: 0 })
    assert.deepEqual(signer.signed, [0n, 0n])
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, calls: 1 })
  })
})

test.group('The buyer SDK, a payment still settling', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: null, settlementBudgetMs: 150 })

  const client = (overrides: Partial<ClientOptions> = {}) =>
    senderClient(stack, { feeMicrostx: FEE, maxRetryAfterMs: 20, ...overrides })

  test('a 202 is collected at its status URL with the receipt once the transfer confirms', async ({
    assert,
  }) => {
    const polls: number[] = []
    const mining: typeof fetch = async (input, init) => {
      const url = String(input)
      if (url.includes('/payments/0x')) {
        // The first poll finds it pending; the block is mined before the second.
        if (polls.length === 1) await stack.devnet.mine()
        const response = await fetch(input, init)
        assert.isString(new Headers(init?.headers).get('x-payment-receipt'))
        polls.push(response.status)
        return response
      }
      return fetch(input, init)
    }
    const buyer = client({ fetch: mining })

    const bought = await buyer.get('whale-alerts')

    assert.isObject(bought.data)
    assert.deepEqual(polls, [202, 200])
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, reservedMicrostx: 0n, calls: 1 })
  }).timeout(20_000)

  /** The service takes the payment; none of its answers reaches the buyer. */
  const blackHole: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    if (!new Headers(init?.headers).has('payment-signature')) return response
    await response.text()
    throw new TypeError('fetch failed')
  }

  test('a payment whose answers were all lost stays reserved while pending, and is spent once mined', async ({
    assert,
  }) => {
    const buyer = client({ fetch: blackHole })

    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)
    const lost = buyer.spent()
    const whilePending = await buyer.settle()
    await stack.devnet.mine()
    const afterMined = await buyer.settle()

    assert.instanceOf(error, UnreachableError)
    assert.match(error.txid, /^0x[0-9a-f]{64}$/)
    const unknown = [{ txid: error.txid, priceMicrostx: 5_000n }]
    assert.deepEqual(lost, {
      spentMicrostx: 0n,
      reservedMicrostx: 5_000n,
      remainingMicrostx: 995_000n,
      calls: 0,
      unknown,
      credit: NO_CREDIT,
    })
    assert.deepEqual(whilePending, lost)
    assert.deepEqual(afterMined, {
      spentMicrostx: 5_000n,
      reservedMicrostx: 0n,
      remainingMicrostx: 995_000n,
      calls: 1,
      unknown: [],
      credit: NO_CREDIT,
    })
  }).timeout(20_000)

  test('a payment whose answers were all lost and that the chain dropped goes back to the budget', async ({
    assert,
  }) => {
    stack.devnet.faults.transactionFaultNext('report_dropped', 1)
    const buyer = client({ fetch: blackHole })

    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)
    const lost = buyer.spent()
    const settled = await buyer.settle()

    assert.instanceOf(error, UnreachableError)
    assert.deepEqual(lost.unknown, [{ txid: error.txid, priceMicrostx: 5_000n }])
    assert.deepEqual(settled, {
      spentMicrostx: 0n,
      reservedMicrostx: 0n,
      remainingMicrostx: 1_000_000n,
      calls: 0,
      unknown: [],
      credit: NO_CREDIT,
    })
  }).timeout(20_000)

  test('still settling after the wait: PendingError with the txid and receipt', async ({
    assert,
  }) => {
    const buyer = client({ maxPendingMs: 100 })

    const error = await buyer.get('whale-alerts').catch((thrown) => thrown)

    assert.instanceOf(error, PendingError)
    assert.equal(error.code, 'pending')
    assert.match(error.txid, /^0x[0-9a-f]{64}$/)
    assert.containsSubset(error.receipt, { txid: error.txid, statusUrl: `/payments/${error.txid}` })
    assert.isString(error.receipt.token)
    // Broadcast: the money left the wallet, so it counts as spent.
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, reservedMicrostx: 0n })
  }).timeout(20_000)
})
