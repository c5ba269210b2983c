import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
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
})
