import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { Database } from '@adonisjs/lucid/database'
import { ChainConfig } from '#chain/define_config'
import { ReadinessReport } from '#health/readiness_report'
import { pointAppAtDevnet } from '#tests/support/chain'
import { resolveClockHolders, useManualClock } from '#tests/support/clock'
import { changeConfig } from '#tests/support/config'
import { databaseBehindProxy } from '#tests/support/tcp_proxy'

/** Longer than any test waits: only the clock can bring a time-out this long. */
const HOUR = 3_600_000

/**
 * What a load balancer asks: GET /health/ready is 503 when PostgreSQL does
 * not answer (every request needs it) and 200 otherwise, the chain node only
 * reported; GET /health/live asks nothing of either. The app's pool reaches
 * PostgreSQL through a TCP proxy the tests cut.
 */
test.group('Readiness and liveness', (group) => {
  let stopChain: () => Promise<void>
  let proxied: Awaited<ReturnType<typeof databaseBehindProxy>>

  group.each.setup(async () => {
    ;({ cleanup: stopChain } = await pointAppAtDevnet())
    proxied = await databaseBehindProxy()
    // The singletons take the Database when first resolved: never the proxied one.
    await resolveClockHolders()
    app.container.swap(Database, () => proxied.db)
    return async () => {
      app.container.restore(Database)
      await proxied.close()
      await stopChain()
    }
  })

  test('is 200 while PostgreSQL answers, and 503 database_unavailable once it is cut off', async ({
    client,
  }) => {
    const ready = await client.get('/health/ready')
    ready.assertStatus(200)
    ready.assertBody({ status: 'ready', checks: { database: 'ok', chain_node: 'ok' } })

    proxied.proxy.cut()
    const cutOff = await client.get('/health/ready')

    cutOff.assertStatus(503)
    cutOff.assertBodyContains({
      error: {
        code: 'database_unavailable',
        message: 'PostgreSQL did not answer within 2000 ms: this instance cannot serve',
        chain_node: 'ok',
      },
    })
  })

  test('stays 200 with the chain node reported unreachable when only the node is down', async ({
    client,
  }) => {
    await stopChain()
    stopChain = async () => {}

    const response = await client.get('/health/ready')

    response.assertStatus(200)
    response.assertBody({ status: 'ready', checks: { database: 'ok', chain_node: 'unreachable' } })
  })

  test('a database that holds the connection but never answers is not ready once its time-out passes by the clock', async ({
    assert,
  }) => {
    const readiness = await app.container.make(ReadinessReport)
    await readiness.check()
    proxied.proxy.blackhole()
    const manual = await useManualClock()
    const restoreTimeout = changeConfig(await app.container.make(ChainConfig), {
      healthTimeoutMs: HOUR,
    })

    try {
      const onManualClock = await app.container.make(ReadinessReport)
      const checking = onManualClock.check()
      manual.clock.advance(HOUR)

      await assert.rejects(
        () => checking,
        `PostgreSQL did not answer within ${HOUR} ms: this instance cannot serve`
      )
    } finally {
      manual.restore()
      restoreTimeout()
    }
  })

  test('liveness is 200 with the database cut off and the chain node down', async ({ client }) => {
    proxied.proxy.cut()
    await stopChain()
    stopChain = async () => {}

    const response = await client.get('/health/live')

    response.assertStatus(200)
    response.assertBody({ status: 'live' })
  })
})
