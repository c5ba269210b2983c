import assert from 'node:assert/strict'
import { test } from 'node:test'
import { getAddressFromPrivateKey } from '@stacks/transactions'
import { createClient, type ClientOptions } from '../src/client.ts'
import { checkCreditMessage, readCreditBalance } from '../src/credit.ts'
import { AgentError, OverCapError, PendingError, UnreachableError } from '../src/errors.ts'
import { creditService, type CreditServiceOptions } from './support/credit_service.ts'
import { BASE_URL, PRIVATE_KEY, stubClient } from './support/stub_fetch.ts'

const ADDRESS = getAddressFromPrivateKey(PRIVATE_KEY, 'testnet')

function setUp(overrides: Partial<ClientOptions> = {}, service: CreditServiceOptions = {}) {
  const stub = creditService(service)
  const client = stubClient(stub.fetch, {
    budgetMicrostx: 100_000,
    credit: { topUpMicrostx: 20_000 },
    ...overrides,
  })
  return { client, ...stub }
}

test('tops up once with an x402 payment, then pays calls from credit: one transfer, within the budget', async () => {
  const { client, state } = setUp()

  const bought = []
  for (let call = 0; call < 3; call++) bought.push(await client.get('whale-alerts'))

  assert.deepEqual(
    bought.map(({ data, txid, paidWith, priceMicrostx }) => [data, txid, paidWith, priceMicrostx]),
    Array.from({ length: 3 }, () => [{ paid: 'from credit' }, null, 'credit', 5_000n])
  )
  assert.deepEqual(state.transfers, [{ kind: 'top_up', amount: 20_000n }])
  assert.equal(state.exchanges, 1)
  assert.equal(state.balance, 5_000n)
  assert.deepEqual(client.spent(), {
    spentMicrostx: 20_000n,
    reservedMicrostx: 0n,
    remainingMicrostx: 80_000n,
    calls: 0,
    unknown: [],
    credit: {
      topUps: 1,
      topUpsMicrostx: 20_000n,
      unspentTopUpsMicrostx: 5_000n,
      calls: 3,
      spentMicrostx: 15_000n,
      unknownCalls: [],
      balanceMicrostx: 5_000n,
    },
  })
})

test('the token signs the limits asked for, for this address; the key signs it as a wallet does', async () => {
  const { client, state } = setUp({
    credit: { topUpMicrostx: 20_000, spendCapMicrostx: 50_000, maxPricePerCallMicrostx: 6_000 },
  })

  await client.get('whale-alerts')

  // The service verified the RSV signature of its own message against the key.
  assert.equal(state.exchanges, 1)
  const [message] = state.issued
  assert.equal(message.split('\n')[1], ADDRESS)
  assert.equal(
    message.split('\n')[3],
    'Spend at most 0.05 STX of my Tollbooth credit, at most 0.006 STX per call.'
  )
})

test('the top-up never takes the client over its budget: it buys what is left, then pays nothing more', async () => {
  const { client, state } = setUp({ budgetMicrostx: 12_000 })

  await client.get('whale-alerts')
  await client.get('whale-alerts')
  const third = await client.get('whale-alerts').catch((error) => error)

  assert.deepEqual(state.transfers, [{ kind: 'top_up', amount: 12_000n }])
  // 2 000 µSTX of credit left, nothing of the budget: per-call payment is refused before signing.
  assert.ok(third instanceof OverCapError, String(third))
  assert.equal(third.cap, 'budget')
  assert.equal(client.spent().spentMicrostx, 12_000n)
  assert.equal(client.spent().credit.calls, 2)
})

test('less left of the budget than the service takes for a top-up: the call is paid on chain', async () => {
  const { client, state } = setUp({ budgetMicrostx: 9_000 }, { topUpMinimum: 10_000n })

  const bought = await client.get('whale-alerts')

  assert.equal(bought.paidWith, 'chain')
  assert.match(bought.txid!, /^0x[0-9a-f]{64}$/)
  assert.deepEqual(state.transfers, [{ kind: 'call', amount: 5_000n }])
})

