import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { EXIT } from '#agent/cli'
import env from '#start/env'
import { runAce } from '#tests/support/ace'
import { usePaidCallStack } from '#tests/support/paid_calls'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { frameworkSetting } from '#tests/support/config'

const service = () => `http://${env.get('HOST')}:${env.get('PORT')}`
/** On the devnet, the link goes to the devnet's own transaction page (docs/devnet.md). */
const EXPLORER_LINK = /http:\/\/127\.0\.0\.1:\d+\/txid\/0x[0-9a-f]{64}(\?chain=\w+)?/
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

/** Where the CLI's spending ledger goes during these tests. */
const STATE = join(tmpdir(), `tollbooth-agent-buy-${process.pid}`)

/**
 * `node ace agent:buy <feed>` against this test run's service, paying on its
 * devnet, with the default explorer (whatever a local .env says).
 */
function buy(
  feed: string,
  stack: { devnet: { url: string } },
  { url = service(), node = stack.devnet.url, flags = [] as string[], variables = {} } = {}
) {
  return runAce(['agent:buy', feed, '--url', url, ...flags], {
    env: { STACKS_API_URL: node, EXPLORER_URL: '', TOLLBOOTH_STATE: STATE, ...variables },
  })
}

test.group('node ace agent:buy', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 10_000 })
  group.teardown(() => rm(STATE, { recursive: true, force: true }))

  test('prints the data on stdout and the explorer link of the broadcast transfer on stderr, exit 0', async ({
    assert,
  }) => {
    const run = await buy('whale-alerts', stack)

    assert.equal(run.code, 0, run.output)
    assert.isObject(JSON.parse(run.stdout).summary)
    assert.include(run.stderr, 'paid 0.005 STX')
    const payment = await db.from('payments').where('purpose', 'feed').first()
    assert.match(payment.payment_identifier, /^pay_[0-9a-f]{32}$/, 'it sends a payment-identifier')
    const link = EXPLORER_LINK.exec(run.stderr)?.[0]
    assert.equal(link, `${stack.devnet.url}/txid/0x${payment.txid}?chain=testnet`)
    const explorerPage = await fetch(link!)
    assert.equal(explorerPage.status, 200)
    const shown = await explorerPage.text()
    assert.include(shown, '0.005 STX (5000 µSTX)')
    assert.include(shown, stack.payTo)
  })

  test('next to `npm run dev`: the log line of its database goes to stderr, stdout stays the data', async ({
    assert,
  }) => {
    // The embedded cluster of a running `npm run dev`, as the app finds one: a postmaster.pid
    // naming a live process and the port of the server (this run's database).
    const dataDir = await mkdtemp(join(tmpdir(), 'tollbooth-running-pg-'))
    const port = frameworkSetting<number>('database.connections.postgres.connection.port')
    await writeFile(join(dataDir, 'postmaster.pid'), `${process.pid}\n${dataDir}\n0\n${port}\n`)
    try {
      const run = await buy('whale-alerts', stack, {
        flags: ['--json'],
        variables: {
          NODE_ENV: 'development',
          DATABASE_URL: '',
          EMBEDDED_PG_DATA_DIR: dataDir,
          LOG_FILE: '',
          LOG_LEVEL: 'info',
        },
      })

      assert.equal(run.code, 0, run.output)
      assert.include(run.stderr, `reusing the PostgreSQL cluster already running in ${dataDir}`)
      assert.equal(JSON.parse(run.stdout).price_stx, '0.005')
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  test('with --json, stdout is exactly the paid response body, ready for a pipe', async ({
    assert,
  }) => {
    const run = await buy('whale-alerts', stack, { flags: ['--json'] })

    assert.equal(run.code, 0, run.output)
    const body = JSON.parse(run.stdout)
    assert.equal(body.price_stx, '0.005')
    // As the service sent it (compact), one line: nothing before or after it.
    assert.equal(run.stdout, `${JSON.stringify(body)}\n`)
    assert.match(run.stderr, EXPLORER_LINK)
  })

  test('an account that does not exist: says so and lists the accounts it takes, bad usage', async ({
    assert,
  }) => {
    const run = await buy('whale-alerts', stack, { flags: ['--account', 'wallet_9'] })

    assert.equal(run.code, EXIT.usage, run.output)
    assert.equal(run.stdout, '')
    assert.include(run.stderr, 'there is no devnet account "wallet_9"')
    assert.include(
      run.stderr,
      `--account takes one of ${DEVNET_ACCOUNTS.map((a) => a.label).join(', ')}`
    )
    assert.notInclude(run.stderr, 'STACKS_NETWORK')
  })

  test('a 422: refused with its code and message, nothing paid', async ({ assert }) => {
    const run = await buy('/feeds/token-intel?address=nope&chain=mars', stack)

    assert.equal(run.code, EXIT.refused, run.output)
    assert.equal(run.stdout, '')
    assert.include(run.stderr, '(422 validation_failed)')
    assert.include(run.stderr, '(nothing paid)')
    // One line per invalid field, as the service named them.
    assert.match(run.stderr, /\n {2}address: \S.*\n/)
    assert.match(run.stderr, /\n {2}chain: \S.*\n/)
  })

  test('when Tollbooth does not answer: the URL and a hint, the unreachable exit code, no stack', async ({
    assert,
  }) => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const run = await buy('whale-alerts', stack, { url })

    assert.equal(run.code, EXIT.unreachable, run.output)
    assert.equal(run.stdout, '')
    assert.include(run.stderr, `could not reach ${url}/feeds/whale-alerts: connect ECONNREFUSED`)
    assert.include(run.stderr, `is Tollbooth running at ${url}? start it with \`npm run dev\``)
    assert.notMatch(run.output, STACK_FRAME)
    assert.notMatch(run.output, EXPLORER_LINK)
  })

  test('when the Stacks node does not answer: naming it, the unreachable exit code, no stack', async ({
    assert,
  }) => {
    const node = `http://127.0.0.1:${await closedPort()}`
    const run = await buy('whale-alerts', stack, { node })

    assert.equal(run.code, EXIT.unreachable, run.output)
    assert.include(run.stderr, `could not reach ${node}/`)
    assert.include(run.stderr, `is the Stacks API at ${node} reachable? STACKS_API_URL names it`)
    assert.notMatch(run.output, STACK_FRAME)
    assert.notMatch(run.output, EXPLORER_LINK)
  })

  test('an unknown feed: the 404 with its code and message, refused', async ({ assert }) => {
    const run = await buy('no-such-feed', stack)

    assert.equal(run.code, EXIT.refused, run.output)
    assert.include(run.output, '(404 feed_not_found): No feed "no-such-feed"')
    assert.notMatch(run.output, STACK_FRAME)
  })

  test('a feed whose source fails: the 503, no explorer link (nothing was broadcast), refused', async ({
    assert,
  }) => {
    stack.simulator.failNext('mempool', 'status_503', 10)

    const run = await buy('gas-prediction', stack)

    assert.equal(run.code, EXIT.refused, run.output)
    assert.include(run.output, '503 source_unavailable')
    assert.notMatch(run.output, EXPLORER_LINK)
  })
})

test.group('node ace agent:buy while the chain is slow', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: null, settlementBudgetMs: 150 })
  group.teardown(() => rm(STATE, { recursive: true, force: true }))

  test('a payment still settling: the explorer link and how to collect the data, the pending exit code', async ({
    assert,
  }) => {
    const run = await buy('whale-alerts', stack)

    assert.equal(run.code, EXIT.pending, run.output)
    assert.match(run.output, EXPLORER_LINK)
    assert.include(run.output, 'is still settling')
    assert.match(
      run.output,
      /curl -H 'x-payment-receipt: \S+' http:\/\/\S+\/payments\/0x[0-9a-f]{64}/
    )
  })
})
