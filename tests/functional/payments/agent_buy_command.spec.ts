import { test } from '@japa/runner'
import { createServer } from 'node:net'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { runAce } from '#tests/support/ace'
import { usePaidCallStack } from '#tests/support/paid_calls'

const service = () => `http://${env.get('HOST')}:${env.get('PORT')}`
const EXPLORER_LINK = /https:\/\/explorer\.hiro\.so\/txid\/0x[0-9a-f]{64}\?chain=testnet/
/** A line of a printed stack trace. */
const STACK_FRAME = /^\s+at /m

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** `node ace agent:buy <feed>` against this test run's service, paying on its devnet. */
function buy(
  feed: string,
  stack: { devnet: { url: string } },
  { url = service(), node = stack.devnet.url } = {}
) {
  return runAce(['agent:buy', feed, '--url', url], { env: { STACKS_API_URL: node } })
}

test.group('node ace agent:buy', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  test('prints the data and the explorer link of the broadcast transfer, exit 0', async ({
    assert,
  }) => {
    const run = await buy('whale-alerts', stack)

    assert.equal(run.code, 0, run.output)
    assert.include(run.output, '"price_stx":"0.005"')
    assert.match(run.output, EXPLORER_LINK)
    const payment = await db.from('payments').where('purpose', 'feed').first()
    assert.match(payment.payment_identifier, /^pay_[0-9a-f]{32}$/, 'it sends a payment-identifier')
  })

  test('when Tollbooth does not answer: one line naming the URL, exit 1, no stack', async ({
    assert,
  }) => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const run = await buy('whale-alerts', stack, { url })

    assert.equal(run.code, 1, run.output)
    assert.include(run.output, `could not reach Tollbooth at ${url}`)
    assert.include(run.output, 'is `npm run dev` running?')
    assert.notMatch(run.output, STACK_FRAME)
    assert.notMatch(run.output, EXPLORER_LINK)
  })

  test('when the Stacks node does not answer: one line naming it, exit 1, no stack', async ({
    assert,
  }) => {
    const node = `http://127.0.0.1:${await closedPort()}`
    const run = await buy('whale-alerts', stack, { node })

    assert.equal(run.code, 1, run.output)
    assert.include(run.output, `could not reach the Stacks node at ${node}`)
    assert.notMatch(run.output, STACK_FRAME)
    assert.notMatch(run.output, EXPLORER_LINK)
  })

  test('an unknown feed: the 404 with its code and message, exit 1', async ({ assert }) => {
    const run = await buy('no-such-feed', stack)

    assert.equal(run.code, 1, run.output)
    assert.include(run.output, 'HTTP 404 feed_not_found: No feed "no-such-feed"')
    assert.notMatch(run.output, STACK_FRAME)
  })

  test('a feed whose source fails: the 503, no explorer link (nothing was broadcast), exit 1', async ({
    assert,
  }) => {
    stack.simulator.failNext('mempool', 'status_503', 10)

    const run = await buy('gas-prediction', stack)

    assert.equal(run.code, 1, run.output)
    assert.include(run.output, 'HTTP 503 source_unavailable')
    assert.notMatch(run.output, EXPLORER_LINK)
  })
})

test.group('node ace agent:buy while the chain is slow', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: null, settlementBudgetMs: 150 })

  test('a payment still settling: the explorer link and how to collect the data, exit 1', async ({
    assert,
  }) => {
    const run = await buy('whale-alerts', stack)

    assert.equal(run.code, 1, run.output)
    assert.match(run.output, EXPLORER_LINK)
    assert.include(run.output, 'HTTP 202 settlement_pending')
    assert.match(run.output, /GET http:\/\/\S+\/payments\/0x[0-9a-f]{64} and x-payment-receipt: /)
  })
})