test('a price above the maximum the token signed is paid on chain (credit cannot fix it)', async () => {
  const { client, state } = setUp({
    credit: { topUpMicrostx: 20_000, maxPricePerCallMicrostx: 4_000 },
  })

  const bought = await client.get('whale-alerts')

  assert.equal(bought.paidWith, 'chain')
  // Refused for its price before the balance is looked at: nothing topped up.
  assert.deepEqual(state.transfers, [{ kind: 'call', amount: 5_000n }])
})

test('a feed URL on another origin is paid per call: the credit token never goes there', async () => {
  const { client, state, requests } = setUp()
  await client.get('whale-alerts')

  const bought = await client.get('http://elsewhere.test/feeds/whale-alerts')

  assert.equal(bought.paidWith, 'chain')
  const elsewhere = requests.filter((request) => request.url.startsWith('http://elsewhere.test/'))
  assert.equal(elsewhere.length, 2)
  assert.ok(elsewhere.every((request) => !request.headers.has('credit-token')))
  assert.deepEqual(
    state.transfers.map((transfer) => transfer.kind),
    ['top_up', 'call']
  )
})

test('a service that offers no credit is paid per call', async () => {
  const { client, state } = setUp({}, { offersCredit: false })

  const bought = await client.get('whale-alerts')

  assert.equal(bought.paidWith, 'chain')
  assert.equal(state.exchanges, 0)
  assert.deepEqual(state.transfers, [{ kind: 'call', amount: 5_000n }])
})

test('a token the service no longer takes is renewed with a new signature; the call keeps its payment-identifier', async () => {
  const { client, state } = setUp()
  await client.get('whale-alerts')
  state.next.push('expire')

  const bought = await client.get('whale-alerts')

  assert.equal(bought.paidWith, 'credit')
  assert.equal(state.exchanges, 2)
  const [expired, renewed] = state.creditRequests.slice(-2)
  assert.notEqual(expired.token, renewed.token)
  assert.equal(expired.id, renewed.id)
  assert.match(renewed.id!, /^pay_[0-9a-f]{32}$/)
})

test('a token that spent its signed cap is renewed, not topped up again', async () => {
  const { client, state } = setUp({ credit: { topUpMicrostx: 20_000, spendCapMicrostx: 5_000 } })

  await client.get('whale-alerts')
  const second = await client.get('whale-alerts')

  assert.equal(second.paidWith, 'credit')
  assert.equal(state.exchanges, 2)
  assert.equal(state.transfers.length, 1)
})

/** Two ways a credit call's outcome is unknown to the client; the same payment-identifier settles both. */
const UNKNOWN_OUTCOMES = [
  { what: 'a lost answer', step: 'lose' },
  {
    what: 'a debit the service could not confirm (503 credit_call_outcome_unknown)',
    step: 'unconfirmed',
  },
] as const

for (const { what, step } of UNKNOWN_OUTCOMES) {
  test(`${what} is sent again with the same payment-identifier: debited once`, async () => {
    const { client, state } = setUp()
    await client.get('whale-alerts')
    state.next.push(step)

    const bought = await client.get('whale-alerts')

    assert.deepEqual(bought.data, { paid: 'from credit' })
    const [first, retried] = state.creditRequests.slice(-2)
    assert.equal(first.id, retried.id)
    assert.equal(state.balance, 10_000n)
    assert.equal(client.spent().credit.calls, 2)
    assert.deepEqual(client.spent().credit.unknownCalls, [])
  })

  test(`${what} on every try names the payment-identifier and keeps its price held; retried with it, it is debited once`, async () => {
    const { client, state } = setUp({ maxRetryAfterMs: 1 })
    await client.get('whale-alerts')
    state.next.push(step, step, step, step, step)

    const unknown = await client.get('whale-alerts').catch((error) => error)

    assert.ok(unknown instanceof UnreachableError, String(unknown))
    assert.match(unknown.paymentIdentifier!, /^pay_[0-9a-f]{32}$/)
    assert.match(unknown.message, /retry it with that paymentIdentifier/)
    assert.deepEqual(client.spent().credit.unknownCalls, [unknown.paymentIdentifier])
    // The token's maximum price stays held out of the top-ups until the outcome is known.
    assert.equal(client.spent().credit.unspentTopUpsMicrostx, 5_000n)
    assert.equal(state.balance, 10_000n)

    const retried = await client.get(
      'whale-alerts',
      {},
      { paymentIdentifier: unknown.paymentIdentifier! }
    )

    assert.deepEqual(retried.data, { paid: 'from credit' })
    assert.equal(state.balance, 10_000n, 'debited once')
    assert.equal(state.creditRequests.at(-1)!.id, unknown.paymentIdentifier)
    assert.deepEqual(client.spent().credit.unknownCalls, [])
    assert.equal(client.spent().reservedMicrostx, 0n)
    assert.equal(client.spent().credit.unspentTopUpsMicrostx, 10_000n)
  })
}

