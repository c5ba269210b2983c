import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { NETWORK_IDS } from '#agent'
import { EXIT } from '#agent/cli'
import env from '#start/env'
import { SENDER } from '#tests/support/devnet'
import { usePaidCallStack } from '#tests/support/paid_calls'
import type { AceRun } from '#tests/support/ace'

const BASE_URL = `http://${env.get('HOST')}:${env.get('PORT')}`
/** A feed as `feeds --json` lists it. */
type Listed = { resource: string; price_microstx: string; price_stx: string }
const BIN = 'packages/agent/src/cli/bin.ts'

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** What a stand-in service answers: a status and a JSON body, or `hang up` (the connection is cut). */
type Answer = [number, unknown] | 'hang up'

/**
 * A stand-in x402 service on 127.0.0.1: `answer(paid)` is its answer to a
 * request with (`paid`) or without a payment-signature header.
 */
async function fakeService(
  cleanup: (fn: () => Promise<void>) => void,
  answer: (paid: boolean) => Answer
) {
  const state = { url: '', payments: 0 }
  const server = createHttpServer((request, response) => {
    const paid = request.headers['payment-signature'] !== undefined
    if (paid) state.payments++
    const answered = answer(paid)
    if (answered === 'hang up') return response.socket?.destroy()
    response.writeHead(answered[0], { 'content-type': 'application/json' })
    response.end(JSON.stringify(answered[1]))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  )
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}

/** `tollbooth <args>` as a user runs it: Node 24 on the package's bin, only PATH and `variables`. */
function tollbooth(args: string[], variables: Record<string, string>): Promise<AceRun> {
  return new Promise((resolve) => {
    execFile(
      join(app.appRoot.pathname, 'node_modules/.bin/node'),
      [BIN, ...args],
      { cwd: app.appRoot.pathname, env: { PATH: process.env.PATH, ...variables }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const exitCode = (error as { code?: unknown } | null)?.code
        const code = error ? (typeof exitCode === 'number' ? exitCode : -1) : 0
        resolve({ code, output: `${stdout}${stderr}`, stdout, stderr })
      }
    )
  })
}

test.group('The tollbooth CLI', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  let state = ''
  group.each.setup(async () => {
    state = await mkdtemp(join(tmpdir(), 'tollbooth-cli-'))
    return () => rm(state, { recursive: true, force: true })
  })

  function variables(overrides: Record<string, string> = {}) {
    return {
      TOLLBOOTH_URL: BASE_URL,
      TOLLBOOTH_STACKS_API: stack.devnet.url,
      TOLLBOOTH_STATE: state,
      TOLLBOOTH_PRIVATE_KEY: SENDER.privateKey,
      ...overrides,
    }
  }

  async function feedPayments() {
    return db.from('payments').where('purpose', 'feed')
  }

  /** A devnet 402 for 0.005 STX, paid to the platform wallet, with `overrides`. */
  function quote(overrides: Record<string, unknown> = {}): Answer {
    const requirement = {
      scheme: 'exact',
      network: NETWORK_IDS.devnet,
      amount: '5000',
      asset: 'STX',
      payTo: stack.payTo,
      ...overrides,
    }
    return [402, { x402Version: 2, accepts: [requirement] }]
  }

  async function spentReport() {
    const run = await tollbooth(['spent', '--json'], variables({ TOLLBOOTH_PRIVATE_KEY: '' }))
    return JSON.parse(run.stdout)
  }

  test('feeds --json: a JSON array of the live feeds on stdout, nothing else', async ({
    assert,
  }) => {
    const run = await tollbooth(['feeds', '--json'], variables({ TOLLBOOTH_PRIVATE_KEY: '' }))

    assert.equal(run.code, EXIT.ok, run.output)
    const feeds = JSON.parse(run.stdout) as Listed[]
    const whale = feeds.find((feed) => feed.resource.endsWith('/feeds/whale-alerts'))
    assert.deepInclude(whale, { price_microstx: '5000', price_stx: '0.005' })

    const cheap = await tollbooth(['feeds', '--max-price', '0.004999', '--json'], variables())
    assert.equal(cheap.code, EXIT.ok, cheap.output)
    const listed = JSON.parse(cheap.stdout) as Listed[]
    assert.isBelow(listed.length, feeds.length)
    assert.isTrue(listed.every((feed) => BigInt(feed.price_microstx) <= 4_999n))
    assert.isFalse(listed.some((feed) => feed.resource === whale?.resource))
  })

  test('get --json buys the feed: the paid body on stdout only, the txid on stderr; spent reports it', async ({
    assert,
  }) => {
    const run = await tollbooth(['get', 'whale-alerts', '--json'], variables())

    assert.equal(run.code, EXIT.ok, run.output)
    const body = JSON.parse(run.stdout)
    assert.equal(body.price_stx, '0.005')
    assert.isObject(body.data)
    assert.equal(run.stdout, `${JSON.stringify(body)}\n`)
    const [payment] = await feedPayments()
    assert.include(run.stderr, `paid 0.005 STX, transaction 0x${payment.txid}`)

    const spent = await tollbooth(['spent', '--json'], variables({ TOLLBOOTH_PRIVATE_KEY: '' }))
    assert.equal(spent.code, EXIT.ok, spent.output)
    const report = JSON.parse(spent.stdout)
    assert.equal(report.spent_microstx, '5000')
    assert.equal(report.calls, 1)
    assert.equal(report.entries[0].txid, `0x${payment.txid}`)
    assert.equal(report.entries[0].payer, SENDER.address)
  })

  test('--max below the price: the over-cap exit code, nothing paid', async ({ assert }) => {
    const run = await tollbooth(['get', 'whale-alerts', '--max', '0.004999'], variables())

    assert.equal(run.code, EXIT.over_cap, run.output)
    assert.equal(run.stdout, '')
    assert.include(
      run.stderr,
      'nothing paid: the price 0.005 STX is over the per-call cap (0.004999 STX)'
    )
    assert.lengthOf(await feedPayments(), 0)
  })

  test('--budget counts what the CLI spent before: the second call over it is refused, nothing paid', async ({
    assert,
  }) => {
    const first = await tollbooth(['get', 'whale-alerts', '--budget', '0.008'], variables())
    assert.equal(first.code, EXIT.ok, first.output)

    const second = await tollbooth(['get', 'whale-alerts', '--budget', '0.008'], variables())

    assert.equal(second.code, EXIT.over_cap, second.output)
    assert.include(second.stderr, 'what is left of the budget (0.003 STX)')
    assert.lengthOf(await feedPayments(), 1)
  })

  test('Tollbooth not reachable: its exit code and the hint on stderr', async ({ assert }) => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const run = await tollbooth(['get', 'whale-alerts'], variables({ TOLLBOOTH_URL: url }))

    assert.equal(run.code, EXIT.unreachable, run.output)
    assert.equal(run.stdout, '')
    assert.include(run.stderr, `is Tollbooth running at ${url}? start it with \`npm run dev\``)
  })

  test('an unknown feed: refused, with the service code, nothing paid', async ({ assert }) => {
    const run = await tollbooth(['get', 'no-such-feed'], variables())

    assert.equal(run.code, EXIT.refused, run.output)
    assert.include(run.stderr, '404 feed_not_found')
  })

  test('a key on argv is refused before anything is sent', async ({ assert }) => {
    const run = await tollbooth(
      ['get', 'whale-alerts', `--private-key=${SENDER.privateKey}`],
      variables({ TOLLBOOTH_PRIVATE_KEY: '' })
    )

    assert.equal(run.code, EXIT.usage, run.output)
    assert.include(run.stderr, 'put it in the TOLLBOOTH_PRIVATE_KEY environment variable')
    assert.notInclude(run.stderr, SENDER.privateKey)
    assert.lengthOf(await feedPayments(), 0)
  })

  test('a price with more than 6 decimals is bad usage', async ({ assert }) => {
    const run = await tollbooth(['get', 'whale-alerts', '--max', '0.0000001'], variables())

    assert.equal(run.code, EXIT.usage, run.output)
    assert.include(run.stderr, 'at most 6 decimals')
  })

  test('a malformed 402: its exit code, nothing sent, nothing recorded', async ({
    assert,
    cleanup,
  }) => {
    const service = await fakeService(cleanup, () => [402, { x402Version: 2, accepts: [] }])

    const run = await tollbooth(['get', 'some-feed'], variables({ TOLLBOOTH_URL: service.url }))

    assert.equal(run.code, EXIT.malformed_402, run.output)
    assert.equal(run.stdout, '')
    assert.include(run.stderr, "the server's 402 is not a payable x402 v2 requirement")
    assert.equal(service.payments, 0)
    const report = await spentReport()
    assert.lengthOf(report.entries, 0)
  })

  test('a 402 for another network: its exit code, nothing sent', async ({ assert, cleanup }) => {
    const service = await fakeService(cleanup, () => quote({ network: NETWORK_IDS.mainnet }))

    const run = await tollbooth(['get', 'some-feed'], variables({ TOLLBOOTH_URL: service.url }))

    assert.equal(run.code, EXIT.network_mismatch, run.output)
    assert.equal(run.stdout, '')
    assert.include(
      run.stderr,
      `the server asks for payment on ${NETWORK_IDS.mainnet}, this client pays on ${NETWORK_IDS.devnet}`
    )
    assert.equal(service.payments, 0)
  })

  test('a 402 naming an address outside TOLLBOOTH_PAY_TO: its exit code, nothing sent', async ({
    assert,
    cleanup,
  }) => {
    const service = await fakeService(cleanup, () => quote())

    const run = await tollbooth(
      ['get', 'some-feed'],
      variables({ TOLLBOOTH_URL: service.url, TOLLBOOTH_PAY_TO: SENDER.address })
    )

    assert.equal(run.code, EXIT.pay_to_not_allowed, run.output)
    assert.equal(run.stdout, '')
    assert.include(
      run.stderr,
      `nothing paid: the service asks to pay ${stack.payTo}, which is not in TOLLBOOTH_PAY_TO`
    )
    assert.equal(service.payments, 0)
    const report = await spentReport()
    assert.lengthOf(report.entries, 0)
  })

  test('a 200 without data after the payment: its exit code, and the ledger keeps the payment', async ({
    assert,
    cleanup,
  }) => {
    const service = await fakeService(cleanup, (paid) => (paid ? [200, { price: 5000 }] : quote()))

    const run = await tollbooth(['get', 'some-feed'], variables({ TOLLBOOTH_URL: service.url }))

    assert.equal(run.code, EXIT.paid_without_data, run.output)
    assert.equal(run.stdout, '')
    assert.match(run.stderr, /paid \(transaction 0x[0-9a-f]{64}\) but the answer has no data/)
    const report = await spentReport()
    assert.equal(report.spent_microstx, '5000')
    assert.lengthOf(report.entries, 1)
    assert.containsSubset(report.entries[0], {
      status: 'paid',
      error: 'paid_without_data',
      priceMicrostx: '5000',
    })
    assert.include(run.stderr, report.entries[0].txid)
  })

  test('a payment sent whose outcome is unknown is recorded apart and counted by --budget', async ({
    assert,
    cleanup,
  }) => {
    let afterPayment: Answer = [
      500,
      { error: { code: 'internal_error', message: 'settlement failed' } },
    ]
    const service = await fakeService(cleanup, (paid) => (paid ? afterPayment : quote()))
    const at = variables({ TOLLBOOTH_URL: service.url })

    const failed = await tollbooth(['get', 'some-feed'], at)
    afterPayment = 'hang up'
    const unreachable = await tollbooth(['get', 'some-feed'], at)

    assert.equal(failed.code, EXIT.refused, failed.output)
    assert.notInclude(failed.stderr, 'nothing paid')
    assert.equal(unreachable.code, EXIT.unreachable, unreachable.output)
    assert.include(unreachable.stderr, 'was sent; its outcome is unknown')
    const report = await spentReport()
    assert.containsSubset(report, {
      spent_microstx: '0',
      calls: 0,
      unknown_microstx: '10000',
      unknown_stx: '0.01',
      unknown_calls: 2,
    })
    assert.containsSubset(report.entries, [
      { status: 'unknown', error: 'refused', priceMicrostx: '5000' },
      { status: 'unknown', error: 'unreachable', priceMicrostx: '5000' },
    ])
    // Both name the transfer sent, the refused one too (it was broadcast before the 500).
    for (const [index, run] of [failed, unreachable].entries()) {
      assert.match(report.entries[index].txid, /^0x[0-9a-f]{64}$/)
      assert.include(run.stderr, `payment ${report.entries[index].txid} was sent`)
    }
    const listed = await tollbooth(['spent'], variables({ TOLLBOOTH_PRIVATE_KEY: '' }))
    assert.include(listed.stdout, '0 STX in 0 paid calls\n')
    assert.include(listed.stdout, '0.01 STX in 2 payments sent whose outcome is unknown')

    const paymentsBefore = service.payments
    const overBudget = await tollbooth(['get', 'some-feed', '--budget', '0.014'], at)

    assert.equal(overBudget.code, EXIT.over_cap, overBudget.output)
    assert.include(overBudget.stderr, 'what is left of the budget (0.004 STX)')
    assert.equal(service.payments, paymentsBefore)
  })

  test('a 422: each invalid field and its message on stderr; with --json the error object', async ({
    assert,
  }) => {
    const args = ['get', 'token-intel', '--param', 'address=nope', '--param', 'chain=mars']
    const run = await tollbooth([...args, '--max', '0.1'], variables())

    assert.equal(run.code, EXIT.refused, run.output)
    assert.equal(run.stdout, '')
    assert.include(run.stderr, '422 validation_failed')
    assert.match(run.stderr, /\n {2}address: \S.*\n/)
    assert.match(run.stderr, /\n {2}chain: \S.*\n/)

    const json = await tollbooth([...args, '--max', '0.1', '--json'], variables())

    assert.equal(json.code, EXIT.refused, json.output)
    assert.equal(json.stdout, '')
    const { error, nothing_paid: nothingPaid } = JSON.parse(json.stderr)
    assert.isTrue(nothingPaid)
    assert.equal(error.code, 'validation_failed')
    assert.sameMembers(
      error.fields.map((field: { field: string }) => field.field),
      ['address', 'chain']
    )
    assert.lengthOf(await feedPayments(), 0)
  })
})
