import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { Database } from '@adonisjs/lucid/database'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { HealthReport } from '#health/health_report'
import { pointAppAtDevnet } from '#tests/support/chain'
import { useManualClock } from '#tests/support/clock'
import { changeConfig } from '#tests/support/config'
import { inGlobalTransaction } from '#tests/support/database'

/** Longer than any test waits: only the clock can bring a time-out this long. */
const HOUR = 3_600_000

test.group('GET /health', (group) => {
  let cleanup: () => Promise<void>

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    ;({ cleanup } = await pointAppAtDevnet())
    return () => cleanup()
  })

  test('reports ok with the platform address, the network and the count of live feeds (16 built-in + 2)', async ({
    client,
    assert,
  }) => {
    const db = await app.container.make('lucid.db')
    await db.table('feeds').insert([
      {
        slug: 'extra-one',
        display_name: 'Whale alerts',
        price_microstx: 5000,
        source_type: 'builtin',
      },
      {
        slug: 'extra-two',
        display_name: 'Governance',
        price_microstx: 5000,
        source_type: 'builtin',
      },
      {
        slug: 'paused-one',
        display_name: 'Paused',
        price_microstx: 5000,
        source_type: 'builtin',
        status: 'paused',
      },
    ])
    const wallet = await app.container.make(PlatformWallet)

    const response = await client.get('/health')

    response.assertStatus(200)
    response.assertBody({
      status: 'ok',
      version: '2.0.0',
      provider: wallet.address,
      network: 'devnet',
      network_id: 'stacks:2147483648',
      feeds_available: 18,
      payment_protocol: 'x402',
      checks: { database: 'ok', chain_node: 'ok' },
    })
    assert.match(wallet.address, /^ST/)
  })

  test('stays 200 but reports degraded when the chain node does not answer', async ({ client }) => {
    await cleanup()
    cleanup = async () => {}

    const response = await client.get('/health')

    response.assertStatus(200)
    response.assertBodyContains({
      status: 'degraded',
      reason: 'Stacks node not answering',
      checks: { database: 'ok', chain_node: 'unreachable' },
    })
  })

  test('stays 200 but reports degraded when the database does not answer', async ({ client }) => {
    const deadDatabase = new Database(
      {
        connection: 'dead',
        connections: {
          dead: {
            client: 'pg',
            connection: { host: '127.0.0.1', port: 1, user: 'nobody', database: 'nothing' },
            pool: { min: 0, max: 1, acquireTimeoutMillis: 500 },
          },
        },
      },
      await app.container.make('logger'),
      await app.container.make('emitter')
    )
    app.container.swap(Database, () => deadDatabase)

    try {
      const response = await client.get('/health')

      response.assertStatus(200)
      response.assertBodyContains({
        status: 'degraded',
        reason: 'database not answering',
        feeds_available: 0,
        checks: { database: 'unreachable', chain_node: 'ok' },
      })
    } finally {
      app.container.restore(Database)
      await deadDatabase.manager.closeAll()
    }
  })
  test('a database that never answers is reported degraded once its time-out passes by the clock', async ({
    assert,
  }) => {
    const manual = await useManualClock()
    const chain = await app.container.make(ChainConfig)
    const hangs = {
      from: () => hangs,
      where: () => hangs,
      count: () => hangs,
      first: () => new Promise(() => {}),
    }
    const restoreTimeout = changeConfig(chain, { healthTimeoutMs: HOUR })
    app.container.swap(Database, () => hangs as unknown as Database)

    try {
      const report = await app.container.make(HealthReport)
      const building = report.build()
      manual.clock.advance(HOUR)

      const body = await building
      assert.equal(body.status, 'degraded')
      assert.include(body.reason, 'database not answering')
      assert.equal(body.checks.database, 'unreachable')
    } finally {
      manual.restore()
      restoreTimeout()
      app.container.restore(Database)
    }
  })
})