test('concurrent calls short of credit share one top-up and one token', async () => {
  const { client, state } = setUp({ credit: { topUpMicrostx: 50_000 } })

  const bought = await Promise.all(Array.from({ length: 10 }, () => client.get('whale-alerts')))

  assert.ok(bought.every((purchase) => purchase.paidWith === 'credit'))
  assert.deepEqual(state.transfers, [{ kind: 'top_up', amount: 50_000n }])
  assert.equal(state.exchanges, 1)
  assert.equal(state.balance, 0n)
})

test('credit the wallet already held counts against the budget: the client stops at it', async () => {
  // 100 STX bought by another client; this one may spend 12 000 µSTX.
  const { client, state } = setUp({ budgetMicrostx: 12_000 }, { balance: 100_000_000n })

  const first = await client.get('whale-alerts')
  const second = await client.get('whale-alerts')
  const third = await client.get('whale-alerts').catch((error) => error)

  assert.deepEqual([first.paidWith, second.paidWith], ['credit', 'credit'])
  assert.ok(third instanceof OverCapError, String(third))
  assert.equal(third.cap, 'budget')
  assert.equal(state.balance, 100_000_000n - 10_000n)
  assert.deepEqual(state.transfers, [])
  // Each token is signed for no more than is left: 12 000, then 7 000 (a 5 000 call spent).
  assert.deepEqual(
    [...state.tokens.values()].map(({ cap, maxPrice }) => [cap, maxPrice]),
    [
      [12_000n, 10_000n],
      [7_000n, 7_000n],
    ]
  )
  assert.equal(client.spent().spentMicrostx, 10_000n)
  assert.equal(client.spent().remainingMicrostx, 2_000n)
  assert.equal(client.spent().credit.unspentTopUpsMicrostx, 0n)
})

test("calls spend the client's own top-ups first, then the budget", async () => {
  const { client, state } = setUp(
    { budgetMicrostx: 30_000, credit: { topUpMicrostx: 10_000 } },
    { topUpMinimum: 10_000n }
  )

  for (let call = 0; call < 4; call++) await client.get('whale-alerts')

  assert.deepEqual(
    state.transfers.map(({ kind, amount }) => [kind, amount]),
    [
      ['top_up', 10_000n],
      ['top_up', 10_000n],
    ]
  )
  assert.equal(client.spent().spentMicrostx, 20_000n)
  assert.equal(client.spent().credit.unspentTopUpsMicrostx, 0n)
  assert.equal(client.spent().credit.calls, 4)
})

test('a top-up still settling is a PendingError that speaks of credit, not data', async () => {
  const { client } = setUp({ maxPendingMs: 1 }, { topUpPending: true })

  const pending = await client.get('whale-alerts').catch((error) => error)

  assert.ok(pending instanceof PendingError, String(pending))
  assert.equal(pending.paying, 'top_up')
  assert.match(
    pending.message,
    /credit top-up .* still settling: the credit is added once it confirms/
  )
  assert.doesNotMatch(pending.message, /data/)
})

