import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import env from '#start/env'
import { runAce } from '#tests/support/ace'
import {
  pendingRevenueOf,
  providerWithRevenue,
  useWithdrawalStack,
} from '#tests/support/withdrawals'

const service = () => `http://${env.get('HOST')}:${env.get('PORT')}`

test.group('node ace provider:withdraw', (group) => {
  const stack = useWithdrawalStack(group, { blockTimeMs: null })

  test('withdraws to the linked wallet and prints the key and the explorer link; a retry with the key pays once', async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await providerWithRevenue(client, 5n * 1_000_000n)
    const key = randomUUID()
    const withdraw = () =>
      runAce(['provider:withdraw', providerId, '2000000', '--key', key, '--url', service()], {
        env: { TOLLBOOTH_TOKEN: owner.token },
      })

    const first = await withdraw()
    const retry = await withdraw()

    assert.equal(first.code, 0, first.output)
    assert.include(first.output, `idempotency key ${key}`)
    assert.match(first.output, /withdrawal [0-9a-f-]{36}: broadcast, 2 STX to ST/)
    assert.include(first.output, `${stack.devnet.url}/txid/0x`)
    assert.equal(retry.code, 0, retry.output)
    assert.equal(await pendingRevenueOf(providerId), 3_000_000n, 'paid once')
  })

  test('a refusal is one line and exit code 1', async ({ client, assert }) => {
    const { owner, providerId } = await providerWithRevenue(client, 5n * 1_000_000n)

    const tooMuch = await runAce(['provider:withdraw', providerId, '6000000', '--url', service()], {
      env: { TOLLBOOTH_TOKEN: owner.token },
    })
    const down = await runAce(
      ['provider:withdraw', providerId, '1000000', '--url', 'http://127.0.0.1:9'],
      {
        env: { TOLLBOOTH_TOKEN: owner.token },
      }
    )

    assert.equal(tooMuch.code, 1)
    assert.include(tooMuch.output, '409 insufficient_pending_revenue')
    assert.equal(down.code, 1)
    assert.include(down.output, 'could not reach Tollbooth at http://127.0.0.1:9')
    assert.notInclude(down.output, '    at ')
  })
})