test('a credit message for another host is refused though the 402 names that host; signed for an operator-named host', async () => {
  // Another Tollbooth's challenge, relayed: its domain and URI, and the 402's URLs, name that one.
  const relayed = (issued: string) => issued.replaceAll('tollbooth.test', 'victim.example')
  const service = { offerOrigin: 'http://victim.example', message: relayed }
  const { client, state } = setUp({}, service)

  await assert.rejects(client.get('whale-alerts'), /it is for victim\.example, not the service/)
  assert.equal(state.exchanges, 0)

  // Named by the operator, the host is signed for (this stand-in then refuses the altered text).
  const allowed = setUp({ creditHosts: ['victim.example'] }, { message: relayed })
  await assert.rejects(allowed.client.get('whale-alerts'), /signature_invalid/)
})

test('credit needs a way to sign messages, and limits that fit the caps', () => {
  const options = {
    baseUrl: BASE_URL,
    network: 'devnet' as const,
    maxPerCallMicrostx: 10_000,
    budgetMicrostx: 100_000,
  }
  const signer = { address: ADDRESS, signTransfer: async () => '' }
  assert.throws(
    () => createClient({ ...options, signer, credit: { topUpMicrostx: 20_000 } }),
    /needs a signer with signMessage/
  )
  assert.throws(
    () =>
      createClient({
        ...options,
        privateKey: PRIVATE_KEY,
        credit: { topUpMicrostx: 20_000, maxPricePerCallMicrostx: 20_000 },
      }),
    /may not be above maxPerCallMicrostx/
  )
})

test('a message that is not the credit message asked for is never signed', async () => {
  const expected = {
    address: ADDRESS,
    chainId: 'stacks:2147483648',
    hosts: ['tollbooth.test'],
    spendCapMicrostx: 20_000n,
    maxPriceMicrostx: 10_000n,
  }
  const message = [
    'tollbooth.test wants you to sign in with your Stacks account:',
    ADDRESS,
    '',
    'Spend at most 0.02 STX of my Tollbooth credit, at most 0.01 STX per call.',
    '',
    'URI: http://tollbooth.test',
    'Version: 1',
    'Chain ID: 2147483648',
    'Nonce: n0',
    'Issued At: 2026-11-26T07:00:00.000Z',
    'Expiration Time: 2026-11-26T07:05:00.000Z',
  ].join('\n')
  checkCreditMessage(message, expected)

  for (const [from, to, why] of [
    ['tollbooth.test wants', 'bank.example wants', /for bank\.example, not the service/],
    [ADDRESS, 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG', /another address/],
    ['0.02 STX of my', '2 STX of my', /does not name the limits/],
    [
      'Spend at most 0.02 STX of my Tollbooth credit, at most 0.01 STX per call.',
      'Sign in to Tollbooth.',
      /does not name the limits/,
    ],
    ['Chain ID: 2147483648', 'Chain ID: 1', /another chain/],
    ['URI: http://tollbooth.test', 'URI: http://bank.example', /URI is not on its domain/],
  ] as const) {
    assert.throws(
      () => checkCreditMessage(message.replace(from, to), expected),
      (error: unknown) =>
        error instanceof AgentError &&
        error.code === 'credit_message_refused' &&
        why.test(error.message)
    )
  }

  // Through the client: a rewritten statement is refused before the key signs anything.
  const { client, state } = setUp(
    {},
    { message: (issued) => issued.replace('0.02 STX of my', '200 STX of my') }
  )
  await assert.rejects(
    client.get('whale-alerts'),
    /credit_message_refused|does not name the limits/
  )
  assert.equal(state.exchanges, 0)
  assert.deepEqual(state.transfers, [])
})

test('the credit-balance header gives the wallet balance', () => {
  assert.equal(readCreditBalance('balance=15000; token_remaining=5000'), 15_000n)
  assert.equal(readCreditBalance('token_remaining=5000; balance=0'), 0n)
  assert.equal(readCreditBalance('nonsense'), null)
  assert.equal(readCreditBalance(null), null)
})
